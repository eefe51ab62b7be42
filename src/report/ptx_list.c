/*
 * ptx_list.c -- `run --list`: every kernel of a module with its signature,
 * where it came from (CUDA C++, Triton, numba), its shared memory and each
 * parameter (type, size, how the body uses it, the source-level argument
 * it belongs to), as text or as one JSON document (docs/output.md).
 */
#include "wm_int.h"

#include <stdio.h>
#include <string.h>

/* Parameters listed per kernel at most (a kernel has a few dozen). */
#define LIST_MAX_PARAMS 256

static const char *use_name(wm_ptx_use u)
{
    switch (u) {
    case WM_PTX_USE_NONE: return "unused";
    case WM_PTX_USE_VALUE: return "value";
    case WM_PTX_USE_POINTER: return "pointer";
    case WM_PTX_USE_ESCAPES: return "passed on";
    case WM_PTX_USE_TEXTURE: return "texture";
    case WM_PTX_USE_SURFACE: return "surface";
    }
    return "?";
}

static const char *origin_name(wm_ptx_origin o)
{
    switch (o) {
    case WM_PTX_FROM_CUDA: return "CUDA C++";
    case WM_PTX_FROM_TRITON: return "Triton";
    case WM_PTX_FROM_NUMBA: return "numba";
    }
    return "?";
}

/* A parameter's name as listed: "param_3" when it is the kernel's name
   followed by _param_N (what nvcc, Triton and numba all write). */
static const char *short_param(const char *kernel, const char *name)
{
    size_t n = strlen(kernel);
    if (strncmp(name, kernel, n) == 0 && strncmp(name + n, "_param_", 7) == 0)
        return name + n + 1;
    return name;
}

/* Kernel k and its first LIST_MAX_PARAMS parameters; how many listed. */
static size_t describe(const wm_ptx_module *m, size_t k,
                       wm_ptx_kernel_info *ki,
                       wm_ptx_param_info pi[LIST_MAX_PARAMS])
{
    size_t np = wm_ptx_kernel_describe(m, k, ki, pi, LIST_MAX_PARAMS);
    return np < LIST_MAX_PARAMS ? np : LIST_MAX_PARAMS;
}

/* --list --format json: the same as one JSON document. */
static void list_json(FILE *f, const wm_ptx_module *m)
{
    size_t nk = wm_ptx_nkernels(m);
    fputs("{\"target\": ", f);
    wm_json_string(f, wm_ptx_target(m));
    fputs(", \"kernels\": [", f);
    for (size_t k = 0; k < nk; k++) {
        wm_ptx_kernel_info ki;
        wm_ptx_param_info pi[LIST_MAX_PARAMS];
        size_t np = describe(m, k, &ki, pi);
        fputs(k ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
        wm_json_string(f, ki.name);
        fputs(", \"display\": ", f);
        wm_json_string(f, ki.display);
        fputs(", \"signature\": ", f);
        wm_json_string(f, ki.signature);
        wm_diag d;
        if (wm_ptx_kernel_error(m, k, &d)) {
            char e[sizeof d.msg + 32];
            snprintf(e, sizeof e, "line %d:%d: %s", d.line, d.col, d.msg);
            fputs(", \"error\": ", f);
            wm_json_string(f, e);
        }
        fprintf(f, ", \"origin\": \"%s\", \"static_smem\": %zu, \"dynamic_smem\": "
               "%s, \"arguments\": %zu, \"params\": [",
               ki.origin == WM_PTX_FROM_TRITON  ? "triton"
               : ki.origin == WM_PTX_FROM_NUMBA ? "numba"
                                                : "cuda",
               ki.static_smem, ki.dyn_smem ? "true" : "false", ki.ngroups);
        for (size_t i = 0; i < np; i++) {
            const wm_ptx_param_info *p = &pi[i];
            fputs(i ? ", {\"name\": " : "{\"name\": ", f);
            wm_json_string(f, p->name);
            fputs(", \"type\": ", f);
            wm_json_string(f, p->type);
            fprintf(f, ", \"size\": %zu, \"offset\": %zu, \"ptr\": %s, \"use\": "
                   "\"%s\", \"added\": %s, \"argument\": %ld, \"role\": ",
                   p->size, p->offset, p->declared_ptr ? "true" : "false",
                   use_name(p->use), p->added ? "true" : "false", p->group);
            wm_json_string(f, p->role);
            fputs(", \"source_type\": ", f);
            wm_json_string(f, p->ctype);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

/* --list: every kernel, its signature and each parameter. */
static void list_text(FILE *f, const wm_ptx_module *m)
{
    size_t nk = wm_ptx_nkernels(m);
    const char *target = wm_ptx_target(m);
    for (size_t k = 0; k < nk; k++) {
        wm_ptx_kernel_info ki;
        wm_ptx_param_info pi[LIST_MAX_PARAMS];
        size_t np = describe(m, k, &ki, pi);
        fprintf(f, "%skernel %s\n", k ? "\n" : "", ki.signature);
        fprintf(f, "  ptx name %s; %s; %s%s\n", ki.name, origin_name(ki.origin),
               *target ? ".target " : "no .target", target);
        wm_diag d;
        if (wm_ptx_kernel_error(m, k, &d))
            fprintf(f, "  cannot run: line %d:%d: %s\n", d.line, d.col, d.msg);
        if (ki.static_smem || ki.dyn_smem)
            fprintf(f, "  shared memory: %zu bytes static%s\n", ki.static_smem,
                   ki.dyn_smem ? ", plus dynamic (extern): pass --smem BYTES"
                               : "");
        if (np)
            fprintf(f, "  %3s  %-10s %-9s %5s  %-9s %s\n", "#", "name", "type",
                   "bytes", "use", "source");
        size_t added = 0;
        for (size_t i = 0; i < np; i++) {
            const wm_ptx_param_info *p = &pi[i];
            char type[24];
            snprintf(type, sizeof type, "%s%s", p->type,
                     p->declared_ptr ? " .ptr" : "");
            char src[160];
            if (*p->role && *p->ctype)
                snprintf(src, sizeof src, "%s: %s", p->role, p->ctype);
            else
                snprintf(src, sizeof src, "%s", *p->role ? p->role : p->ctype);
            if (p->added) {
                size_t l = strlen(src);
                snprintf(src + l, sizeof src - l, " (added by %s)",
                         origin_name(ki.origin));
                added++;
            }
            fprintf(f, "  %3zu  %-10s %-9s %5zu  %-9s %s\n", i,
                   short_param(ki.name, p->name), type, p->size,
                   use_name(p->use), src);
        }
        if (ki.origin == WM_PTX_FROM_TRITON && ki.ngroups < np)
            fprintf(f, "  --arg: %zu (the %zu scratch pointers Triton adds are "
                   "passed as null when left out)\n",
                   ki.ngroups, np - ki.ngroups);
        else if (ki.origin == WM_PTX_FROM_NUMBA && ki.ngroups < np)
            fprintf(f, "  --arg: %zu, one TYPE[N] or TYPE[N0xN1...] per array "
                   "(warpmem fills the %zu parameters numba adds), or all "
                   "%zu\n",
                   ki.ngroups, added, np);
        else
            fprintf(f, "  --arg: %zu, one per parameter\n", np);
    }
}

wm_status wm_ptx_list(FILE *f, const wm_ptx_module *m, wm_format fmt)
{
    if (!f || !m)
        return WM_ERR_ARG;
    if (fmt == WM_FMT_JSON)
        list_json(f, m);
    else
        list_text(f, m);
    return ferror(f) ? WM_ERR_IO : WM_OK;
}
