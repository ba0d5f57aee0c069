/*
 * recommend_fleet.h - `shardscope recommend --rate R --ttft-ms X --itl-ms Y`:
 * fleet sizing (engine/fleet.h) as text or JSON.
 */
#ifndef SHARDSCOPE_CLI_RECOMMEND_FLEET_H
#define SHARDSCOPE_CLI_RECOMMEND_FLEET_H

#include "cli.h"
#include "scenario.h"

/* 1 when o asks for fleet sizing (--rate given). */
int cli_recommend_is_fleet(const cli_opts *o);

/* 0 when the fleet-only flags (--slo-percentile, --disagg, --requests) are
 * used with --rate or not at all; else a one-line error and CLI_USAGE. */
int cli_recommend_fleet_flags(const cli_opts *o);

/* Run the fleet search for the loaded scenario (cs, which it borrows) and
 * print the answer; allow_quant and allow_spec (--allow-spec) as recommend
 * parsed them.  Returns CLI_OK, CLI_USAGE (a bad flag, one line on stderr)
 * or CLI_FAIL. */
int cli_recommend_fleet(const cli_opts *o, const cli_scenario *cs, unsigned allow_quant,
                        unsigned allow_spec);

#endif
