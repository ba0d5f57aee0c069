/*
 * term.h - the terminal: the one module that opens and closes curses
 * screens and installs signal handlers.
 *
 * Signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP (a dropped SSH session) only
 * set a flag; the frame loop sees term_quit_requested(), leaves and calls
 * term_close(), which restores the terminal (endwin).  SIGWINCH stays with
 * ncurses, which turns it into KEY_RESIZE.
 */
#ifndef SHARDSCOPE_TERM_H
#define SHARDSCOPE_TERM_H

#include <stdio.h>

#include "theme.h"

typedef struct term_opts {
    FILE *in, *out;      /* the terminal; NULL: stdin / stdout */
    const char *term;    /* TERM name; NULL: getenv("TERM") */
    int utf8;            /* -1: from the locale (nl_langinfo), 0/1 forced */
    int mono;            /* 1: no colours whatever the terminal offers */
    int mouse;           /* 1: enable the mouse where the terminal has it */
    int rows, cols;      /* > 0: resizeterm to this size (tests, bench) */
} term_opts;

typedef struct term_caps {
    int utf8;
    theme_mode mode;
    int mouse;           /* 1: mouse events enabled */
    int colors;
} term_caps;

void term_opts_defaults(term_opts *o);

/* 1 when the current locale's codeset is UTF-8 (call after setlocale). */
int term_locale_utf8(void);

/* Open a curses screen on the given streams (newterm), set the modes
 * (cbreak, noecho, keypad, no cursor), pick the theme (NO_COLOR honoured)
 * and the glyph set.  0 ok, -1 when the terminal cannot be opened (msg
 * filled, nothing to close).  msg stays a plain buffer, not the engine_error
 * the explorer and cli APIs take: tui/term never includes engine headers
 * (the layering, make check-layers); callers pass err.msg, sizeof err.msg. */
int term_open(const term_opts *o, term_caps *caps, char *msg, size_t len);
/* Restore the terminal and free the screen.  Safe when not open. */
void term_close(void);

/* Signal handling. */
void term_install_signals(void);
void term_restore_signals(void);
int term_quit_requested(void);
void term_request_quit(void);   /* for tests: as if a signal came */
void term_clear_quit(void);

#endif /* SHARDSCOPE_TERM_H */
