/*
 * table.h - text tables shared by the command line and the explorer:
 * terminal columns of a UTF-8 string, padded columns, and a whole table
 * whose column widths follow its widest cell.
 */
#ifndef SHARDSCOPE_OUT_TABLE_H
#define SHARDSCOPE_OUT_TABLE_H

#include <stddef.h>
#include <stdio.h>

/* Terminal columns of a UTF-8 string: one per code point (continuation
 * bytes count zero).  s must not be NULL. */
int out_display_width(const char *s);

/* Print s on f left-aligned (right-aligned when width < 0) in |width|
 * terminal columns, counting UTF-8 characters rather than bytes; a longer
 * s is printed whole. */
void out_put_col(FILE *f, const char *s, int width);

/* The wider of w and the display width of s: fold over a column's cells
 * to get its width. */
int out_width_max(int w, const char *s);

/* The most columns out_table_print lays out. */
#define OUT_TABLE_MAX_COLS 32

/* Gives the text of cell (r, c) of ctx's table, r == -1 being the header
 * row: returns a string valid until the next call (buf, of len bytes, may
 * be used to build it); NULL prints as "". */
typedef const char *(*out_table_cell_fn)(const void *ctx, int r, int c, char *buf, size_t len);

/* Print a header line and nrows rows of ncols columns (1..OUT_TABLE_MAX_COLS;
 * others print nothing) on f.  Each column is as wide as its widest cell in
 * display columns (header included); columns are separated by sep; align
 * gives 'l' or 'r' per column (NULL or a short string: the first column
 * left, the others right); a left-aligned last column is not padded.
 * Cells are asked for twice (width, then print); 255 bytes at most each. */
void out_table_print(FILE *f, int ncols, int nrows, const char *align, const char *sep,
                     out_table_cell_fn cell, const void *ctx);

#endif /* SHARDSCOPE_OUT_TABLE_H */
