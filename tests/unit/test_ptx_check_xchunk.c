/*
 * test_ptx_check_xchunk.c -- the launch-wide shadow of a chunk of 32 global
 * words (ptx_check_xchunk.c): whatever form the chunk takes (runs, or one
 * record per word), every word reads back the last record put on it.
 * Hand cases for the forms (a warp's run, two half-warps, a third record
 * that fits no run, a column's runs that step the warp and the runs taken
 * from the pool), then random puts against a plain array of records.
 */
#include "check.h"
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

static wmi_xrec rec(uint32_t pc, uint32_t cta, uint16_t warp, uint16_t rel,
                    uint8_t lane, uint8_t bits)
{
    wmi_xrec r = {pc, cta, warp, rel, lane, bits, 0};
    return r;
}

static int same(wmi_xrec a, wmi_xrec b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Every word of c reads back ref (writes w, reads r). */
static int matches(const wmi_xchunk *c, const wmi_xrec *w, const wmi_xrec *r)
{
    for (unsigned i = 0; i < 32; i++)
        if (!same(wmi_xchunk_get(c, 0, i), w[i]) ||
            !same(wmi_xchunk_get(c, 1, i), r[i]))
            return 0;
    return 1;
}

static void hand_cases(void)
{
    wmi_xpool pool = {NULL, 0, 0};
    wmi_xchunk c;
    memset(&c, 0, sizeof c);
    wmi_xrec w[32], r[32], none;
    memset(w, 0, sizeof w);
    memset(r, 0, sizeof r);
    memset(&none, 0, sizeof none);
    CHECK(!wmi_xchunk_writes(&c) && !wmi_xchunk_reads(&c));
    /* a warp's contiguous load: word i by lane i, one run */
    for (unsigned i = 0; i < 32; i++)
        r[i] = rec(7, 3, 2, 0, (uint8_t)i, 0x0f);
    CHECK(wmi_xchunk_put(&c, &pool, 0, w, ~0u, r));
    CHECK(wmi_xchunk_words(&c) == NULL && c.x[0].mask == ~0u && c.x[0].read &&
          c.x[1].mask == 0);
    CHECK(!wmi_xchunk_writes(&c) && wmi_xchunk_reads(&c));
    CHECK(matches(&c, w, r));
    /* the same words written by another CTA (an in-place update): a run
       of writes beside */
    for (unsigned i = 0; i < 32; i++)
        w[i] = rec(9, 4, 1, 2, (uint8_t)i, 0x0f);
    CHECK(wmi_xchunk_put(&c, &pool, ~0u, w, 0, r));
    CHECK(wmi_xchunk_words(&c) == NULL && c.x[1].mask == ~0u && !c.x[1].read);
    CHECK(wmi_xchunk_writes(&c) && wmi_xchunk_reads(&c));
    CHECK(matches(&c, w, r));
    /* a third CTA reads words 0..15 with lanes 16..31: no run left for
       it, one record per word */
    for (unsigned i = 0; i < 16; i++)
        r[i] = rec(7, 5, 0, 0, (uint8_t)(i + 16), 0x0f);
    CHECK(wmi_xchunk_put(&c, &pool, 0, w, 0xffffu, r));
    CHECK(wmi_xchunk_words(&c) != NULL);
    CHECK(matches(&c, w, r));
    CHECK(!same(wmi_xchunk_get(&c, 1, 3), none));
    CHECK(same(wmi_xchunk_get(&c, 1, 21), rec(7, 3, 2, 0, 21, 0x0f)));
    /* two half-warps read words 0..15 (lanes 16..31) and 16..31 (lanes
       0..15): two runs of reads; a write then fits no run */
    memset(&c, 0, sizeof c);
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < 32; i++)
        r[i] = rec(7, 5, 1, 0, (uint8_t)(i < 16 ? i + 16 : i - 16), 0x0f);
    CHECK(wmi_xchunk_put(&c, &pool, 0, w, ~0u, r));
    CHECK(wmi_xchunk_words(&c) == NULL && c.x[0].mask == 0xffffu &&
          c.x[1].mask == 0xffff0000u && !wmi_xchunk_writes(&c));
    CHECK(matches(&c, w, r));
    w[20] = rec(11, 6, 0, 0, 3, 0x01);
    CHECK(wmi_xchunk_put(&c, &pool, 1u << 20, w, 0, r));
    CHECK(wmi_xchunk_words(&c) != NULL);
    CHECK(matches(&c, w, r));
    wmi_xpool_free(&pool);
}

