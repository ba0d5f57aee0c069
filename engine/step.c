/*
 * step.c - the time of one iteration (step) of one replica with an exact
 * mix of prefill chunks and decode sequences, for the load simulation: the
 * plan context of eval.c prepared once (engine_stepper), then eval.c's
 * per-kernel layer model over the mix (eval_mix_pipe) with the framework's
 * host costs and the pipeline rule of engine_evaluate.  Contract: engine.h.
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "internal.h"

static const plan_ctx *stepper_ctx(const engine_stepper *st)
{
    return (const plan_ctx *)(const void *)st->priv.bytes;
}

int engine_stepper_init(engine_stepper *st, const engine_scenario *s, engine_plan plan,
                        engine_error *err)
{
    if (eval_ctx_size() > sizeof st->priv.bytes)
        return engine_errorf(err, "engine: the step model's context outgrew its storage");
    if (engine_scenario_check(s, err) != 0)
        return -1;
    memset(st, 0, sizeof *st);
    st->s = *s;
    st->plan = plan;
    plan_ctx *c = (plan_ctx *)(void *)st->priv.bytes;
    st->valid = eval_ctx_init(c, &st->s, plan, st->reason, sizeof st->reason);
    if (!st->valid)
        return 0;
    engine_result r;
    memset(&r, 0, sizeof r);
    double seq_b, tok_b;
    eval_ctx_capacity(c, &r, &seq_b, &tok_b);
    st->max_concurrency = r.max_concurrency;
    st->kv_capacity_tokens = r.kv_capacity_tokens;
    double ctx = (double)s->prompt + s->gen;
    double full = ceil(ctx / ENGINE_KV_BLOCK) * ENGINE_KV_BLOCK * tok_b;
    double weight = full > 0 && seq_b > 0 ? seq_b / full : 1.0;
    if (weight > 1)
        weight = 1;
    st->kv_blocks = (long long)floor(r.kv_capacity_tokens / ENGINE_KV_BLOCK / weight + 1e-9);
    return 0;
}

double engine_step_tokens(const engine_stepper *st, const engine_step_mix *mix)
{
    if (!st || !st->valid || !mix || st->s.spec_method == ENGINE_SPEC_NONE ||
        (mix->n_prefill > 0 && mix->prefill))
        return 1.0;
    return engine_spec_tokens_per_step(st->s.spec_k, st->s.spec_accept);
}

double engine_step_s(const engine_stepper *st, const engine_step_mix *mix)
{
    if (!st || !st->valid || !mix)
        return 0.0;
    union {
        long double align_ld;
        void *align_p;
        unsigned char bytes[ENGINE_STEPPER_PRIV];
    } buf; /* a private copy, pointed at st's own scenario (st may have moved) */
    memcpy(buf.bytes, stepper_ctx(st), eval_ctx_size());
    plan_ctx *c = (plan_ctx *)(void *)buf.bytes;
    eval_ctx_bind(c, &st->s);
    const engine_scenario *s = &st->s;
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    const int pp = st->plan.pp;
    step_mix mx = {mix->prefill, mix->n_prefill > 0 && mix->prefill ? mix->n_prefill : 0,
                   mix->decode_seqs > 0 ? mix->decode_seqs : 0, mix->decode_past, 1, 0};
    double pre_seqs = 0, pre_tokens = 0;
    for (int i = 0; i < mx.n_pre; i++) {
        pre_seqs += mx.pre[i].seqs;
        pre_tokens += mx.pre[i].seqs * mx.pre[i].tokens;
    }
    double seqs = pre_seqs + mx.dec_seqs;
    if (!(seqs > 0))
        return 0.0;
    double sum, worst;
    if (mx.n_pre > 0) {
        /* engine_evaluate's prefill rule (prefill_times) */
        double m = eval_step_prefill_microbatches(s, pp, seqs);
        mx.mb = m;
        eval_mix_pipe(c, &mx, EVAL_PREFILL, &sum, &worst);
        int v = s->schedule == ENGINE_SCHED_INTERLEAVED ? s->interleave : 1;
        double bubble = (sum - worst) / v;
        if (v > 1 && pp > 1)
            bubble += (v - 1) * pp * eval_hop_s(c, (pre_tokens + mx.dec_seqs) / m);
        double fixed = eval_host_step_s(s, seqs) + fw->request_s;
        return m * worst + bubble + fixed;
    }
    /* engine_evaluate's decode rule (decode_times); with speculation its
     * verification of k + 1 tokens a sequence and the k drafts */
    if (s->spec_method != ENGINE_SPEC_NONE)
        return eval_spec_decode_s(c, mx.dec_seqs, mx.dec_past);
    double md = eval_decode_microbatches(s, pp, seqs);
    mx.mb = md;
    mx.dec_pad = (engine_graph_padded_seqs(s, seqs / md, md) - seqs / md) * md;
    int graphs = engine_decode_graphs(s, st->plan, seqs / md, 1);
    eval_mix_pipe(c, &mx, graphs ? EVAL_GRAPH : EVAL_EAGER, &sum, &worst);
    double cycle = md * worst;
    double work = sum > cycle ? sum : cycle;
    return work + eval_host_exposed_s(s, seqs, work);
}
