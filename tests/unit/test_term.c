/*
 * test_term.c - the curses-free widgets of tui/term: slider stepping and
 * clamping, heat-bucket mapping and cell labels, chart rasterisation, and
 * the theme choice.  (Unit formatting: test_out.c; the scrolling list:
 * test_listview.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "chart.h"
#include "heat.h"
#include "slider.h"
#include "term.h"
#include "theme.h"
#include "plots.h"

static void test_slider_make_clamps(void **state)
{
    (void)state;
    slider s = slider_make("x", "", SLIDER_LINEAR, 50, 10, 1, 1, 5); /* swapped range */
    assert_int_equal(s.min, 1);
    assert_int_equal(s.max, 10);
    assert_int_equal(s.value, 10);
    s = slider_make("x", "", SLIDER_LINEAR, -3, 1, 10, 0, 0); /* bad steps become 1 */
    assert_int_equal(s.value, 1);
    assert_int_equal(s.step, 1);
    assert_int_equal(s.big, 1);
}

static void test_slider_gpu_count_pow2_and_fine(void **state)
{
    (void)state;
    slider s = slider_make("GPU count", "GPUs", SLIDER_POW2, 8, 1, 1024, 1, 1);
    assert_true(slider_step(&s, 1, 0));
    assert_int_equal(s.value, 9);
    assert_true(slider_step(&s, 1, 1)); /* 9 -> next power of two */
    assert_int_equal(s.value, 16);
    assert_true(slider_step(&s, 1, 1));
    assert_int_equal(s.value, 32);
    assert_true(slider_step(&s, -1, 0));
    assert_int_equal(s.value, 31);
    assert_true(slider_step(&s, -1, 1)); /* 31 -> 16 */
    assert_int_equal(s.value, 16);
    assert_true(slider_step(&s, -1, 1)); /* exact power: the one below */
    assert_int_equal(s.value, 8);
    slider_set(&s, 1);
    assert_false(slider_step(&s, -1, 1));
    assert_false(slider_step(&s, -1, 0));
    assert_int_equal(s.value, 1);
    slider_set(&s, 600);
    assert_true(slider_step(&s, 1, 1));
    assert_int_equal(s.value, 1024);
    assert_false(slider_step(&s, 1, 1));
    assert_false(slider_step(&s, 1, 0));
    assert_int_equal(s.value, 1024);
    /* Every power of two from 1 is reached by big steps. */
    slider_set(&s, 1);
    for (int p = 2; p <= 1024; p *= 2) {
        slider_step(&s, 1, 1);
        assert_int_equal(s.value, p);
    }
}

static void test_slider_geom_linear_list(void **state)
{
    (void)state;
    slider g = slider_make("Batch", "seq", SLIDER_GEOM, 3, 1, 4096, 1, 1);
    slider_step(&g, 1, 1);
    assert_int_equal(g.value, 6);
    slider_step(&g, -1, 1);
    assert_int_equal(g.value, 3);
    slider_step(&g, -1, 1);
    assert_int_equal(g.value, 1);
    slider_step(&g, -1, 1);
    assert_int_equal(g.value, 1); /* clamped at min */
    slider_set(&g, 3000);
    slider_step(&g, 1, 1);
    assert_int_equal(g.value, 4096);
    slider m = slider_make("Micro", "", SLIDER_GEOM, 0, 0, 256, 1, 1);
    slider_step(&m, 1, 1);
    assert_int_equal(m.value, 1); /* from 0 (auto) up */
    slider p = slider_make("Prompt", "tok", SLIDER_GEOM, 1024, 1, 8192, 128, 1);
    slider_step(&p, 1, 0);
    assert_int_equal(p.value, 1152);
    slider_step(&p, -1, 0);
    slider_step(&p, -1, 0);
    assert_int_equal(p.value, 896);
    slider v = slider_make("VRAM", "GB", SLIDER_LINEAR, 80, 1, 1024, 1, 8);
    slider_step(&v, 1, 1);
    assert_int_equal(v.value, 88);
    slider_step(&v, -1, 0);
    assert_int_equal(v.value, 87);
    slider l = slider_make("Model", "", SLIDER_LIST, 0, 0, 13, 1, 4);
    assert_false(slider_step(&l, -1, 0)); /* no wrap-around */
    slider_step(&l, 1, 1);
    assert_int_equal(l.value, 4);
    for (int i = 0; i < 10; i++)
        slider_step(&l, 1, 1);
    assert_int_equal(l.value, 13);
    assert_false(slider_step(&l, 0, 0));
    slider_set_range(&l, 0, 5);
    assert_int_equal(l.value, 5);
    /* No overflow near INT_MAX. */
    slider big = slider_make("x", "", SLIDER_GEOM, 2000000000, 1, 2147483647, 1, 1);
    slider_step(&big, 1, 1);
    assert_int_equal(big.value, 2147483647);
}

