/*
 * metrics.c -- kernel totals under Nsight Compute's metric names.
 *
 * One X-macro table names each metric once: which spaces and ops it sums
 * (bit masks) and how the value is formed from the summed wm_stats.  Names
 * and meanings: docs/design/memory-model.md §1, §2 and §4.
 * "Source counter" metrics (memory_*, derived__*) cover all ops
 * of a space, like ncu's Source page.
 */
#include "wm_int.h"

enum kind {
    K_INST,         /* instructions executed (>= 1 active lane) */
    K_REQ,          /* requests */
    K_SECT,         /* sectors */
    K_SECT_PER_REQ, /* sectors / requests */
    K_BPS_RATIO,    /* requested bytes per sector */
    K_BPS_PCT,      /* the same as % of the sector size */
    K_TAGS,         /* 128 B tag lookups */
    K_IDEAL_SECT,   /* ideal sectors */
    K_EXCESS_SECT,  /* sectors - ideal (totals, as the ncu section file) */
    K_WF,           /* shared wavefronts */
    K_IDEAL_WF,     /* ideal wavefronts */
    K_EXCESS_WF,    /* wavefronts - ideal */
    K_CONFLICTS,    /* bank conflicts: wavefronts above ideal per inst */
    K_NWAY,         /* wavefronts / instructions */
    K_BPW_PCT       /* requested bytes per wavefront, % of 128 B */
};

#define G (1u << WM_SPACE_GLOBAL)
#define L (1u << WM_SPACE_LOCAL)
#define S (1u << WM_SPACE_SHARED)
#define T (1u << WM_SPACE_TEXTURE)
#define U (1u << WM_SPACE_SURFACE)
#define LD (1u << WM_OP_LD)
#define ST (1u << WM_OP_ST)
#define AT (1u << WM_OP_ATOM)
#define SM (1u << WM_OP_LDSM)
#define GS (1u << WM_OP_LDGSTS)
#define TM (1u << WM_OP_TMA)
#define ALL (LD | ST | AT | SM | GS)

#define WM_METRIC_LIST(X)                                                     \
    X("smsp__sass_inst_executed_op_global_ld.sum", G, LD, K_INST)            \
    X("smsp__sass_inst_executed_op_global_st.sum", G, ST, K_INST)            \
    X("smsp__sass_inst_executed_op_global_atom.sum", G, AT, K_INST)          \
    X("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", G, LD, K_REQ)       \
    X("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", G, LD, K_SECT)       \
    X("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",\
      G, LD, K_SECT_PER_REQ)                                                  \
    X("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio", G,  \
      LD, K_BPS_RATIO)                                                        \
    X("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", G,    \
      LD, K_BPS_PCT)                                                          \
    X("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", G, ST, K_REQ)       \
    X("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", G, ST, K_SECT)       \
    X("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",\
      G, ST, K_SECT_PER_REQ)                                                  \
    X("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio", G,  \
      ST, K_BPS_RATIO)                                                        \
    X("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", G,    \
      ST, K_BPS_PCT)                                                          \
    X("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", G, AT, K_REQ)     \
    X("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", G, AT, K_SECT)     \
    X("sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", G, GS,  \
      K_REQ)                                                                  \
    X("sm__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", G, GS,   \
      K_SECT)                                                                 \
    X("memory_l1_tag_requests_global", G, ALL, K_TAGS)                       \
    X("memory_l2_theoretical_sectors_global", G, ALL | TM, K_SECT)           \
    X("memory_l2_theoretical_sectors_global_ideal", G, ALL | TM,             \
      K_IDEAL_SECT)                                                           \
    X("derived__memory_l2_theoretical_sectors_global_excessive", G,          \
      ALL | TM, K_EXCESS_SECT)                                                \
    X("l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", L, LD, K_REQ)        \
    X("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", L, LD, K_SECT)        \
    X("l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", L, ST, K_REQ)        \
    X("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", L, ST, K_SECT)        \
    X("memory_l2_theoretical_sectors_local", L, ALL, K_SECT)                 \
    X("l1tex__t_requests_pipe_tex_mem_texture.sum", T, ALL, K_REQ)          \
    X("l1tex__t_sectors_pipe_tex_mem_texture.sum", T, ALL, K_SECT)          \
    X("l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum", U, LD, K_REQ)     \
    X("l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum", U, LD, K_SECT)     \
    X("l1tex__t_requests_pipe_tex_mem_surface_op_st.sum", U, ST, K_REQ)     \
    X("l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum", U, ST, K_SECT)     \
    X("smsp__sass_inst_executed_op_shared_ld.sum", S, LD, K_INST)            \
    X("smsp__sass_inst_executed_op_shared_st.sum", S, ST, K_INST)            \
    X("smsp__sass_inst_executed_op_shared_atom.sum", S, AT, K_INST)          \
    X("smsp__inst_executed_op_ldsm.sum", S, SM, K_INST)                      \
    X("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", S, LD, K_WF)   \
    X("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", S, ST, K_WF)   \
    X("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", S, AT, K_WF) \
    X("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", S, \
      SM, K_WF)                                                               \
    X("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",  \
      S, GS, K_WF)                                                            \
    X("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", S, LD,     \
      K_CONFLICTS)                                                            \
    X("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", S, ST,     \
      K_CONFLICTS)                                                            \
    X("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",\
      S, SM, K_CONFLICTS)                                                     \
    X("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", S, GS, \
      K_CONFLICTS)                                                            \
    X("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", S, ALL,          \
      K_CONFLICTS)                                                            \
    X("memory_l1_wavefronts_shared", S, ALL, K_WF)                           \
    X("memory_l1_wavefronts_shared_ideal", S, ALL, K_IDEAL_WF)               \
    X("derived__memory_l1_wavefronts_shared_excessive", S, ALL, K_EXCESS_WF) \
    X("derived__memory_l1_conflicts_shared_nway", S, ALL, K_NWAY)            \
    X("smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", S, ALL,  \
      K_BPW_PCT)

