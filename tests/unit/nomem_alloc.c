/*
 * nomem_alloc.c -- the --wrap'd allocator of the allocation-failure tests
 * (see nomem_alloc.h).  Live blocks are kept in an open-addressing table
 * of pointers; the tests are single-threaded (runs use one thread).
 */
#include "nomem_alloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
extern char __executable_start[]; /* GNU ld: where the executable starts */

#define NSLOTS (1u << 18) /* live blocks at most: a power of two */
#define TOMB ((void *)1)

static void *slots[NSLOTS];
static int armed, failed;
static unsigned long nallocs, fail_at;
static long live;

static size_t slot_of(const void *p)
{
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 20) & (NSLOTS - 1);
}

static void remember(void *p)
{
    if (!p || !armed)
        return;
    if ((unsigned long)live >= NSLOTS / 2) {
        fprintf(stderr, "nomem_alloc: more than %u live blocks\n", NSLOTS / 2);
        abort();
    }
    size_t i = slot_of(p);
    while (slots[i] && slots[i] != TOMB)
        i = (i + 1) & (NSLOTS - 1);
    slots[i] = p;
    live++;
}

static void forget(void *p)
{
    if (!p || !live)
        return;
    for (size_t i = slot_of(p); slots[i]; i = (i + 1) & (NSLOTS - 1))
        if (slots[i] == p) {
            slots[i] = TOMB;
            live--;
            return;
        }
}

static int inject(void *caller)
{
    if (!armed)
        return 0;
    nallocs++;
    if (fail_at && nallocs == fail_at) {
        failed = 1;
        errno = ENOMEM; /* as malloc sets it */
        /* the caller as an offset in the executable, for
           addr2line -f -i -e TEST OFFSET (also for a PIE) */
        if (getenv("WM_NOMEM_TRACE"))
            fprintf(stderr, "allocation %lu fails at 0x%lx\n", nallocs,
                    (unsigned long)((char *)caller - __executable_start));
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n)
{
    if (inject(__builtin_return_address(0)))
        return NULL;
    void *p = __real_malloc(n);
    remember(p);
    return p;
}

void *__wrap_calloc(size_t k, size_t n)
{
    if (inject(__builtin_return_address(0)))
        return NULL;
    void *p = __real_calloc(k, n);
    remember(p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (inject(__builtin_return_address(0)))
        return NULL;
    void *q = __real_realloc(p, n);
    if (q) {
        long before = live;
        forget(p);
        if (!p || live < before)
            remember(q); /* a block not remembered stays so */
    }
    return q;
}

void __wrap_free(void *p)
{
    forget(p);
    __real_free(p);
}

void nomem_arm(unsigned long at)
{
    if (nallocs) /* live blocks and tombstones of the last run */
        memset(slots, 0, sizeof slots);
    nallocs = 0;
    fail_at = at;
    live = 0;
    failed = 0;
    armed = 1;
}

void nomem_disarm(void)
{
    armed = 0;
}

unsigned long nomem_count(void)
{
    return nallocs;
}

int nomem_failed(void)
{
    return failed;
}

long nomem_live(void)
{
    return live;
}
