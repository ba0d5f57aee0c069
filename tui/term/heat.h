/*
 * heat.h - the mapping of the regime heatmap: a compute/communication
 * ratio (from engine_result.compute_comm_ratio) to one of n colour buckets
 * on a diverging, logarithmic scale centred on 1.  Buckets below n/2 are
 * communication-bound (ratio < 1, red side), buckets from n/2 up are
 * compute-bound (ratio >= 1, green side).  Pure; no curses.
 */
#ifndef SHARDSCOPE_HEAT_H
#define SHARDSCOPE_HEAT_H

/* The scale spans 2^-HEAT_RANGE_LOG2 .. 2^HEAT_RANGE_LOG2 (1/16 .. 16);
 * ratios beyond it land in the end buckets. */
#define HEAT_RANGE_LOG2 4

/* Bucket of a ratio for n buckets (n even, >= 2): 0..n-1, or -1 when the
 * ratio carries no regime (not finite, or <= 0: no communication). */
int heat_bucket(double ratio, int n);

/* The lowest ratio that lands in bucket b of n (b = 0 gives 0). */
double heat_bucket_floor(int b, int n);

/* Format a ratio into at most `width` columns: "12.3", "0.44", "150", ">1k"
 * ("" when nothing fits).  Returns buf. */
char *heat_format(double ratio, int width, char *buf, int len);

#endif /* SHARDSCOPE_HEAT_H */
