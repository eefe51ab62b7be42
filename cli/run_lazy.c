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
 * The buffer is a memfd mapped twice: the view the kernel sees starts
 * inaccessible, and a second, writable view is where pages are filled.
 * A filled page is opened in the first view with mprotect(2), so the
 * pages opened side by side merge into one mapping.  (Filling a scratch
 * page and moving it in with mremap(2) made every page a mapping of its
 * own: past the kernel's limit of 65 530 mappings per process --
 * 256 MiB of 4 KiB pages -- the move failed, the access faulted again,
 * and a full run of the 8192^2 transpose spun in the handler forever.)
 *
 * Invariants:
 *   - A page is visible only once filled.  A per-page state word (0
 *     untouched, 1 filling, 3 filled, 2 open) elects the one thread that
 *     fills; others that fault on the page wait for 2 and retry their
 *     access.  Filling never waits, so no thread waits on a waiter.
 *   - Should opening one page fail all the same (the mapping limit, with
 *     many scattered pages open), every page is filled and the whole
 *     buffer is opened with one call, which leaves one mapping.  The same
 *     happens to a buffer filled lazily by run_fill.c's estimate once an
 *     eighth of its pages were filled one by one (the estimate was wrong:
 *     a page filled on its own costs several filled at once).  Then the
 *     fill view is unmapped: the pages would count twice in the RSS.
 *   - Regions are registered before the launch and removed after it, so the
 *     handler reads the table while nothing writes it.
 *   - A fault outside every region restores the previous handler and
 *     returns: the access faults again and the process dies as it would
 *     have.
 * Linux only (memfd_create); elsewhere run_lazy_map returns NULL and
 * buffers are filled eagerly.
 */
#define _GNU_SOURCE
#include "run_args.h"

#include <string.h>

#ifdef __linux__
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_REGIONS 64

enum { PG_UNTOUCHED = 0, PG_FILLING = 1, PG_OPEN = 2, PG_FILLED = 3 };

typedef struct region {
    unsigned char *base;  /* the view the kernel sees */
    unsigned char *fillv; /* the writable view pages are filled in */
    int fd;
    size_t mapped, bytes, esz;
    size_t cap;           /* pages filled one by one before the rest at
                             once (0: no cap) */
    size_t nlazy;         /* pages filled one by one */
    wm_ptx_type type;
    char init[80];
    unsigned char *state; /* PG_* per page */
} region;

static region regions[MAX_REGIONS];
static size_t page_size;
static struct sigaction old_segv;
static int installed;
static uint64_t pages_filled;

/* Page pg's elements, written through the fill view. */
static void fill_page(region *r, size_t pg)
{
    size_t lo = pg * page_size, hi = lo + page_size;
    if (hi > r->bytes)
        hi = r->bytes;
    if (lo < hi)
        wm_ptx_fill_at(r->fillv + lo, r->type, lo / r->esz,
                       (hi - lo) / r->esz, r->init);
    __atomic_add_fetch(&pages_filled, 1, __ATOMIC_RELAXED);
}

