/*
 * ptx_check_shrun.c -- shared words by run of lanes, for `warpmem run
 * --check race` (ptx_check_int.h states the model, ptx_check.c holds the
 * per-lane loops).
 *
 * A warp's 4-byte access of consecutive shared words by consecutive lanes
 * (a tile's row, a reduction's sdata[tid], a stencil's row) leaves every
 * word it touches the same record but for the lane, which grows with the
 * word.  A chunk of 32 words keeps, for each slot of a word (its last
 * write, its two reads), up to two runs of such records, and describes
 * the words they cover (named: their sh[] entries carry the unit's
 * number with SH_NAMED, so the per-lane loop's test of an entry's unit
 * finds them at no cost) instead of their sh[] entries.
 *
 * wmi_shrun takes a run of lanes on consecutive words of one chunk whose
 * every word is named or untouched by the unit.  Its words then fall into
 * a few groups, each word of a group holding in each slot the record of
 * the same run (or none) and the same initialised bytes; within a group
 * the per-lane loop decides alike for every word, because what it decides
 * on is the same record but for the lane, and the lane of each record is
 * the lane of the access plus the same offset (equal or not for every
 * word).  So for each group, once:
 *   - a store that no slot's record can race with (rec_before, as
 *     shared_writes) becomes the group's last write;
 *   - a load whose last write cannot race with it (write_clean) and whose
 *     bytes are written (or init not checked) takes the read slot
 *     record_word would give it: its own thread's, an ordered one's, the
 *     other, or none.
 * Anything else (a possible report, no run left in a slot for the new
 * record, a word the unit touched lane by lane) leaves the run to the
 * per-lane loop, untouched.  A later access lane by lane first makes the
 * word's entry from the runs (wmi_shrun_open), so every path sees the
 * records the per-lane loop would have made.  Opening costs more than
 * the per-lane loop would have spent on the run, so an instruction whose
 * run gets opened (a tile stored by rows and read by columns or by
 * broadcast) is left to the per-lane loop from then on (shlanes): which
 * path records a run changes nothing but the time.
 */
#include "ptx_check_state.h"

void wmi_shrun_open(wmi_check *k, uint64_t wd)
{
    schunk *c = &k->shc[wd >> 5];
    unsigned i = (unsigned)(wd & 31);
    uint32_t bit = 1u << i;
    wmi_word *e = &k->sh[wd];
    rec *slot[3] = {&e->w, &e->r[0], &e->r[1]};
    assert(c->cta == k->cta && (c->named & bit) &&
           e->cta == (k->cta | SH_NAMED));
    memset(e, 0, sizeof *e);
    e->cta = k->cta;
    e->init = c->init4 & bit ? 15u : 0u;
    for (int t = 0; t < 3; t++)
        for (int j = 0; j < 2; j++)
            if (c->s[t][j].mask & bit) {
                k->shlanes[c->s[t][j].tpl.pc] = 1;
                *slot[t] = c->s[t][j].tpl;
                slot[t]->lane = (uint8_t)((int8_t)slot[t]->lane + (int)i);
                c->s[t][j].mask &= ~bit;
            }
    c->named &= ~bit;
    c->init4 &= ~bit;
    c->opened |= bit;
}

/* The record of slot t of the words of group g (one of its words: word
   i), lane offset included; its bits 0 when none. */
static rec group_rec(const schunk *c, int t, unsigned i)
{
    for (int j = 0; j < 2; j++)
        if (c->s[t][j].mask >> i & 1)
            return c->s[t][j].tpl;
    rec none = {0, 0, 0, 0, 0, 0, 0};
    return none;
}

/* The words of m that hold in every slot the same run as word i, and the
   same initialised bytes. */
static uint32_t group_of(const schunk *c, uint32_t m, unsigned i)
{
    for (int t = 0; t < 3; t++) {
        uint32_t a = c->s[t][0].mask, b = c->s[t][1].mask;
        m &= a >> i & 1 ? a : b >> i & 1 ? b : ~(a | b);
    }
    return m & (c->init4 >> i & 1 ? c->init4 : ~c->init4);
}

/* The access's record for the slots: its lane that of word 0. */
static rec access_rec(const cur *x, unsigned l, unsigned i0)
{
    rec r = {x->pc,
             x->clock,
             (uint16_t)x->warp,
             (uint8_t)(int8_t)((int)l - (int)i0),
             (uint8_t)(0x0fu | x->strong),
             x->rel,
             x->acq};
    return r;
}

/* Is the read r (of a word of the group) the accessing lane's thread's
   own, or is r ordered before it (ordered())?  The lanes are equal for
   every word of the group or for none: both grow with the word. */
static int same_thread(const rec *r, const rec *x)
{
    return r->warp == x->warp && r->lane == x->lane;
}

static int ordered_run(const wmi_check *k, const rec *r, const rec *x)
{
    if (r->warp == x->warp)
        return r->clock < x->clock || r->lane == x->lane || !k->intra;
    return r->clock <= k->vc[(size_t)x->warp * k->nw + r->warp];
}

