/*
 * suggest.c -- "did you mean" for a misspelled option: the closest flag
 * of the command's rows in help.def, by edit distance (or the one flag the
 * word begins), printed under the usage error.
 */
#include "cli.h"
#include "help.h"

#include <string.h>

/* Levenshtein distance of a[0..na) and b[0..nb), for short words. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t row[64];
    if (na >= 64 || nb >= 64)
        return 64;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

const char *cli_suggest_flag(const char *cmd, const char *arg)
{
    size_t n = strcspn(arg, "=");
    const char *best = NULL, *prefix = NULL;
    size_t best_d = 64;
    int nprefix = 0;
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd))
            continue;
        size_t fn = strlen(r->flag);
        if (n >= 4 && n < fn && strncmp(r->flag, arg, n) == 0) {
            if (!prefix || strcmp(prefix, r->flag) != 0)
                nprefix++;
            prefix = r->flag;
        }
        size_t d = distance(arg, n, r->flag, fn);
        if (d < best_d) {
            best_d = d;
            best = r->flag;
        }
    }
    if (nprefix == 1)
        return prefix;
    /* a typo or two, not another word */
    return best && best_d <= (n >= 9 ? 3 : n >= 5 ? 2 : 1) ? best : NULL;
}

void cli_did_you_mean(const char *cmd, const char *arg)
{
    const char *s = cli_suggest_flag(cmd, arg);
    if (s)
        fprintf(stderr, "warpmem: did you mean '%s'?\n", s);
}
