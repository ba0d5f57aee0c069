/*
 * calib_fixture.h - the one synthetic calibration the tests share (unit
 * tests of calib/, the calibration view, the explorer's screens), and a
 * private temporary directory for the tests that save files.
 */
#ifndef SHARDSCOPE_TEST_CALIB_FIXTURE_H
#define SHARDSCOPE_TEST_CALIB_FIXTURE_H

#include "calib.h"

/* An H100 SXM run with fixed numbers: "NVIDIA H100 80GB HBM3", cuda, fp16,
 * preset h100-sxm, 2026-11-29T09:00:00Z.  The roofline is the engine's
 * form with 989 TFLOP/s and 3.35 TB/s roofs, eta_compute 0.7, eta_memory
 * 0.8, 8 us overhead (stored with MAPE 0.031, R^2 0.9982, 30 points);
 * the points: 24 prefill (hidden 1024, 2048, 4096 x batch 1, 2, 4, 8 x
 * seq 512, 2048; 1.5 % under the roofline at seq 512, 1.5 % over at 2048),
 * 6 decode (hidden 4096, 8192 x 1, 16, 256 tokens; 2 % over), then one
 * 4 GB copy in 1.5 ms; the power law fitted to them (closed form: the
 * same figures every run).  Communication: "NCCL AllReduce (2 GPUs)", 8
 * sizes 1 KiB .. 16 MiB exactly on alpha 12 us + bytes / 150 GB/s, the
 * stored fit {12 us, 150 GB/s, R^2 0.9990, MAPE 0.04, 8}.  No fit is run:
 * calib_result_fit would replace the stored figures.  *r is owned by the
 * caller (calib_result_free).  0, or -1 when out of memory. */
int ts_calib_fixture(calib_result *r);

/* The same, relabelled (backend "cuda" or "cpu", device, preset - may be
 * "" -, date) with another eta_compute. */
int ts_calib_fixture_as(calib_result *r, const char *backend, const char *device,
                        const char *preset, const char *date, double eta_compute);

/* cmocka group setup / teardown: a fresh directory in ts_calib_tmp
 * (/tmp/shardscope-test-calib-XXXXXX), removed with its contents. */
extern char ts_calib_tmp[256];
int ts_calib_tmp_setup(void **state);
int ts_calib_tmp_teardown(void **state);

#endif
