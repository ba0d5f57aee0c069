/*
 * launch.h - one launch line per serving framework for an evaluated plan:
 * vLLM, SGLang and TensorRT-LLM, with the plan's tensor, pipeline, data and
 * expert parallel sizes, the memory fraction the framework's own rule needs
 * for the scenario's budget, the most sequences (the batch, capped by the
 * KV cache), the longest sequence and the quantization.
 *
 * Pure C: no I/O, no allocation; lines land in caller buffers.  The flag
 * names, checked against each framework's documentation and source, are
 * cited next to each generator (launch.c).
 */
#ifndef SHARDSCOPE_LAUNCH_H
#define SHARDSCOPE_LAUNCH_H

#include <stddef.h>

#include "engine.h"

typedef enum engine_launch_fw {
    ENGINE_LAUNCH_VLLM = 0,
    ENGINE_LAUNCH_SGLANG,
    ENGINE_LAUNCH_TRTLLM,
    ENGINE_LAUNCH_COUNT
} engine_launch_fw;

/* Enough for any line launch writes. */
#define ENGINE_LAUNCH_MAX 2048

/* "vllm", "sglang", "trtllm": the keys of recommend --json's `launch`. */
const char *engine_launch_name(engine_launch_fw fw);

/* The memory setting of fw for r's budget (r evaluated under s), rounded
 * down to 0.01 so the framework never takes more than the model counted:
 *   vLLM --gpu-memory-utilization: the budget (r->mem.capacity_bytes) over
 *     the GPU's memory;
 *   SGLang --mem-fraction-static: weights + the KV room over the GPU's
 *     memory (its static pool; activations and runtime are outside it);
 *   TensorRT-LLM --kv_cache_free_gpu_memory_fraction: the KV room over what
 *     the weights, activations and runtime leave free.
 * In [0.01, 1]. */
double engine_launch_mem_fraction(engine_launch_fw fw, const engine_scenario *s,
                                  const engine_result *r);

/* Sequences one replica runs at once: r->batch, capped by its KV capacity
 * (r->max_concurrency when > 0); at least 1. */
int engine_launch_max_seqs(const engine_result *r);

/* The longest sequence: s->max_model_len when set, else prompt + gen. */
int engine_launch_max_len(const engine_scenario *s);

/* Write fw's launch line for r (a valid plan evaluated under s) into buf:
 * the command, the model's Hugging Face id (else its preset name, with a
 * trailing "# ..." note saying so), the flags, and after a "#" the notes a
 * flag cannot carry (servers to start, a checkpoint to use).  Returns 0, or
 * -1 when r is not valid or the line does not fit in len (buf then holds
 * "" when len > 0). */
int engine_launch_line(engine_launch_fw fw, const engine_scenario *s, const engine_result *r,
                       char *buf, size_t len);

/* The role of a server in a disaggregated (xPyD) plan. */
typedef enum engine_launch_role {
    ENGINE_LAUNCH_SERVE = 0, /* aggregated: prefill and decode (engine_launch_line) */
    ENGINE_LAUNCH_PREFILL,   /* an xPyD prefill (context) server */
    ENGINE_LAUNCH_DECODE,    /* an xPyD decode (generation) server */
    ENGINE_LAUNCH_ROLE_COUNT
} engine_launch_role;

/* engine_launch_line for one pool's server of an xPyD plan (r: one
 * server's plan, dp its replicas in one EP group), with each framework's
 * documented disaggregation form (launch.c gen_role: the KV connector or
 * transfer role as flags where the command takes them, the config keys
 * and the front-end router that pairs the pools as notes).  Same returns;
 * role ENGINE_LAUNCH_SERVE gives engine_launch_line's line. */
int engine_launch_role_line(engine_launch_fw fw, engine_launch_role role,
                            const engine_scenario *s, const engine_result *r, char *buf,
                            size_t len);

#endif /* SHARDSCOPE_LAUNCH_H */
