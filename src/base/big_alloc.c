/*
 * big_alloc.c -- blocks for large copies that are written whole soon after
 * they are allocated (the images of the schedule comparison).  Past 2 MiB
 * the block is placed on a 2 MiB boundary inside a slightly larger
 * allocation and advised to use huge pages (Linux's transparent huge
 * pages in their "madvise" mode, the common default), so that its first
 * touch faults once per 2 MiB instead of once per 4 KiB page.  The advice
 * is only a hint: without it, or where it is refused, the block is
 * ordinary memory.  The allocation itself is malloc's, so allocation
 * failures and leaks are seen as for any other block.
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "wm_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define SMALL_PAGE ((size_t)4096)

int wmi_big_alloc(wmi_big *b, size_t bytes)
{
    b->base = b->p = NULL;
    if (bytes < HUGE_PAGE) {
        b->base = malloc(bytes ? bytes : 1);
        b->p = b->base;
        return b->base != NULL;
    }
    if (bytes > SIZE_MAX - HUGE_PAGE)
        return 0;
    b->base = malloc(bytes + HUGE_PAGE);
    if (!b->base)
        return 0;
    uintptr_t a = ((uintptr_t)b->base + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    b->p = (unsigned char *)a;
#ifdef MADV_HUGEPAGE
    (void)madvise(b->p, bytes & ~(SMALL_PAGE - 1), MADV_HUGEPAGE);
#endif
    return 1;
}

void wmi_big_free(wmi_big *b)
{
    free(b->base);
    b->base = b->p = NULL;
}