/* The slot a load takes in a group whose read slots hold r0 and r1
   (record_word's choice), or -1 when it is dropped. */
static int read_slot(const wmi_check *k, const rec *r0, const rec *r1,
                     const rec *x)
{
    if (r0->bits && same_thread(r0, x))
        return 1;
    if (r1->bits && same_thread(r1, x))
        return 2;
    if (!r0->bits || ordered_run(k, r0, x))
        return 1;
    if (!r1->bits || ordered_run(k, r1, x))
        return 2;
    return -1;
}

/* Would conflict() find record r (of a word of the group) racing with
   the access of record a (x: its instance), for every lane or for none? */
static int conflict_run(const wmi_check *k, const rec *r, const rec *a)
{
    if (!(r->bits & REC_BYTES) || ordered_run(k, r, a))
        return 0;
    return !(r->pc == a->pc && r->warp == a->warp && r->clock == a->clock);
}

/* Can no lane of group g (word i one of its words) report, for access x
   (record a)?  check_word's tests, once for the group: a store races
   with no slot's record, and write_conflict() needs no stored values (no
   record of its own instance but the lane's); a load races with no
   write, and reads written bytes when init is checked.  Then the slot
   x's record goes to is in *slot (-1: none). */
static int group_clean(const wmi_check *k, const schunk *c, unsigned i,
                       const cur *x, const rec *a, int *slot)
{
    rec w = group_rec(c, 0, i), r0 = group_rec(c, 1, i),
        r1 = group_rec(c, 2, i);
    if (conflict_run(k, &w, a))
        return 0;
    if (x->kind == WMI_ACC_WRITE) {
        *slot = 0;
        return !((w.bits & REC_BYTES) && w.pc == a->pc &&
                 w.warp == a->warp && w.clock == a->clock &&
                 w.lane != a->lane) &&
               !conflict_run(k, &r0, a) && !conflict_run(k, &r1, a);
    }
    *slot = read_slot(k, &r0, &r1, a);
    return !(k->checks & WM_CHECK_INIT) || (c->init4 >> i & 1);
}

/* Put the words m into slot t's run of record a (one it continues, or
   one left free once they leave the others); 0 when there is none. */
static int take_run(schunk *c, int t, uint32_t m, const rec *a, int apply)
{
    srun *s = c->s[t];
    for (int j = 0; j < 2; j++)
        if ((s[j].mask & ~m) && rec_same(&s[j].tpl, a)) {
            if (apply) {
                s[1 - j].mask &= ~m;
                s[j].mask |= m;
            }
            return 1;
        }
    for (int j = 0; j < 2; j++)
        if (!(s[j].mask & ~m)) {
            if (apply) {
                s[1 - j].mask &= ~m;
                s[j].mask = m;
                s[j].tpl = *a;
            }
            return 1;
        }
    return 0;
}

uint32_t wmi_shrun_opened(wmi_check *k, uint64_t w0, unsigned n)
{
    const schunk *c = &k->shc[w0 >> 5];
    uint32_t m = n == 32 ? ~0u : (1u << n) - 1;
    assert((w0 & 31) + n <= 32 && w0 + n <= k->nsh);
    return c->cta == k->cta ? c->opened >> (w0 & 31) & m : 0;
}

int wmi_shrun(wmi_check *k, const cur *x, uint64_t w0, unsigned l,
              unsigned n)
{
    unsigned i0 = (unsigned)(w0 & 31);
    uint32_t m = (n == 32 ? ~0u : (1u << n) - 1) << i0;
    assert(i0 + n <= 32 && w0 + n <= k->nsh && x->size == 4);
    assert(x->kind == WMI_ACC_READ || x->kind == WMI_ACC_WRITE);
    schunk *c = &k->shc[w0 >> 5];
    if (k->cta & SH_NAMED)
        return 0; /* (2^31 units: no mark left) */
    wmi_shrun_chunk(k, c);
    if (c->opened & m)
        return 0; /* (the caller splits runs at such words) */
    rec a = access_rec(x, l, i0);
    /* the groups, each decided before anything changes */
    uint32_t g[32], took[3] = {0, 0, 0};
    int slot[32], ng = 0;
    for (uint32_t left = m; left; left &= ~g[ng++]) {
        unsigned i = (unsigned)__builtin_ctz(left);
        g[ng] = group_of(c, left, i);
        if (!group_clean(k, c, i, x, &a, &slot[ng]))
            return 0;
        if (slot[ng] >= 0)
            took[slot[ng]] |= g[ng];
    }
    for (int t = 0; t < 3; t++)
        if (took[t] && !take_run(c, t, took[t], &a, 0))
            return 0;
    for (int t = 0; t < 3; t++)
        if (took[t])
            take_run(c, t, took[t], &a, 1);
    for (uint32_t f = m & ~c->named; f; f &= f - 1) /* newly named */
        k->sh[(w0 & ~31ull) + (unsigned)__builtin_ctz(f)].cta =
            k->cta | SH_NAMED;
    c->named |= m;
    if (x->kind == WMI_ACC_WRITE)
        c->init4 |= m;
    return 1;
}
