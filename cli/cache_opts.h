/*
 * cache_opts.h -- the hierarchy-model options shared by `run` and `expr`:
 * --cache, --cache-order insn|barrier, --sms N, --regs N, and the
 * the model's section itself is part of the command's report (text:
 * wm_cache_report after it; JSON, CSV: inside the library's document).
 */
#ifndef WM_CLI_CACHE_OPTS_H
#define WM_CLI_CACHE_OPTS_H

#include "cli.h"

typedef struct cli_cache {
    int on;               /* --cache */
    wm_cache_order order; /* --cache-order */
    int64_t sms;          /* --sms N, 0 = the GPU's count */
    int64_t regs;         /* --regs N per thread, 0 = not limiting */
} cli_cache;

void cli_cache_init(cli_cache *o);

/* If argv[*i] is a hierarchy option, take it: 1; not one: 0; -1 after a
 * usage error. */
int cli_cache_opt(int argc, char **argv, int *i, cli_cache *o);

/* The model for a launch (NULL with o->on unset, or after printing an
 * error: *failed is set then). */
wm_cache *cli_cache_new(const cli_cache *o, const wm_arch *arch,
                        uint64_t threads, uint64_t smem, int *failed);

#endif /* WM_CLI_CACHE_OPTS_H */
