/*
 * fmt.h - unit formatters shared by the explorer and the command line, so
 * that both print a number the same way.
 */
#ifndef SHARDSCOPE_OUT_FMT_H
#define SHARDSCOPE_OUT_FMT_H

#include <stddef.h>

#include "engine.h"

/* "datasheet defaults" or "measured on DEVICE DATE".  Returns buf. */
char *out_calibration_label(const engine_calib *c, char *buf, size_t len);

#endif /* SHARDSCOPE_OUT_FMT_H */
