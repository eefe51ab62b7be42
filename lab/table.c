/*
 * table.c -- the experiment rows of warpmem-lab (numbered E0..E7),
 * their selection, and the statistics every row is reported with.
 *
 * Each row names the row it is compared with (its baseline): the stride
 * and offset sweeps their own stride-1 / offset-0 row, the lesson's
 * transposed copy its contiguous copy, the shared-memory probes the
 * conflict-free 32-bit probe; everything else C_ref, the best contiguous
 * copy of the run (docs/design/lab-method.md).
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_sym[] = {
#define X(name, sym, ptx, what) sym,
#include "kinds.def"
#undef X
};
static const char *const kind_ptx[] = {
#define X(name, sym, ptx, what) ptx,
#include "kinds.def"
#undef X
};
static const char *const kind_what[] = {
#define X(name, sym, ptx, what) what,
#include "kinds.def"
#undef X
};

const char *lab_kind_symbol(lab_kind k)
{
    return (unsigned)k < LAB_NKINDS ? kind_sym[k] : "";
}

const char *lab_kind_ptx(lab_kind k)
{
    return (unsigned)k < LAB_NKINDS ? kind_ptx[k] : "";
}

const char *lab_kind_what(lab_kind k)
{
    return (unsigned)k < LAB_NKINDS ? kind_what[k] : "";
}

/* Append a row; returns its index (the table is sized for all rows). */
static int add(lab_table *t, const char *id, const char *title,
               lab_row_type type, lab_kind kind, lab_params p, int baseline)
{
    lab_row *r = &t->rows[t->nrows];
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%s", id);
    snprintf(r->experiment, sizeof r->experiment, "%.2s", id);
    snprintf(r->title, sizeof r->title, "%s", title);
    r->type = type;
    r->kind = kind;
    r->p = p;
    r->baseline = baseline;
    r->selected = 1;
    return (int)t->nrows++;
}

static const unsigned strides[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32};
static const unsigned offsets[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 31,
                                   32};
static const unsigned widths[] = {1, 2, 4, 8, 16};

/* Kind of the copy with a lane width and loads in flight. */
static lab_kind copy_kind(unsigned width, int ilp)
{
    switch (width) {
    case 1: return ilp ? LAB_K_COPY_W1_ILP4 : LAB_K_COPY_W1;
    case 2: return ilp ? LAB_K_COPY_W2_ILP4 : LAB_K_COPY_W2;
    case 4: return ilp ? LAB_K_COPY_W4_ILP4 : LAB_K_COPY_W4;
    case 8: return ilp ? LAB_K_COPY_W8_ILP4 : LAB_K_COPY_W8;
    default: return ilp ? LAB_K_COPY_W16_ILP4 : LAB_K_COPY_W16;
    }
}

/* The shared-memory probes: id suffix, kind, (a, b, c), title. */
typedef struct probe {
    const char *id;
    lab_kind kind;
    int a, b, c;
    const char *title;
} probe;

static const probe probes[] = {
    {"E6.b32.free", LAB_K_SMEM32, 32, 1, 0, "32-bit, consecutive words"},
    {"E6.b32.2way", LAB_K_SMEM32, 2, 32, 1, "32-bit, 2-way conflict"},
    {"E6.b32.4way", LAB_K_SMEM32, 4, 32, 1, "32-bit, 4-way conflict"},
    {"E6.b32.8way", LAB_K_SMEM32, 8, 32, 1, "32-bit, 8-way conflict"},
    {"E6.b32.16way", LAB_K_SMEM32, 16, 32, 1, "32-bit, 16-way conflict"},
    {"E6.b32.32way", LAB_K_SMEM32, 32, 32, 0, "32-bit, 32-way conflict"},
    {"E6.b32.bcast", LAB_K_SMEM32, 1, 0, 0, "32-bit, broadcast (one word)"},
    {"E6.b32.mcast", LAB_K_SMEM32, 4, 0, 1, "32-bit, multicast (4 lanes/word)"},
    {"E6.b64.free", LAB_K_SMEM64, 32, 2, 0, "64-bit, consecutive"},
    {"E6.b64.stride2", LAB_K_SMEM64, 32, 4, 0, "64-bit, every other"},
    {"E6.b128.free", LAB_K_SMEM128, 32, 4, 0, "128-bit, consecutive"},
    {"E6.b128.stride2", LAB_K_SMEM128, 32, 8, 0, "128-bit, every other"},
};

