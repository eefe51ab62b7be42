/*
 * test_sass.c -- the SASS level from committed disassemblies
 * (tests/sass/NAME.sass: nvdisasm -g -c of ptxas -lineinfo -arch sm_80 of
 * the committed PTX), so no tool is needed: the parser's fields, the map
 * of each line against counts made by hand from the disassembly, and the
 * counts of a run at SASS level against hand-computed wavefronts.
 */
#define _POSIX_C_SOURCE 200809L
#include "wm_int.h"
#include "check.h"

static char *slurp(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    char *t = wm_read_file(path, n);
    if (!t)
        fprintf(stderr, "cannot read %s\n", path);
    CHECK(t != NULL);
    return t;
}

typedef struct fixture {
    char *ptx, *dis;
    size_t nptx, ndis;
    wm_ptx_module *m;
    wm_sass *s;
} fixture;

static int load(fixture *f, const char *ptx, const char *dis)
{
    memset(f, 0, sizeof *f);
    f->ptx = slurp(ptx, &f->nptx);
    f->dis = slurp(dis, &f->ndis);
    if (!f->ptx || !f->dis)
        return 0;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(f->ptx, f->nptx, ptx, &f->m, &d), WM_OK);
    CHECK_EQ(wm_sass_parse(f->dis, f->ndis, &f->s, &d), WM_OK);
    return f->m && f->s;
}

static void unload(fixture *f)
{
    wm_sass_free(f->s);
    wm_ptx_free(f->m);
    free(f->ptx);
    free(f->dis);
}

/* SASS instructions of func at line with this opcode. */
static size_t count_sass(const wm_sass *s, const char *func, uint32_t line,
                         const char *opcode)
{
    size_t n = 0;
    for (size_t i = 0; i < wm_sass_count(s); i++) {
        const wm_sass_mem *x = wm_sass_at(s, i);
        n += x->line == line && !strcmp(x->func, func) &&
             !strcmp(x->opcode, opcode);
    }
    return n;
}

/* PTX instructions of line mapped with kind (and width). */
static size_t count_map(const wm_ptx_module *m, const wm_sass_plan *p,
                        uint32_t line, wm_sass_kind kind, unsigned width)
{
    size_t n = 0;
    for (size_t i = 0; i < wm_ptx_ninsns(m); i++) {
        wm_ptx_where w;
        wm_sass_map mp = wm_sass_plan_insn(p, i);
        if (wm_ptx_where_insn(m, i, &w) && w.line == line && mp.width &&
            mp.kind == kind && mp.width == width)
            n++;
    }
    return n;
}

static void parse_fields(void)
{
    const char *text =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"a/k.cu\", line 7\n"
        "        /*0260*/                   LDS.128 R8, [R17+0x10] ;\n"
        "        /*0270*/              @!P0 STG.E.U8 [R2.64+-0x4], R5 ;\n"
        "\t//## File \"a/k.cu\", line 9 inlined at \"a/k.cu\", line 3\n"
        "        /*0280*/                   LDG.E.64 R4, desc[UR4][R6.64] ;\n"
        "        /*0290*/                   LDS R4, [R0.X4+0x400] ;\n"
        "        /*02a0*/                   RED.E.ADD.F32.FTZ.RN.STRONG.GPU "
        "[R2.64], R5 ;\n"
        "        /*02b0*/                   ULDC.64 UR4, c[0x0][0x118] ;\n";
    wm_sass *s;
    wm_diag d;
    CHECK_EQ(wm_sass_parse(text, strlen(text), &s, &d), WM_OK);
    CHECK_EQ(wm_sass_count(s), 5);
    const wm_sass_mem *a = wm_sass_at(s, 0), *b = wm_sass_at(s, 1);
    CHECK(!strcmp(a->func, "k"));
    CHECK(!strcmp(a->file, "a/k.cu"));
    CHECK_EQ(a->line, 7);
    CHECK_EQ(a->offset, 0x260);
    CHECK_EQ(a->space, WM_SASS_SHARED);
    CHECK_EQ(a->op, WM_OP_LD);
    CHECK_EQ(a->width, 16);
    CHECK(!strcmp(a->base, "R17"));
    CHECK_EQ(a->imm, 16);
    CHECK(!strcmp(b->pred, "@!P0"));
    CHECK_EQ(b->op, WM_OP_ST);
    CHECK_EQ(b->width, 1);
    CHECK_EQ(b->imm, -4);
    CHECK(!strcmp(b->base, "R2.64"));
    const wm_sass_mem *c = wm_sass_at(s, 2), *e = wm_sass_at(s, 3);
    CHECK_EQ(c->line, 9);
    CHECK_EQ(c->width, 8);
    CHECK(!strcmp(c->base, "R6.64")); /* the address, not the descriptor */
    CHECK(!strcmp(e->base, "R0.X4"));
    CHECK_EQ(e->imm, 0x400);
    CHECK_EQ(wm_sass_at(s, 4)->op, WM_OP_ATOM);
    wm_sass_free(s);
    /* a memory opcode without an address is an error, located */
    const char *bad = "\n        /*0010*/  LDS R4, R5 ;\n";
    CHECK_EQ(wm_sass_parse(bad, strlen(bad), &s, &d), WM_ERR_PARSE);
    CHECK(s == NULL);
    CHECK_EQ(d.line, 2);
}

