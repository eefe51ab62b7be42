/*
 * ptx_check_flag.c -- flag words inside a unit, for `warpmem run --check
 * race` (ptx_check_int.h states the model): the release and acquire of a
 * strong access to a global or shared word order the warps of the unit
 * the way a barrier does, through a vector clock kept per flag word (a
 * shared word's key carries WMI_FLAG_SHARED).  This is what orders the
 * CTAs of a cooperative launch at grid.sync() (a release atomic add to
 * the grid workspace, an acquire load polling it) and a producer warp's
 * flag, in global or shared memory, for a consumer warp of the same CTA
 * or cluster.
 *
 *   - a release (an .release or .acq_rel store or atomic, or any strong
 *     write after the warp's fence, which then releases what preceded the
 *     fence) joins the warp's clock into the word's; a plain store first
 *     empties the word's clock (it ends the release sequence), an atomic
 *     adds to it;
 *   - an acquire (an .acquire or .acq_rel load, or an atomic, as between
 *     CTAs) joins the word's clock into the warp's at once; a .relaxed or
 *     .volatile load does at the warp's next fence (kept in the warp's
 *     pending row until then).
 *
 * Only words that a release wrote have a clock: up to FLAG_WORDS of them
 * per unit (open addressing, FLAG_PROBES slots tried); a flag that finds
 * no room orders nothing (a race may then be reported that the flag
 * excluded, said in docs/check.md).  The acquiring lane's clock is its
 * warp's, so the warp's other lanes are taken as ordered too: a missed
 * race is possible there (as after a barrier), never a false one.
 */
#include "ptx_check_state.h"

#include <stdlib.h>
#include <string.h>

#define FLAG_WORDS 1024u
#define FLAG_PROBES 32u /* slots a lookup tries: a bounded cost per access */

int wmi_flags_new(wmi_check *k)
{
    k->fl = calloc(FLAG_WORDS, sizeof *k->fl);
    k->flpend = calloc(k->nw, sizeof *k->flpend);
    return k->fl && k->flpend;
}

void wmi_flags_free(wmi_check *k)
{
    for (uint32_t i = 0; k->fl && i < FLAG_WORDS; i++)
        free(k->fl[i].clock);
    for (uint32_t i = 0; k->flpend && i < k->nw; i++)
        free(k->flpend[i]);
    free(k->fl);
    free(k->flpend);
}

void wmi_flags_begin(wmi_check *k)
{
    for (uint32_t i = 0; k->fl && k->nfl && i < FLAG_WORDS; i++)
        k->fl[i].key = 0; /* (the clock is zeroed when reused) */
    k->nfl = 0;
    for (uint32_t i = 0; k->flpend && i < k->nw; i++)
        if (k->flpend[i])
            memset(k->flpend[i], 0, (size_t)k->nw * sizeof *k->flpend[i]);
}

/* The clock of flag word wa (made, zeroed, when make), or NULL: none, or
   no room (k->oom when out of memory). */
static uint32_t *flag_clock(wmi_check *k, uint64_t wa, int make)
{
    uint64_t key = wa + 1;
    uint32_t s = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) &
                 (FLAG_WORDS - 1);
    for (uint32_t n = 0; n < FLAG_PROBES;
         n++, s = (s + 1) & (FLAG_WORDS - 1)) {
        wmi_flag *f = &k->fl[s];
        if (f->key == key)
            return f->clock;
        if (f->key)
            continue;
        if (!make)
            return NULL;
        if (!f->clock && !(f->clock = malloc(k->nw * sizeof *f->clock))) {
            k->oom = 1;
            return NULL;
        }
        memset(f->clock, 0, k->nw * sizeof *f->clock);
        f->key = key;
        k->nfl++;
        return f->clock;
    }
    return NULL;
}

void wmi_flag_access(wmi_check *k, uint32_t g, uint64_t wa, unsigned sync,
                     int reads, int writes)
{
    uint32_t n = k->nw, *v = &k->vc[(size_t)g * n];
    if (reads) {
        const uint32_t *s = flag_clock(k, wa, 0);
        if (s && (sync & (WMI_SYNC_ACQ | WMI_SYNC_RMW))) {
            wmi_clock_join(v, s, n);
        } else if (s) { /* acquired at the warp's next fence */
            if (!k->flpend[g] &&
                !(k->flpend[g] = calloc(n, sizeof *k->flpend[g]))) {
                k->oom = 1;
                return;
            }
            wmi_clock_join(k->flpend[g], s, n);
        }
    }
    if (!writes)
        return;
    int rel = (sync & WMI_SYNC_REL) || k->cfence[g];
    uint32_t *s = flag_clock(k, wa, rel);
    if (!s)
        return;
    if (!(sync & WMI_SYNC_RMW))
        memset(s, 0, n * sizeof *s); /* a store ends the release sequence */
    if (!rel)
        return;
    uint32_t own = v[g];
    if (!(sync & WMI_SYNC_REL))
        v[g] = k->cfence[g] - 1; /* what preceded the fence */
    wmi_clock_join(s, v, n);
    v[g] = own + 1; /* later accesses are not covered by this release */
}

void wmi_flags_fence(wmi_check *k, uint32_t g)
{
    uint32_t *p = k->flpend[g];
    if (!p)
        return;
    wmi_clock_join(&k->vc[(size_t)g * k->nw], p, k->nw);
    memset(p, 0, k->nw * sizeof *p);
}
