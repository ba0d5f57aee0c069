/*
 * sim.h - serving under load: a discrete-event simulation of one plan's
 * replicas under continuous batching, step by step, each step timed by the
 * engine's step model (engine_step_s) for its exact mix of prefill chunks
 * and decode sequences.
 *
 * Pure C, deterministic: the arrivals and lengths come from splitmix64
 * seeded by the configuration's seed; the same configuration gives the same
 * result bit for bit.  No I/O, no allocation: the caller gives a workspace
 * of engine_sim_workspace_bytes() (allocated once per run is fine).
 *
 * The model (README, "The model: load"):
 *  - requests are dispatched round-robin over the dp replicas (request i
 *    to replica i mod dp, as SGLang's data-parallel controller does by
 *    default), and each replica is simulated on its own;
 *  - a replica runs one step at a time; between steps its scheduler admits
 *    waiting requests in arrival order (FIFO, head-of-line: the first that
 *    does not fit stops admission; preempted requests go back to its head,
 *    retracted ones to its tail) while it runs fewer than max_num_seqs
 *    and its KV cache admits the request (kv_alloc, below);
 *  - the paged KV cache (16-token blocks) is given out by kv_alloc
 *    (engine_sim_kv): RESERVE, ceil((prompt + gen) / 16) blocks at
 *    admission, freed at completion (TensorRT-LLM's GUARANTEED_NO_EVICT
 *    policy: nothing is preempted), or ON_DEMAND, blocks as the tokens
 *    are computed, the newest running request preempted by recompute when
 *    the cache runs out (vLLM); either way a request larger than the
 *    whole cache is rejected (counted, never served);
 *  - ENGINE_SIM_CHUNKED: every step decodes one token of each running
 *    request, then spends what is left of the max_batched_tokens budget on
 *    prefill chunks, partial prefills first, then new admissions (vLLM V1,
 *    SGLang with --enable-mixed-chunk);
 *  - ENGINE_SIM_INFLIGHT: every step decodes one token of each running
 *    request, then admits new prompts whole, in arrival order, while they
 *    fit in what the decodes and the earlier prompts leave of the
 *    max_batched_tokens budget; the first that does not fit waits (and
 *    with it the queue), even when the decodes alone keep it out; a prompt
 *    longer than the whole budget runs alone beside the decodes
 *    (TensorRT-LLM's in-flight batching without context chunking, its
 *    C++ executor's default: ExecutorConfig enableChunkedContext = false,
 *    cpp/include/tensorrt_llm/executor/executor.h; MicroBatchScheduler,
 *    cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp @0a949d31:
 *    generation and whole context requests in order within
 *    maxNumTokensRuntime, `break` at the first over it);
 *  - ENGINE_SIM_CHUNKED_PREFILL_FIRST: a step is either a prefill of
 *    max_batched_tokens at most, partial prefills first, then new
 *    admissions, the last one cut to the budget, while decoding pauses, or,
 *    when no prefill is waiting or can be admitted, a decode step of every
 *    running request (SGLang without --enable-mixed-chunk, its default:
 *    get_next_batch_to_run runs a new prefill batch when one forms, "Run
 *    prefill first if possible", and the PrefillAdder counts the running
 *    decodes against the chunk only when is_mixed_chunk);
 *  - ENGINE_SIM_PREFILL_FIRST: a step is either a prefill of newly admitted
 *    whole prompts (at most max_batched_tokens in all, at least one prompt)
 *    while decoding pauses, or, when none can be admitted, a decode step of
 *    every running request (vLLM V0 without chunked prefill);
 *  - admit_lag (an overlapping scheduler): the batch of a step is formed
 *    when the step before it starts, so a request arriving while a step
 *    runs (work pending) joins the step after the next one; a request that
 *    finds the replica idle joins at once;
 *  - recv_interval N > 1 (SGLang's --scheduler-recv-interval): new requests
 *    are taken in at a batch formation only when the receive counter has
 *    reached N, then it restarts at 0; a decode-only step adds 1 to it, a
 *    step with prefill ENGINE_SIM_RECV_PREFILL_WEIGHT (SchedulerRecvSkipper:
 *    weights DECODE 1, the default 1000); a replica with nothing to run
 *    takes them in at once (its idle loop adds 1 an iteration, microseconds
 *    each);
 *  - the step that computes a prompt's last token produces its first output
 *    token (TTFT = the end of that step - arrival); each later step one
 *    more; a request ends with its gen-th token;
 *  - with speculative decoding (the scenario's spec_method) a decode-only
 *    step gains engine_step_tokens() tokens a request on average (whole
 *    tokens carried per request); a step with prefill decodes one token;
 *  - a pipeline-parallel replica is one batch split into min(sequences, pp)
 *    micro-batches per step (engine_step_s's rule);
 *  - a run of decode-only steps between events (an arrival, a completion)
 *    is timed by the line through its first and last step's times, exact
 *    when the step time is affine in the context (attention reads the KV
 *    cache linearly); `exact` times every step.
 *
 * A single server, for queueing checks: with max_num_seqs 1, dp 1 and fixed
 * lengths S and G, a replica is one FIFO server whose service time is
 * engine_step_s(one prefill chunk of S) + the sum over j < G - 1 of
 * engine_step_s(one decode at past S + j) (exactly so with `exact`), the
 * same for every request: Poisson arrivals make it an M/D/1 queue, a trace
 * or evenly spaced arrivals a D/D/1 one.  A request's TTFT is its wait plus
 * the prefill step, its e2e its wait plus the service time.
 */