/* nvdisasm -gi: an inlined chain, innermost first, then the kernel's own
   line; the instruction has the first as its line, the last as its call
   site.  A comment without a chain sets both. */
static void parse_inlined(void)
{
    const char *text =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"cuda/include/sm_30_intrinsics.hpp\", line 440 "
        "inlined at \"cuda/include/cooperative_groups.h\", line 897\n"
        "\t//## File \"cuda/include/cooperative_groups.h\", line 897 "
        "inlined at \"../k.cu\", line 15\n"
        "\t//## File \"../k.cu\", line 15\n"
        "        /*0140*/                   LDS R4, [R7] ;\n"
        "        /*0150*/                   STS [R7], R4 ;\n"
        "\t//## File \"../k.cu\", line 16\n"
        "        /*0160*/                   STG.E [R2.64], R4 ;\n";
    wm_sass *s;
    wm_diag d;
    CHECK_EQ(wm_sass_parse(text, strlen(text), &s, &d), WM_OK);
    CHECK_EQ(wm_sass_count(s), 3);
    for (size_t i = 0; i < 2; i++) {
        const wm_sass_mem *a = wm_sass_at(s, i);
        CHECK(!strcmp(a->file, "cuda/include/sm_30_intrinsics.hpp"));
        CHECK_EQ(a->line, 440);
        CHECK(!strcmp(a->call_file, "../k.cu"));
        CHECK_EQ(a->call_line, 15);
    }
    const wm_sass_mem *c = wm_sass_at(s, 2);
    CHECK(!strcmp(c->file, "../k.cu") && !strcmp(c->call_file, "../k.cu"));
    CHECK_EQ(c->line, 16);
    CHECK_EQ(c->call_line, 16);
    char *out = NULL;
    size_t nout = 0;
    FILE *f = open_memstream(&out, &nout);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(wm_sass_print(f, s, NULL, WM_FMT_TEXT), WM_OK);
        fclose(f);
        CHECK(out && strstr(out, "../k.cu:15  (k)\n"
                                 "  /*0140*/ LDS [R7+0x0]  shared ld, 4 B  "
                                 "[sm_30_intrinsics.hpp:440]\n"));
        CHECK(out && strstr(out, "../k.cu:16  (k)\n"
                                 "  /*0160*/ STG.E [R2.64+0x0]  global st, "
                                 "4 B\n"));
    }
    free(out);
    wm_sass_free(s);
}

/* row_dot36 (tests/corpus/sass_shapes.cu), by hand from the disassembly:
   line 18 32 LDG.E + 8 STS.128 (32 scalar stores), line 20 1 LDG.E +
   1 STS (guarded), line 25 16 LDS.128 (8 tile, 8 ws: 64 scalar loads),
   line 26 1 STG.E. */
static void map_row_dot36(void)
{
    fixture f;
    if (!load(&f, "tests/corpus/ptx/sass_shapes_sm_80.ptx",
              "tests/sass/sass_shapes_sm_80.sass"))
    {
        unload(&f);
        return;
    }
    CHECK_EQ(count_sass(f.s, "row_dot36", 18, "LDG.E"), 32);
    CHECK_EQ(count_sass(f.s, "row_dot36", 18, "STS.128"), 8);
    CHECK_EQ(count_sass(f.s, "row_dot36", 25, "LDS.128"), 16);
    CHECK_EQ(count_sass(f.s, "row_dot36", 20, "STS"), 1);
    size_t k[1];
    CHECK_EQ(wm_ptx_match_kernels(f.m, "row_dot36", k, 1), 1);
    wm_sass_plan *p;
    CHECK_EQ(wm_sass_plan_new(f.m, k[0], f.s, &p), WM_OK);
    CHECK_EQ(count_map(f.m, p, 18, WM_SASS_LEAD, 16), 8);
    CHECK_EQ(count_map(f.m, p, 18, WM_SASS_MERGED, 16), 24);
    CHECK_EQ(count_map(f.m, p, 18, WM_SASS_SAME, 4), 32);
    CHECK_EQ(count_map(f.m, p, 25, WM_SASS_LEAD, 16), 16);
    CHECK_EQ(count_map(f.m, p, 25, WM_SASS_MERGED, 16), 48);
    CHECK_EQ(count_map(f.m, p, 20, WM_SASS_SAME, 4), 2);
    CHECK_EQ(count_map(f.m, p, 26, WM_SASS_SAME, 4), 1);
    wm_sass_summary sum;
    wm_sass_plan_summary(p, &sum);
    CHECK_EQ(sum.lines, 4);
    CHECK_EQ(sum.merged, 2);
    CHECK_EQ(sum.unmapped, 0);
    CHECK_EQ(sum.insns_merged, 72);
    wm_sass_plan_free(p);
    /* row_sum: line 42's 16 scalar loads are 8 LDS.64 */
    CHECK_EQ(wm_ptx_match_kernels(f.m, "row_sum", k, 1), 1);
    CHECK_EQ(wm_sass_plan_new(f.m, k[0], f.s, &p), WM_OK);
    CHECK_EQ(count_sass(f.s, "row_sum", 42, "LDS.64"), 8);
    CHECK_EQ(count_map(f.m, p, 42, WM_SASS_LEAD, 8), 8);
    CHECK_EQ(count_map(f.m, p, 42, WM_SASS_MERGED, 8), 8);
    wm_sass_plan_free(p);
    unload(&f);
}

