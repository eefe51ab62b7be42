/*
 * kernel_run.c -- launch an example-kernel case through the interpreter
 * (see kernel_run.h).  Argument buffers get 16 spare bytes, like the CLI's,
 * but the bounds the kernel sees are the case's exact sizes.
 */
#include "kernel_run.h"
#include "ptx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *kr_read_source(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    return wm_read_file(path, n);
}

const kernel_case *kr_find(const char *name)
{
    for (size_t i = 0; i < nkernel_cases; i++)
        if (strcmp(kernel_cases[i].name, name) == 0)
            return &kernel_cases[i];
    return NULL;
}

/* Scalar spec "i32=64" / "f32=1.5" as argument bits. */
static int scalar(const char *spec, wm_ptx_arg *a)
{
    const char *eq = strchr(spec, '=');
    char type[8];
    if (!eq || (size_t)(eq - spec) >= sizeof type)
        return 0;
    memcpy(type, spec, (size_t)(eq - spec));
    type[eq - spec] = 0;
    wm_ptx_type t;
    if (wm_ptx_type_parse(type, &t) != WM_OK)
        return 0;
    a->size = (unsigned)wm_ptx_type_size(t);
    if (t == WM_PTX_F32) {
        float f = strtof(eq + 1, NULL);
        uint32_t u;
        memcpy(&u, &f, 4);
        a->scalar = u;
    } else if (t == WM_PTX_F64) {
        double f = strtod(eq + 1, NULL);
        memcpy(&a->scalar, &f, 8);
    } else {
        a->scalar = (uint64_t)strtoll(eq + 1, NULL, 0);
        if (a->size < 8)
            a->scalar &= ((uint64_t)1 << (a->size * 8)) - 1;
    }
    return 1;
}

int kr_run_case(const kernel_case *kc, const char *arch_name,
                unsigned threads, kr_run *r)
{
    return kr_run_case_flags(kc, arch_name, threads, 0, r);
}

int kr_run_case_flags(const kernel_case *kc, const char *arch_name,
                      unsigned threads, unsigned flags, kr_run *r)
{
    return kr_run_case_check(kc, arch_name, threads, flags, NULL, r);
}

int kr_run_case_check(const kernel_case *kc, const char *arch_name,
                      unsigned threads, unsigned flags, wm_ptx_check *chk,
                      kr_run *r)
{
    memset(r, 0, sizeof *r);
    r->st = WM_ERR_ARG;
    size_t n = 0;
    char *src = kr_read_source(kc->ptx, &n);
    if (!src) {
        fprintf(stderr, "%s: cannot read %s\n", kc->name, kc->ptx);
        return 0;
    }
    wm_diag d;
    if (wm_ptx_parse(src, n, kc->ptx, &r->m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, kc->ptx, src, n);
        free(src);
        return 0;
    }
    free(src);
    r->kernel = wm_ptx_find_kernel(r->m, kc->kernel);
    if (r->kernel < 0 || kc->nargs > KR_MAX_ARGS) {
        fprintf(stderr, "%s: kernel %s not found\n", kc->name, kc->kernel);
        return 0;
    }
    wm_ptx_arg args[KR_MAX_ARGS];
    memset(args, 0, sizeof args);
    for (size_t i = 0; i < kc->nargs; i++) {
        const kc_arg *a = &kc->args[i];
        if (!a->is_buf) {
            if (!scalar(a->scalar, &args[i])) {
                fprintf(stderr, "%s: bad scalar '%s'\n", kc->name, a->scalar);
                return 0;
            }
            continue;
        }
        size_t bytes = a->buf.count * kc_type_size(a->buf.type);
        r->bufs[i] = calloc(bytes + 16, 1);
        if (!r->bufs[i] ||
            kc_fill(r->bufs[i], a->buf.type, a->buf.count, a->buf.init) != 0) {
            fprintf(stderr, "%s: cannot build argument %zu\n", kc->name, i);
            return 0;
        }
        args[i].buf = r->bufs[i];
        args[i].bytes = bytes;
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, kc->grid, sizeof l.grid);
    memcpy(l.block, kc->block, sizeof l.block);
    l.dyn_smem = kc->dyn_smem;
    l.args = args;
    l.nargs = kc->nargs;
    l.max_steps = 10000000;
    l.threads = threads;
    l.check = chk;
    wm_arch arch;
    if (wm_arch_parse(arch_name, &arch, NULL, 0) != WM_OK ||
        !(r->agg = wm_agg_new(&arch))) {
        fprintf(stderr, "%s: bad profile %s\n", kc->name, arch_name);
        return 0;
    }
    r->st = wmi_ptx_run_opts(r->m, (size_t)r->kernel, &l, r->agg, &r->res,
                             &r->fault, flags);
    if (r->st != WM_OK)
        fprintf(stderr, "%s: run failed: %s (PTX line %u)\n", kc->name,
                r->fault.msg, r->fault.ptx_line);
    return r->st == WM_OK;
}

void kr_free(kr_run *r)
{
    for (size_t i = 0; i < KR_MAX_ARGS; i++)
        free(r->bufs[i]);
    wm_agg_free(r->agg);
    wm_ptx_free(r->m);
    memset(r, 0, sizeof *r);
}
