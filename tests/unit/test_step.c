/*
 * test_step.c - the step-time API (engine_stepper / engine_step_s) against
 * engine_evaluate: a pure-decode mix is its ITL, a pure-prefill mix its
 * TTFT, a mixed step lies between its parts and their sum; the KV capacity
 * is the one engine_result reports.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "support_asserts.h"
#include "support_models.h"
#include "support_presets.h"

static engine_result eval_at(const engine_scenario *s, engine_plan p)
{
    engine_result r;
    engine_error err;
    assert_int_equal(engine_evaluate(s, p, &r, &err), 0);
    assert_true(r.valid);
    return r;
}

static double decode_mix_s(const engine_stepper *st, double b, double past)
{
    engine_step_mix mx = {NULL, 0, b, past};
    return engine_step_s(st, &mx);
}

static double prefill_mix_s(const engine_stepper *st, double b, double s, double past)
{
    engine_step_chunk ch = {b, s, past};
    engine_step_mix mx = {&ch, 1, 0, 0};
    return engine_step_s(st, &mx);
}

/* One scenario and plan: decode and prefill mixes against ITL and TTFT at
 * several batches. */
static void check_pure(engine_scenario *s, engine_plan p)
{
    engine_stepper st;
    engine_error err;
    s->gpus = p.tp * p.pp * p.dp;
    assert_int_equal(engine_stepper_init(&st, s, p, &err), 0);
    assert_true(st.valid);
    const int batches[] = {1, 3, 8, 32};
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++) {
        s->batch = batches[i];
        engine_result r = eval_at(s, p);
        double past = s->prompt + s->gen / 2.0;
        assert_near(decode_mix_s(&st, s->batch, past), r.itl_s, 1e-9);
        const engine_framework *fw = s->framework;
        if ((!fw || fw->max_num_tokens == 0 ||
             (double)s->batch * s->prompt <= fw->max_num_tokens) &&
            s->microbatches <= s->batch) /* above it eval splits sequences */
            assert_near(prefill_mix_s(&st, s->batch, s->prompt, 0), r.ttft_s, 1e-9);
    }
}

static void test_pure_mixes_match_evaluate(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(2e-6, 300), 8);
    s.prompt = 512;
    s.gen = 128;
    const engine_plan plans[] = {{1, 1, 1, 1}, {2, 1, 1, 1}, {8, 1, 1, 1},
                                 {1, 4, 1, 1}, {2, 2, 2, 1}};
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++)
        check_pure(&s, plans[i]);
    s.schedule = ENGINE_SCHED_INTERLEAVED; /* the interleaved hops */
    check_pure(&s, plans[3]);
    s.schedule = ENGINE_SCHED_GPIPE;
    /* the scenario's micro-batch counts (at most the smallest batch: a
     * step's chunks are whole sequences) in both phases */
    for (int m = 1; m <= 2; m++) {
        s.microbatches = m;
        s.decode_microbatches = m;
        check_pure(&s, plans[3]);
        check_pure(&s, plans[4]);
    }
    s.microbatches = 0;
    s.decode_microbatches = 0;
    /* MoE (experts hit by the step's tokens) and MLA */
    engine_model mx = tm_mixtral_8x7b();
    s.model = &mx;
    const engine_plan moe[] = {{2, 1, 1, 1}, {2, 1, 4, 8}};
    for (size_t i = 0; i < 2; i++)
        check_pure(&s, moe[i]);
    engine_model ds = tm_deepseek_v3();
    engine_gpu big = tg_with_memory(1000);
    s.model = &ds;
    s.gpu = &big;
    check_pure(&s, (engine_plan){8, 1, 1, 8});
}

/* The shipped framework profiles: vLLM's host loop is not overlapped and
 * costs per running sequence; SGLang's is overlapped; TensorRT-LLM fuses
 * rotary; a local-attention model (gemma). */
