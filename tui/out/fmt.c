/*
 * fmt.c - the unit formatters shared by the explorer and the command line
 * (see fmt.h).  Unit conversion and rounding only; no model arithmetic.
 */
#include "fmt.h"

#include <math.h>
#include <stdio.h>

/* Decimals that give three significant digits once rounded: 9.996 -> 1
 * ("10.0"), 99.96 -> 0 ("100"). */
static int sig3(double a)
{
    a = fabs(a);
    return a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
}

/* v scaled by powers of base into prefixes[0..n-1], three significant
 * digits; an integer below base is printed without decimals ("512 B"). */
static char *scaled(double v, double base, const char *const *prefixes, int n,
                    const char *unit, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    int i = 0;
    while (i + 1 < n && fabs(v) >= base - 0.5 * base / 1000) {
        v /= base;
        i++;
    }
    int dec = i == 0 && v == nearbyint(v) ? 0 : sig3(v);
    const char *sp = *prefixes[i] || *unit ? " " : "";
    snprintf(buf, len, "%.*f%s%s%s", dec, v, sp, prefixes[i], unit);
    return buf;
}

static const char *const SI[] = {"", "k", "M", "G", "T", "P", "E"};

char *fmt_seconds(double s, const char *micro, char *buf, size_t len)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, len, "-");
        return buf;
    }
    if (s == 0) {
        snprintf(buf, len, "0 s");
        return buf;
    }
    static const double MULT[] = {1, 1e3, 1e6, 1e9};
    const char *pre[] = {"", "m", micro ? micro : "\xc2\xb5", "n"};
    int i = 0;
    while (i < 3 && s * MULT[i] < 0.9995)
        i++;
    double v = s * MULT[i];
    snprintf(buf, len, "%.*f %ss", sig3(v), v, pre[i]);
    return buf;
}

char *fmt_seconds_band(double s, const engine_band *b, const char *micro, const char *dash,
                       char *buf, size_t len)
{
    char a[32];
    fmt_seconds(s, micro, a, sizeof a);
    if (b->n > 0) {
        char lo[32], hi[32];
        snprintf(buf, len, "%s (%s%s%s)", a, fmt_seconds(b->lo, micro, lo, sizeof lo), dash,
                 fmt_seconds(b->hi, micro, hi, sizeof hi));
    } else {
        snprintf(buf, len, "%s", a);
    }
    return buf;
}

char *fmt_bytes(double bytes, char *buf, size_t len)
{
    return scaled(bytes, 1000.0, SI, 7, "B", buf, len);
}

char *fmt_bytes_iec(double bytes, char *buf, size_t len)
{
    static const char *const p[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    return scaled(bytes, 1024.0, p, 7, "B", buf, len);
}

char *fmt_gb(double bytes, char *buf, size_t len)
{
    double gb = bytes / 1e9;
    if (!isfinite(gb))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.*f GB", sig3(gb), gb);
    return buf;
}

char *fmt_rate(double v, const char *unit, char *buf, size_t len)
{
    return scaled(v, 1000.0, SI, 7, unit, buf, len);
}

char *fmt_count(double v, char *buf, size_t len)
{
    /* Short-scale letters: parameters read "8.03 B" (billions). */
    static const char *const p[] = {"", "k", "M", "B", "T"};
    return scaled(v, 1000.0, p, 5, "", buf, len);
}

char *fmt_tokens_per_s(double v, char *buf, size_t len)
{
    if (!isfinite(v) || v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f tok/s", v);
    return buf;
}

char *fmt_percent(double f, char *buf, size_t len)
{
    if (!isfinite(f))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fabs(f) >= 0.9995 ? "%.0f%%" : "%.1f%%", f * 100.0);
    return buf;
}

char *fmt_fraction(double f, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f", fabs(f * 100 - round(f * 100)) > 1e-9 ? 3 : 2, f);
    return buf;
}

char *fmt_usd(double v, char *buf, size_t len)
{
    if (!isfinite(v) || v <= 0)
        snprintf(buf, len, "-");
    else if (v >= 99.995)
        snprintf(buf, len, "$%.0f", v);
    else if (v >= 0.00995)
        snprintf(buf, len, "$%.2f", v);
    else
        snprintf(buf, len, "$%.4f", v);
    return buf;
}

char *fmt_plan(engine_plan p, const char *times, char *buf, size_t len)
{
    const char *t = times ? times : "x";
    if (p.ep > 1)
        snprintf(buf, len, "TP%d%sPP%d%sDP%d%sEP%d", p.tp, t, p.pp, t, p.dp, t, p.ep);
    else
        snprintf(buf, len, "TP%d%sPP%d%sDP%d", p.tp, t, p.pp, t, p.dp);
    return buf;
}

char *out_calibration_label(const engine_calib *c, char *buf, size_t len)
{
    if (!c || !c->measured)
        snprintf(buf, len, "datasheet defaults");
    else
        snprintf(buf, len, "measured on %s %s", c->device[0] ? c->device : "unknown device",
                 c->date[0] ? c->date : "(undated)");
    return buf;
}

const char *fmt_model_name(const engine_model *m)
{
    return m->display[0] ? m->display : m->name;
}

const char *fmt_gpu_name(const engine_gpu *g)
{
    return g->display[0] ? g->display : g->name;
}
