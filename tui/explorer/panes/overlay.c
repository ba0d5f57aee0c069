/*
 * overlay.c - where the open overlay goes: the size its pane asks for
 * (help, a selector list, the calibration view), centred and clipped by
 * the layout.  Pure: the frame creates the window there, the update step
 * clamps the selector list to its rows.
 */
#include "explorer_int.h"

layout_rect exp_overlay_rect(const exp_view *v)
{
    int h = 0, w = 0;
    if (v->ov->kind == OVERLAY_HELP)
        pane_help_size(v, &h, &w);
    else if (v->ov->kind == OVERLAY_LIST)
        pane_list_size(v, &h, &w);
    else if (v->ov->kind == OVERLAY_CALIB)
        pane_calib_size(v, &h, &w);
    return layout_overlay(v->lay, h, w);
}
