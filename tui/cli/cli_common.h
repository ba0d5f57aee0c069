/*
 * cli_common.h - what every command file includes: the option parser
 * (opts.h), the scenario flags and their load step (scenario.h), the
 * preset lookups (lookup.h), and tui/out's unit formatters (fmt.h:
 * fmt_seconds, fmt_bytes, fmt_usd, ...), columns (table.h) and CSV (csv.h).
 *
 * Units: GB = 1e9 bytes everywhere in output; GiB (2^30) appears only with
 * its own label.  Times are seconds inside, formatted as s / ms / µs.
 */
#ifndef SHARDSCOPE_CLI_COMMON_H
#define SHARDSCOPE_CLI_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "engine.h"
#include "fmt.h"
#include "lookup.h"
#include "opts.h"
#include "preset.h"
#include "scenario.h"
#include "table.h"

/* `eval --pareto` (eval_pareto.c): the Pareto frontier of every plan and
 * batch of cs's scenario, as text or (--json) JSON on stdout.  Returns the
 * exit status. */
int cli_eval_pareto(const cli_scenario *cs, const cli_opts *o);
/* eval --disagg: aggregated plans and xPyD splits in one ranking (eval_disagg.c). */
int cli_eval_disagg(const cli_scenario *cs, const cli_opts *o);

/* calibrate --plan (calibrate_plan.c): the plan of the calibration o
 * describes, on --gpu or the device it would run on, as text or JSON.
 * Returns the exit status. */
struct calib_opts;
int cli_calibrate_plan(const cli_opts *opts, const preset_db *db, const struct calib_opts *o);

#endif /* SHARDSCOPE_CLI_COMMON_H */
