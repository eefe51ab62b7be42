/*
 * fuzz_json.c -- libFuzzer harness for the JSON and SARIF writers: every
 * string a document can carry comes from the input (control characters,
 * quotes, invalid UTF-8), and every document must parse back as strict
 * JSON (json_check.h).  The input is four NUL-terminated strings S0..S3
 * and then bytes B:
 *   - B drives the public writer (wm_writer_*) in JSON and CSV: objects,
 *     arrays, rows, the document head and every value kind, with S0..S3 as
 *     keys and values, containers closed in order (past the writer's depth
 *     the error must be reported instead);
 *   - a small kernel whose `.file` is S0 (a file of that name exists beside
 *     the PTX when S0 is one plain path component, so the source-line
 *     paths are taken), with `.loc` lines and columns from B, is linted
 *     (the report as JSON, the SARIF log, JUnit) and run with the race and
 *     initialisation checks (the report as JSON with S1..S3 as command,
 *     profile, kernel name, fault hint and written files, the SARIF log
 *     with S1 and S2 as command line and profile);
 *   - hazards, a schedule difference and a fault made from B (instruction
 *     indices of the kernel, message S3) go through the same writers.
 */
#include "fuzz_json.h"
#include "fuzz_reader.h"
#include "warpmem.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A field of at most 4 bytes: every field of this harness. */
static unsigned take_u(reader *r, unsigned bytes)
{
    return (unsigned)take(r, bytes);
}

static FILE *devnull;
static char dir[64]; /* the private directory of the PTX and its source */

/* ---- the writer ---------------------------------------------------------- */

enum { C_OBJ, C_ARR, C_ROW, C_DOC };

/* One call of the writer, chosen by r's next byte, that keeps the
   document well formed: values and containers only inside a container
   (or as the whole document), ends matching their opening.  *top: the
   document's value is written. */
static void writer_step(wm_writer *w, reader *r, char *const s[4],
                        unsigned char *stack, int *depth, int *top)
{
    const char *keys[8] = {NULL, s[0], s[1], s[2], s[3], "", "k", "k"};
    unsigned b = take_u(r, 1), v = take_u(r, 1);
    const char *key = keys[b >> 5], *val = s[v & 3];
    int d = *depth;
    if (d == 0 && *top)
        return;
    switch (b % 14) {
    case 0: case 1: case 2: case 3: /* open; a row holds values only */
        if (d >= 40 || (d > 0 && stack[d - 1] == C_ROW))
            return;
        if (b % 14 == 3 && d == 0) {
            wm_writer_doc_begin(w, val, s[(v >> 2) & 3],
                                v & 16 ? NULL : s[(v >> 4) & 3]);
        } else if (b % 14 == 3) {
            return;
        } else {
            (b % 14 == 0   ? wm_writer_obj
             : b % 14 == 1 ? wm_writer_arr
                           : wm_writer_row)(w, key);
        }
        stack[(*depth)++] = (unsigned char)(b % 14);
        *top = 1;
        return;
    case 4: /* close the innermost */
        if (d == 0)
            return;
        if (stack[d - 1] == C_DOC)
            wm_writer_doc_end(w);
        else if (stack[d - 1] == C_ROW)
            wm_writer_row_end(w);
        else
            wm_writer_end(w);
        (*depth)--;
        return;
    default:
        break;
    }
    *top = 1;
    switch (b % 14) {
    case 5: case 6: wm_writer_str(w, key, v & 128 ? NULL : val); break;
    case 7: wm_writer_uint(w, key, (uint64_t)v << (b & 56)); break;
    case 8: wm_writer_int(w, key, (int64_t)(0 - ((uint64_t)v << (b & 56))));
        break;
    case 9: {
        const double nums[] = {0.0, -0.0, 0.125, 1e15, 1e300,
                               -3.5e-320, (double)INFINITY, (double)NAN};
        wm_writer_num(w, key, nums[v & 7] * (double)(1 + (v >> 3)));
        break;
    }
    case 10: wm_writer_bool(w, key, (int)(v & 1)); break;
    case 11: wm_writer_null(w, key); break;
    default: {
        unsigned u[4] = {v, v << 8, UINT32_MAX, 0};
        wm_writer_uints(w, key, u, v & 3);
        break;
    }
    }
}

