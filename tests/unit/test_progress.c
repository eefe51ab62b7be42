/*
 * test_progress.c -- the progress line's text (cli/progress.c): the
 * counts, the percentage, the time so far and the time left at the rate
 * so far, each worked by hand; durations across the s / min / h steps;
 * no estimate before the first CTA; truncation into a small buffer.
 */
#include "check.h"
#include "cli.h"

#include <string.h>

static void line_is(uint64_t done, uint64_t total, double elapsed,
                    const char *want)
{
    char buf[160];
    size_t n = cli_progress_text(buf, sizeof buf, done, total, elapsed);
    CHECK(strcmp(buf, want) == 0);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "  got  '%s'\n  want '%s'\n", buf, want);
    CHECK_EQ(n, strlen(want));
}

int main(void)
{
    /* 1536 of 4096 in 6 s: 2560 left at 256 per second, 10 s */
    line_is(1536, 4096, 6.0, "warpmem: 1536 of 4096 CTAs (38%), 6 s, "
                             "about 10 s left");
    /* a quarter in 40 s: 120 s left, written as minutes and seconds */
    line_is(25, 100, 40.0, "warpmem: 25 of 100 CTAs (25%), 40 s, "
                           "about 2 min 00 s left");
    /* 1 of 1000 in 3.9 s: 3896.1 s left, 1 h 04 min (3896 s = 64.9 min,
       whole minutes cut) */
    line_is(1, 1000, 3.9, "warpmem: 1 of 1000 CTAs (0%), 4 s, "
                          "about 1 h 04 min left");
    /* 61 s so far, 7 of 8: 8.7 s left rounds to 9 s */
    line_is(7, 8, 61.0, "warpmem: 7 of 8 CTAs (88%), 1 min 01 s, "
                        "about 9 s left");
    /* nothing done yet: no rate, no estimate */
    line_is(0, 64, 2.5, "warpmem: 0 of 64 CTAs (0%), 3 s");
    /* all done: nothing left */
    line_is(64, 64, 2.0, "warpmem: 64 of 64 CTAs (100%), 2 s, "
                         "about 0 s left");
    /* a buffer too small: snprintf's truncation, the full length said */
    char small[16];
    size_t n = cli_progress_text(small, sizeof small, 1536, 4096, 6.0);
    CHECK(strcmp(small, "warpmem: 1536 o") == 0);
    CHECK_EQ(n, strlen("warpmem: 1536 of 4096 CTAs (38%), 6 s, "
                         "about 10 s left"));
    return check_done("test_progress");
}