/* sgemm.cu:36 (examples): the As[ty][k] row is 4 LDS.128 per tile, the
   Bs[k][tx] column 16 LDS; the PTX has 16 + 16 scalar loads. */
static void map_sgemm(void)
{
    fixture f;
    if (!load(&f, "examples/kernels/sm_80/sgemm.ptx",
              "tests/sass/sgemm_sm_80.sass"))
    {
        unload(&f);
        return;
    }
    wm_sass_plan *p;
    CHECK_EQ(wm_sass_plan_new(f.m, 0, f.s, &p), WM_OK);
    CHECK_EQ(count_map(f.m, p, 36, WM_SASS_LEAD, 16), 4);
    CHECK_EQ(count_map(f.m, p, 36, WM_SASS_MERGED, 16), 12);
    CHECK_EQ(count_map(f.m, p, 36, WM_SASS_SAME, 4), 16);
    wm_sass_plan_free(p);
    unload(&f);
}

/* Sum of the shared-load wavefronts and requests of line 25's tile loads
   (labels "[%r...") in g. */
static void tile_sums(const wm_agg *g, uint64_t *wf, uint64_t *req)
{
    *wf = *req = 0;
    wm_site s;
    for (size_t i = 0; wm_agg_site(g, i, &s); i++)
        if (s.line == 25 && s.space == WM_SPACE_SHARED && strstr(s.label, "[%r")) {
            *wf += s.stats.wavefronts;
            *req += s.stats.requests;
        }
}

/* One block of 64 threads (2 warps): a row of 36 floats per lane is a
   4-way conflict for each 32-bit load (lanes i, i+8, i+16, i+24 share a
   bank: 32 loads x 4 wavefronts x 2 warps = 256) and none for LDS.128
   (8 lanes per phase hit 8 distinct 16-byte bank groups, 9i mod 8: 8
   loads x 4 phases x 2 warps = 64).  out matches the CPU dot product. */
static void run_row_dot36(void)
{
    fixture f;
    if (!load(&f, "tests/corpus/ptx/sass_shapes_sm_80.ptx",
              "tests/sass/sass_shapes_sm_80.sass"))
    {
        unload(&f);
        return;
    }
    size_t k[1];
    CHECK_EQ(wm_ptx_match_kernels(f.m, "row_dot36", k, 1), 1);
    wm_sass_plan *p;
    CHECK_EQ(wm_sass_plan_new(f.m, k[0], f.s, &p), WM_OK);
    static float a[64 * 32], w[32], out[64];
    for (unsigned i = 0; i < 64 * 32; i++)
        a[i] = (float)(i % 7) - 3.0f;
    for (unsigned i = 0; i < 32; i++)
        w[i] = (float)(i % 5) * 0.5f;
    wm_ptx_arg args[3] = {{.buf = a, .bytes = sizeof a},
                          {.buf = w, .bytes = sizeof w},
                          {.buf = out, .bytes = sizeof out}};
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 3;
    const wm_arch *arch = wm_arch_default();
    wm_agg *g = wm_agg_new(arch), *v = NULL;
    wm_agg_set_sass(g, p);
    CHECK_EQ(wm_ptx_run(f.m, k[0], &l, g, NULL, NULL), WM_OK);
    for (unsigned r = 0; r < 64; r++) {
        float ref = 0.0f;
        for (unsigned j = 0; j < 32; j++)
            ref += a[r * 32 + j] * w[j];
        CHECK(out[r] > ref - 1e-3f && out[r] < ref + 1e-3f);
    }
    CHECK_EQ(wm_agg_sass_view(g, &v), WM_OK);
    uint64_t wf, req;
    tile_sums(g, &wf, &req);
    CHECK_EQ(wf, 256);
    CHECK_EQ(req, 64);
    tile_sums(v, &wf, &req);
    CHECK_EQ(wf, 64);
    CHECK_EQ(req, 16);
    wm_agg_free(v);
    wm_agg_free(g);
    wm_sass_plan_free(p);
    unload(&f);
}

/* ---- tests/corpus/sass_split_sort.cu: splits, predicates, a hoist and a
   sorting network ------------------------------------------------------ */

#define SPLIT_PTX "tests/corpus/ptx/sass_split_sort_sm_80.ptx"
#define SPLIT_DIS "tests/sass/sass_split_sort_sm_80.sass"

/* PTX instructions of line mapped as a split reading slots. */
static size_t count_split(const wm_ptx_module *m, const wm_sass_plan *p,
                          uint32_t line, unsigned width, unsigned slots)
{
    size_t n = 0;
    for (size_t i = 0; i < wm_ptx_ninsns(m); i++) {
        wm_ptx_where w;
        wm_sass_map mp = wm_sass_plan_insn(p, i);
        n += wm_ptx_where_insn(m, i, &w) && w.line == line &&
             mp.kind == WM_SASS_SPLIT && mp.width == width &&
             mp.slots == slots &&
             mp.parts == (unsigned)__builtin_popcount(slots);
    }
    return n;
}