static void test_frameworks_match_evaluate(void **state)
{
    (void)state;
    const char *fws[] = {"vllm", "sglang", "trt-llm", "generic"};
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(ts_db, "llama-3-8b");
    s.gpu = preset_find_gpu(ts_db, "h100-sxm");
    s.intra = preset_find_link(ts_db, "nvlink4");
    assert_non_null(s.model);
    assert_non_null(s.gpu);
    assert_non_null(s.intra);
    s.gpus = 4;
    s.prompt = 256;
    s.gen = 64;
    for (size_t i = 0; i < 4; i++) {
        s.framework = preset_find_framework(ts_db, fws[i]);
        assert_non_null(s.framework);
        check_pure(&s, (engine_plan){2, 1, 2, 1});
        check_pure(&s, (engine_plan){1, 2, 2, 1});
    }
    /* vLLM with its host work hidden (V1 --async-scheduling, and today's
     * default): the step model follows engine_evaluate, and a decode step
     * costs less than the V1 generation's with the work added (540 us +
     * 12.7 us a sequence) */
    s.framework = preset_find_framework(ts_db, "vllm");
    engine_stepper st;
    s.batch = 8;
    s.framework_version = ENGINE_FWV_V1;
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 2, 1}, NULL), 0);
    double added = decode_mix_s(&st, 8, 288);
    s.host_overlap = ENGINE_GRAPHS_ON;
    check_pure(&s, (engine_plan){2, 1, 2, 1});
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 2, 1}, NULL), 0);
    double hidden = decode_mix_s(&st, 8, 288);
    assert_near(added - hidden, s.framework->step_s + 8 * s.framework->seq_step_s, 1e-9);
    s.host_overlap = ENGINE_GRAPHS_DEFAULT;
    s.framework_version = ENGINE_FWV_DEFAULT; /* today's vLLM: hidden by default */
    check_pure(&s, (engine_plan){2, 1, 2, 1});
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 2, 1}, NULL), 0);
    assert_near(decode_mix_s(&st, 8, 288), hidden, 1e-12);
    /* an engine generation's host loop (--framework-version): the step
     * model follows engine_evaluate, and vLLM V0's measured loop (1167 us +
     * 100.4 us a sequence) adds 627 + 8 x 87.7 us to the profile's */
    s.framework_version = ENGINE_FWV_V0;
    check_pure(&s, (engine_plan){2, 1, 2, 1});
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 2, 1}, NULL), 0);
    assert_near(decode_mix_s(&st, 8, 288) - added, 627e-6 + 8 * 87.7e-6, 1e-9);
    s.framework_version = ENGINE_FWV_V06; /* 1040 us + 38.2 us */
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 2, 1}, NULL), 0);
    assert_near(decode_mix_s(&st, 8, 288) - added, 500e-6 + 8 * 25.5e-6, 1e-9);
    s.framework_version = ENGINE_FWV_DEFAULT;
    const engine_model *gm = preset_find_model(ts_db, "gemma-3-27b");
    assert_non_null(gm);
    assert_true(gm->window > 0);
    s.model = gm;
    s.prompt = 2048;
    s.gen = 2048; /* past the window */
    s.framework = preset_find_framework(ts_db, "generic");
    check_pure(&s, (engine_plan){4, 1, 1, 1});
}

/* A mixed step: one 512-token chunk with 32 decoding sequences.  The GEMMs
 * stream their weights once for both, so it costs less than a prefill step
 * plus a decode step, and more than either. */
static void test_mixed_step_between_parts(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(2e-6, 300), 2);
    engine_stepper st;
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 1, 1}, NULL), 0);
    engine_step_chunk ch = {1, 512, 1024};
    engine_step_mix both = {&ch, 1, 32, 1500};
    double t = engine_step_s(&st, &both);
    double pre = prefill_mix_s(&st, 1, 512, 1024), dec = decode_mix_s(&st, 32, 1500);
    assert_true(t > pre);
    assert_true(t > dec);
    assert_true(t < pre + dec);
    /* two chunks cost more than one of them, less than two steps */
    engine_step_chunk two[2] = {{1, 256, 0}, {1, 256, 4096}};
    engine_step_mix mx2 = {two, 2, 0, 0};
    double t2 = engine_step_s(&st, &mx2);
    assert_true(t2 > prefill_mix_s(&st, 1, 256, 4096));
    assert_true(t2 < prefill_mix_s(&st, 1, 256, 0) + prefill_mix_s(&st, 1, 256, 4096));
    /* longer contexts cost more; an empty mix costs nothing */
    assert_true(decode_mix_s(&st, 32, 4000) > decode_mix_s(&st, 32, 1000));
    engine_step_mix none = {NULL, 0, 0, 0};
    assert_true(engine_step_s(&st, &none) == 0.0);
    /* a copied stepper answers the same (it holds its own scenario) */
    engine_stepper cp;
    memcpy(&cp, &st, sizeof cp);
    memset(&st, 0xff, sizeof st);
    assert_true(engine_step_s(&cp, &both) == t);
}

/* The capacity is engine_result's: max_concurrency, kv_capacity_tokens, and
 * kv_blocks holds max_concurrency sequences of ceil((S+G)/16) blocks. */
