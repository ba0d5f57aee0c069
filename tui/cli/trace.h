/*
 * trace.h - the request trace of `shardscope load --trace FILE`: a CSV of
 * arrival_s,prompt_tokens,output_tokens, one request a line, with an
 * optional header line of exactly those names; blank lines and lines
 * starting with '#' are skipped; arrivals are seconds, finite, >= 0 and
 * non-decreasing; the lengths integers 1..ENGINE_MAX_TOKENS.
 */
#ifndef SHARDSCOPE_CLI_TRACE_H
#define SHARDSCOPE_CLI_TRACE_H

#include <stddef.h>

#include "engine.h"
#include "sim.h"

#define CLI_TRACE_MAX ENGINE_MAX_SAMPLES

/* Parse text (len bytes, need not end in NUL) named `file` into rows (cap
 * of them).  Returns the number of requests (>= 1), or -1 with err as one
 * line "FILE:LINE: FIELD: why" (or "FILE: no requests", "FILE:LINE: more
 * than CAP requests").  Pure: no I/O, no allocation. */
int cli_trace_parse(const char *text, size_t len, const char *file, engine_sim_request *rows,
                    int cap, engine_error *err);

/* Lines in text: an upper bound on the requests it holds. */
int cli_trace_lines(const char *text, size_t len);

#endif /* SHARDSCOPE_CLI_TRACE_H */
