/*
 * bar.c - the bottom bar: a running calibration's progress, the open
 * list's keys (or that nothing matches), the last message (cut after a
 * whole word when too long), or the keys (the key table's bar entries,
 * keys.h), and the calibration in use on the right.
 */
#include "explorer_int.h"
#include "keys.h"

#include <stdio.h>
#include <string.h>

/* The key table's bar entries in order, as many as fit in avail cells;
 * the last two (help and quit) are kept at any width. */
static void draw_keys(WINDOW *w, int avail)
{
    const char *key[16], *word[16];
    int n = 0, nb;
    const exp_binding *b = exp_bindings(&nb);
    for (int i = 0; i < nb && n < 16; i++)
        if (b[i].bar_key) {
            key[n] = b[i].bar_key;
            word[n++] = b[i].bar;
        }
    int xx = 0;
    for (int i = 0; i < n; i++) {
        int need = out_display_width(key[i]) + out_display_width(word[i]) + 3;
        int rest = i < n - 2 ? 14 : 0; /* room for "? help q quit" */
        if (xx + need + rest > avail && i < n - 2)
            continue;
        if (xx + need > avail)
            break;
        pane_put(w, 0, xx + 1, need, ROLE_BAR_KEY, key[i]);
        pane_put(w, 0, xx + 1 + out_display_width(key[i]) + 1, need, ROLE_BAR, word[i]);
        xx += need;
    }
}

/* A running calibration on the bar: "calibrating [####......] 42% step
 * (Esc cancels)" in at most avail cells; returns the cells used. */
static int bar_progress(const exp_view *v, WINDOW *w, int avail)
{
    double f = v->cal->progress;
    if (!(f >= 0))
        f = 0;
    if (f > 1)
        f = 1;
    char pct[16];
    snprintf(pct, sizeof pct, "%d%%", (int)(f * 100.0 + 1e-9));
    static const char LEAD[] = "calibrating ";
    int lead = (int)sizeof LEAD - 1;
    /* The bar shrinks before the step label disappears. */
    int bw = avail - lead - 2 - 5 - 20;
    if (bw > 20)
        bw = 20;
    if (bw < 6)
        bw = 6;
    int xx = 1;
    pane_put(w, 0, xx, avail - xx, ROLE_MSG, LEAD);
    xx += lead;
    pane_put(w, 0, xx, avail - xx, ROLE_MSG, "[");
    xx++;
    int filled = (int)(f * bw + 1e-9);
    for (int i = 0; i < bw && xx < avail; i++, xx++)
        pane_put(w, 0, xx, 1, i < filled ? ROLE_MSG : ROLE_BAR,
                 i < filled ? v->g->fill : (v->g->utf8 ? v->g->empty : "."));
    pane_put(w, 0, xx, avail - xx, ROLE_MSG, "]");
    xx++;
    pane_put(w, 0, xx + 1, avail - xx - 1, ROLE_MSG, pct);
    xx += 1 + out_display_width(pct);
    char rest[160];
    snprintf(rest, sizeof rest, "%s%s(Esc cancels)", v->cal->step,
             v->cal->step[0] ? "  " : "");
    if (avail - xx - 1 > 0)
        pane_put(w, 0, xx + 1, avail - xx - 1, ROLE_BAR, rest);
    int rw = out_display_width(rest) + 1;
    xx += rw < avail - xx ? rw : avail - xx;
    return xx;
}

/* What the bar says while a selector's list is open: its keys, from the
 * list's own state (so the bar and the popup always agree). */
static const char *list_hint(const exp_view *v, char *buf, size_t len)
{
    if (v->ov->list.n > 0)
        return "type to filter, Enter to choose, Esc to cancel";
    snprintf(buf, len, "nothing matches '%s': Backspace to edit, Esc to cancel",
             v->ov->filter);
    return buf;
}

/* msg in at most avail cells: whole when it fits, else cut after its last
 * whole word that fits, with an ellipsis and, for a calibration error
 * ("calibration failed: ...", "calibration: <why it could not start>"),
 * "(press v for details)" (the calibration view shows it whole). */
static const char *fit_msg(const exp_view *v, const char *msg, int avail, char *buf,
                           size_t len)
{
    if (out_display_width(msg) <= avail)
        return msg;
    char tail[48];
    snprintf(tail, sizeof tail, "%s%s", v->g->utf8 ? v->g->ellipsis : "...",
             strncmp(msg, "calibration failed", 18) && strncmp(msg, "calibration: ", 13)
                 ? ""
                 : " (press v for details)");
    int room = avail - out_display_width(tail), cut = 0, cols = 0;
    for (int i = 0; msg[i] && cols <= room; i++) {
        if (msg[i] == ' ' && i > 0 && msg[i - 1] != ' ')
            cut = i;
        cols += ((unsigned char)msg[i] & 0xC0) != 0x80;
    }
    if (cut == 0)
        return msg; /* one long word: cut where the bar ends */
    snprintf(buf, len, "%.*s%s", cut, msg, tail);
    return buf;
}

void pane_bar_draw(const exp_view *v, WINDOW *w)
{
    int ww = getmaxx(w);
    char cal[160], right[200], hint[EXP_FILTER_MAX + 80];
    const char *msg = v->ov->kind == OVERLAY_LIST ? list_hint(v, hint, sizeof hint) : v->msg;
    pane_fill(w, 0, 0, ww, ROLE_BAR);
    out_calibration_label(&v->cal->calib, cal, sizeof cal);
    snprintf(right, sizeof right, " calib: %s ", cal);
    int rw = out_display_width(right);
    int avail = ww - rw - 1;
    if (avail < 20) {
        rw = 0;
        avail = ww;
    }
    char fit[EXP_MSG_MAX + 48];
    if (v->cal->job) {
        int used = bar_progress(v, w, avail);
        if (msg[0] && avail - used > 12)
            pane_put(w, 0, used + 2, avail - used - 2, ROLE_MSG,
                     fit_msg(v, msg, avail - used - 2, fit, sizeof fit));
    } else if (msg[0]) {
        pane_put(w, 0, 1, avail - 1, ROLE_MSG, fit_msg(v, msg, avail - 1, fit, sizeof fit));
    } else {
        draw_keys(w, avail);
    }
    if (rw > 0)
        pane_put(w, 0, ww - rw, rw, ROLE_BAR, right);
    theme_set(w, ROLE_NORMAL);
}