#ifndef SHARDSCOPE_ENGINE_SIM_H
#define SHARDSCOPE_ENGINE_SIM_H

#include "engine.h"

/* recv_interval: the receive counter's gain for a step with prefill (an
 * EXTEND or MIXED batch), SGLang's SGLANG_SCHEDULER_RECV_SKIPPER_WEIGHT_
 * DEFAULT 1000 (a decode step gains 1: _WEIGHT_DECODE): after a prefill
 * the next batch formation takes requests in for any interval up to it
 * (sgl-project/sglang@70310f05: python/sglang/srt/managers/
 * scheduler_recv_skipper.py, python/sglang/srt/environ.py). */
#define ENGINE_SIM_RECV_PREFILL_WEIGHT 1000
#define ENGINE_SIM_MAX_RECV_INTERVAL 1000000
/* The tokenizer batch: vLLM's AsyncMicrobatchTokenizer(max_batch_size=32,
 * batch_wait_timeout_s=0.002) (vllm-project/vllm#19334, vllm/utils/
 * async_utils.py; removed by #45759, 2026-06), and the most a batch holds. */
#define ENGINE_SIM_FE_BATCH_DEFAULT 32
#define ENGINE_SIM_FE_BATCH_MAX 256

typedef enum engine_sim_arrival {
    ENGINE_SIM_POISSON = 0, /* rate requests/s over all replicas */
    ENGINE_SIM_OFFLINE,     /* all requests at t = 0 (--rate inf) */
    ENGINE_SIM_CLOSED,      /* concurrency requests in flight: a completion
                             * issues the next request on its replica */
    ENGINE_SIM_TRACE,       /* the trace's arrival times and lengths */
    ENGINE_SIM_ARRIVAL_COUNT
} engine_sim_arrival;

/* How a closed loop's C clients start (README, "The model: load"):
 *  BURST  every client issues its first request at t = 0 and each
 *         completion issues the next at once, at the step boundary that
 *         ends it (vLLM's benchmark_serving --max-concurrency); every
 *         request is measured.  With fixed lengths the loop stays in
 *         step: a wave of completions re-enters together.
 *  STEADY the clients' first requests are spread evenly over one cycle
 *         (client k of a replica's C_r at k T / C_r, T = engine_sim_cycle_s
 *         at the replica's C_r), and a completion issues the next request
 *         just after its step boundary (the client's round trip, taken in
 *         the limit -> 0: it joins the step after the one that starts
 *         there, or the idle replica at once).  Only the requests issued
 *         after all of a replica's clients have started and done before
 *         the first client runs out of requests are measured, and the
 *         rates are taken over that window: the steady state of a
 *         closed loop whose clients run at their own phases, which is
 *         what a benchmark measuring in windows after its start sees
 *         (perf_analyzer / GenAI-Perf / AIPerf).  Deterministic: no draw. */
typedef enum engine_sim_start {
    ENGINE_SIM_START_BURST = 0,
    ENGINE_SIM_START_STEADY,
    ENGINE_SIM_START_COUNT
} engine_sim_start;

