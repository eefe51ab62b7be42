/*
 * test_sass.c -- the SASS level from committed disassemblies
 * (tests/sass/NAME.sass: nvdisasm -g -c of ptxas -lineinfo -arch sm_80 of
 * the committed PTX), so no tool is needed: the parser's fields, the map
 * of each line against counts made by hand from the disassembly, and the
 * counts of a run at SASS level against hand-computed wavefronts.
 */
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

int main(void)
{
    parse_fields();
    map_row_dot36();
    map_sgemm();
    run_row_dot36();
    return check_done("test_sass");
}
