/*
 * keys.c - the explorer's one key table (keys.h): data and key names
 * only.  actions.c dispatches through it; the help overlay and the bottom
 * bar are generated from it (panes/help.c, panes/bar.c).
 */
#include <curses.h>
#include <stdio.h>

#include "keys.h"

#define ENTER '\n', '\r', KEY_ENTER

static const exp_binding BINDINGS[] = {
    {{'\t'}, "Tab / Shift-Tab", "next / previous pane (compact: tab)", "Tab", "pane",
     SCOPE_MAIN, ACT_FOCUS_NEXT, 0},
    {{KEY_BTAB}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_FOCUS_PREV, 0},
    {{'1', '2', '3', '4', '5', '6'}, "1 .. 6", "go to a pane (controls .. frontier)", NULL, NULL,
     SCOPE_MAIN, ACT_FOCUS_PANE, 0},
    {{KEY_UP, 'k'}, "Up/Down  k/j", "choose a control; move in lists; scroll", NULL, NULL,
     SCOPE_CONTROLS, ACT_CTL_SELECT, -1},
    {{KEY_DOWN, 'j'}, NULL, NULL, NULL, NULL, SCOPE_CONTROLS, ACT_CTL_SELECT, 1},
    {{KEY_UP, 'k'}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_MOVE, -1},
    {{KEY_DOWN, 'j'}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_MOVE, 1},
    {{KEY_UP, 'k'}, NULL, NULL, NULL, NULL, SCOPE_DETAILS, ACT_MOVE, -1},
    {{KEY_DOWN, 'j'}, NULL, NULL, NULL, NULL, SCOPE_DETAILS, ACT_MOVE, 1},
    {{KEY_UP, 'k'}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_SCROLL, -1},
    {{KEY_DOWN, 'j'}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_SCROLL, 1},
    {{KEY_PPAGE}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_SCROLL, -8},
    {{KEY_NPAGE}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_SCROLL, 8},
    {{KEY_UP}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_MOVE, -1},
    {{KEY_DOWN}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_MOVE, 1},
    {{KEY_LEFT, 'h'}, "Left/Right  h/l", "fine step (GPU count: by 1)", "arrows", "adjust",
     SCOPE_CONTROLS, ACT_CTL_STEP, -1},
    {{KEY_RIGHT, 'l'}, NULL, NULL, NULL, NULL, SCOPE_CONTROLS, ACT_CTL_STEP, 1},
    {{'+', '=', KEY_NPAGE}, "+/-  PgUp/PgDn", "big step (GPU count: powers of two)", "+/-",
     "big step", SCOPE_CONTROLS, ACT_CTL_BIG, 1},
    {{'-', '_', KEY_PPAGE}, NULL, NULL, NULL, NULL, SCOPE_CONTROLS, ACT_CTL_BIG, -1},
    {{KEY_PPAGE}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_PAGE, -1},
    {{KEY_NPAGE}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_PAGE, 1},
    {{KEY_PPAGE}, NULL, NULL, NULL, NULL, SCOPE_DETAILS, ACT_PAGE, -1},
    {{KEY_NPAGE}, NULL, NULL, NULL, NULL, SCOPE_DETAILS, ACT_PAGE, 1},
    {{KEY_PPAGE}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_PAGE, -1},
    {{KEY_NPAGE}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_PAGE, 1},
    {{KEY_HOME}, "Home / End", "minimum / maximum; first / last plan", NULL, NULL,
     SCOPE_CONTROLS, ACT_CTL_MIN, 0},
    {{KEY_END}, NULL, NULL, NULL, NULL, SCOPE_CONTROLS, ACT_CTL_MAX, 0},
    {{KEY_HOME}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_HOME, 0},
    {{KEY_END}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_END, 0},
    {{KEY_HOME}, NULL, NULL, NULL, NULL, SCOPE_DETAILS, ACT_HOME, 0},
    {{KEY_HOME}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_HOME, 0},
    {{KEY_END}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_END, 0},
    {{ENTER}, "Enter", "open a selector's list; choose; plan details", "Enter", "list",
     SCOPE_CONTROLS, ACT_CTL_OPEN, 0},
    {{ENTER}, NULL, NULL, NULL, NULL, SCOPE_PLANS, ACT_PLAN_DETAILS, 0},
    {{ENTER, ' '}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_TOGGLE, 0},
    {{ENTER, ' '}, NULL, NULL, NULL, NULL, SCOPE_EFFICIENCY, ACT_EFF_TOGGLE, 0},
    {{ENTER}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_LIST_CHOOSE, 0},
    {{'/'}, "/", "filter the models by name and choose one", "/", "model", SCOPE_MAIN,
     ACT_FILTER_MODELS, 0},
    {{KEY_BACKSPACE, 127, 8}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_LIST_ERASE, 0},
    {{27}, NULL, NULL, NULL, NULL, SCOPE_LIST, ACT_LIST_CLOSE, 0},
    {{'m'}, "m  < >  o", "heatmap: GPUs/models x links, < >; o: Pareto", NULL, NULL,
     SCOPE_MAIN, ACT_HEAT_MODE, 0},
    {{'o'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_FRONT_VIEW, 0},
    {{'<', ','}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_COLS, -1},
    {{'>', '.'}, NULL, NULL, NULL, NULL, SCOPE_HEAT, ACT_HEAT_COLS, 1},
    {{'s'}, "s / f", "sort the plans by a column / only plans that fit", NULL, NULL,
     SCOPE_MAIN, ACT_SORT, 0},
    {{'f'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_FITS_ONLY, 0},
    {{'p'}, "p / P  x", "pin / unpin the plan; x: details page 1 / 2", NULL, NULL,
     SCOPE_MAIN, ACT_PIN, 0},
    {{'P'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_UNPIN, 0},
    {{'x'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_DETAILS_PAGE, 0},
    {{'F'}, "F / S [ ] { }", "framework / speculation (S), its k and P", NULL,
     NULL, SCOPE_MAIN, ACT_FRAMEWORK, 0},
    {{'S'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_SPEC, 0},
    {{'['}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_SPEC_K, -1},
    {{']'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_SPEC_K, 1},
    {{'{'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_SPEC_P, -5},
    {{'}'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_SPEC_P, 5},
    {{'e'}, "e / y", "export the tables / copy as an eval command", "e", "export", SCOPE_MAIN,
     ACT_EXPORT, 0},
    {{'y'}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_COPY_COMMAND, 0},
    {{'c'}, "c", "re-run calibration on this machine", "c", "calibrate", SCOPE_MAIN,
     ACT_CALIBRATE, 0},
    {{'c'}, NULL, NULL, NULL, NULL, SCOPE_CALIB, ACT_CALIBRATE, 0},
    {{'v'}, "v", "calibration view: measured points, both fits", NULL, NULL, SCOPE_MAIN,
     ACT_CALIB_VIEW, 0},
    {{'r'}, "r", "reset every control", "r", "reset", SCOPE_MAIN, ACT_RESET, 0},
    {{'?'}, "? / Ctrl-L", "this help / repaint the screen", "?", "help", SCOPE_MAIN, ACT_HELP,
     0},
    {{12}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_REPAINT, 0},
    {{'q', 'Q'}, "q / Esc", "quit (Ctrl-C too); Esc first cancels calibration", "q", "quit",
     SCOPE_MAIN, ACT_QUIT, 0},
    {{27}, NULL, NULL, NULL, NULL, SCOPE_MAIN, ACT_ESCAPE, 0},
    {{KEY_MOUSE}, "mouse", "click: focus, pick; wheel: adjust, scroll", NULL, NULL,
     SCOPE_ALWAYS, ACT_MOUSE, 0},
    {{KEY_LEFT, 'h'}, "", "Left/Right and +/- elsewhere: GPU count", NULL, NULL, SCOPE_PANES,
     ACT_GPUS_STEP, -1},
    {{KEY_RIGHT, 'l'}, NULL, NULL, NULL, NULL, SCOPE_PANES, ACT_GPUS_STEP, 1},
    {{'+', '='}, NULL, NULL, NULL, NULL, SCOPE_PANES, ACT_GPUS_BIG, 1},
    {{'-', '_'}, NULL, NULL, NULL, NULL, SCOPE_PANES, ACT_GPUS_BIG, -1},
};

#define N_BINDINGS ((int)(sizeof BINDINGS / sizeof BINDINGS[0]))

const exp_binding *exp_bindings(int *n)
{
    *n = N_BINDINGS;
    return BINDINGS;
}

const char *exp_key_name(int key, char *buf, size_t len)
{
    static const struct {
        int key;
        const char *name;
    } NAMES[] = {
        {'\t', "Tab"},        {KEY_BTAB, "Shift-Tab"}, {KEY_UP, "Up"},         {KEY_DOWN, "Down"},
        {KEY_LEFT, "Left"},   {KEY_RIGHT, "Right"},    {KEY_PPAGE, "PgUp"},    {KEY_NPAGE, "PgDn"},
        {KEY_HOME, "Home"},   {KEY_END, "End"},        {'\n', "Enter"},        {'\r', "Enter"},
        {KEY_ENTER, "Enter"}, {27, "Esc"},             {12, "Ctrl-L"},         {' ', "Space"},
        {KEY_BACKSPACE, "Backspace"}, {127, "Backspace"}, {8, "Backspace"}, {KEY_MOUSE, "mouse"},
    };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (NAMES[i].key == key)
            return NAMES[i].name;
    if (key > 32 && key < 127)
        snprintf(buf, len, "%c", key);
    else
        snprintf(buf, len, "key %d", key);
    return buf;
}