static void test_stepper_capacity(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(2e-6, 300), 1);
    s.prompt = 1000;
    s.gen = 200;
    engine_stepper st;
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){1, 1, 1, 1}, NULL), 0);
    engine_result r = eval_at(&s, (engine_plan){1, 1, 1, 1});
    assert_int_equal(st.max_concurrency, r.max_concurrency);
    assert_true(st.kv_capacity_tokens == r.kv_capacity_tokens);
    /* 1200 tokens = 75 blocks: kv_blocks is the whole-block count */
    assert_true(st.kv_blocks == (long long)(r.kv_capacity_tokens / 16));
    assert_true(st.kv_blocks / 75 >= r.max_concurrency);
    assert_true(r.max_concurrency > 100); /* 8B on 80 GB: about 128 KiB a token */
    /* an impossible plan is refused with its reason, and costs 0 */
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){3, 1, 1, 1}, NULL), 0);
    assert_false(st.valid);
    assert_true(st.reason[0] != '\0');
    assert_true(decode_mix_s(&st, 4, 100) == 0.0);
    /* an unusable scenario is an error */
    engine_error err;
    s.model = NULL;
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){1, 1, 1, 1}, &err), -1);
}


/* Speculative decoding in a step: a pure-decode mix costs the verification
 * of k + 1 tokens a sequence plus the k drafts (engine_evaluate's draft_s +
 * verify_s, its itl_s x E) and yields E tokens a sequence; a step with
 * prefill runs plain (1 token each); without speculation 1. */
static void test_spec_steps(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(2e-6, 300), 2);
    s.prompt = 512;
    s.gen = 128;
    engine_stepper st;
    engine_error err;
    engine_step_mix dec = {NULL, 0, 8, 512 + 64};
    assert_int_equal(engine_stepper_init(&st, &s, (engine_plan){2, 1, 1, 1}, &err), 0);
    assert_true(engine_step_tokens(&st, &dec) == 1.0);
    double plain = engine_step_s(&st, &dec);
    s.spec_method = ENGINE_SPEC_EAGLE;
    s.spec_k = 3;
    s.spec_accept = 0.75;
    const engine_plan plans[] = {{2, 1, 1, 1}, {1, 2, 1, 1}};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(engine_stepper_init(&st, &s, plans[i], &err), 0);
        for (int b = 1; b <= 16; b *= 4) {
            s.batch = b;
            engine_result r = eval_at(&s, plans[i]);
            assert_true(r.spec.on);
            double t = decode_mix_s(&st, b, s.prompt + s.gen / 2.0);
            assert_near(t, r.spec.draft_s + r.spec.verify_s, 1e-9);
            assert_near(t, r.itl_s * r.spec.tokens_per_step, 1e-9);
        }
    }
    assert_near(engine_step_tokens(&st, &dec), 2.734375, 1e-12);
    assert_int_equal(engine_stepper_init(&st, &s, plans[0], &err), 0);
    assert_true(engine_step_s(&st, &dec) > plain); /* k + 1 tokens and the drafts */
    engine_step_chunk ch = {1, 256, 0};
    engine_step_mix mixed = {&ch, 1, 8, 512 + 64};
    assert_true(engine_step_tokens(&st, &mixed) == 1.0);
    /* the drafts alone cost about a quarter of a plain step here */
    assert_true(engine_step_s(&st, &dec) < 2.0 * plain);
}

/* CUDA graph padding (TensorRT-LLM cuda_graph_config enable_padding; the
 * 1.x perf-overview's batch_sizes): a decode batch of 1454 replays the 2048
 * graph, 594 dummy requests of one cached token beside it.  Hand-worked:
 * the padded size is the smallest captured one >= the batch, none past
 * max_num_seqs or the largest graph, none without graphs or with
 * speculation; the padded step's GEMMs and small kernels are the 2048-batch
 * step's, its attention the 1454 sequences' plus the dummies' per-sequence
 * cost (more than 1454's, well under 2048's); the step model agrees. */
