/*
 * chart.h - rasterising the VRAM frontier: stacked vertical bars (one per
 * GPU count, one segment per memory term) with a horizontal capacity line,
 * into a caller-owned grid of cells.  Pure; the frontier pane blits the grid.
 *
 * Heights are quantised to eighths of a cell so a UTF-8 terminal can draw
 * the top of a bar with the lower-block glyphs.
 */
#ifndef SHARDSCOPE_CHART_H
#define SHARDSCOPE_CHART_H

#define CHART_MAX_SERIES 4

typedef struct chart_cell {
    unsigned char series;  /* 0 empty, else 1..nseries */
    unsigned char eighths; /* filled part of the cell, 1..8 (0 when empty) */
    unsigned char cap;     /* 1: the capacity line crosses this cell */
} chart_cell;

typedef struct chart_spec {
    int nbars, nseries;
    const double *values; /* nbars * nseries, values[bar * nseries + s] >= 0 */
    double ymax;          /* top of the plot; <= 0: max of totals and cap */
    double cap;           /* capacity line; <= 0: none */
    int bar_w, gap;       /* cells per bar and between bars */
} chart_spec;

/* Fill grid (w x h cells, row-major, row 0 at the top) and return the ymax
 * used (0 when nothing to draw).  Bars that do not fit in w are dropped;
 * negative, NaN or infinite values count as 0. */
double chart_raster(const chart_spec *c, chart_cell *grid, int w, int h);

/* Row (0 = top) of the capacity line for cap on a plot of height h and
 * scale ymax, or -1 when there is none. */
int chart_cap_row(double cap, double ymax, int h);

/* How many bars fit across w cells. */
int chart_bars_fit(int w, int bar_w, int gap);

#endif /* SHARDSCOPE_CHART_H */