/* A record for word i of a put: from instance inst (of three), its lane
   the word's (lane0 0), or with odd one that wraps around (lane0 16 and
   -16: two runs for one instance) and now and then any lane (which fits
   no run but by chance). */
static wmi_xrec draw(unsigned i, unsigned inst, int odd, unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    unsigned v = *seed >> 8;
    uint8_t lane = (uint8_t)(!odd          ? i
                             : v % 64 == 0 ? (v >> 8) % 32
                                           : (i + inst * 16) % 32);
    return rec(100 + inst, 1 + inst, (uint16_t)inst, (uint16_t)(inst & 1),
               lane, (uint8_t)(inst == 2 ? 0x13 : 0x0f));
}

static void random_puts(void)
{
    unsigned seed = 1, runs_only = 0;
    wmi_xpool pool = {NULL, 0, 0};
    for (int trial = 0; trial < 200; trial++) {
        wmi_xchunk c;
        memset(&c, 0, sizeof c);
        wmi_xrec w[32], r[32], nw[32], nr[32];
        memset(w, 0, sizeof w);
        memset(r, 0, sizeof r);
        int ok = 1;
        for (int step = 0; step < 8 && ok; step++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t wm = seed, rm;
            seed = seed * 1103515245u + 12345u;
            rm = seed;
            if (step % 2) /* contiguous runs, as warps make them */
                wm = (wm & 1) ? 0xffffu << (seed % 17) : 0,
                rm = (rm & 2) ? ~0u >> (seed % 9) : 0;
            /* odd trials: one instance per put, a second one past word
               split, of three, and odd lanes; the others: the reads of
               one instance, the writes of another (which two runs always
               hold) */
            int odd = trial % 2;
            unsigned inst = seed % 3, split = (seed >> 3) % 40;
            for (unsigned i = 0; i < 32; i++) {
                unsigned in = i < split ? inst : (inst + 1) % 3;
                nw[i] = draw(i, odd ? in : 1, odd, &seed);
                nr[i] = draw(i, odd ? in : 0, odd, &seed);
                if (wm >> i & 1)
                    w[i] = nw[i];
                if (rm >> i & 1)
                    r[i] = nr[i];
            }
            CHECK(wmi_xchunk_put(&c, &pool, wm, nw, rm, nr));
            ok = matches(&c, w, r);
            CHECK(ok);
            int anyw = 0, anyr = 0;
            for (unsigned i = 0; i < 32; i++)
                anyw |= w[i].cta != 0, anyr |= r[i].cta != 0;
            CHECK(!anyw || wmi_xchunk_writes(&c));
            CHECK(!anyr || wmi_xchunk_reads(&c));
        }
        runs_only += wmi_xchunk_words(&c) == NULL;
        CHECK(trial % 2 || wmi_xchunk_words(&c) == NULL);
    }
    wmi_xpool_free(&pool);
    /* both forms were exercised */
    CHECK(runs_only >= 100 && runs_only < 200);
}

/* A column of a naive transpose's output: four CTAs each store 8 words,
   word i by lane 5 of warp i - 8c (runs that step the warp).  Two runs
   fit the chunk, the other two its more runs from the pool; up to
   2 + WMI_XMORE runs in all, then one record per word, each word reading
   back its last record in every form. */
