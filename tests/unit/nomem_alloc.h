/*
 * nomem_alloc.h -- the allocation-failure injector of test_nomem and
 * test_nomem_cli (SQLite's approach).  A test linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free sends every
 * allocation of the library and the CLI through nomem_alloc.c.  While
 * armed, allocations are counted, the fail_at-th returns NULL (0: none
 * fails), and every block handed out is remembered until it is freed, so
 * nomem_live() is what the work leaked.  A block libc allocated itself
 * (open_memstream's buffer) and the work frees is not counted either way.
 */
#ifndef WM_NOMEM_ALLOC_H
#define WM_NOMEM_ALLOC_H

/* Start counting; the fail_at-th allocation fails (0: none). */
void nomem_arm(unsigned long fail_at);
/* Stop counting (blocks are still forgotten when freed). */
void nomem_disarm(void);
/* Allocations since nomem_arm, and whether the fail_at-th happened. */
unsigned long nomem_count(void);
int nomem_failed(void);
/* Blocks allocated while armed and not freed. */
long nomem_live(void);

#endif /* WM_NOMEM_ALLOC_H */
