/*
 * cli_common.c - the shared scenario-flag parser, value parsers, close-name
 * suggestions of the command line (see cli_common.h); units are
 * formatted by tui/out (fmt.h).
 * It turns argv into an engine_scenario; it
 * does no model arithmetic.
 */
#include "cli_common.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "calib.h"
#include "validation.h"

/* --- value parsers --------------------------------------------------- */

int cli_parse_int(const char *text, long min, long max, long *out)
{
    if (!text || !*text || isspace((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_double(const char *text, double min, double max, double *out)
{
    if (!text || !*text || isspace((unsigned char)text[0]))
        return -1;
    /* strtod accepts "nan", "inf" and hex floats; a CLI number is decimal. */
    for (const char *p = text; *p; p++)
        if (!isdigit((unsigned char)*p) && !strchr("+-.eE", *p))
            return -1;
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (errno || *end || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_size(const char *text, double *bytes)
{
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {
        {"", 1.0},        {"b", 1.0},
        {"kb", 1e3},      {"mb", 1e6},
        {"gb", 1e9},      {"tb", 1e12},
        {"k", 1024.0},    {"m", 1048576.0},
        {"g", 1073741824.0}, {"t", 1099511627776.0},
        {"kib", 1024.0},  {"mib", 1048576.0},
        {"gib", 1073741824.0}, {"tib", 1099511627776.0},
    };
    if (!text)
        return -1;
    const char *p = text;
    size_t digits = 0, dots = 0;
    while (isdigit((unsigned char)*p) || *p == '.') {
        if (*p == '.')
            dots++;
        else
            digits++;
        p++;
    }
    if (digits == 0 || dots > 1)
        return -1;
    char num[64];
    size_t nlen = (size_t)(p - text);
    if (nlen >= sizeof num)
        return -1;
    memcpy(num, text, nlen);
    num[nlen] = '\0';
    double v = strtod(num, NULL);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(p, units[i].suffix) != 0)
            continue;
        double b = v * units[i].mult;
        if (!isfinite(b) || b > 4611686018427387904.0 /* 2^62 */)
            return -1;
        /* A size is a whole number of bytes; allow float noise only. */
        if (fabs(b - nearbyint(b)) > 1e-6 * (b > 1 ? b : 1))
            return -1;
        *bytes = nearbyint(b);
        return 0;
    }
    return -1;
}

int cli_print_db_errors(const preset_db *db)
{
    if (!db)
        return 0;
    for (int i = 0; i < db->n_errors; i++)
        fprintf(stderr, "shardscope: %s\n", db->errors[i]);
    return db->n_errors;
}

/* --- names ----------------------------------------------------------- */

/* Lower-case alphanumerics only, so "llama3 8b" and "Llama-3-8B" compare. */
static void squash(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 1 < len; s++)
        if (isalnum((unsigned char)*s))
            out[k++] = (char)tolower((unsigned char)*s);
    out[k] = '\0';
}

int cli_close_names(const char *name, const char *const *names, int n,
                    char *buf, size_t len, int max)
{
    char want[128];
    squash(name, want, sizeof want);
    size_t wl = strlen(want);
    int limit = wl / 3 > 2 ? (int)(wl / 3) : 2;
    /* Score every candidate, then emit the best `max` in score order. */
    int score[256];
    int m = n < 256 ? n : 256;
    for (int i = 0; i < m; i++) {
        char have[128];
        squash(names[i], have, sizeof have);
        int d = engine_edit_distance(want, have);
        if (wl >= 3 && (strstr(have, want) || (strlen(have) >= 3 && strstr(want, have))))
            d = d < 1 ? d : 1;
        else if (wl >= 4 && strncmp(want, have, 4) == 0 && d > limit)
            d = limit;
        score[i] = d <= limit ? d : -1;
    }
    int written = 0;
    buf[0] = '\0';
    for (int round = 0; round < max; round++) {
        int best = -1;
        for (int i = 0; i < m; i++)
            if (score[i] >= 0 && (best < 0 || score[i] < score[best]))
                best = i;
        if (best < 0)
            break;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", written ? ", " : "", names[best]);
        score[best] = -1;
        written++;
    }
    return written;
}

static void report_unknown(const char *cmd, const char *flag, const char *kind,
                           const char *listname, const char *name,
                           const char *const *names, int n, const preset_db *db)
{
    char close[512], rejected[96] = "";
    int k = cli_close_names(name, names, n, close, sizeof close, 5);
    /* A broken user preset may be why the name is missing: say so. */
    if (db && db->n_errors > 0)
        snprintf(rejected, sizeof rejected, "; %d preset entr%s rejected", db->n_errors,
                 db->n_errors == 1 ? "y was" : "ies were");
    if (k > 0)
        fprintf(stderr, "shardscope %s: %s: unknown %s '%s'; close: %s (see 'shardscope list %s'%s)\n",
                cmd, flag, kind, name, close, listname, rejected);
    else
        fprintf(stderr, "shardscope %s: %s: unknown %s '%s' (see 'shardscope list %s'%s)\n", cmd,
                flag, kind, name, listname, rejected);
}

#define NAME_TABLE(arr, count, field)                                  \
    const char *names_[256];                                           \
    int n_ = (count) < 256 ? (count) : 256;                            \
    for (int i_ = 0; i_ < n_; i_++)                                    \
        names_[i_] = (arr)[i_].field;

const engine_gpu *cli_find_gpu(const char *cmd, const char *flag,
                               const preset_db *db, const char *name)
{
    const engine_gpu *g = preset_find_gpu(db, name);
    if (!g) {
        NAME_TABLE(db->gpus, db->n_gpus, name)
        report_unknown(cmd, flag, "gpu", "gpus", name, names_, n_, db);
    }
    return g;
}

const engine_link *cli_find_link(const char *cmd, const char *flag,
                                 const preset_db *db, const char *name)
{
    const engine_link *l = preset_find_link(db, name);
    if (!l) {
        NAME_TABLE(db->links, db->n_links, name)
        report_unknown(cmd, flag, "link", "links", name, names_, n_, db);
    }
    return l;
}

static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 5 && strcasecmp(s + n - 5, ".json") == 0) ||
           access(s, R_OK) == 0;
}

const engine_model *cli_find_model(const char *cmd, const char *flag,
                                   const preset_db *db, const char *name,
                                   engine_model *storage, int *from_file)
{
    const engine_model *m = preset_find_model(db, name);
    if (m)
        return m;
    if (looks_like_path(name)) {
        engine_error err = {{0}};
        memset(storage, 0, sizeof *storage);
        if (preset_model_from_hf_config(name, storage, &err) != 0) {
            fprintf(stderr, "shardscope %s: %s: %s\n", cmd, flag,
                    err.msg[0] ? err.msg : "cannot read the config.json");
            return NULL;
        }
        if (from_file)
            *from_file = 1;
        return storage;
    }
    NAME_TABLE(db->models, db->n_models, name)
    report_unknown(cmd, flag, "model", "models", name, names_, n_, db);
    return NULL;
}

const engine_link *cli_default_link(const preset_db *db)
{
    static const char *const prefer[] = {"pcie-4", "pcie4", "pcie-4.0", "pcie4-x16",
                                         "pcie-4.0-x16", "pcie-gen4", "nvlink-4", "nvlink4"};
    if (!db || db->n_links <= 0)
        return NULL;
    for (size_t i = 0; i < sizeof prefer / sizeof prefer[0]; i++) {
        const engine_link *l = preset_find_link(db, prefer[i]);
        if (l)
            return l;
    }
    /* Fall back on any PCIe 4.0 entry, then the first link. */
    for (int i = 0; i < db->n_links; i++) {
        char sq[128];
        squash(db->links[i].name, sq, sizeof sq);
        if (strncmp(sq, "pcie4", 5) == 0 || strncmp(sq, "pcie40", 6) == 0)
            return &db->links[i];
    }
    return &db->links[0];
}

const engine_link *cli_default_link_for(const preset_db *db, const engine_gpu *gpu)
{
    static const struct {
        const char *gpu, *link;
    } usual[] = {
        {"h100-sxm", "nvlink4"}, {"h200", "nvlink4"},   {"b200", "nvlink5"},
        {"a100-40gb", "nvlink3"}, {"a100-80gb", "nvlink3"}, {"h100-pcie", "pcie5"},
        {"mi300x", "pcie5"},     {"rtx-2070", "pcie3"},
    };
    if (gpu)
        for (size_t i = 0; i < sizeof usual / sizeof usual[0]; i++)
            if (!strcasecmp(gpu->name, usual[i].gpu)) {
                const engine_link *l = preset_find_link(db, usual[i].link);
                if (l)
                    return l;
            }
    return cli_default_link(db);
}

/* --- option parsing -------------------------------------------------- */

static const cli_opt *find_opt(const char *name, size_t nlen, const cli_opt *a,
                               int na, const cli_opt *b, int nb)
{
    for (int i = 0; i < na + nb; i++) {
        const cli_opt *o = i < na ? &a[i] : &b[i - na];
        if (strlen(o->name) == nlen && strncmp(o->name, name, nlen) == 0)
            return o;
    }
    return NULL;
}

static int set_opt(const char *cmd, const cli_opt *o, const char *v)
{
    switch (o->kind) {
    case CLI_OPT_FLAG:
        *(int *)o->dest = 1;
        break;
    case CLI_OPT_INT: {
        long x;
        if (cli_parse_int(v, (long)o->min, (long)o->max, &x) != 0) {
            fprintf(stderr, "shardscope %s: %s: expected an integer %ld..%ld, got '%s'\n", cmd,
                    o->name, (long)o->min, (long)o->max, v);
            return CLI_USAGE;
        }
        *(int *)o->dest = (int)x;
        break;
    }
    case CLI_OPT_DOUBLE: {
        double x;
        if (cli_parse_double(v, o->min, o->max, &x) != 0) {
            fprintf(stderr, "shardscope %s: %s: expected a number %g..%g, got '%s'\n", cmd,
                    o->name, o->min, o->max, v);
            return CLI_USAGE;
        }
        *(double *)o->dest = x;
        break;
    }
    case CLI_OPT_SIZE: {
        double x;
        if (cli_parse_size(v, &x) != 0) {
            fprintf(stderr,
                    "shardscope %s: %s: expected a size such as 1024, 4KiB, 16MiB or 1GB, got "
                    "'%s'\n",
                    cmd, o->name, v);
            return CLI_USAGE;
        }
        if (x < o->min || x > o->max) {
            fprintf(stderr, "shardscope %s: %s: expected a size %.0f..%.0f bytes, got '%s'\n",
                    cmd, o->name, o->min, o->max, v);
            return CLI_USAGE;
        }
        *(double *)o->dest = x;
        break;
    }
    case CLI_OPT_U64: {
        errno = 0;
        char *end = NULL;
        unsigned long long x = (v[0] >= '0' && v[0] <= '9') ? strtoull(v, &end, 10) : 0;
        if (!(v[0] >= '0' && v[0] <= '9') || errno || !end || *end) {
            fprintf(stderr,
                    "shardscope %s: %s: expected an integer 0..18446744073709551615, got "
                    "'%s'\n",
                    cmd, o->name, v);
            return CLI_USAGE;
        }
        *(uint64_t *)o->dest = (uint64_t)x;
        break;
    }
    case CLI_OPT_STRING:
        if (!*v) {
            fprintf(stderr, "shardscope %s: %s: expected a value, got ''\n", cmd, o->name);
            return CLI_USAGE;
        }
        *(const char **)o->dest = v;
        break;
    }
    if (o->seen)
        *o->seen = 1;
    return CLI_OK;
}

static int parse_loop(const char *cmd, int argc, char **argv, const cli_opt *a,
                      int na, const cli_opt *b, int nb, const char **positional,
                      int max_pos, int *n_pos)
{
    if (n_pos)
        *n_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
            return CLI_HELP;
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (n_pos && *n_pos < max_pos) {
                positional[(*n_pos)++] = arg;
                continue;
            }
            fprintf(stderr, "shardscope %s: unexpected argument '%s' (see 'shardscope %s --help')\n",
                    cmd, arg, cmd);
            return CLI_USAGE;
        }
        const char *eq = strchr(arg, '=');
        size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
        const cli_opt *o = find_opt(arg, nlen, a, na, b, nb);
        if (!o) {
            fprintf(stderr, "shardscope %s: %.*s: unknown option (see 'shardscope %s --help')\n",
                    cmd, (int)nlen, arg, cmd);
            return CLI_USAGE;
        }
        const char *v = NULL;
        if (o->kind == CLI_OPT_FLAG) {
            if (eq) {
                fprintf(stderr, "shardscope %s: %s: takes no value, got '%s'\n", cmd, o->name,
                        eq + 1);
                return CLI_USAGE;
            }
        } else if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
            v = argv[++i];
        } else {
            fprintf(stderr, "shardscope %s: %s: missing value\n", cmd, o->name);
            return CLI_USAGE;
        }
        int rc = set_opt(cmd, o, v);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

