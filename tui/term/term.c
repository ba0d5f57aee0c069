/*
 * term.c - newterm/endwin, terminal modes, colour detection and the signal
 * flag.  Global state here is limited to the terminal (the SCREEN and the
 * streams it uses) and the sig_atomic_t flag set by the handlers (the
 * number of the signal that came).
 */
#include "term.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t g_quit = 0; /* the signal that came, 0 none */
static SCREEN *g_screen = NULL;
static FILE *g_out = NULL;            /* the open screen's output stream */
static char g_type[64];               /* and its terminal type */
#define N_SIGNALS 4
static struct sigaction g_old[N_SIGNALS];
static int g_signals_installed = 0;
static const int SIGNALS[N_SIGNALS] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void on_signal(int sig)
{
    g_quit = sig;
}

void term_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a blocking read returns so the loop sees the flag. */
    sa.sa_flags = 0;
    for (int i = 0; i < N_SIGNALS; i++)
        sigaction(SIGNALS[i], &sa, &g_old[i]);
    g_signals_installed = 1;
}

void term_restore_signals(void)
{
    if (!g_signals_installed)
        return;
    for (int i = 0; i < N_SIGNALS; i++)
        sigaction(SIGNALS[i], &g_old[i], NULL);
    g_signals_installed = 0;
}

int term_quit_requested(void)
{
    return g_quit != 0;
}

int term_signal(void)
{
    return (int)g_quit;
}

void term_request_quit(void)
{
    g_quit = SIGTERM;
}

void term_clear_quit(void)
{
    g_quit = 0;
}

int term_signal_status(int sig)
{
    return 128 + sig;
}

void term_exit_signalled(int sig)
{
    fflush(NULL);
    if (sig != SIGQUIT) {
        /* Die of it, so a shell sees the interruption (and a script
         * running us in a loop stops on Ctrl-C). */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, NULL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
    }
    /* SIGQUIT would dump core: exit with its status instead. */
    _exit(term_signal_status(sig));
}

void term_opts_defaults(term_opts *o)
{
    memset(o, 0, sizeof *o);
    o->utf8 = -1;
    o->mouse = 1;
}

int term_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8") || !strcmp(cs, "utf-8"));
}

int term_open(const term_opts *o, term_caps *caps, char *msg, size_t len)
{
    FILE *in = o->in ? o->in : stdin;
    FILE *out = o->out ? o->out : stdout;
    const char *type = o->term ? o->term : getenv("TERM");
    if (!type || !*type)
        type = "vt100";
    memset(caps, 0, sizeof *caps);
    if (g_screen)
        term_close();
    g_screen = newterm(type, out, in);
    g_out = out;
    snprintf(g_type, sizeof g_type, "%s", type);
    if (!g_screen) {
        snprintf(msg, len, "cannot open terminal '%s' (no terminfo entry?)", type);
        return -1;
    }
    set_term(g_screen);
    /* A terminal that cannot position the cursor (dumb) would only show
     * garbage. */
    char cup[] = "cup";
    const char *c = tigetstr(cup);
    if (!c || c == (char *)-1) {
        snprintf(msg, len, "terminal '%s' cannot position the cursor (try TERM=vt100)", type);
        term_close();
        return -1;
    }
    if (o->rows > 0 && o->cols > 0)
        resizeterm(o->rows, o->cols);
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    leaveok(stdscr, TRUE);

    const char *nc = getenv("NO_COLOR");
    int no_color = o->mono || (nc && *nc);
    int colors = 0, dflt = 0;
    if (!no_color && has_colors()) {
        start_color();
        dflt = use_default_colors() == OK;
        colors = COLORS;
    }
    caps->colors = colors;
    caps->mode = theme_pick(has_colors(), colors, no_color);
    theme_init(caps->mode, dflt);
    caps->utf8 = o->utf8 >= 0 ? o->utf8 : term_locale_utf8();
    if (o->mouse) {
        mmask_t got = mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED |
                                    BUTTON5_PRESSED,
                                NULL);
        caps->mouse = got != 0;
        mouseinterval(0);
    }
    return 0;
}

void term_close(void)
{
    if (!g_screen)
        return;
    if (!isendwin())
        endwin();
    delscreen(g_screen);
    g_screen = NULL;
    g_out = NULL;
}

/* --- the clipboard (OSC 52) ----------------------------------------------- */

int term_base64(const unsigned char *in, size_t n, char *out, size_t cap)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t need = (n + 2) / 3 * 4 + 1;
    if (cap < need) {
        if (cap > 0)
            out[0] = '\0';
        return -1;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[o++] = A[(v >> 18) & 63];
        out[o++] = A[(v >> 12) & 63];
        out[o++] = i + 1 < n ? A[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? A[v & 63] : '=';
    }
    out[o] = '\0';
    return (int)o;
}

int term_osc52(const char *text, char *out, size_t cap)
{
    static const char head[] = "\033]52;c;";
    size_t hl = sizeof head - 1;
    if (cap < hl + 2)
        return -1;
    memcpy(out, head, hl);
    int n = term_base64((const unsigned char *)text, strlen(text), out + hl, cap - hl - 1);
    if (n < 0) {
        out[0] = '\0';
        return -1;
    }
    out[hl + (size_t)n] = '\a';
    out[hl + (size_t)n + 1] = '\0';
    return (int)hl + n + 1;
}

int term_osc52_allowed(const char *term, const char *env)
{
    if (env && !strcmp(env, "0"))
        return 0;
    if (env && !strcmp(env, "1"))
        return 1;
    if (!term || !*term || !strcmp(term, "dumb"))
        return 0;
    return strncmp(term, "linux", 5) && strncmp(term, "cons", 4) && strncmp(term, "vt", 2);
}

int term_clipboard(const char *text)
{
    if (!g_screen || !g_out || !term_osc52_allowed(g_type, getenv("SHARDSCOPE_OSC52")))
        return 0;
    static char seq[65536 / 3 * 4 + 64];
    if (strlen(text) > 65536 || term_osc52(text, seq, sizeof seq) < 0)
        return -1;
    fputs(seq, g_out);
    fflush(g_out);
    return 1;
}
