/*
 * table.h - text-table helpers shared by the command line and the
 * explorer: terminal columns of a UTF-8 string, and padded columns.
 */
#ifndef SHARDSCOPE_OUT_TABLE_H
#define SHARDSCOPE_OUT_TABLE_H

#include <stdio.h>

/* Terminal columns of a UTF-8 string: one per code point (continuation
 * bytes count zero).  s must not be NULL. */
int out_display_width(const char *s);

/* Print s on f left-aligned (right-aligned when width < 0) in |width|
 * terminal columns, counting UTF-8 characters rather than bytes; a longer
 * s is printed whole. */
void out_put_col(FILE *f, const char *s, int width);

#endif /* SHARDSCOPE_OUT_TABLE_H */