int cli_opts_parse(const char *cmd, int argc, char **argv, const cli_opt *opts,
                   int n_opts, const char **positional, int max_pos, int *n_pos)
{
    return parse_loop(cmd, argc, argv, opts, n_opts, NULL, 0, positional, max_pos, n_pos);
}

void cli_scenario_help(FILE *f)
{
    fprintf(f,
            "scenario:\n"
            "  --model M            preset name (shardscope list models) or a path to a\n"
            "                       Hugging Face config.json\n"
            "  --gpu G              GPU preset (shardscope list gpus)\n"
            "  --gpus N             number of GPUs, 1..1048576\n"
            "  --tp T --pp P --dp D --ep E\n"
            "                       an explicit plan (missing ones: 1; dp = N/(tp*pp))\n"
            "  --link L             interconnect inside an NVLink domain or node (default:\n"
            "                       the GPU's usual one: nvlink3/4/5 for A100/H100/B200\n"
            "                       SXM, xgmi for MI300X, PCIe for PCIe cards)\n"
            "  --inter-link L       scale-out link between domains (default: the GPU's,\n"
            "                       ib-ndr for H100/H200/B200, ib-hdr for A100)\n"
            "  --gpus-per-node K    GPUs on the intra link (default: the GPU's NVLink\n"
            "                       domain, 8 for HGX, 72 for GB200 NVL72; PCIe cards 8)\n"
            "  --vram-gb X          memory per GPU in GB (1e9 bytes; default: the GPU's)\n"
            "  --framework F        vllm|sglang|trt-llm|generic (default generic): launch,\n"
            "                       step and request costs, custom all-reduce, memory rule\n"
            "  --cuda-graphs on|off decode steps replay a CUDA graph or launch every kernel\n"
            "                       eagerly (default: the framework's; vLLM --enforce-eager\n"
            "                       is off)\n"
            "  --mem-fraction X     memory fraction of the framework's rule, 0..1 (vLLM\n"
            "                       gpu_memory_utilization: of the total; TensorRT-LLM:\n"
            "                       of what is free after the weights; default: its own)\n"
            "  --max-model-len N    context limit in tokens (default: the model's\n"
            "                       max_position_embeddings x rope_scaling factor)\n"
            "workload:\n"
            "  --batch B            concurrent sequences per replica, 1..16777216 (default 1)\n"
            "  --prompt S           prompt tokens, 1..100000000 (default 1024)\n"
            "  --gen G              generated tokens, 1..100000000 (default 256)\n"
            "  --dtype D            weights: fp16|bf16|fp8|int8|int4|fp4 (default: the\n"
            "                       checkpoint's quantization_config, else fp16)\n"
            "  --quant-group N      weights per int4/fp4 scale (default: the checkpoint's,\n"
            "                       else 128 for int4, 16 for fp4)\n"
            "  --kv-dtype D         KV cache dtype (default fp16)\n"
            "  --act-dtype D        activations / communication dtype (default fp16)\n"
            "  --microbatches M     prefill micro-batches (default: min(pp, batch), whole\n"
            "                       sequences; more than the batch splits sequences)\n"
            "  --schedule S         gpipe|1f1b|interleaved (default gpipe)\n"
            "  --interleave V       chunks per stage for the interleaved schedule, 1..64 (2)\n"
            "  --objective O        latency|throughput|cost (ranking; default latency)\n"
            "tails (Monte Carlo):\n"
            "  --jitter SIGMA       log-normal sigma of per-GPU compute, 0..3 (default 0.12)\n"
            "  --straggler-prob P   chance a GPU straggles in a request (default 0.002)\n"
            "  --straggler-slowdown X  a straggler's compute multiplier, 1..100 (default 1.5)\n"
            "  --samples K          Monte Carlo samples, 0..1000000 (default 1000)\n"
            "  --seed N             generator seed (default 42): same inputs, same numbers\n"
            "calibration:\n"
            "  --calib FILE         use this saved calibration (shardscope calibrate)\n"
            "  --no-calib           datasheet defaults, ignoring saved calibrations\n"
            "                       (default: the calibration saved for --gpu, if any)\n"
            "output:\n"
            "  --json               one JSON object on stdout\n");
}