typedef enum engine_sim_dist_kind {
    ENGINE_SIM_FIXED = 0, /* always the mean */
    ENGINE_SIM_UNIFORM,   /* an integer in [lo, hi], uniformly */
    ENGINE_SIM_LOGNORMAL, /* mean * exp(sigma Z - sigma^2 / 2), rounded, >= 1 */
    ENGINE_SIM_DIST_COUNT
} engine_sim_dist_kind;

typedef struct engine_sim_dist {
    engine_sim_dist_kind kind;
    int lo, hi;   /* UNIFORM, 1 <= lo <= hi */
    double sigma; /* LOGNORMAL, > 0 */
} engine_sim_dist;

typedef enum engine_sim_sched {
    ENGINE_SIM_PREFILL_FIRST = 0,
    ENGINE_SIM_CHUNKED,
    ENGINE_SIM_INFLIGHT,
    ENGINE_SIM_CHUNKED_PREFILL_FIRST,
    ENGINE_SIM_SCHED_COUNT
} engine_sim_sched;

/* How a replica's paged KV cache is given out (README, "The model: load"):
 *  RESERVE    at admission, blocks for the prompt and every output token,
 *             freed at completion; nothing is ever preempted (TensorRT-LLM's
 *             GUARANTEED_NO_EVICT capacity scheduler, its default).
 *  ON_DEMAND  blocks as the tokens are computed: a request is admitted when
 *             its first chunk's blocks are free, and each step the running
 *             requests, oldest first, get blocks for that step's tokens;
 *             when one cannot, the newest running request is preempted by
 *             recompute (its blocks freed, back to the head of the queue;
 *             admitted again, it recomputes its prompt and output so far,
 *             chunked like a prompt), and a step that preempted admits no
 *             new request (vLLM V1's scheduler: vllm-project/vllm@
 *             00024d314514900f361ad072af6931e403b7f589 vllm/v1/core/sched/
 *             scheduler.py schedule(): allocate_slots, `preempted_req =
 *             self.running.pop()`, `if not preempted_reqs` before the
 *             waiting queue; _preempt_request: num_computed_tokens = 0,
 *             prepend_request).
 *  ESTIMATE   SGLang: blocks as the tokens are computed, as ON_DEMAND, but a
 *             request is admitted only while its whole prompt plus its output
 *             (clipped at 4096) is below the free tokens less what the
 *             running requests hold back, their clipped output still to come
 *             x new_token_ratio (and what this round admitted before it,
 *             whole); the ratio starts at 0.7, falls by (0.7 - 0.098) / 600
 *             a decode step to 0.098 and returns to 0.7 when the replica
 *             idles.  When the decodes' next tokens do not fit, the one with
 *             the fewest output tokens (then the longest prompt, then the
 *             newest) is retracted to the back of the queue, again until
 *             they fit (at least one, never the last), and the ratio becomes
 *             (output made + 20 a request) / (their output lengths + 1) over
 *             those left, at most 1 (sgl-project/sglang python/sglang/srt/
 *             managers/schedule_policy.py PrefillAdder: rem_total_tokens,
 *             add_one_req; scheduler.py update_running_batch;
 *             schedule_batch.py retract_decode).  A retracted request
 *             recomputes its prompt and output (no radix cache: the
 *             validation rows run --disable-radix-cache).
 *  A disaggregated decode pool keeps RESERVE. */
typedef enum engine_sim_kv {
    ENGINE_SIM_KV_RESERVE = 0,
    ENGINE_SIM_KV_ON_DEMAND,
    ENGINE_SIM_KV_ESTIMATE,
    ENGINE_SIM_KV_COUNT
} engine_sim_kv;

/* ESTIMATE: SGLang's admission estimate (sgl-project/sglang
 * python/sglang/srt/environ.py: SGLANG_INIT_NEW_TOKEN_RATIO 0.7,
 * SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR 0.14, SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS
 * 600, SGLANG_RETRACT_DECODE_STEPS 20, SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION
 * 4096; schedule_conservativeness 1). */
#define ENGINE_SIM_SGL_INIT_RATIO 0.7
#define ENGINE_SIM_SGL_MIN_RATIO_FACTOR 0.14
#define ENGINE_SIM_SGL_DECAY_STEPS 600
#define ENGINE_SIM_SGL_RETRACT_STEPS 20
#define ENGINE_SIM_SGL_CLIP_NEW 4096

/* One request of a trace: arrival (s, non-decreasing along the trace),
 * prompt and output tokens (>= 1 each). */
typedef struct engine_sim_request {
    double arrival_s;
    int prompt, gen;
} engine_sim_request;