/* The kernel's plan from the fixture; NULL (a failed check) if none. */
static wm_sass_plan *plan_of(fixture *f, const char *name)
{
    size_t k[1];
    wm_sass_plan *p = NULL;
    CHECK_EQ(wm_ptx_match_kernels(f->m, name, k, 1), 1);
    CHECK_EQ(wm_sass_plan_new(f->m, k[0], f->s, &p), WM_OK);
    return p;
}

/* By hand from the disassembly (nvdisasm -g -c, sm_80), per line: the
   SASS memory instructions, then the PTX ones and what the map makes of
   them. */
static void map_split_sort(void)
{
    fixture f;
    if (!load(&f, SPLIT_PTX, SPLIT_DIS)) {
        unload(&f);
        return;
    }
    /* point_weight:22 float4 p = pts[i], p.x and p.w used: LDG.E at
       [R2.64] and [R2.64+0xc] for one ld.global.v4.f32: a split into the
       4-byte parts 0 and 3 */
    CHECK_EQ(count_sass(f.s, "point_weight", 22, "LDG.E"), 2);
    wm_sass_plan *p = plan_of(&f, "point_weight");
    CHECK_EQ(count_split(f.m, p, 22, 4, 0x9), 1);
    CHECK_EQ(count_map(f.m, p, 23, WM_SASS_SAME, 4), 1); /* 1 STG.E */
    wm_sass_summary sum;
    wm_sass_plan_summary(p, &sum);
    CHECK_EQ(sum.lines, 2);
    CHECK_EQ(sum.split, 1);
    CHECK_EQ(sum.unmapped, 0);
    wm_sass_plan_free(p);
    /* pair_re:32 LDG.E.128 + STS.128 (the v4.u32 copy as is); :34
       c = tile[127 - t], c.x and c.z used: LDS [R0.X16], [R0.X16+0x8] for
       one ld.shared.v4.f32: parts 0 and 2 */
    CHECK_EQ(count_sass(f.s, "pair_re", 32, "LDG.E.128"), 1);
    CHECK_EQ(count_sass(f.s, "pair_re", 32, "STS.128"), 1);
    CHECK_EQ(count_sass(f.s, "pair_re", 34, "LDS"), 2);
    p = plan_of(&f, "pair_re");
    CHECK_EQ(count_map(f.m, p, 32, WM_SASS_SAME, 16), 2);
    CHECK_EQ(count_split(f.m, p, 34, 4, 0x5), 1);
    wm_sass_plan_free(p);
    /* rec_bytes:43 memcpy of 16 bytes at a byte offset: 16 ld.global.u8,
       16 LDG.E.U8 at +0 .. +0xf (nothing to merge: no alignment known);
       :44 one STG.E.128 */
    CHECK_EQ(count_sass(f.s, "rec_bytes", 43, "LDG.E.U8"), 16);
    p = plan_of(&f, "rec_bytes");
    CHECK_EQ(count_map(f.m, p, 43, WM_SASS_SAME, 1), 16);
    CHECK_EQ(count_map(f.m, p, 44, WM_SASS_SAME, 16), 1);
    wm_sass_plan_free(p);
    /* pair_odd:53 a float pair at an odd float offset: LDG.E at +4 and
       +8, not LDG.E.64 (8-byte alignment unknown) */
    CHECK_EQ(count_sass(f.s, "pair_odd", 53, "LDG.E"), 2);
    CHECK_EQ(count_sass(f.s, "pair_odd", 53, "LDG.E.64"), 0);
    p = plan_of(&f, "pair_odd");
    CHECK_EQ(count_map(f.m, p, 53, WM_SASS_SAME, 4), 3);
    wm_sass_plan_free(p);
    /* bias_rows: the loop unrolled 4 times plus a remainder, in PTX and
       SASS alike: :64 5 LDG.E.CONSTANT; :66 the guarded bias[t], branched
       around in PTX, 5 predicated @!P1 LDG.E.CONSTANT; :67 5 STG.E */
    CHECK_EQ(count_sass(f.s, "bias_rows", 64, "LDG.E.CONSTANT"), 5);
    CHECK_EQ(count_sass(f.s, "bias_rows", 66, "LDG.E.CONSTANT"), 5);
    size_t pred = 0;
    for (size_t i = 0; i < wm_sass_count(f.s); i++)
        pred += wm_sass_at(f.s, i)->line == 66 &&
                !strcmp(wm_sass_at(f.s, i)->pred, "@!P1");
    CHECK_EQ(pred, 5);
    p = plan_of(&f, "bias_rows");
    CHECK_EQ(count_map(f.m, p, 64, WM_SASS_SAME, 4), 5);
    CHECK_EQ(count_map(f.m, p, 66, WM_SASS_SAME, 4), 5);
    CHECK_EQ(count_map(f.m, p, 67, WM_SASS_SAME, 4), 5);
    wm_sass_plan_free(p);
    /* scale_rows:78 scale[blockIdx.x] hoisted out of the loop (by NVVM:
       the PTX has it once before the loop, and so has the SASS): 6
       LDG.E.CONSTANT (1 + 4 unrolled + 1 remainder), 5 STG.E */
    CHECK_EQ(count_sass(f.s, "scale_rows", 78, "LDG.E.CONSTANT"), 6);
    CHECK_EQ(count_sass(f.s, "scale_rows", 78, "STG.E"), 5);
    p = plan_of(&f, "scale_rows");
    CHECK_EQ(count_map(f.m, p, 78, WM_SASS_SAME, 4), 11);
    wm_sass_plan_free(p);
    /* bitonic_tile, 36 compare-exchange steps unrolled: :97 x = s[i],
       y = s[i + j]: 72 ld.shared.f32; the 8 steps with j = 1 read the
       aligned pair s[2t], s[2t + 1] as one LDS.64 [R0.X8], the 28 others
       as 2 LDS: 8 LDS.64 + 56 LDS.  :100 s[i] = y and :101 s[i + j] = x:
       36 st.shared.f32 each; the j = 1 pairs are 8 STS.64 that ptxas
       names by line 101, so :100 has 28 STS and :101 8 STS.64 + 28 STS */
    CHECK_EQ(count_sass(f.s, "bitonic_tile", 97, "LDS.64"), 8);
    CHECK_EQ(count_sass(f.s, "bitonic_tile", 97, "LDS"), 56);
    CHECK_EQ(count_sass(f.s, "bitonic_tile", 100, "STS"), 28);
    CHECK_EQ(count_sass(f.s, "bitonic_tile", 100, "STS.64"), 0);
    CHECK_EQ(count_sass(f.s, "bitonic_tile", 101, "STS.64"), 8);
    CHECK_EQ(count_sass(f.s, "bitonic_tile", 101, "STS"), 28);
    p = plan_of(&f, "bitonic_tile");
    CHECK_EQ(count_map(f.m, p, 97, WM_SASS_LEAD, 8), 8);
    CHECK_EQ(count_map(f.m, p, 97, WM_SASS_MERGED, 8), 8);
    CHECK_EQ(count_map(f.m, p, 97, WM_SASS_SAME, 4), 56);
    CHECK_EQ(count_map(f.m, p, 100, WM_SASS_MERGED, 8), 8);
    CHECK_EQ(count_map(f.m, p, 100, WM_SASS_SAME, 4), 28);
    CHECK_EQ(count_map(f.m, p, 101, WM_SASS_LEAD, 8), 8);
    CHECK_EQ(count_map(f.m, p, 101, WM_SASS_SAME, 4), 28);
    for (size_t i = 0; i < wm_ptx_ninsns(f.m); i++) {
        wm_ptx_where w;
        wm_sass_map mp = wm_sass_plan_insn(p, i);
        if (!wm_ptx_where_insn(f.m, i, &w) || mp.kind != WM_SASS_LEAD)
            continue;
        /* line 101's s[i + 1] leads from 4 bytes above the pair */
        CHECK_EQ(mp.shift, w.line == 101 ? 4u : 0u);
        CHECK_EQ(mp.merged, 2);
    }
    wm_sass_plan_summary(p, &sum);
    CHECK_EQ(sum.lines, 7);
    CHECK_EQ(sum.merged, 2); /* 97 and 101 (100's accesses are merged) */
    CHECK_EQ(sum.unmapped, 0);
    CHECK_EQ(sum.insns_merged, 16);
    wm_sass_plan_free(p);
    unload(&f);
}