static int parse_enum(const char *cmd, const char *flag, const char *v,
                      const char *choices, int rc_parse)
{
    if (rc_parse != 0) {
        fprintf(stderr, "shardscope %s: %s: expected %s, got '%s'\n", cmd, flag, choices, v);
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cli_scenario_parse(cli_scenario *out, int argc, char **argv,
                       const preset_db *db, unsigned need,
                       const cli_opt *extra, int n_extra)
{
    const char *cmd = argc > 0 && argv[0] ? argv[0] : "shardscope";
    memset(out, 0, sizeof *out);
    engine_scenario *s = &out->scenario;
    engine_scenario_defaults(s);

    int gpus = 0, per_node = 0, batch = s->batch, prompt = s->prompt, gen = s->gen;
    int tp = 0, pp = 0, dp = 0, ep = 0, micro = s->microbatches, interleave = s->interleave;
    int samples = s->mc_samples;
    int seen_tp = 0, seen_pp = 0, seen_dp = 0, seen_ep = 0, seen_gpus = 0;
    int seen_per_node = 0, seen_vram = 0, seen_interleave = 0;
    double vram_gb = 0, jitter = s->jitter_sigma, sprob = s->straggler_prob;
    double sslow = s->straggler_slowdown;
    uint64_t seed = s->seed;
    const char *dtype = NULL, *kv_dtype = NULL, *act_dtype = NULL, *schedule = NULL;
    const char *objective = NULL, *calib_path = NULL, *graphs = NULL;
    int no_calib = 0, max_len = 0, qgroup = 0, seen_mem = 0;
    double mem_fraction = 0;
    const double maxc = CLI_MAX_COUNT, maxtok = 1e8;

    const cli_opt shared[] = {
        {"--model", CLI_OPT_STRING, &out->model_arg, 0, 0, NULL},
        {"--gpu", CLI_OPT_STRING, &out->gpu_arg, 0, 0, NULL},
        {"--gpus", CLI_OPT_INT, &gpus, 1, maxc, &seen_gpus},
        {"--tp", CLI_OPT_INT, &tp, 1, maxc, &seen_tp},
        {"--pp", CLI_OPT_INT, &pp, 1, maxc, &seen_pp},
        {"--dp", CLI_OPT_INT, &dp, 1, maxc, &seen_dp},
        {"--ep", CLI_OPT_INT, &ep, 1, maxc, &seen_ep},
        {"--link", CLI_OPT_STRING, &out->link_arg, 0, 0, NULL},
        {"--inter-link", CLI_OPT_STRING, &out->inter_arg, 0, 0, NULL},
        {"--gpus-per-node", CLI_OPT_INT, &per_node, 1, maxc, &seen_per_node},
        {"--batch", CLI_OPT_INT, &batch, 1, 16777216, NULL},
        {"--prompt", CLI_OPT_INT, &prompt, 1, maxtok, NULL},
        {"--gen", CLI_OPT_INT, &gen, 1, maxtok, NULL},
        {"--dtype", CLI_OPT_STRING, &dtype, 0, 0, NULL},
        {"--kv-dtype", CLI_OPT_STRING, &kv_dtype, 0, 0, NULL},
        {"--act-dtype", CLI_OPT_STRING, &act_dtype, 0, 0, NULL},
        {"--microbatches", CLI_OPT_INT, &micro, 1, maxc, NULL},
        {"--schedule", CLI_OPT_STRING, &schedule, 0, 0, NULL},
        {"--interleave", CLI_OPT_INT, &interleave, 1, 64, &seen_interleave},
        {"--vram-gb", CLI_OPT_DOUBLE, &vram_gb, 0.001, 1e6, &seen_vram},
        {"--objective", CLI_OPT_STRING, &objective, 0, 0, NULL},
        {"--jitter", CLI_OPT_DOUBLE, &jitter, 0, 3, NULL},
        {"--straggler-prob", CLI_OPT_DOUBLE, &sprob, 0, 1, NULL},
        {"--straggler-slowdown", CLI_OPT_DOUBLE, &sslow, 1, 100, NULL},
        {"--samples", CLI_OPT_INT, &samples, 0, 1000000, NULL},
        {"--seed", CLI_OPT_U64, &seed, 0, 0, NULL},
        {"--framework", CLI_OPT_STRING, &out->framework_arg, 0, 0, NULL},
        {"--cuda-graphs", CLI_OPT_STRING, &graphs, 0, 0, NULL},
        {"--max-model-len", CLI_OPT_INT, &max_len, 1, 1000000000, NULL},
        {"--mem-fraction", CLI_OPT_DOUBLE, &mem_fraction, 0.01, 1, &seen_mem},
        {"--quant-group", CLI_OPT_INT, &qgroup, 1, 1048576, NULL},
        {"--calib", CLI_OPT_STRING, &calib_path, 0, 0, NULL},
        {"--no-calib", CLI_OPT_FLAG, &no_calib, 0, 0, NULL},
        {"--json", CLI_OPT_FLAG, &out->json, 0, 0, NULL},
        {"--csv", CLI_OPT_FLAG, &out->csv, 0, 0, NULL},
    };
    int n_shared = (int)(sizeof shared / sizeof shared[0]);
    if (!(need & CLI_ALLOW_CSV))
        n_shared--; /* --csv is last */

    int rc = parse_loop(cmd, argc, argv, shared, n_shared, extra, n_extra, NULL, 0, NULL);
    if (rc != CLI_OK)
        return rc;

    /* Presets. */
    if (out->model_arg) {
        s->model = cli_find_model(cmd, "--model", db, out->model_arg, &out->hf_model,
                                  &out->model_from_file);
        if (!s->model)
            return CLI_USAGE;
    } else if (need & CLI_NEED_MODEL) {
        fprintf(stderr, "shardscope %s: --model: required (a preset name or a config.json path)\n",
                cmd);
        return CLI_USAGE;
    }
    if (out->gpu_arg) {
        s->gpu = cli_find_gpu(cmd, "--gpu", db, out->gpu_arg);
        if (!s->gpu)
            return CLI_USAGE;
    } else if (need & CLI_NEED_GPU) {
        fprintf(stderr, "shardscope %s: --gpu: required (see 'shardscope list gpus')\n", cmd);
        return CLI_USAGE;
    }
    const engine_link *usual_intra = NULL, *usual_inter = NULL;
    int usual_per_node = 0;
    preset_gpu_topology(db, s->gpu, &usual_intra, &usual_inter, &usual_per_node);
    if (out->link_arg) {
        s->intra = cli_find_link(cmd, "--link", db, out->link_arg);
        if (!s->intra)
            return CLI_USAGE;
    } else {
        s->intra = usual_intra ? usual_intra : cli_default_link_for(db, s->gpu);
    }
    if (out->inter_arg) {
        s->inter = cli_find_link(cmd, "--inter-link", db, out->inter_arg);
        if (!s->inter)
            return CLI_USAGE;
    } else {
        s->inter = usual_inter;
    }
    if (out->framework_arg) {
        s->framework = preset_find_framework(db, out->framework_arg);
        if (!s->framework) {
            char names[256] = "";
            for (int i = 0; i < db->n_frameworks; i++) {
                size_t u = strlen(names);
                snprintf(names + u, sizeof names - u, "%s%s", i ? "|" : "",
                         db->frameworks[i].name);
            }
            fprintf(stderr, "shardscope %s: --framework: unknown framework '%s' (expected %s)\n",
                    cmd, out->framework_arg, names[0] ? names : "vllm|sglang|trt-llm|generic");
            return CLI_USAGE;
        }
    } else {
        s->framework = preset_find_framework(db, "generic");
    }
    if (graphs) {
        if (!strcmp(graphs, "on"))
            s->cuda_graphs = ENGINE_GRAPHS_ON;
        else if (!strcmp(graphs, "off"))
            s->cuda_graphs = ENGINE_GRAPHS_OFF;
        else if (!strcmp(graphs, "default"))
            s->cuda_graphs = ENGINE_GRAPHS_DEFAULT;
        else {
            fprintf(stderr, "shardscope %s: --cuda-graphs: expected on|off|default, got '%s'\n",
                    cmd, graphs);
            return CLI_USAGE;
        }
    }

    /* Calibration: an explicit file, else the one saved for this GPU by
     * `shardscope calibrate` (GPU backends only), else datasheet defaults. */
    if (calib_path && no_calib) {
        fprintf(stderr, "shardscope %s: --calib: cannot be combined with --no-calib\n", cmd);
        return CLI_USAGE;
    }
    if (calib_path) {
        engine_error err = {{0}};
        char preset[ENGINE_NAME_MAX] = "";
        if (calib_store_load_file(calib_path, &out->calib, preset, sizeof preset, &err) != 0) {
            fprintf(stderr, "shardscope %s: --calib: %s\n", cmd,
                    err.msg[0] ? err.msg : "cannot read the calibration");
            return CLI_USAGE;
        }
        if (s->gpu && preset[0] && strcasecmp(preset, s->gpu->name) != 0)
            fprintf(stderr, "shardscope %s: --calib: note: %s was measured for %s, applied to %s\n",
                    cmd, calib_path, preset, s->gpu->name);
        s->calib = &out->calib;
    } else if (!no_calib && s->gpu && calib_store_load_for_gpu(s->gpu->name, &out->calib) == 1 &&
               out->calib.measured) {
        s->calib = &out->calib;
    }

    /* Enumerations. */
    static const char DTYPES[] = "fp16|bf16|fp8|int8|int4|fp4";
    if (dtype && (rc = parse_enum(cmd, "--dtype", dtype, DTYPES,
                                  engine_dtype_parse(dtype, &s->weight_dtype))))
        return rc;
    if (!dtype && s->model && s->model->has_weight_dtype) {
        /* the checkpoint's own format (its quantization_config) */
        s->weight_dtype = s->model->weight_dtype;
        s->quant_group = s->model->quant_group;
    }
    if (qgroup > 0)
        s->quant_group = qgroup;
    if (kv_dtype && (rc = parse_enum(cmd, "--kv-dtype", kv_dtype, DTYPES,
                                     engine_dtype_parse(kv_dtype, &s->kv_dtype))))
        return rc;
    if (act_dtype && (rc = parse_enum(cmd, "--act-dtype", act_dtype, DTYPES,
                                      engine_dtype_parse(act_dtype, &s->act_dtype))))
        return rc;
    if (schedule && (rc = parse_enum(cmd, "--schedule", schedule, "gpipe|1f1b|interleaved",
                                     engine_schedule_parse(schedule, &s->schedule))))
        return rc;
    if (objective && (rc = parse_enum(cmd, "--objective", objective,
                                      "latency|throughput|cost",
                                      engine_objective_parse(objective, &s->objective))))
        return rc;
    if (s->schedule == ENGINE_SCHED_INTERLEAVED && !seen_interleave && interleave < 2)
        interleave = 2;

    /* The plan. */
    out->has_plan = seen_tp || seen_pp || seen_dp || seen_ep;
    if (out->has_plan) {
        if (!seen_tp)
            tp = 1;
        if (!seen_pp)
            pp = 1;
        if (!seen_ep)
            ep = 1;
        if (!seen_dp) {
            if (!seen_gpus) {
                dp = 1;
            } else if (gpus % (tp * pp) != 0) {
                fprintf(stderr,
                        "shardscope %s: --gpus: %d is not a multiple of tp*pp = %d*%d; give --dp "
                        "or change --tp/--pp\n",
                        cmd, gpus, tp, pp);
                return CLI_USAGE;
            } else {
                dp = gpus / (tp * pp);
            }
        }
        long prod = (long)tp * pp * dp;
        if (!seen_gpus) {
            if (prod > CLI_MAX_COUNT) {
                fprintf(stderr, "shardscope %s: --tp/--pp/--dp: tp*pp*dp = %ld is above %d GPUs\n",
                        cmd, prod, CLI_MAX_COUNT);
                return CLI_USAGE;
            }
            gpus = (int)prod;
            seen_gpus = 1;
        } else if (prod != gpus) {
            fprintf(stderr, "shardscope %s: --gpus: tp*pp*dp = %d*%d*%d = %ld, but --gpus is %d\n",
                    cmd, tp, pp, dp, prod, gpus);
            return CLI_USAGE;
        }
        out->plan = (engine_plan){tp, pp, dp, ep};
    }
    if (!seen_gpus) {
        if (need & CLI_NEED_GPUS) {
            fprintf(stderr, "shardscope %s: --gpus: required (an integer 1..%d)\n", cmd,
                    CLI_MAX_COUNT);
            return CLI_USAGE;
        }
        gpus = 1;
    }

    s->gpus = gpus;
    s->gpus_per_node = seen_per_node ? per_node : usual_per_node;
    s->max_model_len = max_len;
    if (seen_mem)
        s->usable_fraction = mem_fraction;
    if (seen_vram)
        s->vram_bytes = vram_gb * 1e9;
    s->batch = batch;
    s->prompt = prompt;
    s->gen = gen;
    s->microbatches = micro;
    s->interleave = interleave;
    s->jitter_sigma = jitter;
    s->straggler_prob = sprob;
    s->straggler_slowdown = sslow;
    s->mc_samples = samples;
    s->seed = seed;

    if (s->model) {
        int limit = engine_context_limit(s);
        if (limit > 0 && (long long)s->prompt + s->gen > limit) {
            fprintf(stderr,
                    "shardscope %s: --prompt/--gen: prompt + gen = %lld tokens exceeds the "
                    "context of %d tokens (%s; --max-model-len N overrides)\n",
                    cmd, (long long)s->prompt + s->gen, limit,
                    max_len > 0 ? "--max-model-len" : s->model->name);
            return CLI_USAGE;
        }
    }
    if (s->model && s->gpu && s->intra) {
        engine_error err = {{0}};
        if (engine_scenario_check(s, &err) != 0) {
            fprintf(stderr, "shardscope %s: %s\n", cmd,
                    err.msg[0] ? err.msg : "the scenario is not usable");
            return CLI_USAGE;
        }
        /* Error bands from the validation cases, on the shipped presets
         * (a user preset cannot move them). */
        if (val_bands_shipped(&out->bands) == 0)
            s->bands = &out->bands;
    } else if (!s->intra && (need & CLI_NEED_GPU)) {
        fprintf(stderr, "shardscope %s: --link: no interconnect presets are loaded\n", cmd);
        return CLI_USAGE;
    }
    return CLI_OK;
}
