/*
 * ptx_smem.c -- the CTA's static shared memory, laid out once the whole
 * module is parsed:
 *
 *   [module-scope .shared][every .func's .shared][the kernel's own][dynamic]
 *
 * Module-scope variables keep the offsets the parser gave them.  The
 * .shared variables declared inside .func bodies (nvcc -G keeps a
 * __shared__ array of a __device__ function there, and a call reaches
 * it) follow, each once at its alignment, at the same offset for every
 * kernel: a callee's code, and the addresses in it, is shared by all
 * its callers.  A kernel's own variables start after the last .func
 * variable it can reach through calls (every .func when it calls
 * through a pointer), aligned to its most aligned variable, and its
 * static size ends after them.  A .func naming dynamic shared memory
 * gets the kernel's dynamic area at each call (wmi_func.dconst).
 */
#include "ptx_int.h"

#include <stdlib.h>

static uint64_t align_up(uint64_t x, uint64_t a)
{
    return a > 1 ? (x + a - 1) / a * a : x;
}

static int is_static_shared(const wmi_var *v)
{
    return v->space == SP_SHARED && !v->is_extern;
}

static void mark(uint8_t *seen, uint32_t *stack, size_t *top, uint32_t j)
{
    if (!seen[j]) {
        seen[j] = 1;
        stack[(*top)++] = j;
    }
}

/* Marks in seen[] every function that kernel k can reach by calls (a
   call through a pointer reaches every .func). */
static void reach(const wm_ptx_module *m, uint32_t k, uint8_t *seen,
                  uint32_t *stack)
{
    size_t top = 0;
    int any = 0;
    memset(seen, 0, m->nfuncs);
    mark(seen, stack, &top, k);
    while (top) {
        const wmi_func *f = &m->funcs[stack[--top]];
        for (uint32_t i = 0; i < f->count; i++) {
            const wmi_insn *in = &m->code[f->first + i];
            if (in->op != OP_CALL || (uint64_t)in->imm >= m->ncalls)
                continue;
            const wmi_call *cl = &m->calls[in->imm];
            if (cl->callee != WMI_NOREG && cl->callee < m->nfuncs)
                mark(seen, stack, &top, cl->callee);
            else if (!*cl->name && !any) {
                any = 1;
                for (uint32_t j = 0; j < m->nfuncs; j++)
                    if (!m->funcs[j].is_entry)
                        mark(seen, stack, &top, j);
            }
        }
    }
}

/* Kernel k's layout: base and size of its own variables after the
   .func variables it reaches (their ends in fend[]). */
static void layout_kernel(wm_ptx_module *m, uint32_t k, uint64_t module_smem,
                          const uint64_t *fend, const uint8_t *seen)
{
    wmi_func *f = &m->funcs[k];
    uint64_t end = module_smem, align = 1;
    for (uint32_t j = 0; j < m->nfuncs; j++) {
        const wmi_func *g = &m->funcs[j];
        if (!seen[j] || g->is_entry)
            continue;
        if (fend[j] > end)
            end = fend[j];
        if (g->dyn_used) {
            f->dyn_used = 1;
            if (g->dyn_align > f->dyn_align)
                f->dyn_align = g->dyn_align;
        }
    }
    for (size_t i = 0; i < m->nvars; i++)
        if (is_static_shared(&m->vars[i]) && m->vars[i].func == k &&
            m->vars[i].align > align)
            align = m->vars[i].align;
    uint64_t base = align_up(end, align), own = f->smem_static;
    for (size_t i = 0; i < m->nvars; i++)
        if (is_static_shared(&m->vars[i]) && m->vars[i].func == k)
            m->vars[i].offset += base;
    uint64_t total = own ? base + own : end;
    f->smem_static = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

/* The .func variables after the module-scope ones, each function's end
   in fend[]; a .func's dynamic shared constants into its dconst. */
static int layout_funcs(wm_ptx_module *m, uint64_t module_smem,
                        const wmi_sfix *fx, size_t n, uint64_t *fend)
{
    uint64_t acc = module_smem;
    for (size_t i = 0; i < m->nvars; i++) {
        wmi_var *v = &m->vars[i];
        if (!is_static_shared(v) || v->func == WMI_NOREG ||
            m->funcs[v->func].is_entry)
            continue;
        v->offset = align_up(acc, v->align);
        acc = v->offset + v->size;
        fend[v->func] = acc;
    }
    for (size_t i = 0; i < n; i++) {
        wmi_func *g = &m->funcs[fx[i].func];
        if (g->is_entry || !m->vars[fx[i].var].is_extern)
            continue;
        uint32_t *q = realloc(g->dconst, (g->ndconst + 1) * sizeof *q);
        if (!q)
            return 0;
        g->dconst = q;
        g->dconst[g->ndconst++] = fx[i].cidx;
        g->dyn_used = 1;
    }
    return 1;
}

int wmi_ptx_smem_layout(wm_ptx_module *m, uint32_t module_smem,
                        const wmi_sfix *fx, size_t n)
{
    uint64_t *fend = calloc(m->nfuncs + 1, sizeof *fend);
    uint8_t *seen = malloc(m->nfuncs + 1);
    uint32_t *stack = malloc((m->nfuncs + 1) * sizeof *stack);
    int ok = fend && seen && stack &&
             layout_funcs(m, module_smem, fx, n, fend);
    for (uint32_t k = 0; ok && k < m->nfuncs; k++)
        if (m->funcs[k].is_entry) {
            reach(m, k, seen, stack);
            layout_kernel(m, k, module_smem, fend, seen);
        }
    for (size_t i = 0; ok && i < n; i++) {
        wmi_func *g = &m->funcs[fx[i].func];
        const wmi_var *v = &m->vars[fx[i].var];
        uint64_t a = v->offset;
        if (v->is_extern)
            a = g->is_entry ? align_up(g->smem_static, g->dyn_align) : 0;
        if (v->is_extern && g->is_entry)
            g->dyn_used = 1;
        g->cvals[fx[i].cidx] = a + (uint64_t)fx[i].add;
    }
    free(fend);
    free(seen);
    free(stack);
    return ok;
}
