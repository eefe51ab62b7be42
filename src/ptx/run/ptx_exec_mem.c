/*
 * ptx_exec_mem.c -- the warp interpreter's memory instructions: ld/st
 * (wmi_ptx_ldst: the fast path of ptx_fastmem.c, else per lane through
 * resolve), atom/red (wmi_ptx_atom, lanes in lane order) and cp.async
 * (wmi_ptx_cp_async), and the wm_access each emits for the aggregator.
 * ptx_exec.c's loop calls them once per warp instruction; the per-lane
 * work stays here, beside resolve (ptx_resolve.h).
 */
#include "ptx_int.h"
#include "ptx_check_int.h"
#include "ptx_exec_int.h"
#include "ptx_resolve.h"

static wm_space model_space(wmi_space s)
{
    return s == SP_SHARED ? WM_SPACE_SHARED
                          : s == SP_LOCAL ? WM_SPACE_LOCAL : WM_SPACE_GLOBAL;
}

/* Accesses of one instruction, split by resolved space. */
typedef struct accs {
    uint64_t addr[32];
    uint8_t space[32];
    uint32_t mask[SP_FRAME + 1];
} accs;

static wm_status emit(wmi_cta *c, const accs *x, uint32_t pc, wm_op op,
                      unsigned size, uint32_t only, wmi_space dflt)
{
    if (!c->agg)
        return WM_OK;
    static const wmi_space counted[] = {SP_GLOBAL, SP_SHARED, SP_LOCAL};
    int any = 0;
    for (size_t k = 0; k < WM_ARRAY_LEN(counted); k++) {
        uint32_t mk = x->mask[counted[k]] & only;
        if (!mk)
            continue;
        any = 1;
        wm_access a;
        a.site = pc;
        a.space = model_space(counted[k]);
        a.op = op;
        a.size = size;
        a.mask = mk;
        for (unsigned l = 0; l < 32; l++)
            a.addr[l] = (mk >> l & 1) ? x->addr[l] : 0;
        memset(a.addr + 32, 0, sizeof a.addr - 32 * sizeof a.addr[0]);
        wm_status st = wm_agg_add(c->agg, &a, NULL);
        if (st != WM_OK)
            return st;
    }
    if (!any && !(x->mask[SP_PARAM] & only)) {
        /* fully predicated off: still an executed instruction */
        wm_access a;
        memset(&a, 0, sizeof a);
        a.site = pc;
        a.space = model_space(dflt);
        a.op = op;
        a.size = size;
        return wm_agg_add(c->agg, &a, NULL);
    }
    return WM_OK;
}

static unsigned type_bytes(wmi_type t)
{
    unsigned b = wmi_type_bits(t);
    return b < 8 ? 1 : b / 8;
}

/*
 * Fast address check for an explicit global or shared access by all lanes
 * of m: fills ptr[] and x, or returns 0 when some lane needs the careful
 * path (which then reports the fault).
 */
static int fast_addrs(wmi_cta *c, const uint64_t *A, int64_t imm,
                      wmi_space sp, unsigned size, uint32_t m, accs *x,
                      uint8_t *ptr[32])
{
    if (sp == SP_GLOBAL) {
        uint64_t lo = 1, hi = c->ngbufs - 1;
        for (unsigned l = 0; l < 32; l++) {
            if (!(m >> l & 1))
                continue;
            uint64_t addr = A[l] + (uint64_t)imm;
            uint64_t i = addr >> WMI_WIN_SHIFT, off = addr & WMI_WIN_MASK;
            if (i < lo || i > hi || (addr & (size - 1)) ||
                off + size > c->gbufs[i - 1].bytes || !c->gbufs[i - 1].p)
                return 0;
            x->addr[l] = addr;
            ptr[l] = c->gbufs[i - 1].p + off;
        }
    } else if (sp == SP_PARAM) {
        uint64_t lim = c->f->param_bytes;
        for (unsigned l = 0; l < 32; l++) {
            if (!(m >> l & 1))
                continue;
            uint64_t addr = A[l] + (uint64_t)imm;
            if ((addr & (size - 1)) || addr + size > lim)
                return 0;
            x->addr[l] = addr;
            ptr[l] = (uint8_t *)(uintptr_t)(c->params + addr);
        }
    } else {
        uint64_t lim = c->smem_bytes;
        for (unsigned l = 0; l < 32; l++) {
            if (!(m >> l & 1))
                continue;
            uint64_t addr = (uint32_t)(A[l] + (uint64_t)imm);
            if ((addr & (size - 1)) || addr + size > lim)
                return 0;
            x->addr[l] = addr;
            ptr[l] = c->smem + addr;
        }
    }
    x->mask[sp] = m;
    return 1;
}

