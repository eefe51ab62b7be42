/*
 * gd_table.c -- the questions warpmem-gendoc's writers (gen_man.c,
 * gen_bash.c, gen_zsh.c) ask of help.def's rows: the commands in order,
 * which options take a value and what completes it, the fixed words of
 * an ARG, which commands take kernel files.  Beneath the writers and the
 * driver (gendoc.c), so nothing calls back up.
 */
#include "gendoc.h"

#include <ctype.h>
#include <string.h>

const char *gd_command_at(size_t i)
{
    return i == 0 ? "warpmem" : cli_help_commands[i - 1].name;
}

size_t gd_ncommands(void)
{
    return cli_help_ncommands + 1;
}

/* Does the option take a value? */
int gd_takes_value(const cli_row *r)
{
    return *r->arg != 0;
}

/* Write the words of an ARG like "text|json|csv" (lower-case words only)
 * separated by spaces; 0 when ARG offers no fixed words. */
int gd_arg_words(FILE *f, const char *arg)
{
    if (!strchr(arg, '|'))
        return 0;
    int n = 0;
    for (const char *p = arg; *p;) {
        size_t w = strcspn(p, "|");
        int ok = w > 0;
        for (size_t k = 0; k < w; k++)
            if (!(islower((unsigned char)p[k]) || isdigit((unsigned char)p[k]) ||
                  p[k] == '-' || p[k] == '_'))
                ok = 0;
        if (ok)
            fprintf(f, "%s%.*s", n++ ? " " : "", (int)w, p);
        p += w;
        if (*p == '|')
            p++;
    }
    return n;
}

/* What the value of an option is: 'k' kernels, 'a' profiles, 'f' files,
 * 'w' fixed words, 0 nothing to offer. */
int gd_value_kind(const cli_row *r)
{
    if (strcmp(r->flag, "--kernel") == 0)
        return 'k';
    if (strcmp(r->flag, "--arch") == 0)
        return 'a';
    if (strcmp(r->arg, "FILE") == 0)
        return 'f';
    if (strchr(r->arg, '|'))
        return 'w';
    return 0;
}

/* Does cmd take kernel files as operands? */
int gd_takes_kernels(const char *cmd)
{
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind == CLI_ROW_USAGE && cli_row_for(r, cmd) &&
            strstr(r->text, "KERNEL.ptx"))
            return 1;
    }
    return 0;
}

/* The option words of cmd (long and short), space separated. */
void gd_opt_words(FILE *f, const char *cmd)
{
    int n = 0;
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd))
            continue;
        fprintf(f, "%s%s", n++ ? " " : "", r->flag);
        if (*r->short_flag)
            fprintf(f, " %s", r->short_flag);
    }
}
