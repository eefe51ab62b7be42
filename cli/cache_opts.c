/*
 * cache_opts.c -- the hierarchy-model options of `run` and `expr`
 * (cache_opts.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cache_opts.h"

#include <stdlib.h>
#include <string.h>

void cli_cache_init(cli_cache *o)
{
    memset(o, 0, sizeof *o);
    o->order = WM_CACHE_ORDER_INSN;
}

int cli_cache_opt(int argc, char **argv, int *i, cli_cache *o)
{
    const char *v;
    int r;
    if (cli_flag(argv, *i, "--cache", NULL)) {
        o->on = 1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--cache-order", NULL, &v))) {
        if (r < 0)
            return -1;
        if (strcmp(v, "insn") == 0)
            o->order = WM_CACHE_ORDER_INSN;
        else if (strcmp(v, "barrier") == 0)
            o->order = WM_CACHE_ORDER_BARRIER;
        else {
            cli_usage_error("--cache-order: '%s' is not insn or barrier", v);
            return -1;
        }
        o->on = 1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--regs", NULL, &v))) {
        if (r < 0 || !cli_parse_i64("--regs", v, 1, 255, &o->regs))
            return -1;
        o->on = 1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--sms", NULL, &v))) {
        if (r < 0 || !cli_parse_i64("--sms", v, 1, 100000, &o->sms))
            return -1;
        o->on = 1;
        return 1;
    }
    return 0;
}

wm_cache *cli_cache_new(const cli_cache *o, const wm_arch *arch,
                        uint64_t threads, uint64_t smem, int *failed)
{
    *failed = 0;
    if (!o->on)
        return NULL;
    *failed = 1;
    const wm_gpu *g = wm_gpu_for_arch(arch);
    if (!g) {
        cli_usage_error("--cache: no GPU figures for profile '%s' (use "
                        "--arch H200, H100, A100, L4 or RTX4090)",
                        arch->name);
        return NULL;
    }
    wm_cache_config cfg;
    if (wm_cache_config_init_regs(&cfg, g, threads, smem,
                                  (unsigned)o->regs) != WM_OK) {
        cli_usage_error("--cache: a CTA of %llu threads, %llu shared bytes "
                        "and %lld registers per thread does not fit one %s "
                        "SM",
                        (unsigned long long)threads, (unsigned long long)smem,
                        (long long)o->regs, g->name);
        return NULL;
    }
    cfg.order = o->order;
    if (o->sms)
        cfg.nsms = (unsigned)o->sms;
    wm_cache *c = wm_cache_new(&cfg);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    *failed = 0;
    return c;
}