static void test_slider_fraction_and_fill(void **state)
{
    (void)state;
    slider s = slider_make("GPU count", "GPUs", SLIDER_POW2, 1, 1, 1024, 1, 1);
    assert_true(s.log_bar);
    assert_true(fabs(slider_fraction(&s)) < 1e-12);
    slider_set(&s, 32);
    assert_true(fabs(slider_fraction(&s) - 0.5) < 1e-12); /* log scale: 2^5 of 2^10 */
    slider_set(&s, 1024);
    assert_true(fabs(slider_fraction(&s) - 1.0) < 1e-12);
    assert_int_equal(slider_fill(&s, 10), 10);
    slider_set(&s, 2);
    assert_int_equal(slider_fill(&s, 10), 1);
    slider_set(&s, 1);
    assert_int_equal(slider_fill(&s, 10), 0);
    assert_int_equal(slider_fill(&s, 0), 0);
    slider lin = slider_make("VRAM", "GB", SLIDER_LINEAR, 1, 1, 1024, 1, 8);
    slider_set(&lin, 2); /* anything above the minimum shows at least one cell */
    assert_int_equal(slider_fill(&lin, 10), 1);
    slider one = slider_make("x", "", SLIDER_LIST, 0, 0, 0, 1, 1);
    assert_true(slider_fraction(&one) == 1.0);
    assert_int_equal(slider_next_pow2(0), 1);
    assert_int_equal(slider_next_pow2(1), 2);
    assert_int_equal(slider_next_pow2(5), 8);
    assert_int_equal(slider_prev_pow2(8), 4);
    assert_int_equal(slider_prev_pow2(9), 8);
    assert_int_equal(slider_prev_pow2(1), 1);
}

/* --- heat buckets ---------------------------------------------------------- */

static void test_heat_bucket_diverges_at_one(void **state)
{
    (void)state;
    for (int n = 2; n <= 12; n += 2) {
        assert_int_equal(heat_bucket(1.0, n), n / 2);
        assert_int_equal(heat_bucket(0.999999, n), n / 2 - 1);
        assert_int_equal(heat_bucket(1e-9, n), 0);
        assert_int_equal(heat_bucket(1e9, n), n - 1);
        assert_int_equal(heat_bucket(16.0, n), n - 1);
        assert_int_equal(heat_bucket(1.0 / 16, n), 0);
        /* Monotonic in the ratio. */
        int prev = 0;
        for (double r = 1e-3; r < 1e3; r *= 1.07) {
            int b = heat_bucket(r, n);
            assert_true(b >= prev);
            assert_true(b >= 0 && b < n);
            assert_int_equal(b >= n / 2, r >= 1.0); /* C side iff compute-bound */
            prev = b;
        }
    }
    /* 10 buckets: 2^0.8 steps. */
    assert_int_equal(heat_bucket(1.5, 10), 5);
    assert_int_equal(heat_bucket(2.0, 10), 6);
    assert_int_equal(heat_bucket(0.5, 10), 3);
    assert_int_equal(heat_bucket(0.25, 10), 2);
}

