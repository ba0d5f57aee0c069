/*
 * explorer_fmt.c - formatting of engine numbers for the explorer: every
 * number with its unit (GB = 1e9 bytes, never GiB), in a few columns.
 * Unit conversion only; no model arithmetic.
 */
#include "explorer_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int fmt_width(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

char *fmt_time(const explorer *x, double s, char *buf, size_t len)
{
    const char *mu = x ? x->g->micro : "u";
    if (!isfinite(s) || s < 0)
        snprintf(buf, len, "-");
    else if (s >= 1000)
        snprintf(buf, len, "%.0f s", s);
    else if (s >= 100)
        snprintf(buf, len, "%.0f s", s);
    else if (s >= 10)
        snprintf(buf, len, "%.1f s", s);
    else if (s >= 1)
        snprintf(buf, len, "%.2f s", s);
    else if (s >= 0.1)
        snprintf(buf, len, "%.0f ms", s * 1e3);
    else if (s >= 0.01)
        snprintf(buf, len, "%.1f ms", s * 1e3);
    else if (s >= 0.001)
        snprintf(buf, len, "%.2f ms", s * 1e3);
    else if (s >= 1e-4)
        snprintf(buf, len, "%.0f %ss", s * 1e6, mu);
    else if (s >= 1e-5)
        snprintf(buf, len, "%.1f %ss", s * 1e6, mu);
    else if (s > 0)
        snprintf(buf, len, "%.2f %ss", s * 1e6, mu);
    else
        snprintf(buf, len, "0 s");
    return buf;
}

char *fmt_gb(double bytes, char *buf, size_t len)
{
    double gb = bytes / 1e9;
    if (!isfinite(gb) || gb < 0)
        snprintf(buf, len, "-");
    else if (gb >= 99.95)
        snprintf(buf, len, "%.0f GB", gb);
    else if (gb >= 0.995)
        snprintf(buf, len, "%.1f GB", gb);
    else
        snprintf(buf, len, "%.2f GB", gb);
    return buf;
}

char *fmt_pct(double f, char *buf, size_t len)
{
    if (!isfinite(f))
        snprintf(buf, len, "-");
    else if (f >= 0.9995)
        snprintf(buf, len, "%.0f%%", f * 100);
    else
        snprintf(buf, len, "%.1f%%", f * 100);
    return buf;
}

char *fmt_usd(double v, char *buf, size_t len)
{
    if (!isfinite(v) || v <= 0)
        snprintf(buf, len, "-");
    else if (v >= 100)
        snprintf(buf, len, "$%.0f", v);
    else if (v >= 1)
        snprintf(buf, len, "$%.2f", v);
    else
        snprintf(buf, len, "$%.3f", v);
    return buf;
}

char *fmt_plan(const explorer *x, engine_plan p, char *buf, size_t len)
{
    const char *t = x ? x->g->times : "x";
    if (p.ep > 1)
        snprintf(buf, len, "TP%d%sPP%d%sDP%d%sEP%d", p.tp, t, p.pp, t, p.dp, t, p.ep);
    else
        snprintf(buf, len, "TP%d%sPP%d%sDP%d", p.tp, t, p.pp, t, p.dp);
    return buf;
}

char *fmt_count(int n, char *buf, size_t len)
{
    snprintf(buf, len, "%d", n);
    return buf;
}

char *fmt_ctl_value(const explorer *x, int ctl, char *buf, size_t len)
{
    int v = x->ctl[ctl].value;
    char tmp[32];
    switch (ctl) {
    case CTL_MODEL:
        snprintf(buf, len, "%s", x->db->models[v].display);
        break;
    case CTL_GPU:
        snprintf(buf, len, "%s %s", x->db->gpus[v].display,
                 fmt_gb(x->db->gpus[v].memory_bytes, tmp, sizeof tmp));
        break;
    case CTL_INTRA:
    case CTL_INTER:
        snprintf(buf, len, "%s", x->db->links[v].display);
        break;
    case CTL_DTYPE:
        snprintf(buf, len, "%s", engine_dtype_name((engine_dtype)v));
        break;
    case CTL_SCHED:
        snprintf(buf, len, "%s", engine_schedule_name((engine_schedule)v));
        break;
    case CTL_OBJECTIVE:
        snprintf(buf, len, "%s", engine_objective_name((engine_objective)v));
        break;
    case CTL_MICRO:
        if (v == 0)
            snprintf(buf, len, "auto (= pp)");
        else
            snprintf(buf, len, "%d", v);
        break;
    default:
        snprintf(buf, len, "%d %s", v, x->ctl[ctl].unit);
        break;
    }
    return buf;
}

char *fmt_calib_label(const explorer *x, char *buf, size_t len)
{
    if (x->calib.measured)
        snprintf(buf, len, "measured on %s %s", x->calib.device[0] ? x->calib.device : "?",
                 x->calib.date);
    else
        snprintf(buf, len, "datasheet defaults");
    return buf;
}
