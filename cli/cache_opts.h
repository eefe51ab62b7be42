/*
 * cache_opts.h -- the hierarchy-model options shared by `run` and `expr`:
 * --cache, --cache-order insn|barrier, --sms N, --regs N, and the
 * printing of the
 * model's section after (text, CSV) or inside (JSON) the command's report.
 */
#ifndef WM_CLI_CACHE_OPTS_H
#define WM_CLI_CACHE_OPTS_H

#include "cli.h"

typedef struct cli_cache {
    int on;               /* --cache */
    wm_cache_order order; /* --cache-order */
    int64_t sms;          /* --sms N, 0 = the GPU's count */
    int64_t regs;         /* --regs N per thread, 0 = not limiting */
    /* printing state */
    wm_format fmt;
    FILE *out;            /* where the report goes: stdout or a buffer */
    char *buf;
    size_t len;
} cli_cache;

void cli_cache_init(cli_cache *o);

/* If argv[*i] is a hierarchy option, take it: 1; not one: 0; -1 after a
 * usage error. */
int cli_cache_opt(int argc, char **argv, int *i, cli_cache *o);

/* The model for a launch (NULL with o->on unset, or after printing an
 * error: *failed is set then). */
wm_cache *cli_cache_new(const cli_cache *o, const wm_arch *arch,
                        uint64_t threads, uint64_t smem, int *failed);

/* Where to write the command's report (a buffer for JSON with a model). */
FILE *cli_cache_report_file(cli_cache *o, const wm_cache *c, wm_format fmt);

/* Write the report (spliced with the model's section) to stdout. 1 ok. */
int cli_cache_report_end(cli_cache *o, const wm_cache *c, const wm_agg *g);

#endif /* WM_CLI_CACHE_OPTS_H */
