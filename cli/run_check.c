/*
 * run_check.c -- the --check and --schedule flags of `warpmem run` (see
 * run_check.h; docs/check.md says what each check sees).
 *
 *   --check LIST      comma-separated: race (the race tracker and the
 *                     in-order/reverse comparison, left out where the
 *                     tracked run proves it equal), init, sync (barrier
 *                     checks, always on), schedules (the comparison,
 *                     always run), all
 *   --schedule S      in-order (default), reverse, random:SEED
 */
#include "run_check.h"

#include <stdlib.h>
#include <string.h>

void run_check_init(run_check *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->chk.schedule = WM_SCHED_IN_ORDER;
    rc->chk.diff_arg = -1;
}

/* One word of a --check list into *bits; 0 if unknown. */
static int check_word(const char *s, size_t n, unsigned *bits)
{
    static const struct {
        const char *name;
        unsigned bits;
    } words[] = {
        {"race", WM_CHECK_RACE | WM_CHECK_SCHEDULES | WM_CHECK_PROVE},
        {"init", WM_CHECK_INIT},
        {"sync", 0},
        {"schedules", WM_CHECK_SCHEDULES},
        {"all", WM_CHECK_RACE | WM_CHECK_SCHEDULES | WM_CHECK_PROVE |
                    WM_CHECK_INIT},
    };
    for (size_t k = 0; k < NELEMS(words); k++)
        if (strlen(words[k].name) == n && strncmp(s, words[k].name, n) == 0) {
            *bits |= words[k].bits;
            return 1;
        }
    return 0;
}

static int parse_check(const char *v, run_check *rc)
{
    const char *s = v;
    for (;;) {
        size_t n = strcspn(s, ",");
        if (!check_word(s, n, &rc->chk.checks)) {
            cli_usage_error("--check: '%.*s' is not race, init, sync, "
                            "schedules or all", (int)n, s);
            return 0;
        }
        rc->always |= n == 9 && strncmp(s, "schedules", 9) == 0;
        if (!s[n]) {
            if (rc->always) /* the comparison is run, never proved */
                rc->chk.checks &= ~(unsigned)WM_CHECK_PROVE;
            return 1;
        }
        s += n + 1;
    }
}

static int parse_schedule(const char *v, run_check *rc)
{
    if (strcmp(v, "in-order") == 0) {
        rc->chk.schedule = WM_SCHED_IN_ORDER;
    } else if (strcmp(v, "reverse") == 0) {
        rc->chk.schedule = WM_SCHED_REVERSE;
    } else if (strncmp(v, "random:", 7) == 0) {
        int64_t seed;
        if (!cli_parse_i64("--schedule random:SEED", v + 7, 0, INT64_MAX,
                           &seed))
            return 0;
        rc->chk.schedule = WM_SCHED_RANDOM;
        rc->chk.seed = (uint64_t)seed;
    } else {
        cli_usage_error("--schedule: '%s' is not in-order, reverse or "
                        "random:SEED",
                        v);
        return 0;
    }
    return 1;
}

int run_check_opt(int argc, char **argv, int *i, run_check *rc)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--check", NULL, &v))) {
        if (r < 0 || !parse_check(v, rc))
            return -1;
        rc->given = 1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--schedule", NULL, &v))) {
        if (r < 0 || !parse_schedule(v, rc))
            return -1;
        rc->given = 1;
        return 1;
    }
    return 0;
}

wm_ptx_check *run_check_setup(run_check *rc, const run_arg *args,
                              size_t nargs, const wm_ptx_arg *pargs,
                              size_t np, int *oom)
{
    *oom = 0;
    if (!rc->given)
        return NULL;
    rc->uninit = calloc(np ? np : 1, 1);
    rc->elem = calloc(np ? np : 1, sizeof *rc->elem);
    rc->type = calloc(np ? np : 1, sizeof *rc->type);
    if (!rc->uninit || !rc->elem || !rc->type) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < np; i++)
        for (size_t a = 0; pargs[i].buf && a < nargs; a++)
            if (args[a].form == RUN_ARG_BUFFER && args[a].buf == pargs[i].buf) {
                rc->uninit[i] = (unsigned char)args[a].uninit;
                rc->elem[i] = (unsigned)wm_ptx_type_size(args[a].type);
                rc->type[i] = args[a].type;
            }
    rc->chk.uninit = rc->uninit;
    rc->chk.nuninit = np;
    rc->chk.elem_size = rc->elem;
    rc->chk.nelem_size = np;
    rc->chk.elem_type = rc->type;
    rc->chk.nelem_type = np;
    return &rc->chk;
}

int run_check_found(const run_check *rc)
{
    return rc->chk.nhazards > 0 || rc->chk.dropped > 0 || rc->chk.differs;
}

void run_check_free(run_check *rc)
{
    wm_ptx_check_clear(&rc->chk);
    free(rc->uninit);
    free(rc->elem);
    free(rc->type);
    rc->uninit = NULL;
    rc->elem = NULL;
    rc->type = NULL;
}