wm_status wmi_ptx_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m, int store)
{
    wm_status fst;
    if (!(c->flags & WMI_RUN_SLOW) &&
        wmi_ptx_fast_ldst(c, w, in, pc, m, store, &fst)) {
        if (c->flags & WMI_RUN_CHECK) /* --check (ptx_check.c) */
            wmi_check_fast(c, w, in, pc, m, store, WMI_STEP_NONE);
        return fst;
    }
    uint64_t (*R)[32] = w->r;
    const wm_ptx_module *mod = c->m;
    wmi_type t = (wmi_type)in->type;
    unsigned esz = type_bytes(t);
    uint32_t vals = store ? in->b : in->d;
    unsigned n = wmi_vcount(mod, vals);
    unsigned size = esz * n;
    int sgn = wmi_type_signed(t);
    unsigned bits = esz * 8;
    accs x;
    uint8_t *ptr[32];
    memset(x.mask, 0, sizeof x.mask);
    wmi_space sp = (wmi_space)in->space;
    const uint64_t *A = R[in->a];
    if (!((sp == SP_GLOBAL || sp == SP_SHARED || (sp == SP_PARAM && !store)) &&
          fast_addrs(c, A, in->imm, sp, size, m, &x, ptr))) {
        memset(x.mask, 0, sizeof x.mask);
        for (unsigned l = 0; l < 32; l++) {
            if (!(m >> l & 1))
                continue;
            uint64_t addr = A[l] + (uint64_t)in->imm;
            if (sp == SP_SHARED || sp == SP_LOCAL)
                addr = (uint32_t)addr;
            wmi_space rs;
            ptr[l] = resolve(c, w, l, pc, sp, addr, size,
                             store ? "store" : "load", &rs, &x.addr[l]);
            if (!ptr[l])
                return c->status;
            if (sp == SP_CONST)
                rs = SP_PARAM; /* constant-cache reads are not counted */
            if (rs == SP_PARAM && store)
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_UNSUPPORTED,
                                     "st.param outside a call sequence");
            x.mask[rs] |= 1u << l;
        }
    }
    if (n == 1 && esz == 4 && !sgn) {
        uint64_t *V = R[wmi_vslot(mod, vals, 0)];
        if (store)
            WMI_LOOP(uint32_t v = (uint32_t)V[l]; memcpy(ptr[l], &v, 4));
        else
            WMI_LOOP(uint32_t v; memcpy(&v, ptr[l], 4); V[l] = v);
    } else {
        for (unsigned k = 0; k < n; k++) {
            uint64_t *V = R[wmi_vslot(mod, vals, k)];
            if (store) {
                WMI_LOOP(uint64_t v = V[l]; memcpy(ptr[l] + k * esz, &v, esz));
            } else {
                WMI_LOOP(uint64_t v = 0; memcpy(&v, ptr[l] + k * esz, esz > 8 ? 8 : esz);
                     V[l] = sgn ? sext(v, bits) : v);
            }
        }
    }
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_mem(c, w, pc, store ? WMI_ACC_WRITE : WMI_ACC_READ, size,
                      x.addr, x.mask[SP_SHARED], x.mask[SP_GLOBAL]);
    return emit(c, &x, pc, store ? WM_OP_ST : WM_OP_LD, size, WMI_FULL, sp);
}

/* add, min or max of two f16 (bf16 when bf) values in the low 16 bits of
   a and b; min and max keep the bits of the one they pick, a NaN loses
   to a number. */