/* Contract in lab.h. */
wm_status lab_table_build(lab_table *t)
{
    const lab_params none = {0, 0, 0, 0, 0, 0};
    char id[32], title[64];
    int base;
    t->nrows = 0;

    /* E0: the harness and C_ref. */
    add(t, "E0.memcpy", "cudaMemcpy device to device", LAB_ROW_BW,
        LAB_K_MEMCPY, none, -1);
    add(t, "E0.copy", "own copy, 16 B lanes, 4 loads in flight", LAB_ROW_BW,
        LAB_K_COPY_W16_ILP4, none, -1);

    /* E1: the lesson's experiment. */
    base = add(t, "E1.contiguous", "lesson: contiguous 2-D copy", LAB_ROW_BW,
               LAB_K_COPY_2D, none, -1);
    add(t, "E1.transposed", "lesson: copy from the transposed view",
        LAB_ROW_BW, LAB_K_T_NAIVE_COL, none, base);

    /* E2: stride sweeps, read-only and copy. */
    for (int copy = 0; copy < 2; copy++) {
        base = -1;
        for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
            lab_params p = none;
            int row;
            p.stride = strides[i];
            snprintf(id, sizeof id, "E2.%s.s%u", copy ? "copy" : "read",
                     strides[i]);
            snprintf(title, sizeof title, "%s, stride %u x 4 B",
                     copy ? "copy" : "read-only", strides[i]);
            row = add(t, id, title, LAB_ROW_BW,
                      copy ? LAB_K_COPY_STRIDE : LAB_K_READ_STRIDE, p, base);
            if (base < 0)
                base = row;
        }
    }

    /* E3: offset sweep. */
    base = -1;
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        lab_params p = none;
        int row;
        p.offset = offsets[i];
        snprintf(id, sizeof id, "E3.off%u", offsets[i]);
        snprintf(title, sizeof title, "copy, offset %u x 4 B", offsets[i]);
        row = add(t, id, title, LAB_ROW_BW, LAB_K_COPY_OFFSET, p, base);
        if (base < 0)
            base = row;
    }

    /* E4: vector widths, one access per thread and 4 loads in flight. */
    for (int ilp = 0; ilp < 2; ilp++) {
        for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
            lab_params p = none;
            p.width = widths[i];
            snprintf(id, sizeof id, "E4.w%u.%s", widths[i],
                     ilp ? "ilp4" : "one");
            snprintf(title, sizeof title, "copy, %u B lanes, %s", widths[i],
                     ilp ? "4 loads in flight" : "one access per thread");
            add(t, id, title, LAB_ROW_BW, copy_kind(widths[i], ilp), p, -1);
        }
    }

    /* E5: transposes. */
    add(t, "E5.copy2d", "2-D copy at the transpose size", LAB_ROW_BW,
        LAB_K_COPY_2D, none, -1);
    add(t, "E5.naive_row", "naive: coalesced read, strided write",
        LAB_ROW_BW, LAB_K_T_NAIVE_ROW, none, -1);
    add(t, "E5.naive_col", "naive: strided read, coalesced write",
        LAB_ROW_BW, LAB_K_T_NAIVE_COL, none, -1);
    add(t, "E5.tile", "shared tile [32][32], unpadded", LAB_ROW_BW,
        LAB_K_T_TILE, none, -1);
    add(t, "E5.pad", "shared tile [32][33], padded", LAB_ROW_BW, LAB_K_T_PAD,
        none, -1);
    add(t, "E5.swz", "shared tile [32][32], XOR swizzle", LAB_ROW_BW,
        LAB_K_T_SWZ, none, -1);
    add(t, "E5.vec4", "float4 + 4 per thread + swizzle (best)", LAB_ROW_BW,
        LAB_K_T_VEC4, none, -1);
    add(t, "E5.sgeam", "cublasSgeam (library reference)", LAB_ROW_BW,
        LAB_K_SGEAM, none, -1);

    /* E6: bank-conflict probes. */
    base = -1;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        lab_params p = none;
        int row;
        p.a = probes[i].a;
        p.b = probes[i].b;
        p.c = probes[i].c;
        row = add(t, probes[i].id, probes[i].title, LAB_ROW_SMEM,
                  probes[i].kind, p, base);
        if (base < 0)
            base = row;
    }

    for (size_t i = 0; i < t->nrows; i++) {
        wm_status st = lab_predict(wm_arch_default(), t->rows[i].kind,
                                   &t->rows[i].p, &t->rows[i].pred);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}

