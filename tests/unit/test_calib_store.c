/*
 * test_calib_store.c - calib/store.c: the file name of a device, the atomic
 * save (missing directories made, a crash between write and rename leaves
 * the old file and an ignored temporary), which file applies to a GPU
 * preset (the newest "cuda" one naming it; CPU results never, broken
 * neighbours skipped, a broken candidate reported naming the field), the
 * XDG directory, a saved file read back as a calib_result, and the
 * temporaries named by PID (a dead writer's removed by the next save, a
 * live writer's and foreign names kept).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "calib.h"
#include "calib_fixture.h"
#include "support_files.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* The shared fixture as another device, preset, date and eta_compute. */
static void fake_result(calib_result *r, const char *backend, const char *device,
                        const char *preset, const char *date, double eta_c)
{
    assert_int_equal(ts_calib_fixture_as(r, backend, device, preset, date, eta_c), 0);
}

static void test_store_roundtrip(void **state)
{
    (void)state;
    calib_result r;
    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-29T09:00:00Z", 0.7);
    char path[700];
    snprintf(path, sizeof path, "%s/a/b/nvidia-h100-80gb-hbm3.json", ts_calib_tmp);
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    engine_calib c;
    char preset[64];
    assert_int_equal(calib_store_load_file(path, &c, preset, sizeof preset, &err), 0);
    assert_int_equal(c.measured, 1);
    assert_string_equal(c.backend, "cuda");
    assert_string_equal(c.device, "NVIDIA H100 80GB HBM3");
    assert_string_equal(c.date, "2026-11-29T09:00:00Z");
    assert_string_equal(preset, "h100-sxm");
    assert_true(REL(c.eta_compute, 0.7) < 1e-6);
    assert_true(REL(c.eta_memory, 0.8) < 1e-6);
    assert_true(REL(c.layer_overhead_s, 8e-6) < 1e-6);

    calib_result_free(&r);
    calib_result_free(&r); /* twice is safe */
}

static void test_store_file_name(void **state)
{
    (void)state;
    char buf[128];
    calib_store_file_name("NVIDIA H100 80GB HBM3", buf, sizeof buf);
    assert_string_equal(buf, "nvidia-h100-80gb-hbm3.json");
    calib_store_file_name("CPU Intel(R) Xeon(R) Processor", buf, sizeof buf);
    assert_string_equal(buf, "cpu-intel-r-xeon-r-processor.json");
    calib_store_file_name("../..//", buf, sizeof buf);
    assert_string_equal(buf, "device.json");
}

static int count_tmp_files(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c '\\.tmp\\.'", dir);
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = -1;
        pclose(f);
    }
    return n;
}

static void test_store_crash_between_write_and_rename(void **state)
{
    (void)state;
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/crash", ts_calib_tmp);
    snprintf(path, sizeof path, "%s/nvidia-h100-80gb-hbm3.json", dir);
    calib_result old, neu;
    fake_result(&old, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-01T00:00:00Z", 0.5);
    fake_result(&neu, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-29T00:00:00Z", 0.75);
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(&old, path, CALIB_STORE_NORMAL, &err), 0);
    /* The new calibration is written and synced, then the process "dies"
     * before the rename. */
    assert_int_equal(calib_store_save(&neu, path, CALIB_STORE_STOP_AFTER_WRITE, &err), 0);
    assert_int_equal(count_tmp_files(dir), 1);
    engine_calib c;
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_true(REL(c.eta_compute, 0.5) < 1e-6);
    assert_string_equal(c.date, "2026-11-01T00:00:00Z");
    /* The loader ignores the orphaned temporary file. */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 1);
    assert_true(REL(c.eta_compute, 0.5) < 1e-6);
    /* A completed save replaces it. */
    assert_int_equal(calib_store_save(&neu, path, CALIB_STORE_NORMAL, &err), 0);
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_true(REL(c.eta_compute, 0.75) < 1e-6);
    calib_result_free(&old);
    calib_result_free(&neu);
}