/* The program of r in JSON (checked when the writer reports no error) or
   CSV. */
static void writer(reader r, char *const s[4], int csv)
{
    json_doc d;
    if (!json_open(&d))
        return;
    wm_writer *w = wm_writer_new(d.f, csv ? WM_FMT_CSV : WM_FMT_JSON);
    unsigned char stack[64];
    int depth = 0, top = 0;
    for (unsigned k = 0; w && k < 256 && r.n; k++)
        writer_step(w, &r, s, stack, &depth, &top);
    while (w && depth > 0) {
        unsigned char c = stack[--depth];
        if (c == C_DOC)
            wm_writer_doc_end(w);
        else if (c == C_ROW)
            wm_writer_row_end(w);
        else
            wm_writer_end(w);
    }
    wm_status st = w ? wm_writer_free(w) : WM_ERR_NOMEM;
    if (csv || st != WM_OK || !top) {
        fclose(d.f); /* nothing to check */
        free(d.buf);
        return;
    }
    json_close(&d, "wm_writer");
}

/* ---- the kernel and its findings --------------------------------------- */

/* The kernel: .file 1 is s0 (without the quotes, backslashes and line
   breaks PTX strings cannot hold); a global load at an offset of B (so
   lint may call it misaligned), a shared store all lanes race on, a
   global store every lane makes to the same word; .loc lines and
   columns from B. */
static wm_ptx_module *kernel(reader *r, const char *s0)
{
    char name[256], src[2048];
    size_t n = 0;
    for (const char *p = s0; *p && n < sizeof name - 1; p++)
        name[n++] = *p == '"' || *p == '\\' || *p == '\n' ? '_' : *p;
    name[n] = '\0';
    unsigned l1 = take_u(r, 3), c1 = take_u(r, 1), l2 = take_u(r, 2),
             c2 = take_u(r, 1), off = take_u(r, 1) % 16;
    int len = snprintf(src, sizeof src,
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".file 1 \"%s\"\n"
        ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
        ".reg .b32 %%r<6>;\n.reg .b64 %%rd<6>;\n"
        ".shared .align 4 .b8 sm[256];\n"
        ".loc 1 %u %u\nld.param.u64 %%rd1, [p];\nmov.u32 %%r1, %%tid.x;\n"
        "mul.wide.u32 %%rd2, %%r1, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
        ".loc 1 %u %u\nld.global.u32 %%r2, [%%rd3+%u];\n"
        "mov.u32 %%r3, sm;\nst.shared.u32 [%%r3], %%r2;\n"
        ".loc 1 %u 0\nld.shared.u32 %%r4, [%%r3+4];\n"
        "st.global.u32 [%%rd1], %%r4;\nret;\n}\n",
        name, l1, c1, l2, c2, off, l1 + 1);
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (len <= 0 || (size_t)len >= sizeof src ||
        wm_ptx_parse(src, (size_t)len, "k.ptx", &m, &d) != WM_OK)
        return NULL;
    return m;
}

/* The source file beside the PTX when s0 is one plain path component
   (else no file: the documents name the PTX line); its path, or "". */
static void source_file(const char *s0, const char *text, char *path,
                        size_t n)
{
    path[0] = '\0';
    size_t len = strlen(s0);
    if (!dir[0] || len == 0 || len > 200 || strchr(s0, '/') ||
        strchr(s0, '"') || strchr(s0, '\\') || strchr(s0, '\n') ||
        strcmp(s0, ".") == 0 || strcmp(s0, "..") == 0)
        return;
    snprintf(path, n, "%s/%s", dir, s0);
    FILE *f = fopen(path, "w");
    if (!f) {
        path[0] = '\0';
        return;
    }
    for (int i = 0; i < 4; i++)
        fprintf(f, "%s line %d\n", text, i + 1);
    fclose(f);
}

/* The JSON report of a run with the strings of s in every string field
   (and the text report, with the check's findings). */