typedef struct metric_def {
    const char *name;
    unsigned spaces, ops;
    enum kind kind;
} metric_def;

static const metric_def metrics[] = {
#define WM_X_METRIC(name, sp, op, kind) {name, sp, op, kind},
    WM_METRIC_LIST(WM_X_METRIC)
#undef WM_X_METRIC
};

size_t wm_metric_count(void)
{
    return WM_ARRAY_LEN(metrics);
}

const char *wm_metric_name(size_t i)
{
    return i < WM_ARRAY_LEN(metrics) ? metrics[i].name : NULL;
}

/* Sum the stats of the metric's categories. */
static wm_stats gather(const wm_totals *t, const metric_def *m)
{
    wm_stats s;
    memset(&s, 0, sizeof s);
    for (unsigned sp = 0; sp < WM_NSPACES; sp++) {
        if (!((m->spaces >> sp) & 1u))
            continue;
        for (unsigned op = 0; op < WM_NOPS; op++) {
            if (!((m->ops >> op) & 1u))
                continue;
            const wm_stats *x = &t->s[sp][op];
            s.inst += x->inst;
            s.requests += x->requests;
            s.bytes += x->bytes;
            s.sectors += x->sectors;
            s.tags += x->tags;
            s.ideal_sectors += x->ideal_sectors;
            s.wavefronts += x->wavefronts;
            s.ideal_wavefronts += x->ideal_wavefronts;
            s.conflicts += x->conflicts;
        }
    }
    return s;
}

static double ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

double wm_metric_value(const wm_totals *t, size_t i)
{
    if (i >= WM_ARRAY_LEN(metrics))
        return 0.0;
    const metric_def *m = &metrics[i];
    wm_stats s = gather(t, m);
    double sector = t->sector_bytes ? t->sector_bytes : 32;
    double wavefront = t->wavefront_bytes ? t->wavefront_bytes : 128;
    switch (m->kind) {
    case K_INST: return (double)s.inst;
    case K_REQ: return (double)s.requests;
    case K_SECT: return (double)s.sectors;
    case K_SECT_PER_REQ: return ratio(s.sectors, s.requests);
    case K_BPS_RATIO: return ratio(s.bytes, s.sectors);
    case K_BPS_PCT: return 100.0 * ratio(s.bytes, s.sectors) / sector;
    case K_TAGS: return (double)s.tags;
    case K_IDEAL_SECT: return (double)s.ideal_sectors;
    case K_EXCESS_SECT:
        return (double)s.sectors - (double)s.ideal_sectors;
    case K_WF: return (double)s.wavefronts;
    case K_IDEAL_WF: return (double)s.ideal_wavefronts;
    case K_EXCESS_WF:
        return (double)s.wavefronts - (double)s.ideal_wavefronts;
    case K_CONFLICTS: return (double)s.conflicts;
    case K_NWAY: return ratio(s.wavefronts, s.inst);
    case K_BPW_PCT:
        return 100.0 * ratio(s.bytes, s.wavefronts) / wavefront;
    }
    return 0.0;
}

int wm_metric_relevant(const wm_totals *t, size_t i)
{
    if (i >= WM_ARRAY_LEN(metrics))
        return 0;
    return gather(t, &metrics[i]).inst > 0;
}

int wm_metric_is_count(size_t i)
{
    if (i >= WM_ARRAY_LEN(metrics))
        return 0;
    switch (metrics[i].kind) {
    case K_SECT_PER_REQ:
    case K_BPS_RATIO:
    case K_BPS_PCT:
    case K_NWAY:
    case K_BPW_PCT: return 0;
    case K_INST:
    case K_REQ:
    case K_SECT:
    case K_TAGS:
    case K_IDEAL_SECT:
    case K_EXCESS_SECT:
    case K_WF:
    case K_IDEAL_WF:
    case K_EXCESS_WF:
    case K_CONFLICTS: return 1;
    }
    return 0;
}

const char *wm_metric_unit(size_t i)
{
    if (i >= WM_ARRAY_LEN(metrics))
        return "";
    /* Nsight Compute's base units (docs/output.md): counters of
       instructions, requests and sectors carry theirs; wavefronts, bank
       conflicts and tag lookups are unitless counts as ncu lists them. */
    switch (metrics[i].kind) {
    case K_INST: return "inst";
    case K_REQ: return "request";
    case K_SECT:
    case K_IDEAL_SECT:
    case K_EXCESS_SECT: return "sector";
    case K_SECT_PER_REQ: return "sector/request";
    case K_BPS_RATIO: return "byte/sector";
    case K_BPS_PCT:
    case K_BPW_PCT: return "%";
    case K_TAGS:
    case K_WF:
    case K_IDEAL_WF:
    case K_EXCESS_WF:
    case K_CONFLICTS:
    case K_NWAY: return "";
    }
    return "";
}