typedef struct engine_sim_config {
    engine_sim_arrival arrival;
    double rate;          /* POISSON: requests/s over all replicas, > 0 */
    int concurrency;      /* CLOSED: requests in flight over all replicas, >= 1
                           * (C / dp a replica, one more on the first C % dp) */
    const engine_sim_request *trace; /* TRACE: n_trace requests, borrowed */
    int n_trace;
    int requests;         /* requests simulated (not TRACE), >= 1 */
    int prompt, gen;      /* mean lengths (the stepper's scenario's by default) */
    engine_sim_dist prompt_dist, gen_dist;
    int max_num_seqs;     /* running requests per replica, >= 1 */
    int max_batched_tokens; /* tokens a step computes (the prefill budget), >= 1 */
    engine_sim_sched sched;
    engine_sim_kv kv_alloc; /* the KV cache's policy (default: the framework's
                             * kv_alloc) */
    uint64_t seed;
    double ttft_slo_s;    /* goodput: TTFT at most this; 0: not checked */
    double tpot_slo_s;    /* goodput: TPOT at most this; 0: not checked */
    double slo_percentile; /* the percentile the SLO check reads, (0, 100] */
    int exact;            /* 1: time every decode step (no line through a run) */
    int admit_lag;        /* 1: the batch of step n + 1 is formed when step n
                           * starts (an overlapping scheduler: SGLang's
                           * event_loop_overlap, vLLM's async scheduling,
                           * TensorRT-LLM's overlap scheduler), so a request
                           * arriving while a step runs waits for the step
                           * after the next one, unless the replica would
                           * idle; default: engine_scenario_admit_lag */
    int recv_interval;    /* SGLang's --scheduler-recv-interval N (0 or 1:
                           * every step, the default): the scheduler takes new
                           * requests in only when its counter reaches N, the
                           * counter gaining 1 a decode step and
                           * ENGINE_SIM_RECV_PREFILL_WEIGHT a step with
                           * prefill, and restarting at 0 at each take-in; a
                           * replica with nothing to run takes them at once */
    /* A short run's view of a long one (the explorer's load line): */
    int one_of;           /* POISSON: simulate every one_of-th arrival of the rate
                           * (one replica's round-robin share; 0 or 1: all) */
    int warmup;           /* the first warmup requests are served but left out of
                           * the percentiles and the goodput count (0: none) */
    engine_sim_start closed_start; /* CLOSED: how the clients start (0: BURST) */
    double measure_s;     /* > 0: only the requests done by this time (s after
                           * t = 0) are measured, the rates taken over them
                           * (perf_analyzer's time windows: "Only counting
                           * requests that end within the time interval");
                           * 0: every request */
    /* The server's front end (README, "The model: load"): one process that
     * takes each request in arrival order before the engine sees it
     * (tokenizer, request set-up): frontend_s + frontend_token_s x prompt
     * tokens a request, served FIFO, one front end a replica; 0: none. */
    double frontend_s, frontend_token_s;
    /* The front end's tokenizer batching (vLLM's AsyncMicrobatchTokenizer,
     * README "The model: load"): the batcher takes the first waiting
     * request, gathers those that arrive within frontend_batch_s of it, up
     * to frontend_batch_max (0: ENGINE_SIM_FE_BATCH_DEFAULT) in all, and
     * passes them on together at the window's end (at once when full); the
     * next window opens when that batch's tokenizing (the costs above, one
     * after another) is done.  0: no batching, a FIFO of one. */
    double frontend_batch_s;
    int frontend_batch_max;
} engine_sim_config;

typedef struct engine_sim_pct {
    double p50, p90, p99;
    double mean; /* over the same requests */
} engine_sim_pct;

#define ENGINE_SIM_SERIES 24

