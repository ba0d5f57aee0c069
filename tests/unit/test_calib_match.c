/*
 * test_calib_match.c - calib/match.c: driver device names to GPU presets
 * (form factor, memory size, variant words), on a hand-made list and on the
 * shipped presets.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "calib.h"
#include "preset.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

static engine_gpu mkgpu(const char *name, const char *display, double mem)
{
    engine_gpu g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    snprintf(g.display, sizeof g.display, "%s", display);
    g.memory_bytes = mem;
    g.peak_flops[ENGINE_FP16] = 1e14;
    g.hbm_bytes_per_s = 1e12;
    return g;
}

static void test_match_preset(void **state)
{
    (void)state;
    engine_gpu g[9];
    g[0] = mkgpu("a100-40gb", "A100 SXM4 40GB", 40e9);
    g[1] = mkgpu("a100-80gb", "A100 SXM4 80GB", 80e9);
    g[2] = mkgpu("h100-pcie", "H100 PCIe 80GB", 80e9);
    g[3] = mkgpu("h100-sxm", "H100 SXM5 80GB", 80e9);
    g[4] = mkgpu("h200", "H200 SXM 141GB", 141e9);
    g[5] = mkgpu("l40s", "L40S 48GB", 48e9);
    g[6] = mkgpu("rtx-4090", "GeForce RTX 4090", 24e9);
    g[7] = mkgpu("rtx-2070", "GeForce RTX 2070", 8e9);
    g[8] = mkgpu("b200", "B200 180GB", 180e9);
    struct { const char *dev; double mem; const char *want; } cases[] = {
        {"NVIDIA H100 80GB HBM3", 85.0e9, "h100-sxm"},
        {"NVIDIA H100 PCIe", 85.0e9, "h100-pcie"},
        {"NVIDIA A100-SXM4-80GB", 85.1e9, "a100-80gb"},
        {"NVIDIA A100-SXM4-40GB", 42.4e9, "a100-40gb"},
        {"NVIDIA A100-PCIE-40GB", 42.4e9, "a100-40gb"},
        {"NVIDIA H200", 150e9, "h200"},
        {"NVIDIA L40S", 48.3e9, "l40s"},
        {"NVIDIA GeForce RTX 4090", 25.3e9, "rtx-4090"},
        {"NVIDIA GeForce RTX 2070", 8.4e9, "rtx-2070"},
        {"NVIDIA B200", 191e9, "b200"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = calib_match_gpu_preset(cases[i].dev, cases[i].mem, g, 9);
        assert_true(k >= 0);
        if (strcmp(g[k].name, cases[i].want) != 0)
            fail_msg("%s -> %s, want %s", cases[i].dev, g[k].name, cases[i].want);
    }
    assert_int_equal(calib_match_gpu_preset("NVIDIA L40", 48e9, g, 9), -1);
    assert_int_equal(calib_match_gpu_preset("NVIDIA Tesla T4", 16e9, g, 9), -1);
    assert_int_equal(calib_match_gpu_preset("CPU Intel(R) Xeon(R)", 0, g, 9), -1);
    assert_int_equal(calib_match_gpu_preset(NULL, 0, g, 9), -1);
}

/* The heuristic against the shipped presets, with the names drivers
 * report. */
static void test_match_shipped_presets(void **state)
{
    (void)state;
    preset_db *db = NULL;
    engine_error err = {{0}};
    assert_int_equal(preset_db_load("", &db, &err), 0);
    struct { const char *dev; double mem; const char *want; } cases[] = {
        {"NVIDIA H100 80GB HBM3", 85.0e9, "h100-sxm"},
        {"NVIDIA H100 PCIe", 85.0e9, "h100-pcie"},
        {"NVIDIA A100-SXM4-80GB", 85.1e9, "a100-80gb"},
        {"NVIDIA A100-SXM4-40GB", 42.4e9, "a100-40gb"},
        {"NVIDIA H200", 150e9, "h200"},
        {"NVIDIA L40S", 48.3e9, "l40s"},
        {"NVIDIA L4", 23.8e9, "l4"},
        {"NVIDIA A10G", 23.8e9, "a10g"},
        {"NVIDIA GeForce RTX 2070", 8.4e9, "rtx-2070"},
        {"NVIDIA GeForce RTX 4090", 25.3e9, "rtx-4090"},
        {"NVIDIA B200", 191e9, "b200"},
        {"NVIDIA GeForce RTX 2070 SUPER", 8.4e9, NULL},
        {"NVIDIA H100 NVL", 100e9, NULL},
        {"Tesla T4", 16e9, NULL},
        {"NVIDIA L40", 48e9, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = calib_match_gpu_preset(cases[i].dev, cases[i].mem, db->gpus, db->n_gpus);
        const char *got = k >= 0 ? db->gpus[k].name : NULL;
        if (cases[i].want ? !got || strcmp(got, cases[i].want) : got != NULL)
            fail_msg("%s -> %s, want %s", cases[i].dev, got ? got : "(none)",
                     cases[i].want ? cases[i].want : "(none)");
    }
    preset_db_free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_preset),
        cmocka_unit_test(test_match_shipped_presets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
