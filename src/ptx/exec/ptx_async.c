/*
 * ptx_async.c -- Hopper's asynchronous fills of shared memory: mbarrier
 * objects and the non-tensor cp.async.bulk copies that complete on them.
 *
 * Model (docs/design/ptx-async.md):
 *   - An mbarrier is the 8 bytes at its shared (or generic) address; the
 *     interpreter keeps its state there in its own encoding: pending
 *     arrivals (bits 0..19), the expected count (20..39), the pending
 *     transaction bytes as a signed 23-bit number (40..62) and the phase
 *     parity (63).  A phase completes when no arrival and no byte is
 *     pending; the phase flips and the count is re-armed.
 *   - cp.async.bulk copies at issue, like cp.async, then completes its
 *     bytes on the mbarrier operand.  The copy is TMA traffic, not LSU
 *     requests, so it is not counted.  cp.async.mbarrier.arrive (the
 *     arrive-on that cuda::barrier and cuda::pipeline attach to a
 *     thread's cp.async copies) therefore arrives at once.
 *   - A try_wait/test_wait that finds its phase incomplete returns false
 *     and yields the warp (the spin loop around it resumes when the other
 *     warps have run), so producer and consumer warps make progress.
 * Lanes apply in lane order.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

#include <assert.h>
#include <string.h>

#define MB_CNT_MASK 0xfffffu
#define MB_TX_SHIFT 40
#define MB_TX_BITS 23

typedef struct mbstate {
    uint32_t pending, expected;
    int64_t tx;
    unsigned phase;
} mbstate;

static mbstate unpack(uint64_t v)
{
    mbstate s;
    s.pending = (uint32_t)(v & MB_CNT_MASK);
    s.expected = (uint32_t)(v >> 20 & MB_CNT_MASK);
    uint64_t tx = v >> MB_TX_SHIFT & (((uint64_t)1 << MB_TX_BITS) - 1);
    s.tx = (tx >> (MB_TX_BITS - 1)) ? (int64_t)tx - ((int64_t)1 << MB_TX_BITS)
                                   : (int64_t)tx;
    s.phase = (unsigned)(v >> 63);
    return s;
}

static uint64_t pack(const mbstate *s)
{
    uint64_t tx = (uint64_t)s->tx & (((uint64_t)1 << MB_TX_BITS) - 1);
    return (uint64_t)(s->pending & MB_CNT_MASK) |
           (uint64_t)(s->expected & MB_CNT_MASK) << 20 | tx << MB_TX_SHIFT |
           (uint64_t)(s->phase & 1) << 63;
}

/* Complete the phase when nothing is pending. */
static void settle(mbstate *s)
{
    if (s->pending == 0 && s->tx == 0) {
        s->phase ^= 1;
        s->pending = s->expected;
    }
}

/* The 8 bytes of lane l's mbarrier operand (a + imm), or NULL (fault). */
static uint8_t *barrier_at(wmi_cta *c, wmi_warp *w, unsigned l, uint32_t pc,
                           wmi_space sp, uint64_t addr)
{
    wmi_space rs;
    uint8_t *p = wmi_ptx_block(c, w, l, pc, sp, addr, 8, "mbarrier access",
                               &rs);
    if (p && (rs != SP_SHARED || (addr & 7))) {
        wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                      "mbarrier at 0x%llx is not an aligned shared-memory "
                      "object",
                      (unsigned long long)addr);
        return NULL;
    }
    return p;
}

/* Complete `bytes` transaction bytes on the mbarrier at p. */
static void complete_tx(uint8_t *p, uint64_t bytes)
{
    uint64_t v;
    memcpy(&v, p, 8);
    mbstate s = unpack(v);
    s.tx -= (int64_t)bytes;
    settle(&s);
    v = pack(&s);
    memcpy(p, &v, 8);
}

wm_status wmi_ptx_mbar_complete(wmi_cta *c, wmi_warp *w, unsigned l,
                                uint32_t pc, uint64_t addr, uint64_t bytes)
{
    uint8_t *bar = barrier_at(c, w, l, pc, SP_SHARED, (uint32_t)addr);
    if (!bar)
        return c->status;
    complete_tx(bar, bytes);
    if (c->flags & WMI_RUN_CHECK)
        wmi_check_mbar_release(c, w, (uint32_t)addr);
    return WM_OK;
}

