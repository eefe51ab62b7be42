/*
 * ptx_unset.c -- the registers of a kernel that some path may read before
 * any instruction wrote them.  PTX leaves such a read undefined; here it
 * reads 0 (wmi_ptx_cta_begin zeroes these slots in every CTA), so that
 * what a CTA computes depends neither on the CTA a worker ran before it
 * (the register file is reused) nor on the interpreter's path (the fast
 * paths leave some registers unwritten in the file, ptx_areg.h).  Real
 * kernels have none, and then a CTA costs nothing more.
 *
 * A forward "definitely written" analysis over the code: per instruction
 * the slots written on every path from the kernel's start (a bitset),
 * met (AND) over the predecessors, iterated in code order to a fixed
 * point; an instruction writes its destinations unless it is guarded.
 * A read of a slot outside that set marks the slot.  Special registers,
 * constants and the two fixed slots are written before the code runs.
 */
#include "ptx_int.h"

#include <stdlib.h>

/* Limit of the analysis' bitsets (instructions x slots / 8 bytes); a
   larger kernel zeroes every register slot instead. */
#define UNSET_MAX_BYTES ((size_t)64 << 20)

typedef struct {
    const wm_ptx_module *m;
    size_t words;   /* 64-bit words per bitset */
    uint64_t *in;   /* per instruction: slots written on every path */
    uint64_t *mark; /* slots some read may find unwritten */
    uint32_t nslots;
} flow;

static void set_bit(uint64_t *b, uint32_t s)
{
    b[s >> 6] |= (uint64_t)1 << (s & 63);
}

static int has_bit(const uint64_t *b, uint32_t s)
{
    return (int)(b[s >> 6] >> (s & 63) & 1);
}

/* Every slot of operand word v into bitset b (nothing for WMI_NOREG). */
static void add_operand(const flow *fl, uint64_t *b, uint32_t v)
{
    if (v == WMI_NOREG)
        return;
    for (unsigned k = 0; k < wmi_vcount(fl->m, v); k++) {
        uint32_t s = wmi_vslot(fl->m, v, k);
        if (s < fl->nslots)
            set_bit(b, s);
    }
}

/* Mark each slot of operand word v that is not in `written`. */
static void check_read(flow *fl, const uint64_t *written, uint32_t v)
{
    if (v == WMI_NOREG)
        return;
    for (unsigned k = 0; k < wmi_vcount(fl->m, v); k++) {
        uint32_t s = wmi_vslot(fl->m, v, k);
        if (s < fl->nslots && !has_bit(written, s))
            set_bit(fl->mark, s);
    }
}

/* out = in with what in writes when it runs (unguarded). */
static void transfer(const flow *fl, const wmi_insn *in, uint64_t *out)
{
    if (in->guard != WMI_NOREG || in->op == OP_BRA || in->op == OP_CALL)
        return;
    add_operand(fl, out, in->d);
    add_operand(fl, out, in->d2);
}

/* in's successors (code indices), at most 2; returns how many. */
static unsigned successors(const wmi_func *f, const wmi_insn *in, uint32_t pc,
                           uint32_t succ[2])
{
    unsigned n = 0;
    int ends = in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP;
    int jumps = in->op == OP_BRA;
    if (jumps && in->target >= f->first && in->target < f->first + f->count)
        succ[n++] = in->target;
    if ((!(ends || jumps) || in->guard != WMI_NOREG) &&
        pc + 1 < f->first + f->count)
        succ[n++] = pc + 1;
    return n;
}

/* in[to] &= out; 1 if it changed. */
static int meet(flow *fl, uint32_t to, const uint64_t *out)
{
    uint64_t *b = fl->in + (size_t)to * fl->words;
    int changed = 0;
    for (size_t w = 0; w < fl->words; w++) {
        uint64_t v = b[w] & out[w];
        changed |= v != b[w];
        b[w] = v;
    }
    return changed;
}

/* The fixed point of the sets, then the marks of the reads. */
static int analyse(flow *fl, const wmi_func *f, const uint64_t *entry)
{
    uint64_t *out = malloc(fl->words * sizeof *out);
    if (!out)
        return 0;
    memcpy(fl->in, entry, fl->words * sizeof *out);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < f->count; i++) {
            const wmi_insn *in = &fl->m->code[f->first + i];
            memcpy(out, fl->in + (size_t)i * fl->words,
                   fl->words * sizeof *out);
            transfer(fl, in, out);
            uint32_t succ[2];
            unsigned ns = successors(f, in, f->first + i, succ);
            for (unsigned k = 0; k < ns; k++)
                changed |= meet(fl, succ[k] - f->first, out);
        }
    }
    for (uint32_t i = 0; i < f->count; i++) {
        const wmi_insn *in = &fl->m->code[f->first + i];
        const uint64_t *w = fl->in + (size_t)i * fl->words;
        const uint32_t src[5] = {in->guard, in->a, in->b, in->c, in->e};
        /* (a bra reads only its guard: its operand is the target) */
        for (unsigned k = 0; k < (in->op == OP_BRA ? 1u : 5u); k++)
            check_read(fl, w, src[k]);
        if (in->op == OP_WGMMA) /* accumulates into d */
            check_read(fl, w, in->d);
    }
    free(out);
    return 1;
}

wm_status wmi_ptx_unset_slots(const wm_ptx_module *m, const wmi_func *f,
                              uint32_t **slots, uint32_t *n)
{
    *slots = NULL;
    *n = 0;
    uint32_t first = SLOT_SREG0 + SR_COUNT; /* registers from here */
    if (f->nslots <= first || f->count == 0)
        return WM_OK;
    flow fl = {m, (f->nslots + 63) / 64, NULL, NULL, f->nslots};
    uint64_t *entry = calloc(fl.words, sizeof *entry);
    fl.mark = calloc(fl.words, sizeof *fl.mark);
    int whole = (size_t)f->count * fl.words * 8 > UNSET_MAX_BYTES;
    if (!whole)
        fl.in = malloc((size_t)f->count * fl.words * sizeof *fl.in);
    if (!entry || !fl.mark || (!whole && !fl.in)) {
        free(entry);
        free(fl.mark);
        free(fl.in);
        return WM_ERR_NOMEM;
    }
    for (uint32_t s = 0; s < first; s++)
        set_bit(entry, s);
    for (uint32_t k = 0; k < f->nconsts; k++)
        set_bit(entry, f->cslots[k]);
    wm_status st = WM_OK;
    if (!whole) {
        memset(fl.in, 0xff, (size_t)f->count * fl.words * sizeof *fl.in);
        if (!analyse(&fl, f, entry))
            st = WM_ERR_NOMEM;
    }
    /* the marked slots, or every register but the constants */
    uint32_t count = 0;
    for (int pass = 0; pass < 2 && st == WM_OK; pass++) {
        count = 0;
        for (uint32_t s = first; s < f->nslots; s++) {
            if (whole ? has_bit(entry, s) : !has_bit(fl.mark, s))
                continue;
            if (pass)
                (*slots)[count] = s;
            count++;
        }
        if (!pass && count && !(*slots = malloc(count * sizeof **slots)))
            st = WM_ERR_NOMEM;
        if (!count)
            break;
    }
    *n = st == WM_OK ? count : 0;
    free(entry);
    free(fl.mark);
    free(fl.in);
    return st;
}
