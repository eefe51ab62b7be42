/*
 * expr_api.c -- the public wm_expr_* functions: program object, -D
 * constants, parse entry, launch, statement info, and the run that feeds a
 * wm_agg and remembers each statement's worst warp.
 */
#include "expr_int.h"
#include "cache_int.h"

/* Worst access per statement, kept by the run's sink. */
typedef struct xworst {
    int have;
    uint32_t value; /* sectors or wavefronts */
    wm_expr_where where;
    wm_counts counts;
    wm_access access;
} xworst;

/* The run's state lives beside the program (one run at a time). */
typedef struct xrun {
    wm_agg *g;
    xworst *worst;
    wm_cache *cache;      /* wm_expr_run_cache: the hierarchy model */
    uint64_t *base;       /* per statement: its array's window for it */
    unsigned block[3];    /* the block the model was last told about */
    int have_block;
    wmi_cmemo *memo;      /* counts per position in a block */
    unsigned seq_block[3]; /* the block of the last access */
    uint64_t seq;         /* accesses of that block before this one */
} xrun;

enum { XMEMO_LOG2 = 14 };

/*
 * The memo's key of an access: its position in the block's sequence of
 * accesses (warps, statements, iterations in walk order), which every
 * block repeats when its loop bounds do not depend on the block; a later
 * block's access at the same position has the same lane pattern whenever
 * the addresses move with the block by whole lines.  Consecutive
 * accesses use consecutive slots.  UINT64_MAX past the memo's size.
 */
static uint64_t memo_key(xrun *run, const wm_expr_where *w)
{
    if (memcmp(run->seq_block, w->block, sizeof run->seq_block) != 0) {
        memcpy(run->seq_block, w->block, sizeof run->seq_block);
        run->seq = 0;
    }
    uint64_t k = run->seq++;
    return k < ((uint64_t)1 << XMEMO_LOG2) ? k : UINT64_MAX;
}

wm_expr *wm_expr_new(void)
{
    wm_expr *e = calloc(1, sizeof(wm_expr));
    if (e)
        e->grid[0] = e->grid[1] = e->grid[2] = 1;
    return e;
}

static xworst *worst_table(const wm_expr *e)
{
    return (xworst *)e->worst;
}

void wm_expr_free(wm_expr *e)
{
    if (!e)
        return;
    if (e->labels)
        for (size_t i = 0; i < e->nstmts; i++)
            free(e->labels[i]);
    free(e->labels);
    free(e->worst);
    free(e->nodes);
    free(e->stmts);
    free(e->src);
    free(e->file);
    free(e);
}

static bool valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= WMX_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                     c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    static const char *const reserved[] = {
        "tid",      "ntid",     "ctaid",  "nctaid", "threadIdx", "blockDim",
        "blockIdx", "gridDim",  "laneid", "warpid", "min",       "max"};
    for (size_t i = 0; i < WM_ARRAY_LEN(reserved); i++)
        if (strcmp(s, reserved[i]) == 0)
            return false;
    return true;
}

wm_status wm_expr_define(wm_expr *e, const char *name, int64_t value)
{
    if (!e || !name || !valid_name(name))
        return WM_ERR_ARG;
    for (size_t i = 0; i < e->nconsts; i++)
        if (strcmp(e->consts[i].name, name) == 0) {
            e->consts[i].value = value; /* the last -D wins */
            return WM_OK;
        }
    if (e->nconsts == WMX_MAX_CONSTS)
        return WM_ERR_RANGE;
    xconst *k = &e->consts[e->nconsts++];
    strcpy(k->name, name);
    k->value = value;
    k->from_cli = 1;
    return WM_OK;
}

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

