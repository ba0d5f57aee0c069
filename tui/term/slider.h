/*
 * slider.h - the state of one explorer control as plain data: an integer
 * value in [min, max] with a fine step and a big step.  Pure (no curses);
 * rendering lives in the explorer's controls pane.
 *
 * Kinds:
 *   SLIDER_LINEAR  fine +-step, big +-big
 *   SLIDER_POW2    fine +-step, big = the next / previous power of two
 *                  (GPU count: 1..1024 by powers of two and by ones)
 *   SLIDER_GEOM    fine +-step, big = x2 / /2
 *   SLIDER_LIST    an index into a list (selectors); fine +-1, big +-big;
 *                  clamps at both ends (no wrap-around)
 */
#ifndef SHARDSCOPE_SLIDER_H
#define SHARDSCOPE_SLIDER_H

typedef enum slider_kind {
    SLIDER_LINEAR = 0,
    SLIDER_POW2,
    SLIDER_GEOM,
    SLIDER_LIST
} slider_kind;

typedef struct slider {
    const char *label;  /* "GPU count" (borrowed, static) */
    const char *unit;   /* "GPUs", "GB", "tok", "" */
    slider_kind kind;
    int value, min, max;
    int step, big;
    int log_bar;        /* 1: the bar is logarithmic (min >= 1) */
} slider;

/* A slider with value clamped into [min, max] (min > max is swapped). */
slider slider_make(const char *label, const char *unit, slider_kind kind,
                   int value, int min, int max, int step, int big);

/* Set the value, clamped.  Returns the new value. */
int slider_set(slider *s, int v);
/* Change the range and re-clamp the value. */
void slider_set_range(slider *s, int min, int max);
/* One step: dir > 0 up, dir < 0 down; big != 0 for a big step.  Returns 1
 * when the value changed. */
int slider_step(slider *s, int dir, int big);
/* Position of the value along the bar, in [0, 1]. */
double slider_fraction(const slider *s);
/* Number of filled cells of a bar `width` cells wide (0..width). */
int slider_fill(const slider *s, int width);

/* Power-of-two helpers: the smallest power of two > v and the largest < v
 * (1 when there is none). */
int slider_next_pow2(int v);
int slider_prev_pow2(int v);

#endif /* SHARDSCOPE_SLIDER_H */