static void test_heat_bucket_invalid(void **state)
{
    (void)state;
    assert_int_equal(heat_bucket(0.0, 10), -1); /* no communication */
    assert_int_equal(heat_bucket(-1.0, 10), -1);
    assert_int_equal(heat_bucket(NAN, 10), -1);
    assert_int_equal(heat_bucket(INFINITY, 10), -1);
    assert_int_equal(heat_bucket(2.0, 1), -1);
    assert_int_equal(heat_bucket(2.0, 0), -1);
}

static void test_heat_floor_and_format(void **state)
{
    (void)state;
    assert_true(heat_bucket_floor(0, 10) == 0.0);
    assert_true(fabs(heat_bucket_floor(5, 10) - 1.0) < 1e-12);
    for (int b = 1; b < 10; b++) {
        double lo = heat_bucket_floor(b, 10);
        assert_int_equal(heat_bucket(lo * 1.0000001, 10), b);
    }
    char buf[16];
    assert_string_equal(heat_format(9.33, 3, buf, sizeof buf), "9.3");
    assert_string_equal(heat_format(9.33, 4, buf, sizeof buf), "9.33");
    assert_string_equal(heat_format(16.9, 3, buf, sizeof buf), "17");
    assert_string_equal(heat_format(16.9, 4, buf, sizeof buf), "16.9");
    assert_string_equal(heat_format(128.4, 3, buf, sizeof buf), "128");
    assert_string_equal(heat_format(0.52, 3, buf, sizeof buf), "0.5");
    assert_string_equal(heat_format(0.05, 3, buf, sizeof buf), ".05");
    assert_string_equal(heat_format(0.05, 4, buf, sizeof buf), "0.05");
    assert_string_equal(heat_format(5000, 3, buf, sizeof buf), ">1k");
    assert_string_equal(heat_format(2e6, 3, buf, sizeof buf), ">1M");
    assert_string_equal(heat_format(128.4, 2, buf, sizeof buf), "");
    assert_string_equal(heat_format(0, 4, buf, sizeof buf), "");
    assert_string_equal(heat_format(NAN, 4, buf, sizeof buf), "");
    for (double r = 0.001; r < 1e7; r *= 1.3)
        for (int w = 1; w < 8; w++)
            assert_true((int)strlen(heat_format(r, w, buf, sizeof buf)) <= w);
}

/* --- chart ------------------------------------------------------------------ */

static void grid_text(const chart_cell *g, int w, int h, char *out)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const chart_cell *c = &g[y * w + x];
            char ch = c->series ? (char)('0' + c->series) : c->cap ? '-' : '.';
            if (c->series && c->eighths < 8)
                ch = (char)('a' + c->series - 1); /* partial cell */
            *out++ = ch;
        }
        *out++ = '\n';
    }
    *out = '\0';
}

static void test_chart_raster_exact(void **state)
{
    (void)state;
    const double v[] = {4, 2, 2, 2, 1, 1, 1, 0.5, 0.5};
    chart_cell g[11 * 4];
    chart_spec c = {3, 3, v, 0, 5, 3, 1};
    assert_true(chart_raster(&c, g, 11, 4) == 8.0);
    char txt[128];
    grid_text(g, 11, 4, txt);
    /* Scale 8 over 4 rows (2 a row).  Bar 1: weights 4 (2 rows), KV 2, act
     * 2.  Bar 2 (2+1+1): weights fills the bottom row; the next row is half
     * KV, half activations, and goes to the series at its midpoint (act).
     * Bar 3 (1+0.5+0.5): one row whose midpoint lies in KV.  The capacity
     * (5) crosses the second row from the top. */
    assert_string_equal(txt, "333........\n"
                             "222--------\n"
                             "111.333....\n"
                             "111.111.222\n");
    /* A partial top cell: 3 of 8 over 4 rows = 1.5 rows. */
    const double p[] = {3};
    chart_cell g2[2 * 4];
    chart_spec c2 = {1, 1, p, 8, 0, 2, 0};
    chart_raster(&c2, g2, 2, 4);
    grid_text(g2, 2, 4, txt);
    assert_string_equal(txt, "..\n..\naa\n11\n");
    assert_int_equal(g2[2 * 2].eighths, 4);
}

