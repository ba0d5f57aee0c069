/*
 * keys.h - the explorer's one key table, htop style: every binding is a
 * row {keys, label, help, scope, action}.  The dispatcher (actions.c) looks a
 * key up in the scopes that apply, the help overlay lists the rows that
 * carry a label and a help line, the bottom bar the rows that carry a bar
 * word, and tests/unit/test_keys.c checks README.md and the man page
 * against the table.  Mouse clicks and the wheel become the same actions.
 */
#ifndef SHARDSCOPE_KEYS_H
#define SHARDSCOPE_KEYS_H

#include <stddef.h>

#define EXP_BINDING_KEYS 7

/* Where a binding applies.  Without an overlay a key is looked up in
 * SCOPE_MAIN, then in the focused pane's scope, then (every pane but the
 * controls) in SCOPE_PANES.  SCOPE_ALWAYS is looked up first, overlays
 * included. */
typedef enum exp_scope {
    SCOPE_ALWAYS = 0,
    SCOPE_MAIN,
    SCOPE_CONTROLS,
    SCOPE_PLANS,
    SCOPE_DETAILS,
    SCOPE_EFFICIENCY,
    SCOPE_HEAT,
    SCOPE_PANES,
    SCOPE_LIST,  /* the selector list (other printable keys type the filter) */
    SCOPE_CALIB, /* the calibration view (other keys close it) */
    SCOPE_COUNT
} exp_scope;

typedef enum exp_action {
    ACT_NONE = 0,
    ACT_QUIT,          /* cancels a running calibration, then quits */
    ACT_ESCAPE,        /* cancels a running calibration, else quits */
    ACT_FOCUS_NEXT,
    ACT_FOCUS_PREV,
    ACT_FOCUS_PANE,    /* the pane numbered by the key ('1' .. '6') or arg */
    ACT_HELP,
    ACT_FILTER_MODELS,
    ACT_CALIBRATE,
    ACT_CALIB_VIEW,
    ACT_EXPORT,
    ACT_RESET,
    ACT_FRAMEWORK,
    ACT_SORT,          /* the plan list's next sort column */
    ACT_FITS_ONLY,
    ACT_PIN,
    ACT_UNPIN,
    ACT_HEAT_MODE,     /* with a message */
    ACT_REPAINT,
    ACT_MOUSE,
    ACT_CTL_SELECT,    /* arg: -1 previous, +1 next (wrapping) */
    ACT_CTL_STEP,      /* arg: direction of a fine step */
    ACT_CTL_BIG,       /* arg: direction of a big step */
    ACT_CTL_MIN,
    ACT_CTL_MAX,
    ACT_CTL_OPEN,      /* a selector's list */
    ACT_MOVE,          /* the scope's list (plans, details, selector list) */
    ACT_PAGE,
    ACT_HOME,
    ACT_END,
    ACT_PLAN_DETAILS,
    ACT_HEAT_TOGGLE,   /* without a message */
    ACT_EFF_TOGGLE,
    ACT_FRONT_VIEW,    /* the frontier pane: VRAM frontier <-> Pareto frontier */
    ACT_HEAT_SCROLL,   /* arg: rows down (negative: up) */
    ACT_HEAT_COLS,     /* arg: columns right (negative: left) */
    ACT_GPUS_STEP,
    ACT_GPUS_BIG,
    ACT_LIST_CLOSE,
    ACT_LIST_CHOOSE,
    ACT_LIST_ERASE,
    ACT_DETAILS_PAGE,  /* the details pane's next page (plan, explain) */
    ACT_COPY_COMMAND,  /* the state as a `shardscope eval` line: clipboard and bar */
    ACT_SPEC,          /* speculative decoding: the next method (none, eagle, mtp) */
    ACT_SPEC_K,        /* arg: drafted tokens -1 / +1 */
    ACT_SPEC_P,        /* arg: acceptance rate -5 / +5 % */
    /* From the mouse only (arg: the pane, control or row clicked). */
    ACT_CLICK_PANE,
    ACT_PICK_CONTROL,
    ACT_PICK_PLAN,
    ACT_COUNT
} exp_action;

typedef struct exp_binding {
    int keys[EXP_BINDING_KEYS]; /* curses key codes; 0 ends the list */
    const char *label;          /* the keys as help lists them; NULL: explained by
                                 * the labelled row above */
    const char *help;           /* the help line next to label */
    const char *bar_key, *bar;  /* on the bottom bar ("Tab" "pane"); NULL: not */
    exp_scope scope;
    exp_action action;
    int arg;
} exp_binding;

/* The table, in help order; *n gets its length. */
const exp_binding *exp_bindings(int *n);

/* The name a key has in the help, README.md and the man page: "Tab",
 * "Shift-Tab", "Up", "PgDn", "Enter", "Esc", "Ctrl-L", "Backspace",
 * "Space", "mouse", or the character itself ("q", "+"). */
const char *exp_key_name(int key, char *buf, size_t len);

#endif /* SHARDSCOPE_KEYS_H */