static void report(const wm_ptx_module *m, const wm_agg *g,
                   const wm_ptx_check *chk, const wm_ptx_fault *ft,
                   const char *ptx, char *const s[4])
{
    const char *written[2] = {s[0], s[3]};
    wm_ptx_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.ptx_path = ptx;
    ro.kernel = s[3];
    ro.command = s[1];
    ro.arch = s[2];
    ro.fault = ft;
    ro.fault_hint = s[3];
    ro.written = written;
    ro.nwritten = 2;
    ro.check = chk;
    ro.explain = 1;
    ro.width = 80;
    json_doc d;
    if (json_open(&d)) {
        ro.format = WM_FMT_JSON;
        wm_ptx_report(d.f, m, g, &ro);
        json_close(&d, "wm_ptx_report");
    }
    ro.format = WM_FMT_TEXT;
    wm_ptx_report(devnull, m, g, &ro);
    wm_ptx_check_print(devnull, m, chk);
}

static void sarif_of_run(const wm_ptx_module *m, const wm_ptx_check *chk,
                         const wm_ptx_fault *ft, const wm_ci_opts *ci)
{
    json_doc d;
    if (json_open(&d)) {
        wm_check_sarif(d.f, m, chk, ft, ci);
        json_close(&d, "wm_check_sarif");
    }
}

/* The lint of the kernel for one block: JSON, SARIF, JUnit. */
static void lint(const wm_ptx_module *m, const wm_arch *arch,
                 const wm_ci_opts *ci)
{
    wm_lint_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.block[0] = 64;
    lo.block[1] = lo.block[2] = 1;
    wm_lint *l = NULL;
    if (wm_lint_kernel(m, 0, arch, &lo, &l) != WM_OK)
        return;
    wm_lint_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = WM_FMT_JSON;
    ro.ptx_path = ci->ptx_path;
    ro.profile = ci->arch;
    ro.explain = 1;
    json_doc d;
    if (json_open(&d)) {
        wm_lint_report(d.f, l, &ro, 1);
        json_close(&d, "wm_lint_report");
    }
    const wm_lint *one[1] = {l};
    if (json_open(&d)) {
        wm_lint_sarif(d.f, m, one, 1, ci);
        json_close(&d, "wm_lint_sarif");
    }
    wm_lint_junit(devnull, m, one, 1, ci);
    wm_lint_free(l);
}

/* An access of a made-up hazard at an instruction of m. */
static void made_access(reader *r, size_t ncode, wm_ptx_hazard_access *a)
{
    unsigned b = take_u(r, 1);
    memset(a, 0, sizeof *a);
    a->insn = take_u(r, 1) % ncode;
    a->warp = b & 3;
    a->lane = take_u(r, 1) & 31;
    a->thread[0] = a->warp * 32 + a->lane;
    a->write = (b >> 2) & 1;
    a->atomic = (b >> 3) & 1;
    a->cta[0] = (b >> 4) & 1;
    a->rank = (b >> 5) & 1;
}

/* Hazards, a schedule difference and a fault from r, at instructions of
   m, through the SARIF log and the reports. */
static void made_findings(reader *r, const wm_ptx_module *m, const wm_agg *g,
                          const char *ptx, char *const s[4],
                          const wm_ci_opts *ci)
{
    static wm_ptx_hazard hz[8];
    size_t ncode = wm_ptx_ninsns(m);
    if (!ncode)
        return;
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES;
    unsigned nh = take_u(r, 1) % 9;
    for (unsigned i = 0; i < nh; i++) {
        wm_ptx_hazard *h = &hz[i];
        unsigned b = take_u(r, 1);
        memset(h, 0, sizeof *h);
        h->kind = (wm_hazard_kind)(b % 4);
        h->space = b & 4 ? WM_SPACE_GLOBAL : WM_SPACE_SHARED;
        h->buf = h->space == WM_SPACE_GLOBAL ? (long)(b >> 3 & 1) - 1 : -1;
        h->addr = take_u(r, 2);
        h->size = 1u << (b >> 4 & 3);
        h->cluster = 1 + (b >> 6);
        h->count = (uint64_t)take_u(r, 2) << (b & 24);
        made_access(r, ncode, &h->first);
        made_access(r, ncode, &h->second);
    }
    chk.hazards = hz;
    chk.nhazards = nh;
    unsigned b = take_u(r, 1);
    chk.differs = b & 1;
    chk.schedule = (wm_ptx_schedule)(b >> 1 & 1);
    chk.other = (wm_ptx_schedule)(b >> 2 & 1 ? WM_SCHED_RANDOM
                                              : WM_SCHED_REVERSE);
    chk.diff_arg = b & 8 ? -1 : 0;
    chk.diff_byte = take_u(r, 2);
    chk.diff_elem = chk.diff_byte / 4;
    chk.diff_elem_bytes = 4;
    /* a surface's, or a module variable's named S2 */
    chk.diff_in = !(b & 128) ? WM_DIFF_ARG
                  : chk.diff_byte & 1 ? WM_DIFF_GLOBAL : WM_DIFF_SURFACE;
    chk.diff_name = chk.diff_in == WM_DIFF_GLOBAL ? s[2] : NULL;
    wm_ptx_fault ft;
    memset(&ft, 0, sizeof ft);
    ft.status = b & 16 ? WM_ERR_LIMIT : WM_ERR_FAULT;
    snprintf(ft.msg, sizeof ft.msg, "%s", s[3]);
    ft.insn = take_u(r, 1) % ncode;
    ft.file = s[0];
    ft.line = take_u(r, 2);
    ft.has_addr = (b >> 5) & 1;
    ft.addr = take_u(r, 3);
    ft.space = WM_SPACE_GLOBAL;
    ft.buf = -1;
    const wm_ptx_fault *f = b & 64 ? &ft : NULL;
    sarif_of_run(m, &chk, f, ci);
    report(m, g, &chk, f, ptx, s);
}

