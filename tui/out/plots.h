/*
 * plots.h - the report's SVG figures: a line chart and a heatmap drawn with
 * svg.h, and plots_write_report(), which writes the seven figures of the
 * scaling study from a computed report_tables (it computes nothing: every
 * value is an engine result).  Each figure has a title, axes with units and
 * a legend naming its series.
 */
#ifndef SHARDSCOPE_PLOTS_H
#define SHARDSCOPE_PLOTS_H

#include <stddef.h>

#include "report.h"

#define PLOT_MAX_SERIES 16
#define PLOT_MAX_HLINES 6
#define PLOT_MAX_ROWS 16
#define PLOT_MAX_COLS 8

typedef struct plot_series {
    char name[64];
    int n;
    double x[32], y[32]; /* non-finite y: no point (the line breaks) */
} plot_series;

typedef struct plot_hline {
    char name[48];
    double y;
} plot_hline;

typedef struct plot_chart {
    char title[256], xlabel[64], ylabel[64];
    int xlog, ylog; /* 0 linear, 2 log2 (GPU counts, micro-batches), 10 log10 */
    int n_series;
    plot_series series[PLOT_MAX_SERIES];
    int n_hlines;
    plot_hline hlines[PLOT_MAX_HLINES];
} plot_chart;

typedef struct plot_heatmap {
    char title[256], xlabel[64], ylabel[64], legend[2][96];
    int rows, cols;
    char row_names[PLOT_MAX_ROWS][64];
    char col_names[PLOT_MAX_COLS][64];
    double value[PLOT_MAX_ROWS][PLOT_MAX_COLS]; /* ratio; non-finite: no data */
    char label[PLOT_MAX_ROWS][PLOT_MAX_COLS][24];
} plot_heatmap;

/* The heatmap colour of a compute/communication ratio as 0xRRGGBB: white
 * at 1, orange below (communication-bound), blue above, saturating at two
 * decades; 0xeeeeee without a ratio.  One colour-blind safe palette with
 * the explorer's heat ramp (same ends). */
unsigned plot_heat_rgb(double ratio);

/* Write one figure; 0 ok, -1 (errno) when the file cannot be written. */
int plot_chart_write(const char *path, const plot_chart *c);
int plot_heatmap_write(const char *path, const plot_heatmap *h);

/* The seven figures into dir (which must exist): tp_scaling_efficiency.svg,
 * regime_heatmap.svg, tp_vs_pp.svg, pipeline_bubble.svg,
 * cost_efficiency.svg, vram_frontier.svg, pareto_frontier.svg.  0 ok; -1
 * with the failing path in failed (len bytes). */
int plots_write_report(const char *dir, const report_inputs *in, const report_tables *t,
                       char *failed, size_t len);

#endif /* SHARDSCOPE_PLOTS_H */
