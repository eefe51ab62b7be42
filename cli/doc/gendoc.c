/*
 * gendoc.c -- make the manual page and the shell completions from the rows
 * of help.def and commands.def, the rows `warpmem --help` prints, so the
 * three cannot drift apart.  Run by the build:
 *
 *   warpmem-gendoc man DATE OUT     warpmem.1 in mdoc (DATE: "December 1, 2026")
 *   warpmem-gendoc bash OUT         bash completion (complete -F _warpmem)
 *   warpmem-gendoc zsh OUT          zsh completion (#compdef warpmem)
 *   warpmem-gendoc flags            "COMMAND FLAG" per option, for tests
 *   warpmem-gendoc commands         "warpmem", then commands.def's names
 *
 * Completion of option values: an ARG of a|b|c offers those words, FILE
 * offers paths, --kernel offers the kernels `warpmem run FILE --list` finds
 * in the command's PTX or .cu operand, --arch the profiles of `warpmem
 * arch`.  Operands of commands whose usage names KERNEL.ptx are .ptx and
 * .cu files.  Exit 0, or 1 with a message when OUT cannot be written, 2 on
 * a bad command line.
 */
#include "gendoc.h"

#include <ctype.h>
#include <errno.h>
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

/* "COMMAND FLAG" for every option, long and short. */
static void gen_flags(FILE *f)
{
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind != CLI_ROW_OPT)
            continue;
        for (size_t c = 0; c < gd_ncommands(); c++) {
            if (!cli_row_for(r, gd_command_at(c)))
                continue;
            fprintf(f, "%s %s%s\n", gd_command_at(c), r->flag,
                    gd_takes_value(r) ? " =" : "");
            if (*r->short_flag)
                fprintf(f, "%s %s%s\n", gd_command_at(c), r->short_flag,
                        gd_takes_value(r) ? " =" : "");
        }
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int man = strcmp(mode, "man") == 0;
    if (strcmp(mode, "flags") == 0 && argc == 2) {
        gen_flags(stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (strcmp(mode, "commands") == 0 && argc == 2) {
        for (size_t c = 0; c < gd_ncommands(); c++)
            printf("%s\n", gd_command_at(c));
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (!((man && argc == 4) ||
          ((strcmp(mode, "bash") == 0 || strcmp(mode, "zsh") == 0) &&
           argc == 3))) {
        fprintf(stderr, "usage: warpmem-gendoc man DATE OUT | bash OUT | "
                        "zsh OUT | flags | commands\n");
        return 2;
    }
    const char *out = argv[argc - 1];
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "warpmem-gendoc: %s: %s\n", out, strerror(errno));
        return 1;
    }
    if (man)
        gd_gen_man(f, argv[2]);
    else if (mode[0] == 'b')
        gd_gen_bash(f);
    else
        gd_gen_zsh(f);
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "warpmem-gendoc: cannot write %s\n", out);
        return 1;
    }
    return 0;
}
