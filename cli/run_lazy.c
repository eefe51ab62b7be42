/*
 * run_lazy.c -- lazily filled argument buffers for `warpmem run`.
 *
 * A sampled run of a large kernel (--ctas sample:64 of the 8192^2
 * transpose) touches a few megabytes of buffers of hundreds; filling them
 * all first would cost more than the run.  So a large buffer with a fill
 * rule is mapped without access, and the first touch of a page runs a
 * SIGSEGV handler that fills that page (wm_ptx_fill_at: every element is a
 * function of its index) and makes it accessible.  The interpreter and the
 * library know nothing of this: they see ordinary memory.
 *
 * Invariants:
 *   - A page is filled in a private scratch page and moved into place with
 *     mremap(2), which replaces the inaccessible page atomically: no thread
 *     can see a page half filled.  A per-page state word (0 untouched, 1
 *     filling, 2 done) elects the one thread that fills; others that fault
 *     on the same page wait for 2 and retry their access.
 *   - Regions are registered before the launch and removed after it, so the
 *     handler reads the table while nothing writes it.
 *   - A fault outside every region restores the previous handler and
 *     returns: the access faults again and the process dies as it would
 *     have.
 * Linux only (mremap); elsewhere run_lazy_map returns NULL and buffers are
 * filled eagerly.
 */
#define _GNU_SOURCE
#include "run_args.h"

#include <string.h>

#ifdef __linux__
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_REGIONS 64

typedef struct region {
    unsigned char *base;
    size_t mapped, bytes, esz;
    wm_ptx_type type;
    char init[80];
    unsigned char *state; /* one per page */
} region;

static region regions[MAX_REGIONS];
static size_t page_size;
static struct sigaction old_segv;
static int installed;
static uint64_t pages_filled;

static void fill_page(region *r, size_t pg)
{
    unsigned char *want = r->base + pg * page_size;
    void *tmp = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tmp == MAP_FAILED)
        return; /* the access faults again: reported as a crash */
    size_t lo = pg * page_size, hi = lo + page_size;
    if (hi > r->bytes)
        hi = r->bytes;
    if (lo < hi)
        wm_ptx_fill_at(tmp, r->type, lo / r->esz, (hi - lo) / r->esz,
                       r->init);
    if (mremap(tmp, page_size, page_size, MREMAP_MAYMOVE | MREMAP_FIXED,
               want) == MAP_FAILED)
        munmap(tmp, page_size);
    __atomic_add_fetch(&pages_filled, 1, __ATOMIC_RELAXED);
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    unsigned char *a = si->si_addr;
    (void)uc;
    for (size_t i = 0; i < MAX_REGIONS; i++) {
        region *r = &regions[i];
        if (!r->base || a < r->base || a >= r->base + r->mapped)
            continue;
        size_t pg = (size_t)(a - r->base) / page_size;
        unsigned char zero = 0;
        if (__atomic_compare_exchange_n(&r->state[pg], &zero, 1, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            fill_page(r, pg);
            __atomic_store_n(&r->state[pg], 2, __ATOMIC_RELEASE);
        } else {
            while (__atomic_load_n(&r->state[pg], __ATOMIC_ACQUIRE) != 2)
                ;
        }
        return;
    }
    (void)sig;
    sigaction(SIGSEGV, &old_segv, NULL);
}

void *run_lazy_map(size_t bytes, size_t *mapped, wm_ptx_type t,
                   const char *init)
{
    size_t slot = 0;
    if (!page_size)
        page_size = (size_t)sysconf(_SC_PAGESIZE);
    while (slot < MAX_REGIONS && regions[slot].base)
        slot++;
    if (slot == MAX_REGIONS || strlen(init) >= sizeof regions[0].init)
        return NULL;
    size_t len = (bytes + 16 + page_size - 1) / page_size * page_size;
    size_t npages = len / page_size;
    unsigned char *state = mmap(NULL, npages, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (state == MAP_FAILED)
        return NULL;
    void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        munmap(state, npages);
        return NULL;
    }
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_segv;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &old_segv) != 0) {
            munmap(p, len);
            munmap(state, npages);
            return NULL;
        }
        installed = 1;
    }
    region *r = &regions[slot];
    r->mapped = len;
    r->bytes = bytes;
    r->esz = wm_ptx_type_size(t);
    r->type = t;
    strcpy(r->init, init);
    r->state = state;
    r->base = p;
    *mapped = len;
    return p;
}

void run_lazy_touch_all(void *p)
{
    for (size_t i = 0; i < MAX_REGIONS; i++) {
        region *r = &regions[i];
        if (r->base != p)
            continue;
        for (size_t pg = 0; pg < r->mapped / page_size; pg++)
            if (__atomic_load_n(&r->state[pg], __ATOMIC_ACQUIRE) == 0) {
                r->state[pg] = 1;
                fill_page(r, pg);
                r->state[pg] = 2;
            }
    }
}

void run_lazy_unmap(void *p, size_t mapped)
{
    for (size_t i = 0; i < MAX_REGIONS; i++) {
        region *r = &regions[i];
        if (r->base != p)
            continue;
        munmap(r->state, r->mapped / page_size);
        memset(r, 0, sizeof *r);
    }
    munmap(p, mapped);
}

uint64_t run_lazy_pages_filled(void)
{
    return __atomic_load_n(&pages_filled, __ATOMIC_RELAXED);
}

#else /* no mremap: fill eagerly */

void *run_lazy_map(size_t bytes, size_t *mapped, wm_ptx_type t,
                   const char *init)
{
    (void)bytes;
    (void)t;
    (void)init;
    *mapped = 0;
    return NULL;
}

void run_lazy_touch_all(void *p)
{
    (void)p;
}

void run_lazy_unmap(void *p, size_t mapped)
{
    (void)p;
    (void)mapped;
}

uint64_t run_lazy_pages_filled(void)
{
    return 0;
}

#endif
