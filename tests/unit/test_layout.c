/*
 * test_layout.c - the explorer's pane geometry for every terminal size
 * from 80x24 to 300x100 and every compact tab: the right mode, every pane
 * inside the screen, no two rectangles overlapping, the full layout tiling
 * the screen, and sizes below the minimum giving TOO_SMALL (down to 0x0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "layout.h"

static int inside(layout_rect r, int rows, int cols)
{
    return r.y >= 0 && r.x >= 0 && r.y + r.h <= rows && r.x + r.w <= cols;
}

static int overlap(layout_rect a, layout_rect b)
{
    if (!layout_rect_visible(a) || !layout_rect_visible(b))
        return 0;
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* Every visible rectangle of a layout, chrome included. */
static int rects(const layout *l, layout_rect *out)
{
    int n = 0;
    out[n++] = l->header;
    out[n++] = l->tabs;
    out[n++] = l->bar;
    for (int i = 0; i < PANE_COUNT; i++)
        out[n++] = l->pane[i];
    return n;
}

static void check_layout(const layout *l, int rows, int cols, int tab)
{
    layout_rect r[PANE_COUNT + 3];
    int n = rects(l, r);
    for (int i = 0; i < n; i++) {
        if (!layout_rect_visible(r[i]))
            continue;
        if (!inside(r[i], rows, cols))
            fail_msg("%dx%d tab %d: rect %d (%d,%d %dx%d) outside the screen", cols, rows, tab,
                     i, r[i].x, r[i].y, r[i].w, r[i].h);
        for (int j = i + 1; j < n; j++)
            if (overlap(r[i], r[j]))
                fail_msg("%dx%d tab %d: rects %d and %d overlap", cols, rows, tab, i, j);
    }
    assert_true(layout_rect_visible(l->header));
    assert_true(layout_rect_visible(l->bar));
    assert_int_equal(l->bar.y, rows - 1);
    if (l->mode == LAYOUT_FULL) {
        for (int i = 0; i < PANE_COUNT; i++) {
            assert_true(layout_rect_visible(l->pane[i]));
            /* Room for a border and some content. */
            assert_true(l->pane[i].h >= 9);
            assert_true(l->pane[i].w >= 36);
        }
        assert_true(l->pane[PANE_CONTROLS].h >= 17); /* 14 controls + hint + border */
        assert_true(l->pane[PANE_HEAT].h >= 17);     /* 11 links + header + 3 + border */
        assert_int_equal(l->pane[PANE_HEAT].h, l->pane[PANE_EFFICIENCY].h);
        assert_false(layout_rect_visible(l->tabs));
    } else {
        assert_int_equal(l->mode, LAYOUT_COMPACT);
        assert_true(layout_rect_visible(l->tabs));
        int shown = 0;
        for (int i = 0; i < PANE_COUNT; i++)
            if (layout_rect_visible(l->pane[i])) {
                shown++;
                assert_true(l->pane[i].w >= 78);
                assert_true(l->pane[i].h >= 10);
            }
        assert_true(layout_rect_visible(l->pane[tab]));
        assert_int_equal(shown, tab == PANE_CONTROLS ? 2 : 1);
        if (tab == PANE_CONTROLS)
            assert_int_equal(l->controls_columns, 2);
    }
}

/* Every cell of the screen covered exactly once (full and compact). */
static void check_tiling(const layout *l, int rows, int cols)
{
    static unsigned char cover[100][300];
    memset(cover, 0, sizeof cover);
    layout_rect r[PANE_COUNT + 3];
    int n = rects(l, r);
    for (int i = 0; i < n; i++)
        for (int y = r[i].y; y < r[i].y + r[i].h; y++)
            for (int x = r[i].x; x < r[i].x + r[i].w; x++)
                cover[y][x]++;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++)
            if (cover[y][x] != 1)
                fail_msg("%dx%d: cell (%d,%d) covered %d times", cols, rows, x, y, cover[y][x]);
}

static void test_every_size_is_valid(void **state)
{
    (void)state;
    layout l;
    for (int rows = 24; rows <= 100; rows++)
        for (int cols = 80; cols <= 300; cols++)
            for (int tab = 0; tab < PANE_COUNT; tab++) {
                layout_compute(rows, cols, tab, &l);
                int full = rows >= LAYOUT_FULL_ROWS && cols >= LAYOUT_FULL_COLS;
                assert_int_equal(l.mode, full ? LAYOUT_FULL : LAYOUT_COMPACT);
                check_layout(&l, rows, cols, tab);
                if (full && tab > 0)
                    continue; /* tab is ignored in the full layout */
                if ((rows * 7 + cols) % 5 == 0 || rows == 24 || rows == 40 || cols == 80 ||
                    cols == 120)
                    check_tiling(&l, rows, cols);
            }
}

static void test_reference_sizes(void **state)
{
    (void)state;
    layout l;
    layout_compute(40, 120, 0, &l);
    assert_int_equal(l.mode, LAYOUT_FULL);
    layout_compute(39, 120, 0, &l);
    assert_int_equal(l.mode, LAYOUT_COMPACT);
    layout_compute(40, 119, 0, &l);
    assert_int_equal(l.mode, LAYOUT_COMPACT);
    layout_compute(24, 80, PANE_HEAT, &l);
    assert_int_equal(l.mode, LAYOUT_COMPACT);
    assert_int_equal(l.pane[PANE_HEAT].w, 80);
    assert_int_equal(l.pane[PANE_HEAT].h, 21);
}

