/*
 * chart.c - stacked-bar rasteriser for the VRAM frontier.
 */
#include "chart.h"

#include <math.h>
#include <string.h>

static double clean(double v)
{
    return isfinite(v) && v > 0 ? v : 0.0;
}

int chart_bars_fit(int w, int bar_w, int gap)
{
    if (w <= 0 || bar_w <= 0 || gap < 0)
        return 0;
    return (w + gap) / (bar_w + gap);
}

int chart_cap_row(double cap, double ymax, int h)
{
    if (!(cap > 0) || !(ymax > 0) || h <= 0 || !isfinite(cap))
        return -1;
    long r = (long)floor(cap / ymax * h);
    if (r >= h)
        r = h - 1;
    return (int)(h - 1 - r);
}

double chart_raster(const chart_spec *c, chart_cell *grid, int w, int h)
{
    if (w <= 0 || h <= 0)
        return 0.0;
    memset(grid, 0, sizeof *grid * (size_t)w * (size_t)h);
    if (!c || c->nbars <= 0 || c->nseries <= 0 || c->nseries > CHART_MAX_SERIES ||
        !c->values)
        return 0.0;
    double ymax = clean(c->ymax);
    if (ymax <= 0) {
        ymax = clean(c->cap);
        for (int b = 0; b < c->nbars; b++) {
            double t = 0;
            for (int s = 0; s < c->nseries; s++)
                t += clean(c->values[b * c->nseries + s]);
            if (t > ymax)
                ymax = t;
        }
    }
    if (ymax <= 0)
        return 0.0;
    int nb = chart_bars_fit(w, c->bar_w, c->gap);
    if (nb > c->nbars)
        nb = c->nbars;
    long full = (long)h * 8;
    for (int b = 0; b < nb; b++) {
        long top[CHART_MAX_SERIES];
        double acc = 0;
        for (int s = 0; s < c->nseries; s++) {
            acc += clean(c->values[b * c->nseries + s]);
            double e = floor(acc / ymax * (double)full + 0.5);
            top[s] = e > full ? full : (long)e;
        }
        for (int r = 0; r < h; r++) { /* r counts up from the bottom */
            long lo = (long)r * 8;
            long total = top[c->nseries - 1];
            if (total <= lo)
                break;
            long filled = total - lo > 8 ? 8 : total - lo;
            long mid2 = lo * 2 + filled; /* twice the midpoint, in eighths */
            int series = c->nseries;
            for (int s = 0; s < c->nseries; s++)
                if (top[s] * 2 > mid2) {
                    series = s + 1;
                    break;
                }
            int x0 = b * (c->bar_w + c->gap);
            for (int x = x0; x < x0 + c->bar_w && x < w; x++) {
                chart_cell *cell = &grid[(h - 1 - r) * w + x];
                cell->series = (unsigned char)series;
                cell->eighths = (unsigned char)filled;
            }
        }
    }
    int cr = chart_cap_row(c->cap, ymax, h);
    if (cr >= 0)
        for (int x = 0; x < w; x++)
            grid[cr * w + x].cap = 1;
    return ymax;
}
