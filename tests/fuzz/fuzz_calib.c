/*
 * fuzz_calib.c - libFuzzer harness for the calibration-file reader
 * (calib.h: calib_store_load_file, the engine's view, and
 * calib_store_load_result, the explorer's view).
 *
 * Both readers take a path: each input is written to <scratch>/calib.json.
 * Checked: a failure leaves a one-line message naming the file; a file
 * that loads gives a measured engine view with finite efficiencies, and
 * its calib_result, written back with calib_result_to_json, reads again as
 * the same engine view (the paired parse/print).
 */
#include "fuzz_util.h"

#include <math.h>

#include "calib.h"
#include "engine.h"

static char path[1200], path2[1200];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(path, sizeof path, "%s/calib.json", fuzz_scratch_dir());
    snprintf(path2, sizeof path2, "%s/written.json", fuzz_scratch_dir());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file(path, data, size);
    engine_calib c;
    char preset[ENGINE_NAME_MAX];
    engine_error err = {{0}};
    int rc = calib_store_load_file(path, &c, preset, sizeof preset, &err);
    if (rc != 0) {
        FUZZ_CHECK(rc == -1);
        FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
        FUZZ_CHECK(strstr(err.msg, path) != NULL);
    } else {
        FUZZ_CHECK(c.measured);
        FUZZ_CHECK(isfinite(c.eta_compute) && isfinite(c.eta_memory));
    }
    calib_result r;
    engine_error err2 = {{0}};
    int rc2 = calib_store_load_result(path, &r, &err2);
    /* The explorer's view accepts exactly what the engine's view does
     * (it applies the same checks first) or fails later on its points. */
    if (rc != 0)
        FUZZ_CHECK(rc2 != 0);
    if (rc2 != 0) {
        FUZZ_CHECK(fuzz_is_message(err2.msg, sizeof err2.msg));
        return 0;
    }
    /* Written back, it reads again as the same calibration. */
    char *json = calib_result_to_json(&r);
    FUZZ_CHECK(json != NULL);
    fuzz_write_file(path2, (const uint8_t *)json, strlen(json));
    free(json);
    engine_calib view, again;
    calib_result_to_engine(&r, &view);
    calib_result_free(&r);
    FUZZ_CHECK(calib_store_load_file(path2, &again, NULL, 0, &err) == 0);
    FUZZ_CHECK(again.eta_compute == view.eta_compute);
    FUZZ_CHECK(again.eta_memory == view.eta_memory);
    FUZZ_CHECK(again.layer_overhead_s == view.layer_overhead_s);
    return 0;
}