wm_status wm_expr_parse(wm_expr *e, const char *src, size_t n,
                        const char *file, wm_diag *d)
{
    memset(d, 0, sizeof *d);
    if (!e || (!src && n) || e->src) {
        d->status = WM_ERR_ARG;
        snprintf(d->msg, sizeof d->msg, "invalid argument");
        return WM_ERR_ARG;
    }
    e->src = dup_text(src ? src : "", n);
    e->file = dup_text(file ? file : "<input>", strlen(file ? file : "<input>"));
    if (!e->src || !e->file)
        return wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
    e->nsrc = n;
    wm_status st = wmi_expr_parse(e, d);
    if (st != WM_OK) {
        wm_diag_locate(d, e->src, e->nsrc);
        return st;
    }
    e->labels = calloc(e->nstmts ? e->nstmts : 1, sizeof *e->labels);
    if (!e->labels)
        return wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
    /* statements come in source order: count lines from the previous */
    size_t pos = 0;
    uint32_t line = 1;
    for (size_t i = 0; i < e->nstmts; i++) {
        xstmt *s = &e->stmts[i];
        if (s->off < pos)
            pos = 0, line = 1;
        for (; pos < s->off && pos < e->nsrc; pos++)
            line += e->src[pos] == '\n';
        s->line = line;
        e->labels[i] = dup_text(e->src + s->off, s->len);
        if (!e->labels[i])
            return wm_diag_set(d, WM_ERR_NOMEM, 0, 1, "out of memory");
    }
    return WM_OK;
}

wm_status wm_expr_set_launch(wm_expr *e, const unsigned grid[3],
                             const unsigned block[3])
{
    static const unsigned gmax[3] = {0x7fffffffu, 65535, 65535};
    static const unsigned bmax[3] = {1024, 1024, 64};
    if (!e)
        return WM_ERR_ARG;
    for (int i = 0; i < 3; i++) {
        if (grid && (grid[i] < 1 || grid[i] > gmax[i]))
            return WM_ERR_RANGE;
        if (block && (block[i] < 1 || block[i] > bmax[i]))
            return WM_ERR_RANGE;
    }
    if (block && (uint64_t)block[0] * block[1] * block[2] > 1024)
        return WM_ERR_RANGE;
    if (grid) {
        memcpy(e->grid, grid, sizeof e->grid);
        e->have_grid = 1;
    }
    if (block) {
        memcpy(e->block, block, sizeof e->block);
        e->have_block = 1;
    }
    return WM_OK;
}

int wm_expr_launch(const wm_expr *e, unsigned grid[3], unsigned block[3])
{
    for (int i = 0; i < 3; i++) {
        grid[i] = e->grid[i];
        block[i] = e->have_block ? e->block[i] : 0;
    }
    return e->have_block;
}

size_t wm_expr_nstmts(const wm_expr *e)
{
    return e && e->labels ? e->nstmts : 0;
}

int wm_expr_stmt_info(const wm_expr *e, size_t i, wm_expr_stmt *out)
{
    if (i >= wm_expr_nstmts(e))
        return 0;
    const xstmt *s = &e->stmts[i];
    memset(out, 0, sizeof *out);
    out->text = e->labels[i];
    out->line = s->line;
    out->space = s->space;
    out->op = s->op;
    out->size = s->esize;
    out->nloops = s->nloops;
    for (unsigned k = 0; k < s->nloops; k++)
        out->loop_name[k] = s->loops[k].name;
    return 1;
}

/* Sink of wm_expr_run: count, aggregate, remember the worst warp. */
static wm_status run_sink(void *ctx, const wm_access *a,
                          const wm_expr_where *w)
{
    xrun *run = ctx;
    wm_counts c;
    uint64_t key = memo_key(run, w);
    wm_status st = key != UINT64_MAX
                       ? wmi_cmemo_add(run->memo, run->g, key, a, &c)
                       : wm_agg_add(run->g, a, &c);
    if (st != WM_OK)
        return st;
    if (run->cache) {
        if (!run->have_block ||
            memcmp(run->block, w->block, sizeof run->block) != 0) {
            memcpy(run->block, w->block, sizeof run->block);
            run->have_block = 1;
            st = wm_cache_cta(run->cache);
            if (st != WM_OK)
                return st;
        }
        if (a->space == WM_SPACE_SHARED)
            st = wmi_cache_add_shared(run->cache, w->warp, 0, c.wavefronts);
        else if (a->mask) {
            wm_access b = *a;
            for (uint64_t m = b.mask; m; m &= m - 1)
                b.addr[__builtin_ctzll(m)] += run->base[a->site];
            st = wm_cache_add(run->cache, w->warp, 0, &b, WM_CACHE_LD_CA);
        }
        if (st != WM_OK)
            return st;
    }
    xworst *wo = &run->worst[a->site];
    uint32_t v = a->space == WM_SPACE_SHARED ? c.wavefronts : c.sectors;
    if (!wo->have || v > wo->value) {
        wo->have = 1;
        wo->value = v;
        wo->where = *w;
        wo->counts = c;
        wo->access = *a;
    }
    return WM_OK;
}

