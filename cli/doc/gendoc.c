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

#include <errno.h>
#include <string.h>

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
