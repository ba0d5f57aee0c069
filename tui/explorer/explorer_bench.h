/*
 * explorer_bench.h - the scripted explorer run behind `make bench`
 * (`shardscope tui --bench`): the explorer in-process on an
 * xterm-256color screen whose output goes to a temporary file, a fixed
 * sequence of keys (mostly slider steps), and per key the time from
 * dispatch to the end of doupdate() and the bytes written to the terminal.
 * Prints figures; asserts nothing.
 */
#ifndef SHARDSCOPE_EXPLORER_BENCH_H
#define SHARDSCOPE_EXPLORER_BENCH_H

#include <stdio.h>

#include "preset.h"

/* Run the script at rows x cols with TERM `term` (NULL: xterm-256color),
 * print the figures on `report`.  0 ok, 1 when the screen or explorer
 * could not be set up. */
int explorer_bench(const preset_db *db, int rows, int cols, const char *term, FILE *report);

#endif /* SHARDSCOPE_EXPLORER_BENCH_H */