typedef struct engine_sim_result {
    int requests;   /* simulated */
    int completed;  /* served (requests - rejected) */
    int rejected;   /* larger than a replica's whole KV cache */
    /* Per request, over the completed ones, seconds (numpy's linear
     * percentiles).  TPOT = (e2e - TTFT) / (gen - 1), as vLLM's
     * benchmark_serving; requests of one output token have none. */
    engine_sim_pct ttft, tpot, e2e;
    double duration_s;            /* first arrival to last completion */
    /* A STEADY closed loop: these three and mean_in_system over each
     * replica's measured window (summed over the replicas; goodput: the
     * window's rate x the measured requests' fraction meeting both SLOs). */
    double output_tokens_per_s;   /* completed output tokens / duration */
    double requests_per_s;        /* completed / duration */
    double goodput_requests_per_s; /* requests meeting both SLOs / duration */
    int measured;                 /* served requests the figures read (after
                                   * the warm-up) */
    int good;                     /* of those, the ones meeting both SLOs */
    double ttft_at_slo_s, tpot_at_slo_s; /* at slo_percentile */
    int slo_met;                  /* both at slo_percentile within their SLOs */
    int overloaded;               /* the waiting queue kept growing through the
                                   * second half of the arrivals (an offline run:
                                   * some request had to wait) */
    double mean_batch;            /* running requests a step, time-weighted over
                                   * busy time, mean over replicas */
    int max_batch;
    double kv_use, kv_use_max;    /* reserved KV blocks / capacity: time-weighted
                                   * mean over busy time, and the peak */
    long long kv_blocks;          /* capacity of one replica, blocks */
    long long kv_blocks_peak;     /* the most any replica held at once */
    double mean_queue;            /* waiting requests (all replicas), mean over
                                   * the series' times */
    double mean_in_system;        /* requests queued or running (all replicas),
                                   * time-weighted over the duration, step by
                                   * step: Little's L against requests_per_s x
                                   * e2e.mean (an arrival counts from the step
                                   * boundary that enqueues it) */
    int max_queue;
    long long steps;              /* engine steps, all replicas */
    long long preemptions;        /* ON_DEMAND: requests preempted (each time) */
    double busy_fraction;         /* busy time / (duration * dp) */
    int n_series;                 /* queue length over time: */
    double series_t[ENGINE_SIM_SERIES];  /* evenly spaced over [0, duration] */
    int series_queue[ENGINE_SIM_SERIES]; /* waiting requests at that time */
} engine_sim_result;

/* Fill cfg with the defaults for a stepper's scenario and framework:
 * POISSON at 1 request/s, 1000 requests, fixed lengths at the scenario's
 * prompt and gen, the framework's max_num_seqs, max_num_tokens (else
 * 8192) and scheduler, seed 42, no SLO, percentile 99. */
void engine_sim_defaults(engine_sim_config *cfg, const engine_stepper *st);
/* The token budget one replica of st's pool takes a step from the server's
 * `budget`: under attention data-parallel (an EP group over ep / tp
 * replicas) a framework with dp_attn_split_chunk (SGLang: chunked_prefill_size
 * // dp_size, server_args.py _handle_data_parallelism) gives each rank the
 * budget over the ranks; else the budget. */
int engine_sim_rank_tokens(const engine_stepper *st, int budget);

/* 0 when cfg is usable, else -1 with err naming the field. */
int engine_sim_check(const engine_sim_config *cfg, engine_error *err);

/* Bytes of workspace engine_sim_run and engine_sim_sustainable_rate need
 * for cfg on st's plan (0 when cfg is unusable; st may be NULL: the run
 * only). */
size_t engine_sim_workspace_bytes(const engine_stepper *st, const engine_sim_config *cfg);

/* Simulate cfg on st's plan (valid, and holding at least one block).
 * work: engine_sim_workspace_bytes(cfg) bytes, any alignment of malloc's;
 * its contents are scratch.  Returns 0 with *out filled, -1 with err (an
 * unusable configuration, an invalid plan, too small a workspace). */
int engine_sim_run(const engine_stepper *st, const engine_sim_config *cfg, void *work,
                   size_t work_bytes, engine_sim_result *out, engine_error *err);

/* One request's modelled time through a replica running `batch` requests
 * under cfg (the steady start's cycle T): its prefill, ceil(prompt / budget)
 * steps of one chunk of min(prompt, max_batched_tokens) tokens at past 0,
 * plus gen - 1 decode steps of `batch` sequences at past prompt + gen / 2,
 * at cfg's mean lengths; an estimate (a scale for the clients' phases), not
 * a simulation.  0 when st is not valid. */
double engine_sim_cycle_s(const engine_stepper *st, const engine_sim_config *cfg, int batch);

/* The largest batch a replica runs under cfg: min(max_num_seqs, the
 * sequences of ceil((prompt + gen) / 16) blocks its KV cache holds, and at
 * the scenario's own lengths st->max_concurrency), at least 1. */
