/*
 * table.c - text-table helpers (see table.h).
 */
#include "table.h"

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