static void test_store_for_gpu(void **state)
{
    (void)state;
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/forgpu", ts_calib_tmp);
    engine_error err = {{0}};
    engine_calib c;
    /* No directory yet: none, not an error. */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 0);
    assert_int_equal(c.measured, 0);

    calib_result r;
    /* A CPU result, even one claiming a GPU preset, is never applied. */
    fake_result(&r, "cpu", "CPU Xeon", "h100-sxm", "2026-11-29T10:00:00Z", 0.9);
    snprintf(path, sizeof path, "%s/cpu-xeon.json", dir);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    calib_result_free(&r);
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 0);
    /* ... but loads when named explicitly. */
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_string_equal(c.backend, "cpu");

    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-02T00:00:00Z", 0.6);
    snprintf(path, sizeof path, "%s/one.json", dir);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    calib_result_free(&r);
    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-20T00:00:00Z", 0.65);
    snprintf(path, sizeof path, "%s/two.json", dir);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    calib_result_free(&r);
    assert_int_equal(calib_store_load_for_gpu_in(dir, "H100-SXM", &c, &err), 1);
    assert_true(REL(c.eta_compute, 0.65) < 1e-6); /* the newest */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "a100-80gb", &c, &err), 0);

    /* Broken files: garbage is skipped; a file for this preset with a bad
     * field is reported, naming the field. */
    snprintf(path, sizeof path, "%s/garbage.json", dir);
    ts_write_file(path, "{not json");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    assert_non_null(strstr(err.msg, "garbage.json: not a calibration file (invalid JSON"));
    snprintf(path, sizeof path, "%s/bad.json", dir);
    ts_write_file(path, "{\"backend\":\"cuda\",\"device\":\"NVIDIA A100-SXM4-80GB\","
                     "\"date\":\"2026-11-29T00:00:00Z\",\"preset\":\"a100-80gb\","
                     "\"roofline\":{\"eta_compute\":-1,\"eta_memory\":0.8,\"overhead_s\":0}}");
    assert_int_equal(calib_store_load_for_gpu_in(dir, "a100-80gb", &c, &err), -1);
    char want[700];
    snprintf(want, sizeof want, "%s: roofline.eta_compute: expected a number in "
             "[1e-06, 2], got -1", path);
    assert_string_equal(err.msg, want);
    assert_int_equal(c.measured, 0);
    ts_write_file(path, "{\"backend\":\"cuda\",\"device\":\"x\",\"date\":\"d\","
                     "\"roofline\":{\"eta_compute\":0.5,\"overhead_s\":0}}");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    snprintf(want, sizeof want, "%s: roofline.eta_memory: expected a number in "
             "[1e-06, 2], missing", path);
    assert_string_equal(err.msg, want);
    ts_write_file(path, "{\"backend\":\"tpu\",\"device\":\"x\",\"date\":\"d\"}");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    snprintf(want, sizeof want, "%s: backend: expected \"cuda\" or \"cpu\", got \"tpu\"",
             path);
    assert_string_equal(err.msg, want);
    /* Still found for h100-sxm despite the broken neighbours. */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 1);
    /* A newer file for it with a count that is no whole number is refused
     * naming the field; the previous calibration stays the one applied. */
    snprintf(path, sizeof path, "%s/three.json", dir);
    ts_write_file(path, "{\"backend\":\"cuda\",\"device\":\"NVIDIA H100 80GB HBM3\","
                     "\"date\":\"2026-11-30T00:00:00Z\",\"preset\":\"h100-sxm\","
                     "\"device_info\":{\"sm_count\":2.5},"
                     "\"roofline\":{\"eta_compute\":0.9,\"eta_memory\":0.8,\"overhead_s\":0}}");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    snprintf(want, sizeof want, "%s: device_info.sm_count: expected a whole number in "
             "[0, 2147483647], got 2.5", path);
    assert_string_equal(err.msg, want);
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 1);
    assert_true(REL(c.eta_compute, 0.65) < 1e-6);
    unlink(path);

    /* The default directory follows XDG_CONFIG_HOME. */
    char buf[600];
    setenv("XDG_CONFIG_HOME", ts_calib_tmp, 1);
    assert_non_null(calib_store_dir(buf, sizeof buf));
    snprintf(want, sizeof want, "%s/shardscope/calibration", ts_calib_tmp);
    assert_string_equal(buf, want);
    assert_int_equal(calib_store_load_for_gpu("h100-sxm", &c), 0);
    unsetenv("XDG_CONFIG_HOME");
}

static void write_json(const char *path, const calib_result *r)
{
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(r, path, CALIB_STORE_NORMAL, &err), 0);
}

