/*
 * svg.c - the SVG writer behind `shardscope report --plots`: plain
 * fprintf of SVG 1.1 elements with escaped text.  It knows nothing about
 * charts; plots.c lays them out.
 */
#include "svg.h"

#include <math.h>

static void chk(svg *s, int rc)
{
    if (rc < 0)
        s->failed = 1;
}

void svg_escape(FILE *f, const char *text)
{
    for (const char *p = text; p && *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*p, f); break;
        }
    }
}

int svg_open(svg *s, const char *path, double width, double height, const char *title)
{
    s->f = fopen(path, "w");
    s->width = width;
    s->height = height;
    s->failed = 0;
    if (!s->f)
        return -1;
    chk(s, fprintf(s->f,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
                   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
                   "<title>",
                   width, height, width, height));
    svg_escape(s->f, title);
    chk(s, fprintf(s->f, "</title>\n"));
    svg_rect(s, 0, 0, width, height, "#ffffff", NULL);
    return 0;
}

int svg_close(svg *s)
{
    if (!s->f)
        return -1;
    chk(s, fprintf(s->f, "</svg>\n"));
    if (fclose(s->f) != 0)
        s->failed = 1;
    s->f = NULL;
    return s->failed ? -1 : 0;
}

void svg_group_begin(svg *s, const char *series)
{
    fputs("<g data-series=\"", s->f);
    svg_escape(s->f, series);
    chk(s, fprintf(s->f, "\">\n"));
}

void svg_group_end(svg *s)
{
    chk(s, fprintf(s->f, "</g>\n"));
}

void svg_line(svg *s, double x1, double y1, double x2, double y2, const char *stroke,
              double width, const char *dash)
{
    chk(s, fprintf(s->f,
                   "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                   "stroke-width=\"%.2f\"%s%s%s/>\n",
                   x1, y1, x2, y2, stroke, width, dash ? " stroke-dasharray=\"" : "",
                   dash ? dash : "", dash ? "\"" : ""));
}

void svg_polyline(svg *s, const double *x, const double *y, int n, const char *stroke,
                  double width, const char *dash)
{
    int open = 0;
    for (int i = 0; i <= n; i++) {
        int ok = i < n && isfinite(x[i]) && isfinite(y[i]);
        if (ok && !open) {
            chk(s, fprintf(s->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\"%s%s%s "
                                 "points=\"",
                           stroke, width, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
                           dash ? "\"" : ""));
            open = 1;
        }
        if (ok)
            chk(s, fprintf(s->f, "%.2f,%.2f ", x[i], y[i]));
        if (!ok && open) {
            chk(s, fprintf(s->f, "\"/>\n"));
            open = 0;
        }
    }
}

void svg_rect(svg *s, double x, double y, double w, double h, const char *fill,
              const char *stroke)
{
    chk(s, fprintf(s->f,
                   "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"%s%s%s/>\n",
                   x, y, w, h, fill, stroke ? " stroke=\"" : "", stroke ? stroke : "",
                   stroke ? "\"" : ""));
}

void svg_circle(svg *s, double cx, double cy, double r, const char *fill)
{
    chk(s, fprintf(s->f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\"/>\n", cx, cy, r,
                   fill));
}

void svg_text(svg *s, double x, double y, double size, const char *anchor, double rotate,
              const char *fill, const char *text)
{
    chk(s, fprintf(s->f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"",
                   x, y, size, anchor, fill));
    if (rotate != 0)
        chk(s, fprintf(s->f, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate, x, y));
    fputc('>', s->f);
    svg_escape(s->f, text);
    chk(s, fprintf(s->f, "</text>\n"));
}