static void column_runs(void)
{
    wmi_xpool pool = {NULL, 0, 0};
    wmi_xchunk c;
    memset(&c, 0, sizeof c);
    wmi_xrec w[32], r[32];
    memset(w, 0, sizeof w);
    memset(r, 0, sizeof r);
    for (unsigned cta = 0; cta < 4; cta++) {
        wmi_xrun x = {0xffu << (8 * cta), 40, 1 + cta, 0, 0, 5, 0x0f, 0, 1};
        x.warp = (uint16_t)(0 - 8 * cta); /* the warp of word 0 */
        CHECK(wmi_xchunk_put_run(&c, &pool, &x));
        for (unsigned i = 8 * cta; i < 8 * cta + 8; i++)
            w[i] = rec(40, 1 + cta, (uint16_t)(i - 8 * cta), 0, 5, 0x0f);
        CHECK(matches(&c, w, r));
    }
    CHECK(wmi_xchunk_words(&c) == NULL && wmi_xchunk_nruns(&c) == 2 + WMI_XMORE);
    CHECK(same(wmi_xchunk_get(&c, 0, 27), rec(40, 4, 3, 0, 5, 0x0f)));
    CHECK(wmi_xchunk_writes(&c) && !wmi_xchunk_reads(&c));
    /* reads of words 0..3 by four more CTAs (one word each, lane 7 of
       warp 2): runs 5 to 8 */
    for (unsigned i = 0; i < 4; i++) {
        wmi_xrun x = {1u << i, 41, 10 + i, 2, 0, 7, 0x0f, 1, 1};
        x.warp = (uint16_t)(2 - i);
        CHECK(wmi_xchunk_put_run(&c, &pool, &x));
        r[i] = rec(41, 10 + i, 2, 0, 7, 0x0f);
    }
    CHECK(wmi_xchunk_words(&c) == NULL && wmi_xchunk_reads(&c));
    CHECK(matches(&c, w, r));
    /* a write of words 6..9 by a ninth CTA fits no run: records per word */
    wmi_xrun x = {0x3c0u, 42, 20, 1, 3, 0, 0x0f, 0, 0};
    CHECK(wmi_xchunk_put_run(&c, &pool, &x));
    for (unsigned i = 6; i < 10; i++)
        w[i] = rec(42, 20, 1, 3, (uint8_t)i, 0x0f);
    CHECK(wmi_xchunk_words(&c) != NULL && wmi_xchunk_nruns(&c) == 0);
    CHECK(matches(&c, w, r));
    wmi_xpool_free(&pool);
}

/* Expanded chunks keep their own records in the pool, across its blocks
   (32 KiB, 64 KiB, ... 2 MiB: 2 200 chunks of 1 KiB fill seven), and the
   pool starts again after it is freed. */
static void pool_blocks(void)
{
    enum { N = 2200 };
    static wmi_xchunk c[N];
    wmi_xpool pool = {NULL, 0, 0};
    for (int round = 0; round < 2; round++) {
        memset(c, 0, sizeof c);
        for (unsigned n = 0; n < N; n++) {
            wmi_xrec w[32];
            /* lanes that fit no run: word i by lane 31 - i */
            for (unsigned i = 0; i < 32; i++)
                w[i] = rec(n + 1, n + 2, (uint16_t)(n % 7), 0,
                           (uint8_t)(31 - i), 0x0f);
            CHECK(wmi_xchunk_put(&c[n], &pool, ~0u, w, 0, w));
            CHECK(wmi_xchunk_words(&c[n]) != NULL);
        }
        int ok = 1;
        for (unsigned n = 0; n < N && ok; n++)
            for (unsigned i = 0; i < 32; i++)
                ok &= same(wmi_xchunk_get(&c[n], 0, i),
                           rec(n + 1, n + 2, (uint16_t)(n % 7), 0,
                               (uint8_t)(31 - i), 0x0f)) &&
                      wmi_xchunk_get(&c[n], 1, i).cta == 0;
        CHECK(ok);
        CHECK(pool.size == (size_t)2 << 20);
        wmi_xpool_free(&pool);
        CHECK(pool.head == NULL && pool.size == 0);
    }
}

int main(void)
{
    hand_cases();
    column_runs();
    random_puts();
    pool_blocks();
    return check_done("test_ptx_check_xchunk");
}