static void test_graph_padding(void **state)
{
    (void)state;
    static const int SIZES[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 384, 512, 1024, 2048, 4096, 8192};
    engine_scenario s = ts_preset_scenario(ts_db, "gpt-oss-20b", "h200", "nvlink4", "trt-llm");
    s.prompt = 1000;
    s.gen = 1000;
    s.weight_dtype = ENGINE_FP4;
    s.max_num_seqs = 2048;
    s.vram_bytes = 1e12; /* room for 2048 sequences: the test is the step */
    engine_plan p = {1, 1, 1, 1};
    s.batch = 1454;
    engine_result plain = eval_at(&s, p);
    s.batch = 2048;
    engine_result full = eval_at(&s, p);
    assert_near(engine_graph_padded_seqs(&s, 1454, 1), 1454, 0); /* no sizes: no padding */
    s.n_graph_sizes = (int)(sizeof SIZES / sizeof SIZES[0]);
    memcpy(s.graph_sizes, SIZES, sizeof SIZES);
    assert_near(engine_graph_padded_seqs(&s, 1454, 1), 2048, 0);
    assert_near(engine_graph_padded_seqs(&s, 300, 1), 384, 0);
    assert_near(engine_graph_padded_seqs(&s, 384, 1), 384, 0);
    assert_near(engine_graph_padded_seqs(&s, 3, 1), 4, 0);
    assert_near(engine_graph_padded_seqs(&s, 9000, 1), 9000, 0); /* above the largest graph */
    s.max_num_seqs = 1500; /* 2048 > max_batch_size: not padded */
    assert_near(engine_graph_padded_seqs(&s, 1454, 1), 1454, 0);
    assert_near(engine_graph_padded_seqs(&s, 1000, 1), 1024, 0);
    /* two pipeline micro-batches: each may hold half of max_num_seqs */
    assert_near(engine_graph_padded_seqs(&s, 700, 2), 700, 0);
    assert_near(engine_graph_padded_seqs(&s, 500, 2), 512, 0);
    s.max_num_seqs = 2048;
    s.cuda_graphs = ENGINE_GRAPHS_OFF;
    assert_near(engine_graph_padded_seqs(&s, 1454, 1), 1454, 0);
    s.cuda_graphs = ENGINE_GRAPHS_DEFAULT;
    s.batch = 1454;
    engine_result pad = eval_at(&s, p);
    assert_near(pad.decode.gemm_s, full.decode.gemm_s, 1e-12);
    assert_near(pad.decode.small_s, full.decode.small_s, 1e-12);
    assert_true(pad.decode.attn_s > plain.decode.attn_s);
    /* hand-worked: per layer, the decode kernel over 1454 sequences at
     * 1501 cached tokens (a global layer) or its 128-token window (a local
     * one) plus 594 dummies of one token: 16-bit KV, 2 x 8 heads x 64 x 2 B
     * a token; 12 layers of each kind */
    double kvt = 2.0 * 8 * 64 * 2;
    double add = 0;
    for (int local = 0; local < 2; local++) {
        double ctx = local ? 128 : 1501;
        add += 12 * (engine_attn_decode_s(s.gpu, (1454 * ctx + 594) * kvt, 2048.0 * 64) -
                     engine_attn_decode_s(s.gpu, 1454 * ctx * kvt, 1454.0 * 64));
    }
    print_message("  attention: 1454 %.4g s, padded %.4g s (+%.4g s), 2048 %.4g s\n",
                  plain.decode.attn_s, pad.decode.attn_s, add, full.decode.attn_s);
    assert_near(pad.decode.attn_s - plain.decode.attn_s, add, 1e-9);
    assert_true(pad.decode.attn_s < full.decode.attn_s);
    assert_true(pad.itl_s > plain.itl_s && pad.itl_s < full.itl_s);
    assert_near(pad.ttft_s, plain.ttft_s, 1e-12); /* prefill runs eager: never padded */
    engine_stepper st;
    assert_int_equal(engine_stepper_init(&st, &s, p, NULL), 0);
    assert_near(decode_mix_s(&st, 1454, s.prompt + s.gen / 2.0), pad.itl_s, 1e-9);
    /* ascending sizes only, each 1..ENGINE_MAX_BATCH */
    engine_error err;
    s.graph_sizes[1] = 1;
    assert_int_not_equal(engine_scenario_check(&s, &err), 0);
    assert_non_null(strstr(err.msg, "graph_sizes"));
    s.graph_sizes[1] = 2;
    s.n_graph_sizes = ENGINE_GRAPH_SIZES_MAX + 1;
    assert_int_not_equal(engine_scenario_check(&s, &err), 0);
    assert_non_null(strstr(err.msg, "graph_sizes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_steps),
        cmocka_unit_test(test_pure_mixes_match_evaluate),
        cmocka_unit_test(test_frameworks_match_evaluate),
        cmocka_unit_test(test_mixed_step_between_parts),
        cmocka_unit_test(test_stepper_capacity),
        cmocka_unit_test(test_graph_padding),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
