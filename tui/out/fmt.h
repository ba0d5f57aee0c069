/*
 * fmt.h - the unit formatters of every front end: the explorer and the
 * command line print a number the same way ("$0.42", "12.3 ms",
 * "80.0 GB", "1.50 GiB", "1234.5 tok/s").
 *
 * Rules, one for all:
 *   - three significant digits ("12.3 ms", "123 ms", "1.23 s"); the unit
 *     is chosen after rounding, so 0.99996 s reads "1.00 s", never
 *     "1000 ms";
 *   - GB, MB, kB are powers of 1000; GiB, MiB, KiB powers of 1024, and only
 *     fmt_bytes_iec writes them: the two are never mixed in one number;
 *   - a value that is not finite (NaN, infinity), or that does not apply
 *     (a negative time, a zero or negative price), is written "-".
 *
 * Every function writes a NUL-terminated string into buf (truncated to
 * len, as snprintf) and returns buf; none allocates or fails.
 */
#ifndef SHARDSCOPE_OUT_FMT_H
#define SHARDSCOPE_OUT_FMT_H

#include <stddef.h>

#include "engine.h"

/* Seconds in s / ms / µs / ns: "1.25 s", "12.3 ms", "48.9 µs", "120 ns",
 * "1234 s"; "0 s" for zero; "-" when negative or not finite.  micro is the
 * micro sign to use ("u" on ASCII terminals); NULL means UTF-8 "µ". */
char *fmt_seconds(double s, const char *micro, char *buf, size_t len);

/* A time with its validation band, "12.3 ms (11.9 ms<dash>13.2 ms)": s as
 * fmt_seconds (micro likewise), then b->lo and b->hi joined by dash in
 * parentheses when b->n > 0 (b must not be NULL); s alone otherwise. */
char *fmt_seconds_band(double s, const engine_band *b, const char *micro, const char *dash,
                       char *buf, size_t len);

/* SI bytes: "512 B", "4.10 kB", "16.1 GB", "1.23 TB"; the sign is kept
 * ("-1.50 GB" of headroom). */
char *fmt_bytes(double bytes, char *buf, size_t len);
/* IEC bytes, labelled: "512 B", "16.0 MiB", "1.50 GiB". */
char *fmt_bytes_iec(double bytes, char *buf, size_t len);
/* Bytes in GB whatever the size, for columns that compare terms:
 * "80.0 GB", "141 GB", "0.05 GB". */
char *fmt_gb(double bytes, char *buf, size_t len);

/* A rate with an SI prefix before unit: (4.5e11, "B/s") -> "450 GB/s",
 * (9.89e14, "FLOP/s") -> "989 TFLOP/s", (12, "tok/s") -> "12 tok/s".
 * unit "" gives a bare prefixed number ("1.23 k"). */
char *fmt_rate(double v, const char *unit, char *buf, size_t len);
/* A count with a short-scale letter: 8.03e9 -> "8.03 B" (billions),
 * 124e6 -> "124 M", 4096 -> "4.10 k"; below 1000 as is ("999"). */
char *fmt_count(double v, char *buf, size_t len);
/* Tokens per second with one decimal, no prefix: "1234.5 tok/s". */
char *fmt_tokens_per_s(double v, char *buf, size_t len);

/* A fraction as percent: 0.636 -> "63.6%", 1.0 -> "100%" (no decimal from
 * 99.95% up). */
char *fmt_percent(double f, char *buf, size_t len);
/* A memory fraction as a factor: "0.90" with two places, "0.835" where
 * the framework's rule gives a third (SGLang's). */
char *fmt_fraction(double f, char *buf, size_t len);
/* US dollars: "$0.0042" below one cent, "$0.42", "$12.30", "$121" from
 * $100 up; "-" when v <= 0 (no price) or not finite. */
char *fmt_usd(double v, char *buf, size_t len);

/* A plan: "TP8xPP2xDP1", with "xEP8" when ep > 1.  times is the
 * separator ("×" on UTF-8 terminals); NULL means "x". */
char *fmt_plan(engine_plan p, const char *times, char *buf, size_t len);

/* "datasheet defaults" or "measured on DEVICE DATE" ("unknown device",
 * "(undated)" for missing parts).  c may be NULL. */
char *out_calibration_label(const engine_calib *c, char *buf, size_t len);

/* The name a model or GPU is shown by: its display name, or its preset
 * name when it has none.  Points into *m / *g. */
const char *fmt_model_name(const engine_model *m);
const char *fmt_gpu_name(const engine_gpu *g);

#endif /* SHARDSCOPE_OUT_FMT_H */