static uint64_t half_op(unsigned op, uint64_t a, uint64_t b, int bf)
{
    a &= 0xffff;
    b &= 0xffff;
    float x = bf ? BF(a) : H(a), y = bf ? BF(b) : H(b);
    if (op == AOP_ADD)
        return bf ? UBF(x + y) : UH(x + y);
    if (x != x)
        return b;
    if (y != y)
        return a;
    return (op == AOP_MIN) == (x < y) ? a : b;
}

/* add, min or max of a 16-bit float or a pair of them (t). */
static uint64_t half_atom(unsigned op, wmi_type t, uint64_t a, uint64_t b)
{
    int bf = t == PT_BF16 || t == PT_BF16X2;
    uint64_t lo = half_op(op, a, b, bf);
    if (t == PT_F16 || t == PT_BF16)
        return lo;
    return lo | half_op(op, a >> 16, b >> 16, bf) << 16;
}

/* Apply one atomic op to *p (size bytes); returns the old value. */
static uint64_t atom_one(uint8_t *p, const wmi_insn *in, uint64_t b,
                         uint64_t cv, int shared)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bytes = type_bytes(t), bits = bytes * 8;
    for (;;) {
        uint64_t old = 0, nv = 0;
        if (bytes == 8)
            old = __atomic_load_n((uint64_t *)(void *)p, __ATOMIC_RELAXED);
        else if (bytes == 4)
            old = __atomic_load_n((uint32_t *)(void *)p, __ATOMIC_RELAXED);
        else
            old = __atomic_load_n((uint16_t *)(void *)p, __ATOMIC_RELAXED);
        int fl = wmi_type_float(t) || t == PT_F16X2 || t == PT_BF16X2;
        int sg = wmi_type_signed(t);
        int half = t == PT_F16 || t == PT_BF16 || t == PT_F16X2 ||
                   t == PT_BF16X2;
        uint64_t ob = trunc_bits(old, bits), bb = trunc_bits(b, bits);
        switch (in->mod) {
        case AOP_ADD:
            if (t == PT_F32) nv = UF(F(old) + F(b));
            else if (t == PT_F64) nv = UD(DD(old) + DD(b));
            else if (half) nv = half_atom(AOP_ADD, t, old, b);
            else nv = old + b;
            break;
        case AOP_MIN:
        case AOP_MAX: {
            if (half) {
                nv = half_atom(in->mod, t, ob, bb);
                break;
            }
            int lt;
            if (fl) lt = bits == 64 ? DD(ob) < DD(bb) : F(ob) < F(bb);
            else if (sg) lt = (int64_t)sext(ob, bits) < (int64_t)sext(bb, bits);
            else lt = ob < bb;
            nv = (in->mod == AOP_MIN) == lt ? ob : bb;
            break;
        }
        case AOP_INC: nv = ob >= bb ? 0 : ob + 1; break;
        case AOP_DEC: nv = (ob == 0 || ob > bb) ? bb : ob - 1; break;
        case AOP_AND: nv = old & b; break;
        case AOP_OR: nv = old | b; break;
        case AOP_XOR: nv = old ^ b; break;
        case AOP_EXCH: nv = b; break;
        case AOP_CAS: nv = ob == bb ? cv : ob; break;
        default: nv = old; break;
        }
        nv = trunc_bits(nv, bits);
        if (shared) { /* a CTA runs on one thread: no race */
            memcpy(p, &nv, bytes);
            return ob;
        }
        int ok;
        if (bytes == 8) {
            uint64_t e = old;
            ok = __atomic_compare_exchange_n((uint64_t *)(void *)p, &e, nv, 0,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        } else if (bytes == 4) {
            uint32_t e = (uint32_t)old;
            ok = __atomic_compare_exchange_n((uint32_t *)(void *)p, &e,
                                             (uint32_t)nv, 0, __ATOMIC_RELAXED,
                                             __ATOMIC_RELAXED);
        } else {
            uint16_t e = (uint16_t)old;
            ok = __atomic_compare_exchange_n((uint16_t *)(void *)p, &e,
                                             (uint16_t)nv, 0, __ATOMIC_RELAXED,
                                             __ATOMIC_RELAXED);
        }
        if (ok)
            return ob;
    }
}

