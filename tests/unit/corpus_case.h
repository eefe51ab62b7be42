/*
 * corpus_case.h -- what the corpus tests (test_corpus.c,
 * test_corpus_lib.c) share: running a kernel of a committed corpus file,
 * the table of cases with the builds each runs in, and the loop over it.
 */
#ifndef WM_CORPUS_CASE_H
#define WM_CORPUS_CASE_H

#include "check.h"
#include "ptx_inline.h"

#include <stdio.h>

static wm_arch arch;

/* Run kernel `name` of corpus file NAME_BUILD; statistics in *agg
   (caller frees) when agg is not NULL. */
static inline wm_status crun(const char *file, const char *build,
                             const char *name, const pi_launch *l,
                             wm_agg **agg)
{
    wm_ptx_module *m = pi_corpus(file, build);
    if (!m)
        return WM_ERR_PARSE;
    wm_agg *g = wm_agg_new(&arch);
    wm_status st = pi_run_agg(m, name, l, g, NULL);
    if (st != WM_OK)
        fprintf(stderr, "  (%s_%s.ptx)\n", file, build);
    if (agg)
        *agg = g;
    else
        wm_agg_free(g);
    wm_ptx_free(m);
    return st;
}

typedef struct corpus_case {
    const char *name;
    void (*run)(const char *build);
    const char *const *builds; /* NULL-terminated */
} corpus_case;

/* -O3 -lineinfo and -G builds; the -G ones need calls (not yet run). */
static const char *const o3[] = {"sm_80", "sm_90", "G_sm_80", "G_sm_90", NULL};

/* Every case in every build of its own, naming the failing ones; the
   test's exit status. */
static inline int corpus_run(const corpus_case *cases, size_t n,
                             const char *test)
{
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    for (size_t i = 0; i < n; i++)
        for (const char *const *b = cases[i].builds; *b; b++) {
            int before = check_failures;
            cases[i].run(*b);
            if (check_failures != before)
                fprintf(stderr, "  ^ corpus case %s, build %s\n",
                        cases[i].name, *b);
        }
    return check_done(test);
}

#endif /* WM_CORPUS_CASE_H */