/* Claims and fills page pg if nobody has; 1 if this thread filled it. */
static int claim_fill(region *r, size_t pg)
{
    unsigned char zero = PG_UNTOUCHED;
    if (!__atomic_compare_exchange_n(&r->state[pg], &zero, PG_FILLING, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return 0;
    fill_page(r, pg);
    __atomic_store_n(&r->state[pg], PG_FILLED, __ATOMIC_RELEASE);
    return 1;
}

/* Fills every page and opens the whole region at once (one mapping). */
static void open_all(region *r)
{
    size_t n = r->mapped / page_size;
    for (size_t pg = 0; pg < n; pg++)
        claim_fill(r, pg);
    for (size_t pg = 0; pg < n; pg++) /* pages other threads fill */
        while (__atomic_load_n(&r->state[pg], __ATOMIC_ACQUIRE) ==
               PG_FILLING)
            ;
    if (mprotect(r->base, r->mapped, PROT_READ | PROT_WRITE) != 0) {
        static const char msg[] =
            "warpmem: error: cannot open a lazily filled buffer\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(1);
    }
    for (size_t pg = 0; pg < n; pg++)
        __atomic_store_n(&r->state[pg], PG_OPEN, __ATOMIC_RELEASE);
    /* every page filled: the second view only counts them twice */
    if (r->fillv && munmap(r->fillv, r->mapped) == 0)
        r->fillv = NULL;
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
        if (claim_fill(r, pg)) {
            if (mprotect(r->base + pg * page_size, page_size,
                         PROT_READ | PROT_WRITE) == 0)
                __atomic_store_n(&r->state[pg], PG_OPEN, __ATOMIC_RELEASE);
            else
                open_all(r); /* the mapping limit: one mapping for all */
            /* the cap: a page filled here costs several filled at once */
            if (r->cap && __atomic_add_fetch(&r->nlazy, 1,
                                             __ATOMIC_RELAXED) == r->cap)
                open_all(r);
        } else {
            while (__atomic_load_n(&r->state[pg], __ATOMIC_ACQUIRE) != PG_OPEN)
                ;
        }
        return;
    }
    (void)sig;
    sigaction(SIGSEGV, &old_segv, NULL);
}

static void region_unmap(region *r)
{
    if (r->base)
        munmap(r->base, r->mapped);
    if (r->fillv)
        munmap(r->fillv, r->mapped);
    if (r->state)
        munmap(r->state, r->mapped / page_size);
    if (r->fd >= 0)
        close(r->fd);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

void *run_lazy_map(size_t bytes, size_t *mapped, wm_ptx_type t,
                   const char *init, int capped)
{
    size_t slot = 0;
    if (!page_size)
        page_size = (size_t)sysconf(_SC_PAGESIZE);
    while (slot < MAX_REGIONS && regions[slot].base)
        slot++;
    if (slot == MAX_REGIONS || strlen(init) >= sizeof regions[0].init)
        return NULL;
    region r;
    memset(&r, 0, sizeof r);
    r.mapped = (bytes + 16 + page_size - 1) / page_size * page_size;
    size_t npages = r.mapped / page_size;
    r.fd = memfd_create("warpmem-lazy", MFD_CLOEXEC);
    void *st = mmap(NULL, npages, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    r.state = st == MAP_FAILED ? NULL : st;
    if (r.fd < 0 || !r.state || ftruncate(r.fd, (off_t)r.mapped) != 0) {
        region_unmap(&r);
        return NULL;
    }
    void *v = mmap(NULL, r.mapped, PROT_NONE, MAP_SHARED, r.fd, 0);
    r.base = v == MAP_FAILED ? NULL : v;
    void *f = mmap(NULL, r.mapped, PROT_READ | PROT_WRITE, MAP_SHARED,
                   r.fd, 0);
    r.fillv = f == MAP_FAILED ? NULL : f;
    if (!r.base || !r.fillv) {
        region_unmap(&r);
        return NULL;
    }
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_segv;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &old_segv) != 0) {
            region_unmap(&r);
            return NULL;
        }
        installed = 1;
    }
    r.bytes = bytes;
    r.cap = capped ? (size_t)((double)npages * RUN_LAZY_SHARE) + 1 : 0;
    r.esz = wm_ptx_type_size(t);
    r.type = t;
    strcpy(r.init, init);
    regions[slot] = r;
    *mapped = r.mapped;
    return r.base;
}

void run_lazy_touch_all(void *p)
{
    for (size_t i = 0; i < MAX_REGIONS; i++)
        if (regions[i].base && regions[i].base == p)
            open_all(&regions[i]);
}

void run_lazy_unmap(void *p, size_t mapped)
{
    for (size_t i = 0; i < MAX_REGIONS; i++)
        if (regions[i].base && regions[i].base == p) {
            region_unmap(&regions[i]);
            return;
        }
    munmap(p, mapped);
}

uint64_t run_lazy_pages_filled(void)
{
    return __atomic_load_n(&pages_filled, __ATOMIC_RELAXED);
}

#else /* no memfd: fill eagerly */

void *run_lazy_map(size_t bytes, size_t *mapped, wm_ptx_type t,
                   const char *init, int capped)
{
    (void)bytes;
    (void)t;
    (void)init;
    (void)capped;
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