static void test_chart_cap_rows_and_fit(void **state)
{
    (void)state;
    assert_int_equal(chart_cap_row(5, 8, 4), 1);
    assert_int_equal(chart_cap_row(8, 8, 4), 0);
    assert_int_equal(chart_cap_row(100, 8, 4), 0);
    assert_int_equal(chart_cap_row(0.1, 8, 4), 3);
    assert_int_equal(chart_cap_row(0, 8, 4), -1);
    assert_int_equal(chart_cap_row(5, 0, 4), -1);
    assert_int_equal(chart_cap_row(NAN, 8, 4), -1);
    assert_int_equal(chart_bars_fit(11, 3, 1), 3);
    assert_int_equal(chart_bars_fit(43, 3, 1), 11);
    assert_int_equal(chart_bars_fit(0, 3, 1), 0);
    assert_int_equal(chart_bars_fit(10, 0, 1), 0);
}

static void test_chart_degenerate_inputs(void **state)
{
    (void)state;
    chart_cell g[5 * 3];
    const double bad[] = {NAN, -5, INFINITY};
    chart_spec c = {1, 3, bad, 0, 0, 2, 1};
    assert_true(chart_raster(&c, g, 4, 3) == 0.0);
    for (int i = 0; i < 12; i++)
        assert_int_equal(g[i].series, 0);
    assert_true(chart_raster(NULL, g, 4, 3) == 0.0);
    assert_true(chart_raster(&c, g, 0, 3) == 0.0);
    /* More bars than fit: the extra ones are dropped, nothing written out of range. */
    const double many[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    chart_spec m = {10, 1, many, 0, 0, 2, 1};
    assert_true(chart_raster(&m, g, 5, 3) == 1.0);
    for (int y = 0; y < 3; y++) {
        assert_int_equal(g[y * 5 + 3].series, 1); /* second bar at x = 3..4 */
        assert_int_equal(g[y * 5 + 2].series, 0); /* the gap */
    }
    assert_int_equal(chart_bars_fit(5, 2, 1), 2);
}

/* --- theme and formatting ------------------------------------------------------ */

static void test_theme_pick(void **state)
{
    (void)state;
    assert_int_equal(theme_pick(0, 0, 0), THEME_MONO);
    assert_int_equal(theme_pick(1, 8, 0), THEME_8);
    assert_int_equal(theme_pick(1, 256, 0), THEME_256);
    assert_int_equal(theme_pick(1, 256, 1), THEME_MONO); /* NO_COLOR */
    assert_int_equal(theme_pick(1, 2, 0), THEME_MONO);
    const theme_glyphs *a = theme_glyphs_get(0);
    const char *const *strs[] = {&a->fill, &a->empty, &a->cap, &a->times, &a->micro, &a->dot,
                                 &a->left, &a->right, &a->up, &a->down};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        for (const char *p = *strs[i]; *p; p++)
            assert_true((unsigned char)*p < 128); /* ASCII set is ASCII */
}

/* --- listview ------------------------------------------------------------ */


/* Good and bad are told apart without colour (monochrome: bold against
 * reverse video, like the heat ramp's two sides). */
static void test_theme_mono_good_bad_differ(void **state)
{
    (void)state;
    theme_init(THEME_MONO, 0);
    assert_true(theme_attr(ROLE_GOOD) != theme_attr(ROLE_BAD));
    assert_true(theme_attr(ROLE_BAD) & A_REVERSE);
    assert_false(theme_attr(ROLE_GOOD) & A_REVERSE);
}

/* rgb is orange (r >= g >= b, r > b) or blue (b >= g >= r, b > r). */
static int is_orange(unsigned rgb)
{
    unsigned r = rgb >> 16, g = rgb >> 8 & 255, b = rgb & 255;
    return r >= g && g >= b && r > b;
}

static int is_blue(unsigned rgb)
{
    unsigned r = rgb >> 16, g = rgb >> 8 & 255, b = rgb & 255;
    return b >= g && g >= r && b > r;
}

/* One colour-blind safe diverging palette, orange (communication-bound)
 * to blue (compute-bound), in the explorer's 256-colour ramp and the SVG
 * heatmaps, with the same two ends. */
static void test_heat_palette_blue_orange(void **state)
{
    (void)state;
    for (int b = 0; b < 10; b++)
        assert_true(b < 5 ? is_orange(theme_heat256_rgb(b)) : is_blue(theme_heat256_rgb(b)));
    for (double r = 1.0 / 1024; r < 1; r *= 2)
        assert_true(is_orange(plot_heat_rgb(r)));
    for (double r = 2; r < 2048; r *= 2)
        assert_true(is_blue(plot_heat_rgb(r)));
    assert_int_equal(plot_heat_rgb(1.0), 0xffffff);
    assert_int_equal(plot_heat_rgb(1e-3), theme_heat256_rgb(1)); /* #d75f00 */
    assert_int_equal(plot_heat_rgb(1e3), theme_heat256_rgb(8));  /* #005faf */
    assert_int_equal(theme_heat256_rgb(1), 0xd75f00);
    assert_int_equal(theme_heat256_rgb(8), 0x005faf);
}

/* RFC 4648 section 10's test vectors, and a buffer one byte short. */
static void test_base64_rfc4648(void **state)
{
    (void)state;
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
                                      "Zm9vYmFy"};
    char buf[32];
    for (int i = 0; i < 7; i++) {
        assert_int_equal(term_base64((const unsigned char *)in[i], strlen(in[i]), buf, sizeof buf),
                         (int)strlen(out[i]));
        assert_string_equal(buf, out[i]);
    }
    const unsigned char bin[3] = {0xfb, 0xff, 0x00};
    assert_int_equal(term_base64(bin, 3, buf, sizeof buf), 4);
    assert_string_equal(buf, "+/8A");
    assert_int_equal(term_base64((const unsigned char *)"foobar", 6, buf, 8), -1);
    assert_string_equal(buf, "");
    assert_int_equal(term_base64((const unsigned char *)"foobar", 6, buf, 9), 8);
}

