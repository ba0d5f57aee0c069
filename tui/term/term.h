/*
 * term.h - the terminal: the one module that opens and closes curses
 * screens and installs signal handlers.
 *
 * Signals: SIGINT (Ctrl-C), SIGTERM, SIGHUP (a dropped SSH session) and
 * SIGQUIT (Ctrl-\) only set a flag holding the signal's number; the frame
 * loop sees term_signal(), leaves and calls term_close(), which restores
 * the terminal (endwin); then the command ends the process as the signal
 * would (term_exit_signalled), so the shell sees 128 + the number.
 * SIGWINCH stays with ncurses, which turns it into KEY_RESIZE.
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

/* --- the clipboard (OSC 52) ------------------------------------------- */

/* Standard base64 (RFC 4648, with '=' padding) of n bytes into out, NUL
 * terminated.  Returns the length written, or -1 (out left empty) when cap
 * cannot hold 4 * ceil(n / 3) + 1 bytes. */
int term_base64(const unsigned char *in, size_t n, char *out, size_t cap);
/* The OSC 52 sequence that puts text on the clipboard: ESC ] 52 ; c ;
 * base64(text) BEL.  Returns its length, or -1 when cap is too small. */
int term_osc52(const char *text, char *out, size_t cap);
/* Whether to send OSC 52 to a terminal of type `term`: env (the value of
 * SHARDSCOPE_OSC52, may be NULL) "0" never, "1" always; otherwise yes
 * unless term is unset or empty, "dumb", the Linux or BSD console
 * ("linux*", "cons*") or a real VT ("vt*"), which do not take it. */
int term_osc52_allowed(const char *term, const char *env);
/* Send text to the open terminal's clipboard with OSC 52 when
 * term_osc52_allowed(TERM of the screen, getenv("SHARDSCOPE_OSC52")).
 * Returns 1 sent, 0 not allowed or not open, -1 too long (limit 64 kB). */
int term_clipboard(const char *text);

/* Signal handling: install the handlers for SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT (the old dispositions are kept), and put those back. */
void term_install_signals(void);
void term_restore_signals(void);
int term_quit_requested(void);  /* 1 once one of those signals came */
int term_signal(void);          /* its number (the latest); 0: none */
void term_request_quit(void);   /* for tests: as if SIGTERM came */
void term_clear_quit(void);     /* forget it (Ctrl-C that cancelled a job) */
/* The exit status a shell reports for sig: 128 + sig. */
int term_signal_status(int sig);
/* After the terminal is restored (term_close, term_restore_signals): end
 * the process as sig would, re-raised with its default action (status
 * 128 + sig to the shell); SIGQUIT exits 128 + SIGQUIT instead of dumping
 * core.  Never returns. */
void term_exit_signalled(int sig) __attribute__((noreturn));

#endif /* SHARDSCOPE_TERM_H */