/* Run kernel name of f with args (grid 1, block threads) into a
   PTX-level aggregator with its SASS plan (*gp, *pp); its SASS view. */
static wm_agg *run_split(fixture *f, const char *name, wm_ptx_arg *args,
                         size_t nargs, unsigned threads, wm_agg **gp,
                         wm_sass_plan **pp)
{
    size_t k[1];
    CHECK_EQ(wm_ptx_match_kernels(f->m, name, k, 1), 1);
    CHECK_EQ(wm_sass_plan_new(f->m, k[0], f->s, pp), WM_OK);
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = threads;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = nargs;
    wm_agg *g = wm_agg_new(wm_arch_default()), *v = NULL;
    wm_agg_set_sass(g, *pp);
    CHECK_EQ(wm_ptx_run(f->m, k[0], &l, g, NULL, NULL), WM_OK);
    CHECK_EQ(wm_agg_sass_view(g, &v), WM_OK);
    *gp = g;
    return v;
}

/* The stats of g's sites of line, space and op, summed. */
static wm_stats line_stats(const wm_agg *g, uint32_t line, wm_space sp,
                           wm_op op)
{
    wm_stats t;
    memset(&t, 0, sizeof t);
    wm_site s;
    for (size_t i = 0; wm_agg_site(g, i, &s); i++)
        if (s.line == line && s.space == sp && s.op == op) {
            t.inst += s.stats.inst;
            t.requests += s.stats.requests;
            t.sectors += s.stats.sectors;
            t.wavefronts += s.stats.wavefronts;
        }
    return t;
}

static void free_run(wm_agg *g, wm_agg *v, wm_sass_plan *p)
{
    wm_agg_free(v);
    wm_agg_free(g);
    wm_sass_plan_free(p);
}

/* point_weight, 64 points (2 warps): per warp the v4 load is 1 request
   over 512 contiguous bytes, 16 sectors; the SASS's 2 LDG.E at +0 and
   +12 are 2 requests of 16 sectors each (two 16-byte points a sector).
   pair_re, 128 threads (4 warps): per warp the v4 shared load is 4
   wavefronts (8 lanes a phase, 128 contiguous bytes); each of the 2 LDS
   has lanes 16 bytes apart, 8 banks for 32 lanes: 4 wavefronts. */
