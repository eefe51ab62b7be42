/*
 * progress.c -- the progress line of a long `warpmem run`: CTAs done of
 * all, the time so far and what is left at the rate so far, as one
 * line that the next one overwrites ("\r") on stderr.
 */
#include "cli.h"

#include <stdio.h>

/* A duration as a person reads it: "8 s", "2 min 05 s", "1 h 03 min". */
static void duration(char *buf, size_t cap, double s)
{
    unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);
    if (t < 60)
        snprintf(buf, cap, "%lu s", t);
    else if (t < 3600)
        snprintf(buf, cap, "%lu min %02lu s", t / 60, t % 60);
    else
        snprintf(buf, cap, "%lu h %02lu min", t / 3600, t / 60 % 60);
}

size_t cli_progress_text(char *buf, size_t cap, uint64_t done,
                         uint64_t total, double elapsed)
{
    char spent[32], left[32];
    duration(spent, sizeof spent, elapsed);
    double pct = total ? 100.0 * (double)done / (double)total : 0.0;
    int n;
    if (done == 0 || done > total) {
        n = snprintf(buf, cap, "warpmem: %llu of %llu CTAs (%.0f%%), %s",
                     (unsigned long long)done, (unsigned long long)total,
                     pct, spent);
    } else {
        /* the rate so far holds for the rest: CTAs of one launch cost
           alike unless the kernel branches on the block index */
        duration(left, sizeof left,
                 elapsed * (double)(total - done) / (double)done);
        n = snprintf(buf, cap,
                     "warpmem: %llu of %llu CTAs (%.0f%%), %s, about %s "
                     "left",
                     (unsigned long long)done, (unsigned long long)total,
                     pct, spent, left);
    }
    return n < 0 ? 0 : (size_t)n;
}