wm_status wmi_ptx_atom(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m, int has_dest)
{
    uint64_t (*R)[32] = w->r;
    const wm_ptx_module *mod = c->m;
    wmi_type t = (wmi_type)in->type;
    unsigned esz = type_bytes(t);
    /* a vector (sm_90): each element is an atomic of its own */
    unsigned n = wmi_vcount(mod, in->b), size = esz * n;
    accs x;
    memset(x.mask, 0, sizeof x.mask);
    if (in->mod == AOP_NONE || (esz != 2 && esz != 4 && esz != 8))
        return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_UNSUPPORTED,
                             "unsupported atomic operation");
    wmi_space sp = (wmi_space)in->space;
    /* lanes apply in lane order (a defined order, docs/design/interpreter.md §4) */
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t addr = R[in->a][l] + (uint64_t)in->imm;
        if (sp == SP_SHARED)
            addr = (uint32_t)addr;
        wmi_space rs;
        uint8_t *p = resolve(c, w, l, pc, sp, addr, size, "atomic", &rs,
                             &x.addr[l]);
        if (!p)
            return c->status;
        if (n > 1 && rs != SP_GLOBAL)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "a vector atomic on a generic address "
                                 "outside global memory");
        x.mask[rs] |= 1u << l;
        uint64_t cv = in->c != WMI_NOREG ? R[in->c][l] : 0;
        for (unsigned k = 0; k < n; k++) {
            uint64_t old = atom_one(p + k * esz, in,
                                    R[wmi_vslot(mod, in->b, k)][l], cv,
                                    rs != SP_GLOBAL);
            if (has_dest)
                R[wmi_vslot(mod, in->d, k)][l] =
                    wmi_type_signed(t) ? sext(old, esz * 8) : old;
        }
    }
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_mem(c, w, pc, WMI_ACC_ATOMIC, size, x.addr,
                      x.mask[SP_SHARED], x.mask[SP_GLOBAL]);
    return emit(c, &x, pc, WM_OP_ATOM, size, WMI_FULL, sp);
}

wm_status wmi_ptx_cp_async(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    unsigned size = in->mod;
    accs gx, sx;
    memset(gx.mask, 0, sizeof gx.mask);
    memset(sx.mask, 0, sizeof sx.mask);
    if (size != 4 && size != 8 && size != 16)
        return wmi_ptx_fault(c, w, first_lane(m), pc, WM_ERR_UNSUPPORTED,
                             "cp.async size %u", size);
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t src_size = in->e != WMI_NOREG ? R[in->e][l] : size;
        if (src_size > size)
            src_size = size;
        uint64_t da = (uint32_t)(R[in->a][l] + (uint64_t)in->imm);
        wmi_space rs;
        uint8_t *dp = resolve(c, w, l, pc, SP_SHARED, da, size, "cp.async store",
                              &rs, &sx.addr[l]);
        if (!dp)
            return c->status;
        sx.mask[SP_SHARED] |= 1u << l;
        memset(dp, 0, size);
        if (src_size == 0)
            continue; /* zero-fill without reading global (Triton masks) */
        uint64_t sa = R[in->b][l] + (uint64_t)in->imm2;
        uint8_t *sp = resolve(c, w, l, pc, SP_GLOBAL, sa, size, "cp.async load",
                              &rs, &gx.addr[l]);
        if (!sp)
            return c->status;
        gx.mask[SP_GLOBAL] |= 1u << l;
        memcpy(dp, sp, src_size);
    }
    if (c->flags & WMI_RUN_CHECK) {
        wmi_check_mem(c, w, pc, WMI_ACC_READ, size, gx.addr, 0,
                      gx.mask[SP_GLOBAL]);
        wmi_check_mem(c, w, pc, WMI_ACC_WRITE, size, sx.addr,
                      sx.mask[SP_SHARED], 0);
    }
    wm_status st = emit(c, &gx, pc, WM_OP_LDGSTS, size, WMI_FULL, SP_GLOBAL);
    if (st == WM_OK)
        st = emit(c, &sx, pc, WM_OP_LDGSTS, size, WMI_FULL, SP_SHARED);
    return st;
}
