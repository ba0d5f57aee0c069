/*
 * calib_fixture.c - the synthetic calibration of calib_fixture.h.
 */
#include "calib_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char ts_calib_tmp[256];

int ts_calib_fixture(calib_result *r)
{
    return ts_calib_fixture_as(r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm",
                               "2026-11-29T09:00:00Z", 0.7);
}

int ts_calib_fixture_as(calib_result *r, const char *backend, const char *device,
                        const char *preset, const char *date, double eta_compute)
{
    memset(r, 0, sizeof *r);
    snprintf(r->dev.name, sizeof r->dev.name, "%s", device);
    snprintf(r->dev.backend, sizeof r->dev.backend, "%s", backend);
    snprintf(r->dev.dtype, sizeof r->dev.dtype, "fp16");
    snprintf(r->date, sizeof r->date, "%s", date);
    snprintf(r->preset, sizeof r->preset, "%s", preset);
    calib_roofline *f = &r->roofline;
    f->form = CALIB_ROOFLINE_ENGINE;
    f->peak_flops = 989e12;
    f->bandwidth = 3.35e12;
    f->eta_compute = 0.7;
    f->eta_memory = 0.8;
    f->overhead_s = 8e-6;
    f->mape = 0.031;
    f->r2 = 0.9982;
    int bad = 0;
    static const int HID[] = {1024, 2048, 4096}, BAT[] = {1, 2, 4, 8}, SEQ[] = {512, 2048};
    for (int h = 0; h < 3; h++)
        for (int b = 0; b < 4; b++)
            for (int s = 0; s < 2; s++) {
                calib_point p = {CALIB_POINT_PREFILL, HID[h], BAT[b], SEQ[s], 0, 0, 0};
                calib_layer_cost(p.hidden, p.batch * p.seq, 2.0, &p.flops, &p.bytes);
                p.time_s = calib_roofline_predict(f, p.flops, p.bytes) * (1.0 + 0.03 * (s - 0.5));
                bad |= calib_result_add_point(r, &p);
            }
    static const int DH[] = {4096, 8192}, DT[] = {1, 16, 256};
    for (int h = 0; h < 2; h++)
        for (int t = 0; t < 3; t++) {
            calib_point p = {CALIB_POINT_DECODE, DH[h], DT[t], 1, 0, 0, 0};
            calib_layer_cost(p.hidden, p.batch, 2.0, &p.flops, &p.bytes);
            p.time_s = calib_roofline_predict(f, p.flops, p.bytes) * 1.02;
            bad |= calib_result_add_point(r, &p);
        }
    f->n = r->n_points;
    calib_point c = {CALIB_POINT_COPY, 0, 0, 0, 0, 4e9, 1.5e-3};
    bad |= calib_result_add_point(r, &c);
    if (bad || calib_fit_power_law(r->points, r->n_points, &r->power_law, NULL) != 0) {
        calib_result_free(r);
        return -1;
    }
    r->has_power_law = 1;
    f->eta_compute = eta_compute; /* after the times: they stay the H100's */
    for (double b = 1024; b <= 16 * 1048576.0; b *= 4)
        bad |= calib_result_add_comm(r, b, 12e-6 + b / 150e9);
    snprintf(r->comm_label, sizeof r->comm_label, "NCCL AllReduce (2 GPUs)");
    r->comm_fit = (calib_alpha_beta){12e-6, 150e9, 0.9990, 0.04, 8};
    r->has_comm_fit = 1;
    if (bad) {
        calib_result_free(r);
        return -1;
    }
    return 0;
}

int ts_calib_tmp_setup(void **state)
{
    (void)state;
    snprintf(ts_calib_tmp, sizeof ts_calib_tmp, "/tmp/shardscope-test-calib-XXXXXX");
    return mkdtemp(ts_calib_tmp) ? 0 : -1;
}

int ts_calib_tmp_teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", ts_calib_tmp);
    return system(cmd) == 0 ? 0 : -1;
}