wm_status wmi_ptx_mbarrier(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m, int *yield)
{
    uint64_t (*R)[32] = w->r;
    assert(in->op == OP_MBAR && in->a != WMI_NOREG);
    *yield = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t addr = R[in->a][l] + (uint64_t)in->imm;
        if (in->space == SP_SHARED)
            addr = (uint32_t)addr;
        uint8_t *p = barrier_at(c, w, l, pc, (wmi_space)in->space, addr);
        if (!p)
            return c->status;
        uint64_t v, b = in->b != WMI_NOREG ? R[in->b][l] : 1;
        memcpy(&v, p, 8);
        mbstate s = unpack(v);
        switch (in->mod) {
        case MB_INIT:
            if (b == 0 || b > MB_CNT_MASK)
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                     "mbarrier.init count %llu out of range "
                                     "1..%u",
                                     (unsigned long long)b, MB_CNT_MASK);
            memset(&s, 0, sizeof s);
            s.pending = s.expected = (uint32_t)b;
            break;
        case MB_ARRIVE:
            if (in->d != WMI_NOREG)
                R[in->d][l] = (uint64_t)s.phase << 63; /* the state token */
            if (in->mod2 & 1) { /* .expect_tx: b is the byte count */
                s.tx += (int64_t)b;
                b = 1;
            }
            if (s.pending < b)
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                     "mbarrier arrive of %llu on a phase "
                                     "with %u arrivals pending",
                                     (unsigned long long)b, s.pending);
            s.pending -= (uint32_t)b;
            settle(&s);
            if (c->flags & WMI_RUN_CHECK) /* --check: a release */
                wmi_check_mbar_release(c, w, (uint32_t)addr);
            break;
        case MB_EXPECT:
            s.tx += (int64_t)b;
            break;
        case MB_COMPLETE:
            s.tx -= (int64_t)b;
            settle(&s);
            break;
        case MB_WAIT: {
            /* .parity: wait for the phase of parity b to complete, i.e.
               for the current phase to have the other parity; else b is
               the token of an arrive, holding the phase it arrived in */
            unsigned want = in->mod2 & 1 ? (unsigned)(b & 1)
                                         : (unsigned)(b >> 63);
            int done = s.phase != want;
            R[in->d][l] = (uint64_t)done;
            if (done && (c->flags & WMI_RUN_CHECK)) /* an acquire */
                wmi_check_mbar_acquire(c, w, (uint32_t)addr);
            *yield |= !done;
            continue;
        }
        case MB_INVAL:
            memset(&s, 0, sizeof s);
            break;
        case MB_CP_ARRIVE:
            /* the lane's cp.async copies are done (at issue), so the
               arrive-on they trigger happens now: .noinc's takes one of
               the phase's arrivals; the plain form first adds the one it
               takes (no change) */
            if ((in->mod2 & 1) && s.pending < 1)
                return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                     "cp.async.mbarrier.arrive.noinc on a "
                                     "phase with no arrival pending");
            s.pending -= in->mod2 & 1;
            settle(&s);
            if (c->flags & WMI_RUN_CHECK) /* the copies, released */
                wmi_check_mbar_release(c, w, (uint32_t)addr);
            break;
        default:
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_UNSUPPORTED,
                                 "unsupported mbarrier form");
        }
        v = pack(&s);
        memcpy(p, &v, 8);
    }
    return WM_OK;
}

wm_status wmi_ptx_cp_bulk(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                          uint32_t pc, uint32_t m)
{
    uint64_t (*R)[32] = w->r;
    assert(in->op == OP_CP_BULK && in->a != WMI_NOREG && in->b != WMI_NOREG);
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t size = in->c != WMI_NOREG ? R[in->c][l] : 0;
        uint64_t da = R[in->a][l] + (uint64_t)in->imm;
        uint64_t sa = R[in->b][l] + (uint64_t)in->imm2;
        wmi_space dsp = (wmi_space)in->space, ssp = (wmi_space)in->mod, rs;
        if (dsp == SP_SHARED)
            da = (uint32_t)da;
        if (ssp == SP_SHARED)
            sa = (uint32_t)sa;
        if (size % 16 || (da | sa) % 16)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "cp.async.bulk of %llu bytes from 0x%llx to "
                                 "0x%llx: size and addresses must be "
                                 "multiples of 16",
                                 (unsigned long long)size,
                                 (unsigned long long)sa,
                                 (unsigned long long)da);
        uint8_t *dp = wmi_ptx_block(c, w, l, pc, dsp, da, size,
                                    "cp.async.bulk store", &rs);
        if (!dp)
            return c->status;
        const uint8_t *sp = wmi_ptx_block(c, w, l, pc, ssp, sa, size,
                                          "cp.async.bulk load", &rs);
        if (!sp)
            return c->status;
        memmove(dp, sp, size);
        if (c->flags & WMI_RUN_CHECK) { /* the copy, by the issuing lane */
            wmi_check_block(c, w, pc, l, rs, /* the source, resolved */
                            sa, size, 0);
            wmi_check_block(c, w, pc, l, dsp, da, size, 1);
        }
        if (in->e != WMI_NOREG) {
            uint8_t *bar = barrier_at(c, w, l, pc, SP_SHARED,
                                      (uint32_t)R[in->e][l]);
            if (!bar)
                return c->status;
            complete_tx(bar, size);
            if (c->flags & WMI_RUN_CHECK)
                wmi_check_mbar_release(c, w, (uint32_t)R[in->e][l]);
        }
    }
    return WM_OK;
}
