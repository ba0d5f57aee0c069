/*
 * explorer_calib.c - the weak default of the calibration hook: no
 * calibration in this build.  The calibration module overrides
 * explorer_calib_ops_get() with a strong definition.
 */
#include "explorer_calib.h"

__attribute__((weak)) const explorer_calib_ops *explorer_calib_ops_get(void)
{
    return NULL;
}