/* Contract in lab.h. */
int lab_table_find(const lab_table *t, const char *id)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].id, id) == 0)
            return (int)i;
    return -1;
}

/* Contract in lab.h. */
size_t lab_table_select(lab_table *t, const char *spec, char *bad,
                        size_t badlen)
{
    size_t matched = 0;
    const char *s = spec;
    if (bad && badlen)
        bad[0] = '\0';
    for (size_t i = 0; i < t->nrows; i++)
        t->rows[i].selected = spec == NULL;
    if (spec == NULL)
        return t->nrows;
    while (*s) {
        size_t len = strcspn(s, ",");
        size_t hits = 0;
        for (size_t i = 0; len && i < t->nrows; i++) {
            if (strncmp(t->rows[i].id, s, len) == 0) {
                hits += !t->rows[i].selected;
                t->rows[i].selected = 1;
            }
        }
        if (hits == 0) {
            if (bad && badlen)
                snprintf(bad, badlen, "%.*s", (int)len, s);
            return 0;
        }
        matched += hits;
        s += len;
        if (*s == ',')
            s++;
    }
    /* A selected row needs its baseline, and every row needs C_ref. */
    for (size_t i = 0; i < t->nrows; i++) {
        lab_row *r = &t->rows[i];
        if (r->selected && r->baseline >= 0)
            t->rows[r->baseline].selected = 1;
        if (strcmp(r->experiment, "E0") == 0)
            r->selected = 1;
    }
    return matched;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Contract in lab.h. */
void lab_stats(double *v, size_t n, double *med, double *min, double *max)
{
    qsort(v, n, sizeof *v, cmp_double);
    *min = v[0];
    *max = v[n - 1];
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Is the row's measurement usable as a number? */
static int timed(const lab_row *r)
{
    return r->meas.status == LAB_ST_OK && r->meas.ms_med > 0.0;
}

/* Contract in lab.h. */
double lab_row_x_cref(const lab_table *t, const lab_env *e, size_t i)
{
    const lab_row *r = &t->rows[i];
    if (r->type != LAB_ROW_BW || !timed(r) || e->c_ref_gbs <= 0.0)
        return 0.0;
    return r->meas.gbs_med / e->c_ref_gbs;
}

/* Contract in lab.h. */
double lab_row_measured_rel(const lab_table *t, const lab_env *e, size_t i)
{
    const lab_row *r = &t->rows[i];
    const lab_row *b = r->baseline >= 0 ? &t->rows[r->baseline] : NULL;
    if (!timed(r))
        return 0.0;
    if (r->type == LAB_ROW_SMEM)
        return b && timed(b) ? r->meas.ms_med / b->meas.ms_med : 0.0;
    if (b == NULL)
        return lab_row_x_cref(t, e, i);
    return timed(b) ? r->meas.gbs_med / b->meas.gbs_med : 0.0;
}

/* Contract in lab.h. */
double lab_row_predicted_rel(const lab_table *t, size_t i)
{
    const lab_row *r = &t->rows[i];
    const lab_row *b = r->baseline >= 0 ? &t->rows[r->baseline] : NULL;
    if (!r->pred.has)
        return 0.0;
    if (r->type == LAB_ROW_SMEM) {
        double base = b ? b->pred.nway_pred : 1.0;
        return base > 0.0 ? r->pred.nway_pred / base : 0.0;
    }
    if (b && b->pred.has && b->pred.efficiency > 0.0)
        return r->pred.efficiency / b->pred.efficiency;
    return r->pred.efficiency;
}

/* Contract in lab.h. */
int lab_clock_moved(unsigned a, unsigned b)
{
    double d;
    if (a == 0 || b == 0)
        return 0;
    d = a > b ? (double)(a - b) : (double)(b - a);
    return d * 100.0 > LAB_CLOCK_TOL_PCT * (double)a;
}

/* Contract in lab.h. */
int lab_env_clocks_moved(const lab_table *t, const lab_env *e)
{
    if (lab_clock_moved(e->sm_mhz[1], e->sm_mhz[2]) ||
        lab_clock_moved(e->mem_mhz[1], e->mem_mhz[2]))
        return 1;
    for (size_t i = 0; i < t->nrows; i++) {
        const lab_meas *m = &t->rows[i].meas;
        if (t->rows[i].selected && m->status == LAB_ST_OK &&
            (lab_clock_moved(e->sm_mhz[1], m->sm_mhz) ||
             lab_clock_moved(e->mem_mhz[1], m->mem_mhz)))
            return 1;
    }
    return 0;
}
