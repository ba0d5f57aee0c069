/*
 * clock.c - the program's clocks: seconds on CLOCK_MONOTONIC for every
 * measured interval (calib's timings, the explorer's and the CLI's bench),
 * and the UTC date a calibration is stamped with.
 */
#include <stdio.h>
#include <time.h>

#include "calib.h"
#include "internal.h"

double calib_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void calib_now_iso(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, len, "unknown");
}
