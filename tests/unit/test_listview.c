/*
 * test_listview.c - the explorer's one scrolling list (tui/explorer/
 * listview.c): cursor moves and clamping, and the scroll that keeps the
 * cursor in view.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "listview.h"

/* A cursor list (plans, selectors): the selection stays in 0..n-1 and on
 * screen; a page is the visible rows unless a page size is set. */
static void test_listview_cursor(void **state)
{
    (void)state;
    listview l = {.cursor = 1};
    listview_fit(&l, 20, 5);
    listview_move(&l, -1);
    assert_int_equal(l.sel, 0);
    listview_move(&l, 7);
    listview_fit(&l, 20, 5);
    assert_int_equal(l.sel, 7);
    assert_int_equal(l.top, 3); /* sel is the last visible row */
    listview_page(&l, 1);
    assert_int_equal(l.sel, 12);
    listview_end(&l);
    listview_fit(&l, 20, 5);
    assert_int_equal(l.sel, 19);
    assert_int_equal(l.top, 15);
    listview_move(&l, 1);
    assert_int_equal(l.sel, 19);
    listview_page(&l, -1);
    listview_page(&l, -1);
    listview_page(&l, -1);
    listview_page(&l, -1);
    assert_int_equal(l.sel, 0);
    listview_fit(&l, 20, 5);
    assert_int_equal(l.top, 0);
    /* the list shrinks under the selection */
    l.sel = 15;
    listview_fit(&l, 4, 5);
    assert_int_equal(l.sel, 3);
    assert_int_equal(l.top, 0);
    listview_fit(&l, 0, 5);
    assert_int_equal(l.sel, 0);
    l.page = 8; /* the selector list pages by 8 */
    listview_fit(&l, 30, 20);
    listview_page(&l, 1);
    assert_int_equal(l.sel, 8);
}

/* A scroll-only list (details): the first row moves, never above 0, and
 * the fit keeps the last page full. */
static void test_listview_scroll(void **state)
{
    (void)state;
    listview l = {.cursor = 0, .page = 8};
    listview_move(&l, -1);
    assert_int_equal(l.top, 0);
    for (int i = 0; i < 30; i++)
        listview_move(&l, 1);
    listview_fit(&l, 40, 10);
    assert_int_equal(l.top, 30);
    listview_page(&l, 1);
    listview_fit(&l, 40, 10);
    assert_int_equal(l.top, 30); /* 40 lines, 10 rows: at most 30 */
    listview_page(&l, -1);
    assert_int_equal(l.top, 22);
    listview_home(&l);
    assert_int_equal(l.top, 0);
    listview_end(&l);
    listview_fit(&l, 40, 10);
    assert_int_equal(l.top, 30);
    listview_fit(&l, 6, 10); /* everything fits: no scroll */
    assert_int_equal(l.top, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listview_cursor),
        cmocka_unit_test(test_listview_scroll),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
