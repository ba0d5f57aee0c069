/*
 * heat.c - ratio -> bucket mapping and cell labels of the regime heatmap.
 */
#include "heat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int heat_bucket(double ratio, int n)
{
    if (n < 2 || !isfinite(ratio) || ratio <= 0)
        return -1;
    double half = n / 2;
    double t = log2(ratio) / HEAT_RANGE_LOG2; /* -1 .. 1 over the scale */
    int b = (int)(half + floor(t * half));
    /* log2 just below 1 can round to 0: keep ratio < 1 on the M side. */
    if (ratio < 1.0 && b >= n / 2)
        b = n / 2 - 1;
    if (ratio >= 1.0 && b < n / 2)
        b = n / 2;
    return b < 0 ? 0 : b > n - 1 ? n - 1 : b;
}

double heat_bucket_floor(int b, int n)
{
    if (b <= 0 || n < 2)
        return 0.0;
    double half = n / 2;
    return exp2((b - half) / half * HEAT_RANGE_LOG2);
}

char *heat_format(double ratio, int width, char *buf, int len)
{
    char tmp[32];
    if (len <= 0)
        return buf;
    buf[0] = '\0';
    if (!isfinite(ratio) || ratio <= 0 || width <= 0)
        return buf;
    if (ratio >= 999.5)
        snprintf(tmp, sizeof tmp, ratio >= 9.9995e5 ? ">1M" : ">1k");
    else if (ratio >= 99.5)
        snprintf(tmp, sizeof tmp, "%.0f", ratio);
    else if (ratio >= 9.95)
        snprintf(tmp, sizeof tmp, width >= 4 ? "%.1f" : "%.0f", ratio);
    else if (ratio >= 0.995)
        snprintf(tmp, sizeof tmp, width >= 4 ? "%.2f" : "%.1f", ratio);
    else if (ratio >= 0.095 || width >= 4)
        snprintf(tmp, sizeof tmp, width >= 4 ? "%.2f" : "%.1f", ratio);
    else
        snprintf(tmp, sizeof tmp, ".%02d", (int)(ratio * 100 + 0.5) % 100);
    if ((int)strlen(tmp) > width) {
        /* Fall back to fewer digits. */
        snprintf(tmp, sizeof tmp, "%.0f", ratio);
        if ((int)strlen(tmp) > width)
            tmp[0] = '\0';
    }
    snprintf(buf, (size_t)len, "%s", tmp);
    return buf;
}
