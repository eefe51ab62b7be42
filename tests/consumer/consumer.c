/*
 * consumer.c -- a program outside the project that uses an installed
 * libwarpmem the way a user's would: the one public header and the library,
 * found by find_package(warpmem) or by pkg-config (tests/cli/install.cmake).
 *
 * It checks that the header and the library agree on the version and that
 * the model counts a hand-computed case: 32 lanes loading 4-byte floats
 * 128 bytes apart (a column of a row-major 32-float matrix) touch 32
 * distinct 32-byte sectors in 32 distinct 128-byte lines, where 128
 * contiguous bytes need 4 sectors.  Exit 0 when all holds, else 1 with the
 * first difference on stderr.
 */
#include <warpmem.h>

#include <stdio.h>
#include <string.h>

#if !defined(WM_VERSION_NUMBER) || WM_VERSION_NUMBER < 100
#error "warpmem.h: WM_VERSION_NUMBER missing or older than 0.1.0"
#endif

static int expect(const char *what, unsigned long long got,
                  unsigned long long want)
{
    if (got == want)
        return 0;
    fprintf(stderr, "consumer: %s is %llu, expected %llu\n", what, got, want);
    return 1;
}

int main(void)
{
    if (strcmp(wm_version(), WM_VERSION) != 0) {
        fprintf(stderr, "consumer: library %s, header %s\n", wm_version(),
                WM_VERSION);
        return 1;
    }
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = WM_SPACE_GLOBAL;
    a.op = WM_OP_LD;
    a.size = 4;
    a.mask = 0xffffffffu;
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = 4096u + 128u * i;
    wm_counts c;
    if (wm_count(wm_arch_default(), &a, &c) != WM_OK) {
        fprintf(stderr, "consumer: wm_count failed\n");
        return 1;
    }
    int bad = expect("sectors", c.sectors, 32) +
              expect("lines", c.tags, 32) +
              expect("ideal sectors", c.ideal_sectors, 4) +
              expect("requests", c.requests, 1);
    if (bad)
        return 1;
    printf("warpmem %s: 32 sectors, 32 lines, ideal 4\n", wm_version());
    return 0;
}
