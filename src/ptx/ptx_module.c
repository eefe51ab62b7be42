/*
 * ptx_module.c -- what a parsed module answers (ptx_parse.c builds it):
 * its kernels by index and name, their parameters and errors, and where
 * each instruction comes from (PTX line, source file and line, the
 * inlined-at chain).  Read-only over the module: the interpreter, the
 * checks, the cache model and the SASS map ask it without reaching the
 * parser.
 */
#include "ptx_int.h"

#include <stdio.h>

/* The path of .file num (the first such directive), "" if none. */
const char *wmi_ptx_file(const wm_ptx_module *m, uint32_t num)
{
    size_t lo = 0, hi = m->nfiles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->files[m->file_order[mid]].num < num)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nfiles && m->files[m->file_order[lo]].num == num
               ? m->files[m->file_order[lo]].path
               : "";
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void wmi_ptx_attr(const wm_ptx_module *m, size_t i, const char **file,
                  uint32_t *line, const char **inl_file, uint32_t *inl_line)
{
    const wmi_loc *l = &m->locs[m->code[i].loc];
    *inl_file = "";
    *inl_line = 0;
    *file = l->afile ? wmi_ptx_file(m, l->afile) : "";
    *line = l->aline;
    if (l->afile != l->file || l->aline != l->line) {
        /* code inlined from another file (a CUDA header, Triton's
           standard.py): remember the callee */
        *inl_file = base_name(wmi_ptx_file(m, l->file));
        *inl_line = l->line;
    }
}

size_t wm_ptx_nkernels(const wm_ptx_module *m)
{
    return m->nkern;
}

const wmi_func *wmi_ptx_kernel(const wm_ptx_module *m, size_t k)
{
    return k < m->nkern ? &m->funcs[m->kern[k]] : NULL;
}

/* The modules whose call graph wmi_kernel_count follows (on the stack);
   in larger ones every .func counts. */
#define REACH_MAX_FUNCS 1024

/* Mark in reach[] the functions f may call, directly or not; 0 when a call
   has no known callee (through a pointer), which may reach any .func. */
static int mark_callees(const wm_ptx_module *m, const wmi_func *f,
                        uint8_t *reach)
{
    uint16_t todo[REACH_MAX_FUNCS];
    size_t n = 0;
    todo[n++] = (uint16_t)(f - m->funcs);
    reach[todo[0]] = 1;
    while (n) {
        const wmi_func *g = &m->funcs[todo[--n]];
        for (uint32_t i = g->first; i < g->first + g->count; i++) {
            const wmi_insn *in = &m->code[i];
            if (in->op != OP_CALL)
                continue;
            uint32_t c = (uint64_t)in->imm < m->ncalls
                             ? m->calls[in->imm].callee : WMI_NOREG;
            if (c >= m->nfuncs)
                return 0;
            if (!reach[c]) {
                reach[c] = 1;
                todo[n++] = (uint16_t)c; /* each function once */
            }
        }
    }
    return 1;
}

size_t wmi_kernel_count(const wm_ptx_module *m, const wmi_func *f,
                        int (*match)(const wm_ptx_module *, const wmi_insn *),
                        size_t most)
{
    uint8_t reach[REACH_MAX_FUNCS] = {0};
    int known = m->nfuncs <= REACH_MAX_FUNCS && mark_callees(m, f, reach);
    size_t found = 0;
    for (size_t k = 0; k < m->nfuncs; k++) {
        const wmi_func *g = &m->funcs[k];
        if (known ? !reach[k] : g->is_entry && g != f)
            continue;
        for (uint32_t i = 0; i < g->count && found < most; i++)
            found += match(m, &m->code[g->first + i]) != 0;
    }
    return found;
}

const char *wm_ptx_kernel_name(const wm_ptx_module *m, size_t k)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f ? f->name : NULL;
}

const char *wm_ptx_kernel_pretty(const wm_ptx_module *m, size_t k)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f ? f->pretty : NULL;
}

int wm_ptx_kernel_error(const wm_ptx_module *m, size_t k, wm_diag *d)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    if (!f || !f->err)
        return 0;
    if (d)
        *d = *f->err;
    return 1;
}

size_t wm_ptx_kernel_nparams(const wm_ptx_module *m, size_t k)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f ? f->nparams : 0;
}

size_t wm_ptx_param_size(const wm_ptx_module *m, size_t k, size_t i)
{
    const wmi_func *f = wmi_ptx_kernel(m, k);
    return f && i < f->nparams ? f->params[i].size : 0;
}

long wm_ptx_find_kernel(const wm_ptx_module *m, const char *name)
{
    size_t nk = wm_ptx_nkernels(m);
    long found = -1;
    if (!name || !*name)
        return nk == 1 ? 0 : (nk ? -2 : -1);
    for (size_t k = 0; k < nk; k++)
        if (strcmp(wmi_ptx_kernel(m, k)->name, name) == 0)
            return (long)k;
    for (size_t k = 0; k < nk; k++)
        if (strcmp(wmi_ptx_kernel(m, k)->pretty, name) == 0) {
            if (found >= 0)
                return -2;
            found = (long)k;
        }
    return found;
}

size_t wm_ptx_ninsns(const wm_ptx_module *m)
{
    return m->ncode;
}

int wm_ptx_where_insn(const wm_ptx_module *m, size_t insn, wm_ptx_where *out)
{
    if (insn >= m->ncode)
        return 0;
    out->ptx_line = m->code[insn].line;
    out->text = m->texts + m->code[insn].text;
    out->near_line = m->locs[m->code[insn].loc].near;
    const wmi_loc *l = &m->locs[m->code[insn].loc];
    out->call_file = l->cfile ? wmi_ptx_file(m, l->cfile) : "";
    out->call_line = l->cline;
    wmi_ptx_attr(m, insn, &out->file, &out->line, &out->inl_file,
                 &out->inl_line);
    return 1;
}