static void run_splits(void)
{
    fixture f;
    if (!load(&f, SPLIT_PTX, SPLIT_DIS)) {
        unload(&f);
        return;
    }
    static float pts[64 * 4], out[128], a[128 * 4];
    for (unsigned i = 0; i < 64 * 4; i++)
        pts[i] = (float)(i % 9) - 4.0f;
    wm_ptx_arg args[3] = {{.buf = pts, .bytes = sizeof pts},
                          {.buf = out, .bytes = sizeof out},
                          {.scalar = 64, .size = 4}};
    wm_agg *g, *v;
    wm_sass_plan *p;
    v = run_split(&f, "point_weight", args, 3, 64, &g, &p);
    for (unsigned i = 0; i < 64; i++)
        CHECK(out[i] == pts[4 * i] * pts[4 * i + 3]);
    wm_stats x = line_stats(g, 22, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(x.requests, 2);
    CHECK_EQ(x.sectors, 32);
    x = line_stats(v, 22, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(x.requests, 4);
    CHECK_EQ(x.sectors, 64);
    free_run(g, v, p);
    for (unsigned i = 0; i < 128 * 4; i++)
        a[i] = (float)(i % 11) * 0.25f;
    wm_ptx_arg args2[2] = {{.buf = a, .bytes = sizeof a},
                           {.buf = out, .bytes = sizeof out}};
    v = run_split(&f, "pair_re", args2, 2, 128, &g, &p);
    for (unsigned t = 0; t < 128; t++)
        CHECK(out[t] == a[4 * (127 - t)] + a[4 * (127 - t) + 2]);
    x = line_stats(g, 34, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(x.requests, 4);
    CHECK_EQ(x.wavefronts, 16);
    x = line_stats(v, 34, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(x.requests, 8);
    CHECK_EQ(x.wavefronts, 32);
    free_run(g, v, p);
    unload(&f);
}

/* scale_rows, 8 rows, 64 threads: line 78's loads are 8 rows + 1 hoisted
   scale per warp (18); bias_rows, 4 rows, 64 threads: the guarded bias
   load runs in warp 0 only (lanes 0-15), once per row (4), at both
   levels. */
static void run_pred_hoist(void)
{
    fixture f;
    if (!load(&f, SPLIT_PTX, SPLIT_DIS)) {
        unload(&f);
        return;
    }
    static float a[8 * 64], scale[1] = {3.0f}, bias[64], out[8 * 64];
    for (unsigned i = 0; i < 8 * 64; i++)
        a[i] = (float)(i % 13);
    for (unsigned i = 0; i < 64; i++)
        bias[i] = (float)i;
    wm_ptx_arg args[4] = {{.buf = a, .bytes = sizeof a},
                          {.buf = scale, .bytes = sizeof scale},
                          {.buf = out, .bytes = sizeof out},
                          {.scalar = 8, .size = 4}};
    wm_agg *g, *v;
    wm_sass_plan *p;
    v = run_split(&f, "scale_rows", args, 4, 64, &g, &p);
    for (unsigned i = 0; i < 8 * 64; i++)
        CHECK(out[i] == a[i] * 3.0f);
    CHECK_EQ(line_stats(g, 78, WM_SPACE_GLOBAL, WM_OP_LD).requests, 18);
    CHECK_EQ(line_stats(v, 78, WM_SPACE_GLOBAL, WM_OP_LD).requests, 18);
    free_run(g, v, p);
    wm_ptx_arg args2[4] = {{.buf = a, .bytes = sizeof a},
                           {.buf = bias, .bytes = sizeof bias},
                           {.buf = out, .bytes = sizeof out},
                           {.scalar = 4, .size = 4}};
    v = run_split(&f, "bias_rows", args2, 4, 64, &g, &p);
    for (unsigned i = 0; i < 4 * 64; i++)
        CHECK(out[i] == a[i] + (i % 64 < 16 ? bias[i % 64] : 0.0f));
    wm_stats x = line_stats(v, 66, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(x.requests, 4);
    CHECK_EQ(x.sectors, 8); /* 16 lanes x 4 B: 2 sectors per row */
    CHECK_EQ(line_stats(g, 66, WM_SPACE_GLOBAL, WM_OP_LD).requests, 4);
    free_run(g, v, p);
    unload(&f);
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* bitonic_tile, 256 floats, 128 threads (4 warps): sorted.  Line 97 at
   SASS level: the j = 1 steps' two 4-byte loads at s + 8t (each 2-way
   conflicted: lanes t and t + 16 share a bank: 2 wavefronts) become one
   LDS.64 over 256 contiguous bytes (2 wavefronts): per warp 8 requests
   and 16 wavefronts fewer, 32 and 64 for the block; the other steps
   alike at both levels. */
static void run_bitonic(void)
{
    fixture f;
    if (!load(&f, SPLIT_PTX, SPLIT_DIS)) {
        unload(&f);
        return;
    }
    static float d[256], ref[256];
    uint32_t r = 12345; /* the same values again below */
    for (unsigned i = 0; i < 256; i++) {
        r = r * 1103515245u + 12345u;
        d[i] = ref[i] = (float)(r >> 16 & 0x3ff) - 512.0f;
    }
    qsort(ref, 256, sizeof ref[0], cmp_float);
    wm_ptx_arg args[1] = {{.buf = d, .bytes = sizeof d}};
    wm_agg *g, *v;
    wm_sass_plan *p;
    v = run_split(&f, "bitonic_tile", args, 1, 128, &g, &p);
    CHECK(!memcmp(d, ref, sizeof d));
    wm_stats x = line_stats(g, 97, WM_SPACE_SHARED, WM_OP_LD),
             y = line_stats(v, 97, WM_SPACE_SHARED, WM_OP_LD);
    CHECK_EQ(x.requests, 72 * 4);
    CHECK_EQ(y.requests, 64 * 4);
    CHECK_EQ(x.wavefronts - y.wavefronts, 64);
    /* The stores run where a lane of the warp swaps: counted on a CPU
       copy of the network, per step and warp (a request each for s[i]
       and s[i + j]); at SASS level line 100 loses the j = 1 steps' ones
       (merged into line 101's STS.64), line 101 keeps its count. */
    uint64_t swaps = 0, swaps1 = 0;
    r = 12345;
    for (unsigned i = 0; i < 256; i++) {
        r = r * 1103515245u + 12345u;
        ref[i] = (float)(r >> 16 & 0x3ff) - 512.0f;
    }
    for (unsigned k = 2; k <= 256; k <<= 1)
        for (unsigned j = k >> 1; j > 0; j >>= 1)
            for (unsigned w = 0; w < 4; w++) {
                int any = 0;
                for (unsigned t = 32 * w; t < 32 * w + 32; t++) {
                    unsigned i = 2 * t - (t & (j - 1));
                    float a = ref[i], b = ref[i + j];
                    if ((a > b) == ((i & k) == 0)) {
                        ref[i] = b, ref[i + j] = a, any = 1;
                    }
                }
                swaps += (uint64_t)any;
                swaps1 += (uint64_t)(any && j == 1);
            }
    CHECK(!memcmp(d, ref, sizeof d));
    CHECK_EQ(line_stats(g, 100, WM_SPACE_SHARED, WM_OP_ST).requests, swaps);
    CHECK_EQ(line_stats(g, 101, WM_SPACE_SHARED, WM_OP_ST).requests, swaps);
    CHECK_EQ(line_stats(v, 100, WM_SPACE_SHARED, WM_OP_ST).requests,
             swaps - swaps1);
    CHECK_EQ(line_stats(v, 101, WM_SPACE_SHARED, WM_OP_ST).requests, swaps);
    CHECK(swaps1 > 0 && swaps1 < swaps);
    free_run(g, v, p);
    unload(&f);
}

/* Where the SASS does not fit the map it is said per line, with PTX
   numbers: point_weight:22 against a hand-made listing whose line reads
   the float4 as LDG.E at +0 and LDG.E.64 at +8 (two widths: no split of
   one width covers it).  The run's SASS view keeps the PTX counts (2
   requests, 32 sectors) and labels the site. */
static void unmapped_said(void)
{
    const char *dis =
        "\t.section\t.text.point_weight,\"ax\",@progbits\n"
        "\t//## File \"../sass_split_sort.cu\", line 22\n"
        "        /*0080*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
        "        /*0090*/                   LDG.E.64 R6, desc[UR4][R2.64+0x8] ;\n"
        "\t//## File \"../sass_split_sort.cu\", line 23\n"
        "        /*00a0*/                   STG.E desc[UR4][R8.64], R5 ;\n";
    fixture f;
    memset(&f, 0, sizeof f);
    f.ptx = slurp(SPLIT_PTX, &f.nptx);
    wm_diag d;
    if (!f.ptx)
        return;
    CHECK_EQ(wm_ptx_parse(f.ptx, f.nptx, SPLIT_PTX, &f.m, &d), WM_OK);
    CHECK_EQ(wm_sass_parse(dis, strlen(dis), &f.s, &d), WM_OK);
    if (!f.m || !f.s) {
        unload(&f);
        return;
    }
    static float pts[64 * 4], out[64];
    for (unsigned i = 0; i < 64 * 4; i++)
        pts[i] = (float)(i % 5);
    wm_ptx_arg args[3] = {{.buf = pts, .bytes = sizeof pts},
                          {.buf = out, .bytes = sizeof out},
                          {.scalar = 64, .size = 4}};
    wm_agg *g, *v;
    wm_sass_plan *p;
    v = run_split(&f, "point_weight", args, 3, 64, &g, &p);
    CHECK_EQ(count_map(f.m, p, 22, WM_SASS_UNMAPPED, 16), 1);
    CHECK_EQ(count_map(f.m, p, 23, WM_SASS_SAME, 4), 1);
    wm_sass_summary sum;
    wm_sass_plan_summary(p, &sum);
    CHECK_EQ(sum.unmapped, 1);
    CHECK_EQ(sum.split, 0);
    wm_stats x = line_stats(v, 22, WM_SPACE_GLOBAL, WM_OP_LD);
    CHECK_EQ(x.requests, 2);
    CHECK_EQ(x.sectors, 32);
    wm_site s;
    int said = 0;
    for (size_t i = 0; wm_agg_site(v, i, &s); i++)
        said += s.line == 22 && strstr(s.label, "[SASS not mapped: ") != NULL;
    CHECK_EQ(said, 1);
    free_run(g, v, p);
    unload(&f);
}

/* The opcode and reason the plan gives the first PTX instruction of line
   (kind UNMAPPED), "" if none. */
static const char *unmapped_opcode(const wm_ptx_module *m,
                                   const wm_sass_plan *p, uint32_t line,
                                   const char **why)
{
    for (size_t i = 0; i < wm_ptx_ninsns(m); i++) {
        wm_ptx_where w;
        wm_sass_map mp = wm_sass_plan_insn(p, i);
        if (wm_ptx_where_insn(m, i, &w) && w.line == line &&
            mp.kind == WM_SASS_UNMAPPED) {
            *why = mp.why;
            return mp.opcode;
        }
    }
    *why = "";
    return "";
}

/* tests/corpus/wmma_gemm.cu at -O3: ptxas runs the wmma loads and stores
   as LDSM (the half A and B tiles from shared, lines 38 and 39, one
   LDSM.16.M88.4 / LDSM.16.MT88.4 each on mma.hpp:91 / 99), STG.E.64 (the
   f32 store, line 43) and LDG.E (the int8 kernel's fragments).  Their
   requests are the modelled fragment layout's, so each such line is
   unmapped, with the reason and the SASS opcode of the helper line the
   wmma call inlines; the tile staging lines 31 and 33 map as before. */
static void map_wmma(void)
{
    fixture f;
    if (!load(&f, "tests/corpus/ptx/wmma_gemm_sm_80.ptx",
              "tests/sass/wmma_gemm_sm_80.sass")) {
        unload(&f);
        return;
    }
    CHECK_EQ(count_sass(f.s, "_Z9wmma_gemmPfPK6__halfS2_iii", 91,
                        "LDSM.16.M88.4"), 1);
    CHECK_EQ(count_sass(f.s, "_Z9wmma_gemmPfPK6__halfS2_iii", 99,
                        "LDSM.16.MT88.4"), 1);
    size_t k[1];
    CHECK_EQ(wm_ptx_match_kernels(f.m, "_Z9wmma_gemmPfPK6__halfS2_iii", k, 1),
             1);
    wm_sass_plan *p;
    CHECK_EQ(wm_sass_plan_new(f.m, k[0], f.s, &p), WM_OK);
    CHECK_EQ(count_map(f.m, p, 31, WM_SASS_SAME, 2), 2);
    CHECK_EQ(count_map(f.m, p, 33, WM_SASS_SAME, 2), 2);
    /* one request: 4 bytes a lane (f16 A, B), 8 (the f32 accumulator) */
    CHECK_EQ(count_map(f.m, p, 38, WM_SASS_UNMAPPED, 4), 1);
    CHECK_EQ(count_map(f.m, p, 39, WM_SASS_UNMAPPED, 4), 1);
    CHECK_EQ(count_map(f.m, p, 43, WM_SASS_UNMAPPED, 8), 1);
    const char *why;
    CHECK(strcmp(unmapped_opcode(f.m, p, 38, &why), "LDSM.16.M88.4") == 0);
    CHECK(strstr(why, "wmma fragment") != NULL);
    CHECK(strcmp(unmapped_opcode(f.m, p, 39, &why), "LDSM.16.MT88.4") == 0);
    CHECK(strcmp(unmapped_opcode(f.m, p, 43, &why), "STG.E.64") == 0);
    wm_sass_summary sum;
    wm_sass_plan_summary(p, &sum);
    CHECK_EQ(sum.lines, 5);
    CHECK_EQ(sum.unmapped, 3);
    CHECK_EQ(sum.merged, 0);
    wm_sass_plan_free(p);
    /* wmma_i8: C's load (line 52), A's and B's (56, 57: five each, the
       K loop unrolled by 4 and its remainder) and D's store (60) */
    CHECK_EQ(wm_ptx_match_kernels(f.m, "_Z7wmma_i8PiPKiPKaS3_iii", k, 1), 1);
    CHECK_EQ(wm_sass_plan_new(f.m, k[0], f.s, &p), WM_OK);
    CHECK_EQ(count_map(f.m, p, 52, WM_SASS_UNMAPPED, 8), 1);
    CHECK_EQ(count_map(f.m, p, 56, WM_SASS_UNMAPPED, 4), 5);
    CHECK_EQ(count_map(f.m, p, 57, WM_SASS_UNMAPPED, 4), 5);
    CHECK(strcmp(unmapped_opcode(f.m, p, 56, &why), "LDG.E") == 0);
    /* D column-major: each element its own request, 4 bytes */
    CHECK_EQ(count_map(f.m, p, 60, WM_SASS_UNMAPPED, 4), 1);
    wm_sass_plan_summary(p, &sum);
    CHECK_EQ(sum.lines, 4);
    CHECK_EQ(sum.unmapped, 4);
    wm_sass_plan_free(p);
    unload(&f);
}

int main(void)
{
    parse_fields();
    parse_inlined();
    map_row_dot36();
    map_sgemm();
    run_row_dot36();
    map_split_sort();
    run_splits();
    run_pred_hoist();
    run_bitonic();
    unmapped_said();
    map_wmma();
    return check_done("test_sass");
}
