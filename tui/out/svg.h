/*
 * svg.h - a small SVG 1.1 writer (no dependency): a document with a title,
 * and the shapes the report's figures need (lines, polylines, rectangles,
 * circles, text).  Text is XML-escaped; numbers are written with a fixed
 * precision so files are reproducible.  Coordinates are SVG user units
 * (pixels), y down.
 */
#ifndef SHARDSCOPE_SVG_H
#define SHARDSCOPE_SVG_H

#include <stdio.h>

typedef struct svg {
    FILE *f;
    double width, height;
    int failed; /* a write failed */
} svg;

/* Create path and write the header, a <title> and a white background.
 * 0 ok, -1 (errno set) when the file cannot be created. */
int svg_open(svg *s, const char *path, double width, double height, const char *title);
/* Write the footer and close; 0 ok, -1 when any write failed. */
int svg_close(svg *s);

/* Group with an id-like label (data-series="name"), for legends/series. */
void svg_group_begin(svg *s, const char *series);
void svg_group_end(svg *s);

void svg_line(svg *s, double x1, double y1, double x2, double y2, const char *stroke,
              double width, const char *dash);
/* Polyline through n points; points with a non-finite coordinate break it. */
void svg_polyline(svg *s, const double *x, const double *y, int n, const char *stroke,
                  double width, const char *dash);
void svg_rect(svg *s, double x, double y, double w, double h, const char *fill,
              const char *stroke);
void svg_circle(svg *s, double cx, double cy, double r, const char *fill);
/* anchor: "start", "middle" or "end"; rotate: degrees about (x, y). */
void svg_text(svg *s, double x, double y, double size, const char *anchor, double rotate,
              const char *fill, const char *text);

/* Write text with &, <, >, " and ' escaped. */
void svg_escape(FILE *f, const char *text);

#endif /* SHARDSCOPE_SVG_H */