/* The kernel of r: linted, run with the checks (2 CTAs of 64 threads,
   100 000 steps), its findings and made-up ones written. */
static void kernel_documents(reader *r, char *const s[4])
{
    wm_ptx_module *m = kernel(r, s[0]);
    wm_arch arch;
    if (!m || wm_arch_parse("sm_80", &arch, NULL, 0) != WM_OK) {
        wm_ptx_free(m);
        return;
    }
    char ptx[128], src[512];
    snprintf(ptx, sizeof ptx, "%s/k.ptx", dir[0] ? dir : ".");
    source_file(s[0], s[3], src, sizeof src);
    wm_ci_opts ci = {s[1], s[2], ptx, (wm_severity)(take_u(r, 1) % 4)};
    lint(m, &arch, &ci);
    static uint32_t buf[64];
    memset(buf, 0, sizeof buf);
    wm_ptx_arg args[2];
    memset(args, 0, sizeof args);
    args[0].buf = buf;
    args[0].bytes = sizeof buf;
    args[1].scalar = 64;
    args[1].size = 4;
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 2;
    l.block[0] = 64;
    l.grid[1] = l.grid[2] = l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 2;
    l.max_steps = 100000;
    l.threads = 1;
    l.check = &chk;
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_result res;
    wm_ptx_fault ft;
    wm_status st = g ? wm_ptx_run(m, 0, &l, g, &res, &ft) : WM_ERR_NOMEM;
    if (st == WM_OK || st == WM_ERR_FAULT) {
        sarif_of_run(m, &chk, st == WM_OK ? NULL : &ft, &ci);
        report(m, g, &chk, st == WM_OK ? NULL : &ft, ptx, s);
        made_findings(r, m, g, ptx, s, &ci);
    }
    wm_ptx_check_clear(&chk);
    wm_agg_free(g);
    wm_ptx_free(m);
    if (src[0])
        unlink(src);
}

static void remove_dir(void)
{
    if (dir[0])
        rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull) {
        devnull = fopen("/dev/null", "w");
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/wm-fuzz-json-XXXXXX", base);
        if (mkdtemp(dir))
            atexit(remove_dir);
        else
            dir[0] = '\0';
    }
    if (!devnull || size > 4096)
        return 0;
    /* S0..S3, each NUL-terminated (missing ones empty), then B */
    char text[4100];
    memcpy(text, data, size);
    text[size] = '\0';
    char *s[4];
    size_t at = 0;
    for (int i = 0; i < 4; i++) {
        s[i] = text + (at < size ? at : size);
        at += strlen(s[i]) + 1;
    }
    reader r = {data + (at < size ? at : size), at < size ? size - at : 0};
    for (int i = 0; i < 4; i++) {
        json_doc d;
        if (json_open(&d)) {
            wm_json_string(d.f, s[i]);
            json_close(&d, "wm_json_string");
        }
    }
    writer(r, s, 0);
    writer(r, s, 1);
    kernel_documents(&r, s);
    return 0;
}