int engine_sim_max_batch(const engine_stepper *st, const engine_sim_config *cfg);

/* Under a cache given out on demand (kv_alloc not RESERVE): the requests
 * the cache holds at their mean progress, ceil((prompt + gen / 2) / 16)
 * blocks each, within max_num_seqs, when that is more than
 * engine_sim_max_batch; else 0. */
int engine_sim_on_demand_batch(const engine_stepper *st, const engine_sim_config *cfg);

/* The saturation throughput, requests/s over all replicas: dp times that
 * of one replica run as a closed loop of engine_sim_max_batch requests
 * (under a cache given out on demand, the better of that loop and one of
 * engine_sim_on_demand_batch requests, when there is one)
 * (cfg's lengths, scheduler, limits and seed; its arrival process ignored;
 * requests / dp of them, at least three rounds of the batch), measured over
 * the completions between the first and the last max-batch of them (the
 * steady window; the whole run when it has none); always a BURST start
 * (cfg's closed_start and measure_s ignored).  0 on error (err). */
double engine_sim_sustainable_rate(const engine_stepper *st, const engine_sim_config *cfg,
                                   void *work, size_t work_bytes, engine_error *err);

const char *engine_sim_sched_name(engine_sim_sched s); /* "prefill-first", "chunked", "inflight",
                                                      * "chunked-prefill-first" */
int engine_sim_sched_parse(const char *s, engine_sim_sched *out);
const char *engine_sim_kv_name(engine_sim_kv k); /* "reserve", "on-demand" */
int engine_sim_kv_parse(const char *s, engine_sim_kv *out);
const char *engine_sim_start_name(engine_sim_start s); /* "burst", "steady" */
int engine_sim_start_parse(const char *s, engine_sim_start *out);

/* --- disaggregated prefill/decode (disagg.h) -------------------------------
 * Two pools simulated in turn (a two-stage composition, exact for FIFO
 * pools that do not feed back): every request first runs on the prefill
 * stepper's dp replicas (round-robin) with one output token, its KV
 * reserved for prompt + 1 tokens and freed when that token is made; it
 * reaches the decode pool when that token is made plus the exposed part
 * of its KV transfer, T = base_s + per_token_s * prompt, overlapped layer
 * by layer with its prefill (engine_disagg_exposed_s over `layers`, the
 * prefill time being its admission to its first token); the decode
 * stepper's dp replicas take the requests round-robin in that order, admit
 * them with their prompts cached (KV reserved for prompt + gen) and make
 * tokens 2..gen.  A request's TTFT is its arrival at the decode pool
 * minus its arrival, its TPOT (done - that) / (gen - 1): a wait for a
 * decode slot counts in TPOT.  The result's batch, KV and busy figures
 * are the decode pool's, steps both pools'; the queue counts requests not
 * yet admitted to a decode replica.  Closed loops are refused. */
typedef struct engine_sim_transfer {
    double base_s;      /* fixed part of one request's KV transfer, s */
    double per_token_s; /* per prompt token, s */
    int layers;         /* L of the layer-wise overlap (>= 1) */
} engine_sim_transfer;

/* Workspace of engine_sim_disagg_run and _sustainable_rate (0: cfg
 * unusable). */
size_t engine_sim_disagg_workspace_bytes(const engine_stepper *pre, const engine_stepper *dec,
                                         const engine_sim_config *cfg);

/* Simulate cfg on the two pools.  Returns 0 with *out, -1 with err (cfg
 * unusable or closed, a plan invalid, workspace too small). */
int engine_sim_disagg_run(const engine_stepper *pre, const engine_stepper *dec,
                          const engine_sim_config *cfg, const engine_sim_transfer *x, void *work,
                          size_t bytes, engine_sim_result *out, engine_error *err);

/* The smaller of the pools' saturation rates (requests/s): the prefill
 * pool as a closed loop of one-token requests, the decode pool as a closed
 * loop of cached-prompt requests, each at its largest batch (as
 * engine_sim_sustainable_rate); each pool's into *prefill_rate /
 * *decode_rate when not NULL (decode: infinite when gen is 1).  0 on error. */
double engine_sim_disagg_sustainable_rate(const engine_stepper *pre, const engine_stepper *dec,
                                          const engine_sim_config *cfg, void *work,
                                          size_t bytes, double *prefill_rate,
                                          double *decode_rate, engine_error *err);

#endif /* SHARDSCOPE_ENGINE_SIM_H */
