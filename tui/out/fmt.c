/*
 * fmt.c - unit formatters shared by the explorer and the command line.
 */
#include "fmt.h"

#include <stdio.h>

char *out_calibration_label(const engine_calib *c, char *buf, size_t len)
{
    if (!c || !c->measured)
        snprintf(buf, len, "datasheet defaults");
    else
        snprintf(buf, len, "measured on %s %s", c->device[0] ? c->device : "unknown device",
                 c->date[0] ? c->date : "(undated)");
    return buf;
}