static void test_store_load_result_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/shardscope-cview-XXXXXX";
    assert_non_null(mkdtemp(dir));
    calib_result r, back;
    assert_int_equal(ts_calib_fixture(&r), 0);
    r.n_comm = 0; /* a series of its own */
    r.has_comm_fit = 1;
    snprintf(r.comm_label, sizeof r.comm_label, "loopback (2 local processes)");
    r.comm_fit.alpha_s = 2e-5;
    r.comm_fit.bandwidth = 4e9;
    r.comm_fit.r2 = 0.99;
    assert_int_equal(calib_result_add_comm(&r, 1024, 2.1e-5), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/h100.json", dir);
    write_json(path, &r);
    engine_error err = {{0}};
    assert_int_equal(calib_store_load_result(path, &back, &err), 0);
    assert_string_equal(back.dev.name, r.dev.name);
    assert_string_equal(back.dev.backend, "cuda");
    assert_string_equal(back.dev.dtype, "fp16");
    assert_string_equal(back.date, r.date);
    assert_string_equal(back.preset, "h100-sxm");
    assert_int_equal(back.n_points, r.n_points);
    for (int i = 0; i < r.n_points; i++) {
        assert_int_equal(back.points[i].kind, r.points[i].kind);
        assert_int_equal(back.points[i].hidden, r.points[i].hidden);
        assert_int_equal(back.points[i].batch, r.points[i].batch);
        assert_int_equal(back.points[i].seq, r.points[i].seq);
        assert_true(fabs(back.points[i].time_s / r.points[i].time_s - 1) < 1e-12);
        assert_true(back.points[i].flops == r.points[i].flops);
    }
    assert_true(back.has_power_law);
    assert_true(fabs(back.power_law.beta / r.power_law.beta - 1) < 1e-12);
    assert_true(fabs(back.power_law.a / r.power_law.a - 1) < 1e-12);
    assert_int_equal(back.roofline.form, CALIB_ROOFLINE_ENGINE);
    assert_true(back.roofline.eta_compute == 0.7 && back.roofline.eta_memory == 0.8);
    assert_true(back.roofline.overhead_s == 8e-6 && back.roofline.mape == 0.031);
    assert_true(back.roofline.peak_flops == 989e12 && back.roofline.bandwidth == 3.35e12);
    assert_true(back.has_comm_fit && back.comm_fit.bandwidth == 4e9);
    assert_int_equal(back.n_comm, 1);
    /* Predictions from the loaded file equal those of the original. */
    for (int i = 0; i < r.n_points; i++)
        assert_true(calib_roofline_predict(&back.roofline, back.points[i].flops,
                                           back.points[i].bytes) ==
                    calib_roofline_predict(&r.roofline, r.points[i].flops, r.points[i].bytes));
    calib_result_free(&back);

    /* Which file: the newest cuda one naming the preset; a CPU file and an
     * older one are passed over. */
    calib_result older = r;
    older.points = NULL;
    older.n_points = 0;
    older.comm = NULL;
    older.n_comm = 0;
    snprintf(older.date, sizeof older.date, "2025-01-01T00:00:00Z");
    char p2[600], p3[600], got[4400];
    snprintf(p2, sizeof p2, "%s/older.json", dir);
    write_json(p2, &older);
    calib_result cpu = older;
    snprintf(cpu.dev.backend, sizeof cpu.dev.backend, "cpu");
    snprintf(cpu.date, sizeof cpu.date, "2027-01-01T00:00:00Z");
    snprintf(p3, sizeof p3, "%s/cpu.json", dir);
    write_json(p3, &cpu);
    assert_int_equal(calib_store_load_result_for_gpu_in(dir, "H100-SXM", &back, got,
                                                        sizeof got, &err), 1);
    assert_string_equal(got, path);
    assert_int_equal(back.n_points, r.n_points);
    calib_result_free(&back);
    engine_calib ec;
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &ec, NULL), 1);
    assert_string_equal(ec.date, r.date); /* the same file the engine applies */
    assert_int_equal(calib_store_load_result_for_gpu_in(dir, "a100-80gb", &back, got,
                                                        sizeof got, &err), 0);
    assert_int_equal(calib_store_load_result_for_gpu_in("/nonexistent/x", "h100-sxm", &back,
                                                        NULL, 0, &err), 0);
    /* The older file alone has no points: a result without points. */
    assert_int_equal(calib_store_load_result(p2, &back, &err), 0);
    assert_int_equal(back.n_points, 0);
    calib_result_free(&back);

    /* A broken point is an error naming the file and the point. */
    char p4[600];
    snprintf(p4, sizeof p4, "%s/broken.json", dir);
    FILE *f = fopen(p4, "w");
    assert_non_null(f);
    fputs("{\"backend\":\"cuda\",\"device\":\"X\",\"date\":\"2026\",\"preset\":\"zz\","
          "\"roofline\":{\"eta_compute\":0.5,\"eta_memory\":0.5,\"overhead_s\":0},"
          "\"points\":[{\"kind\":\"prefill\",\"hidden\":1,\"batch\":1,\"seq\":1,"
          "\"flops\":1,\"bytes\":1,\"time_s\":-1}]}\n", f);
    fclose(f);
    assert_int_equal(calib_store_load_result(p4, &back, &err), -1);
    assert_non_null(strstr(err.msg, "broken.json"));
    assert_non_null(strstr(err.msg, "points[0]"));
    assert_int_equal(back.n_points, 0);
    assert_int_equal(calib_store_load_result("/nonexistent/x.json", &back, &err), -1);

    calib_result_free(&r);
    unlink(path);
    unlink(p2);
    unlink(p3);
    unlink(p4);
    rmdir(dir);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A PID that is certainly gone: a child that exited and was reaped. */
