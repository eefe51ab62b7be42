/*
 * cache_dep.c -- which global loads of a PTX module a warp issues without
 * waiting: the load groups of the latency term (docs/hierarchy.md).
 *
 * Within a basic block, between barriers, a warp has every load in
 * flight whose address does not depend on a pending load: ptxas hoists
 * independent loads above the instructions that use earlier ones (the
 * PTX order of ld/st.shared pairs is not the SASS order).  A load whose
 * address is computed from a pending value (pointer chasing, an index
 * read from memory), an atomic, a barrier, a call or the end of the block
 * closes the group: the loads in it are in flight together and cost one
 * latency.  Each load that starts a group gets WMI_CACHE_LEAD in its kind.
 * Register limits on hoisting are not modelled (no allocation in PTX).
 */
#include "cache_int.h"
#include "ptx_int.h"

/* Slots an operand word names (a slot, or a vector in the pool). */
static size_t operand_slots(const wm_ptx_module *m, uint32_t w,
                            const uint32_t **slots, uint32_t *one)
{
    if (w == WMI_NOREG)
        return 0;
    if (w & WMI_VEC) {
        uint32_t off = w & ~WMI_VEC;
        if (off >= m->npool)
            return 0;
        *slots = m->pool + off + 1;
        return m->pool[off];
    }
    *one = w;
    *slots = one;
    return 1;
}

typedef struct pend {
    uint8_t *on;   /* per slot: written by a load of the open group */
    uint32_t *set; /* the slots set, to clear them */
    size_t nset, cap;
    int open; /* a group is open */
} pend;

static void pend_clear(pend *p)
{
    for (size_t i = 0; i < p->nset; i++)
        p->on[p->set[i]] = 0;
    p->nset = 0;
    p->open = 0;
}

static int reads_slot(const wm_ptx_module *m, uint32_t w, const pend *p)
{
    const uint32_t *s;
    uint32_t one;
    size_t n = operand_slots(m, w, &s, &one);
    for (size_t i = 0; i < n; i++)
        if (s[i] < m->max_slots && p->on[s[i]])
            return 1;
    return 0;
}

static int reads_pending(const wm_ptx_module *m, const wmi_insn *in,
                         const pend *p)
{
    const uint32_t src[5] = {in->a, in->b, in->c, in->e, in->guard};
    for (unsigned k = 0; k < 5; k++) {
        const uint32_t *s;
        uint32_t one;
        size_t n = operand_slots(m, src[k], &s, &one);
        for (size_t i = 0; i < n; i++)
            if (s[i] < m->max_slots && p->on[s[i]])
                return 1;
    }
    return 0;
}

static void add_dests(const wm_ptx_module *m, const wmi_insn *in, pend *p)
{
    const uint32_t dst[2] = {in->d, (in->flags & F_DEST2) ? in->d2 : WMI_NOREG};
    for (unsigned k = 0; k < 2; k++) {
        const uint32_t *s;
        uint32_t one;
        size_t n = operand_slots(m, dst[k], &s, &one);
        for (size_t i = 0; i < n && p->nset < p->cap; i++)
            if (s[i] >= SLOT_SREG0 && s[i] < m->max_slots && !p->on[s[i]]) {
                p->on[s[i]] = 1;
                p->set[p->nset++] = s[i];
            }
    }
}

static int is_global_load(const wmi_insn *in)
{
    return (in->op == OP_LD || in->op == OP_ATOM) &&
           (in->space == SP_GLOBAL || in->space == SP_GENERIC);
}

/* An instruction after which no load of the open group stays pending. */
static int ends_group(const wmi_insn *in)
{
    return in->op == OP_BAR || in->op == OP_MBAR || in->op == OP_CALL ||
           in->op == OP_BRA || in->op == OP_RET || in->op == OP_EXIT;
}

int wmi_cache_lead(const wm_ptx_module *m, uint8_t *kind)
{
    size_t n = m->ncode;
    uint8_t *block = calloc(n + 1, 1); /* starts a basic block */
    pend p = {calloc(m->max_slots + 1, 1), NULL, 0, m->max_slots + 1, 0};
    p.set = calloc(p.cap, sizeof *p.set);
    if (!block || !p.on || !p.set) {
        free(block);
        free(p.on);
        free(p.set);
        return 0;
    }
    for (size_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].first < n)
            block[m->funcs[i].first] = 1;
    for (size_t i = 0; i < n; i++)
        if (m->code[i].op == OP_BRA && m->code[i].target < n)
            block[m->code[i].target] = 1;
    for (size_t i = 0; i < n; i++) {
        const wmi_insn *in = &m->code[i];
        if (block[i])
            pend_clear(&p);
        if (is_global_load(in)) {
            /* an address computed from a pending value waits for it */
            if (p.open && (in->op == OP_ATOM || reads_slot(m, in->a, &p)))
                pend_clear(&p);
            if (!p.open)
                kind[i] |= WMI_CACHE_LEAD;
            add_dests(m, in, &p);
            p.open = 1;
        } else if (reads_pending(m, in, &p)) {
            add_dests(m, in, &p); /* derived from a pending value */
        }
        if (ends_group(in))
            pend_clear(&p);
    }
    free(block);
    free(p.on);
    free(p.set);
    return 1;
}
