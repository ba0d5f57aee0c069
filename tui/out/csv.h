/*
 * csv.h - CSV (RFC 4180) for every writer: one escaping rule, and the
 * evaluated-plan row that `eval --csv` and the explorer's export share.
 *
 * Quoting is minimal: a field is written as is unless it holds a comma, a
 * double quote, CR or LF; then it is quoted and its quotes doubled.  A
 * number that is not finite or does not apply is an empty field (JSON
 * writes null there).  Nothing here allocates; write errors are left in
 * ferror(f) for the caller.
 */
#ifndef SHARDSCOPE_OUT_CSV_H
#define SHARDSCOPE_OUT_CSV_H

#include <stdio.h>

#include "engine.h"

/* Write s as one field (no separator); NULL is an empty field. */
void out_csv_field(FILE *f, const char *s);
/* Write v as one field, "%.17g" (exact round trip), or an empty field
 * when !ok or v is not finite. */
void out_csv_number(FILE *f, double v, int ok);

/* The evaluated-plan columns: the fields of cli_result_json() flattened,
 * SI units (tp,pp,dp,ep,valid,fits,reason,weights_bytes,...,p99_s).
 * out_csv_result_header writes the names, out_csv_result_row the values of
 * r, each as the rest of a line (newline included), so that a caller may
 * write leading columns first; with_tails 0 leaves p50_s/p99_s empty.
 * Memory is empty for an invalid plan; performance numbers are empty
 * unless the plan is valid and fits, as in JSON. */
void out_csv_result_header(FILE *f);
void out_csv_result_row(FILE *f, const engine_result *r, int with_tails);

#endif /* SHARDSCOPE_OUT_CSV_H */