static long dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    assert_true(p > 0);
    assert_int_equal(waitpid(p, NULL, 0), p);
    return (long)p;
}

static void test_store_tmp_pid_pattern(void **state)
{
    (void)state;
    assert_int_equal(calib_store_tmp_pid("gpu.json.tmp.1234.aB9_xY"), 1234);
    assert_int_equal(calib_store_tmp_pid("gpu.json.tmp.1234.abc"), 0);   /* not mkstemp's 6 */
    assert_int_equal(calib_store_tmp_pid("gpu.json.tmp.aB9xYz"), 0);     /* the old, PID-less */
    assert_int_equal(calib_store_tmp_pid("gpu.txt.tmp.1234.aB9xYz"), 0); /* not a calibration */
    assert_int_equal(calib_store_tmp_pid("gpu.json"), 0);
    assert_int_equal(calib_store_tmp_pid(".json.tmp.12.abcdef"), 0);
    assert_int_equal(calib_store_tmp_pid("gpu.json.tmp.0.abcdef"), 0);
}

/* A crash mid-save left temporaries: the next save removes the dead
 * writer's and keeps a live one's (ours, our parent's) and other names;
 * its own temporary carries our PID and is renamed away. */
static void test_store_sweeps_dead_writers_temps(void **state)
{
    (void)state;
    char dir[512], path[600], dead[700], live[700], parent[700], foreign[700], other[700];
    snprintf(dir, sizeof dir, "%s/sweep", ts_calib_tmp);
    snprintf(path, sizeof path, "%s/nvidia-h100-80gb-hbm3.json", dir);
    calib_result r;
    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-29T00:00:00Z", 0.75);
    engine_error err = {{0}};
    /* A crash of our own: the temporary is named with our PID. */
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_STOP_AFTER_WRITE, &err), 0);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '^nvidia-h100-80gb-hbm3\\.json\\.tmp\\.%ld\\.'",
             dir, (long)getpid());
    assert_int_equal(system(cmd), 0);
    snprintf(dead, sizeof dead, "%s/other-gpu.json.tmp.%ld.Ab12Cd", dir, dead_pid());
    snprintf(live, sizeof live, "%s/nvidia-h100-80gb-hbm3.json.tmp.%ld.Zz99zz", dir,
             (long)getpid());
    snprintf(parent, sizeof parent, "%s/nvidia-h100-80gb-hbm3.json.tmp.%ld.Pp00pp", dir,
             (long)getppid());
    snprintf(foreign, sizeof foreign, "%s/nvidia-h100-80gb-hbm3.json.tmp.Xy34Zw", dir);
    snprintf(other, sizeof other, "%s/notes.txt.tmp.%ld.Ab12Cd", dir, dead_pid());
    const char *made[] = {dead, live, parent, foreign, other};
    for (int i = 0; i < 5; i++)
        ts_write_file(made[i], "{}");
    int before = count_tmp_files(dir);
    assert_int_equal(before, 6);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    assert_false(file_exists(dead));
    assert_true(file_exists(live));
    assert_true(file_exists(parent));
    assert_true(file_exists(foreign));
    assert_true(file_exists(other));
    /* Ours from the simulated crash stays too (we are alive); the save's
     * own temporary was renamed into place. */
    assert_int_equal(count_tmp_files(dir), 5);
    assert_true(file_exists(path));
    calib_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_file_name),
        cmocka_unit_test(test_store_roundtrip),
        cmocka_unit_test(test_store_crash_between_write_and_rename),
        cmocka_unit_test(test_store_for_gpu),
        cmocka_unit_test(test_store_load_result_round_trip),
        cmocka_unit_test(test_store_tmp_pid_pattern),
        cmocka_unit_test(test_store_sweeps_dead_writers_temps),
    };
    return cmocka_run_group_tests(tests, ts_calib_tmp_setup, ts_calib_tmp_teardown);
}
