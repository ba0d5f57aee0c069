/*
 * listview.h - one scrolling list, pure state without curses: the ranked
 * plans, a selector's list and the details pane all scroll through it.
 *
 * A list with a cursor (plans, selectors) moves its selection and keeps it
 * on screen; a list without one (details) moves its first visible row.
 * Keys change sel/top freely; listview_fit() clamps both once the number
 * of items and of visible rows is known (the update step, never drawing).
 */
#ifndef SHARDSCOPE_LISTVIEW_H
#define SHARDSCOPE_LISTVIEW_H

typedef struct listview {
    int cursor; /* 1: sel is a selection kept on screen; 0: scroll only */
    int n;      /* items */
    int rows;   /* visible rows (the page of PgUp / PgDn when page is 0) */
    int page;   /* rows per page step; 0: rows */
    int sel;    /* selected item (cursor lists) */
    int top;    /* first visible item */
} listview;

/* Move by delta items (cursor: the selection, clamped to the list;
 * scroll-only: the first row, clamped at 0 above and by listview_fit
 * below). */
void listview_move(listview *l, int delta);
/* One page up (dir < 0) or down. */
void listview_page(listview *l, int dir);
/* First / last item. */
void listview_home(listview *l);
void listview_end(listview *l);
/* Set the item and row counts and clamp: sel inside 0..n-1, the
 * selection on screen, top inside 0..n-rows. */
void listview_fit(listview *l, int n, int rows);

#endif /* SHARDSCOPE_LISTVIEW_H */