/* ESC ] 52 ; c ; base64 BEL, and the TERM / SHARDSCOPE_OSC52 rule. */
static void test_osc52(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(term_osc52("shardscope eval", buf, sizeof buf), 7 + 20 + 1);
    assert_string_equal(buf, "\033]52;c;c2hhcmRzY29wZSBldmFs\a");
    assert_int_equal(term_osc52("shardscope eval", buf, 28), -1);
    assert_int_equal(term_osc52("shardscope eval", buf, 29), 28);
    assert_true(term_osc52_allowed("xterm-256color", NULL));
    assert_true(term_osc52_allowed("tmux-256color", ""));
    assert_true(term_osc52_allowed("screen", NULL));
    assert_false(term_osc52_allowed("dumb", NULL));
    assert_false(term_osc52_allowed("linux", NULL));
    assert_false(term_osc52_allowed("vt100", NULL));
    assert_false(term_osc52_allowed("cons25", NULL));
    assert_false(term_osc52_allowed("", NULL));
    assert_false(term_osc52_allowed(NULL, NULL));
    assert_false(term_osc52_allowed("xterm-256color", "0"));
    assert_true(term_osc52_allowed("vt100", "1"));
    /* no screen open: nothing is sent */
    assert_int_equal(term_clipboard("x"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base64_rfc4648),
        cmocka_unit_test(test_osc52),
        cmocka_unit_test(test_slider_make_clamps),
        cmocka_unit_test(test_slider_gpu_count_pow2_and_fine),
        cmocka_unit_test(test_slider_geom_linear_list),
        cmocka_unit_test(test_slider_fraction_and_fill),
        cmocka_unit_test(test_heat_bucket_diverges_at_one),
        cmocka_unit_test(test_heat_bucket_invalid),
        cmocka_unit_test(test_heat_floor_and_format),
        cmocka_unit_test(test_chart_raster_exact),
        cmocka_unit_test(test_chart_cap_rows_and_fit),
        cmocka_unit_test(test_chart_degenerate_inputs),
        cmocka_unit_test(test_theme_pick),
        cmocka_unit_test(test_theme_mono_good_bad_differ),
        cmocka_unit_test(test_heat_palette_blue_orange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
