/*
 * table.c - text tables (see table.h).  Layout only: the cells come
 * formatted from the caller.
 */
#include "table.h"

#include <string.h>

int out_display_width(const char *s)
{
    int cols = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p & 0xC0) != 0x80)
            cols++;
    return cols;
}

void out_put_col(FILE *f, const char *s, int width)
{
    int cols = out_display_width(s);
    int w = width < 0 ? -width : width;
    int pad = w > cols ? w - cols : 0;
    if (width < 0)
        fprintf(f, "%*s%s", pad, "", s);
    else
        fprintf(f, "%s%*s", s, pad, "");
}

int out_width_max(int w, const char *s)
{
    int n = out_display_width(s);
    return n > w ? n : w;
}

static const char *cell_or_empty(out_table_cell_fn cell, const void *ctx, int r, int c,
                                 char *buf, size_t len)
{
    buf[0] = '\0';
    const char *s = cell(ctx, r, c, buf, len);
    return s ? s : "";
}

void out_table_print(FILE *f, int ncols, int nrows, const char *align, const char *sep,
                     out_table_cell_fn cell, const void *ctx)
{
    if (ncols < 1 || ncols > OUT_TABLE_MAX_COLS)
        return;
    int w[OUT_TABLE_MAX_COLS], left[OUT_TABLE_MAX_COLS];
    size_t na = align ? strlen(align) : 0;
    char buf[256];
    for (int c = 0; c < ncols; c++) {
        left[c] = (size_t)c < na ? align[c] == 'l' : c == 0;
        w[c] = 0;
        for (int r = -1; r < nrows; r++)
            w[c] = out_width_max(w[c], cell_or_empty(cell, ctx, r, c, buf, sizeof buf));
    }
    for (int r = -1; r < nrows; r++) {
        for (int c = 0; c < ncols; c++) {
            if (c)
                fputs(sep ? sep : " ", f);
            const char *s = cell_or_empty(cell, ctx, r, c, buf, sizeof buf);
            if (left[c] && c == ncols - 1)
                fputs(s, f); /* no trailing blanks */
            else
                out_put_col(f, s, left[c] ? w[c] : -w[c]);
        }
        fputc('\n', f);
    }
}