static void test_too_small_down_to_nothing(void **state)
{
    (void)state;
    layout l;
    for (int rows = -1; rows < 24; rows++)
        for (int cols = -1; cols < 300; cols += (cols < 90 ? 1 : 37)) {
            layout_compute(rows, cols, 0, &l);
            assert_int_equal(l.mode, LAYOUT_TOO_SMALL);
            for (int i = 0; i < PANE_COUNT; i++)
                assert_false(layout_rect_visible(l.pane[i]));
        }
    for (int cols = 0; cols < 80; cols++) {
        layout_compute(100, cols, 0, &l);
        assert_int_equal(l.mode, LAYOUT_TOO_SMALL);
    }
    layout_compute(1, 1, 3, &l);
    assert_int_equal(l.mode, LAYOUT_TOO_SMALL);
    layout_compute(24, 80, 99, &l); /* a bad tab falls back to the first */
    assert_int_equal(l.mode, LAYOUT_COMPACT);
    assert_true(layout_rect_visible(l.pane[PANE_CONTROLS]));
}

static void test_pane_at(void **state)
{
    (void)state;
    layout l;
    layout_compute(40, 120, 0, &l);
    for (int i = 0; i < PANE_COUNT; i++) {
        layout_rect r = l.pane[i];
        assert_int_equal(layout_pane_at(&l, r.y, r.x), i);
        assert_int_equal(layout_pane_at(&l, r.y + r.h - 1, r.x + r.w - 1), i);
    }
    assert_int_equal(layout_pane_at(&l, 0, 0), -1);   /* header */
    assert_int_equal(layout_pane_at(&l, 39, 10), -1); /* bottom bar */
    assert_int_equal(layout_pane_at(&l, 500, 500), -1);
}

/* The regions a click maps through: tabs side by side on the tab bar, a
 * control per row and column, list rows below a header, overlays centred
 * and clipped. */
static void test_click_regions(void **state)
{
    (void)state;
    layout l;
    layout_compute(24, 80, PANE_CONTROLS, &l);
    assert_int_equal(l.mode, LAYOUT_COMPACT);
    int xx = 0;
    for (int i = 0; i < PANE_COUNT; i++) {
        /* " N name " and a gap */
        assert_int_equal(l.tab[i].x, xx);
        assert_int_equal(l.tab[i].w, 4 + (int)strlen(layout_tab_label(i)) + 1);
        assert_int_equal(layout_tab_at(&l, l.tabs.y, l.tab[i].x), i);
        assert_int_equal(layout_tab_at(&l, l.tabs.y, l.tab[i].x + l.tab[i].w - 1), i);
        xx += l.tab[i].w;
    }
    assert_int_equal(xx, 80); /* the six tabs fill 80 columns */
    assert_int_equal(layout_tab_at(&l, 0, 1), -1);
    assert_string_equal(layout_tab_label(PANE_HEAT), "Heatmap");
    /* controls: two columns of 7 in the compact first tab */
    layout_rect c = l.pane[PANE_CONTROLS];
    int colw = (c.w - 2) / 2;
    assert_int_equal(layout_control_at(&l, 14, c.y + 1, c.x + 1), 0);
    assert_int_equal(layout_control_at(&l, 14, c.y + 3, c.x + 1), 2);
    assert_int_equal(layout_control_at(&l, 14, c.y + 1, c.x + 1 + colw), 7);
    assert_int_equal(layout_control_at(&l, 14, c.y, c.x + 1), -1); /* the border */
    assert_int_equal(layout_control_at(&l, 14, c.y + 8, c.x + 1), -1);
    /* plan rows under the header row */
    layout_rect s = l.pane[PANE_STRATEGIES];
    assert_int_equal(layout_row_at(&l, PANE_STRATEGIES, 1, s.y + 2, s.x + 3), 0);
    assert_int_equal(layout_row_at(&l, PANE_STRATEGIES, 1, s.y + 5, s.x + 3), 3);
    assert_int_equal(layout_row_at(&l, PANE_STRATEGIES, 1, s.y + 1, s.x + 3), -1);
    assert_int_equal(layout_row_at(&l, PANE_DETAILS, 1, s.y + 2, s.x + 3), -1); /* hidden */
    /* overlays */
    layout_rect o = layout_overlay(&l, 23, 70);
    assert_int_equal(o.h, 22);
    assert_int_equal(o.w, 70);
    assert_int_equal(o.y, 1);
    assert_int_equal(o.x, 5);
    o = layout_overlay(&l, 8, 200);
    assert_int_equal(o.w, 78);
    assert_int_equal(o.x, 1);
    assert_int_equal(o.y, 8);
    assert_false(layout_rect_visible(layout_overlay(&l, 2, 40)));
    layout_compute(40, 120, PANE_CONTROLS, &l);
    assert_int_equal(layout_tab_at(&l, 1, 1), -1); /* no tabs in FULL */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_size_is_valid),
        cmocka_unit_test(test_reference_sizes),
        cmocka_unit_test(test_too_small_down_to_nothing),
        cmocka_unit_test(test_pane_at),
        cmocka_unit_test(test_click_regions),
    };
    return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