/* n more accesses like a: counted once, added n times (no worst can
 * change: the first of them went through run_sink). */
static wm_status run_repeat(void *ctx, const wm_access *a, uint64_t n)
{
    xrun *run = ctx;
    wm_counts c;
    wm_status st = wm_count(wm_agg_arch(run->g), a, &c);
    if (st != WM_OK)
        return st;
    return wmi_agg_add_repeats(run->g, a->site, a->space, a->op, a->size, &c,
                               n, NULL);
}

static wm_status expr_run(wm_expr *e, wm_agg *g, wm_cache *cache,
                          uint64_t max_accesses, wm_expr_fault *fault)
{
    if (!e || !g || !e->labels || !e->have_block)
        return WM_ERR_ARG;
    free(e->worst);
    e->worst = calloc(e->nstmts ? e->nstmts : 1, sizeof(xworst));
    if (!e->worst)
        return WM_ERR_NOMEM;
    for (size_t i = 0; i < e->nstmts; i++) {
        wm_status st = wm_agg_label(g, (uint32_t)i, e->labels[i], e->file,
                                    e->stmts[i].line);
        if (st != WM_OK)
            return st;
    }
    xrun run = {g, worst_table(e), cache, NULL, {0, 0, 0}, 0, NULL,
                {0, 0, 0}, 0};
    if (cache) {
        /* Arrays of different names are different buffers to the model:
         * each name gets its own 2^40-byte window (cudaMalloc'd buffers
         * never overlap), statements on one name share it. */
        run.base = calloc(e->nstmts ? e->nstmts : 1, sizeof *run.base);
        if (!run.base)
            return WM_ERR_NOMEM;
        for (size_t i = 0; i < e->nstmts; i++) {
            size_t first = i;
            for (size_t k = 0; k < i; k++)
                if (strcmp(e->stmts[k].name, e->stmts[i].name) == 0) {
                    first = k;
                    break;
                }
            run.base[i] = first == i ? (uint64_t)(i + 1) << 40
                                     : run.base[first];
        }
    }
    run.memo = wmi_cmemo_new(XMEMO_LOG2, wm_agg_arch(g)->warp_size);
    if (!run.memo) {
        free(run.base);
        return WM_ERR_NOMEM;
    }
    uint64_t lim = max_accesses ? max_accesses : WM_EXPR_DEFAULT_LIMIT;
    /* the hierarchy model and a tap see every access in order */
    wm_status st = cache || wmi_agg_has_tap(g)
                       ? wmi_expr_walk(e, wm_agg_arch(g), 0, lim, run_sink,
                                       &run, fault)
                       : wmi_expr_walk_closed(e, wm_agg_arch(g), lim,
                                              run_sink, run_repeat, &run,
                                              fault);
    free(run.base);
    wmi_cmemo_free(run.memo);
    if (st == WM_OK && cache)
        st = wm_cache_finish(cache);
    return st;
}

wm_status wm_expr_run(wm_expr *e, wm_agg *g, uint64_t max_accesses,
                      wm_expr_fault *fault)
{
    return expr_run(e, g, NULL, max_accesses, fault);
}

wm_status wm_expr_run_cache(wm_expr *e, wm_agg *g, wm_cache *c,
                            uint64_t max_accesses, wm_expr_fault *fault)
{
    if (!c)
        return WM_ERR_ARG;
    return expr_run(e, g, c, max_accesses, fault);
}

const wm_access *wm_expr_worst(const wm_expr *e, size_t i,
                               wm_expr_where *where, wm_counts *c)
{
    if (!e || !e->worst || i >= e->nstmts || !worst_table(e)[i].have)
        return NULL;
    const xworst *wo = &worst_table(e)[i];
    if (where)
        *where = wo->where;
    if (c)
        *c = wo->counts;
    return &wo->access;
}
