/*
 * gen_man.c -- warpmem.1 in mdoc from the rows of cli/help.def: SYNOPSIS
 * from the usage rows, DESCRIPTION from the top level's rows and one
 * subsection per command (its paragraphs, literal blocks and a tagged list
 * of its options, in the order --help prints them), the limits, EXIT
 * STATUS from the EXIT rows.  Text is escaped for roff ('-' as a minus so
 * that flags copy and paste) and set one sentence per line.
 */
#include "gendoc.h"
#include "warpmem.h"

#include <ctype.h>
#include <string.h>

/*
 * One text line (or several: a sentence per line, as mdoc wants) with
 * roff's specials escaped: backslash, '-' as a minus so that flags copy
 * and paste, and a leading '.' or '\''.
 */
static void roff_text(FILE *f, const char *s, int literal)
{
    int bol = 1;
    unsigned col = 0;
    char prev = 0;
    for (; *s; prev = *s++) {
        if (!literal && *s == ' ') {
            /* a sentence starts a new line ("end. Next"), and lines
               stay short */
            const char *next = s + strspn(s, " ");
            int sentence = prev == '.' && isupper((unsigned char)*next);
            if (sentence || col > 64) {
                fputc('\n', f);
                s = next - 1;
                bol = 1;
                col = 0;
                continue;
            }
        }
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        bol = 0;
        col++;
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
    fputc('\n', f);
}

/* A macro argument, quoted so that roff never reads it as a macro name. */
static void roff_arg(FILE *f, const char *s)
{
    fputs(" \"", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '"')
            fputs("\\(dq", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* Operands of a usage row: words starting with '-' are flags, others
 * arguments. */
static void mdoc_operands(FILE *f, const char *text)
{
    for (const char *p = text; *p;) {
        p += strspn(p, " ");
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        char word[128];
        snprintf(word, sizeof word, "%.*s", (int)w, p);
        if (word[0] == '-' && word[1]) {
            fputs(".Fl", f);
            roff_arg(f, word + 1);
        } else {
            fputs(".Ar", f);
            roff_arg(f, word);
        }
        fputc('\n', f);
        p += w;
    }
}

static void mdoc_synopsis(FILE *f)
{
    fputs(".Sh SYNOPSIS\n", f);
    for (size_t c = 0; c < gd_ncommands(); c++) {
        const char *cmd = gd_command_at(c);
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (r->kind != CLI_ROW_USAGE || !cli_row_for(r, cmd))
                continue;
            fputs(".Nm\n", f);
            if (c) {
                fprintf(f, ".Cm %s\n.Op Ar options\n", cmd);
            }
            mdoc_operands(f, r->text);
        }
    }
}

/* ".It Fl k , Fl \-kernel Ar NAME" */
static void mdoc_item(FILE *f, const cli_row *r)
{
    fputs(".It", f);
    if (*r->short_flag) {
        fputs(" Fl", f);
        roff_arg(f, r->short_flag + 1);
        fputs(" ,", f);
    }
    fputs(" Fl", f);
    roff_arg(f, r->flag + 1);
    if (*r->arg) {
        fputs(" Ar", f);
        roff_arg(f, r->arg);
    }
    fputc('\n', f);
}

/* Every row of cmd but its usage, in the order --help prints them
 * (cli/help.c): paragraphs and their literal blocks, then one tagged list
 * of the options. */
static void mdoc_body(FILE *f, const char *cmd)
{
    int paras = 0;
    for (int pass = 0; pass < 2; pass++) {
        cli_row_kind under = CLI_ROW_USAGE;
        int in_lit = 0, nopts = 0;
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (!cli_row_for(r, cmd))
                continue;
            if (r->kind != CLI_ROW_LIT)
                under = r->kind;
            if (pass == 0 ? under != CLI_ROW_ABOUT : under != CLI_ROW_OPT)
                continue;
            if (r->kind != CLI_ROW_LIT && in_lit) {
                fputs(".Ed\n", f);
                in_lit = 0;
            }
            switch (r->kind) {
            case CLI_ROW_ABOUT:
                if (paras++)
                    fputs(".Pp\n", f);
                roff_text(f, r->text, 0);
                break;
            case CLI_ROW_LIT:
                if (!in_lit)
                    fputs(".Bd -literal -offset indent\n", f);
                in_lit = 1;
                roff_text(f, r->text, 1);
                break;
            case CLI_ROW_OPT:
                if (!nopts++)
                    fputs(".Bl -tag -width Ds\n", f);
                mdoc_item(f, r);
                roff_text(f, r->text, 0);
                break;
            case CLI_ROW_USAGE:
            case CLI_ROW_EXIT: break;
            }
        }
        if (in_lit)
            fputs(".Ed\n", f);
        if (nopts)
            fputs(".El\n", f);
    }
}

void gd_gen_man(FILE *f, const char *date)
{
    fprintf(f, ".\\\" warpmem.1 -- generated from cli/help.def by "
               "warpmem-gendoc; edit that, not this.\n"
               ".\\\" warpmem %s\n"
               ".Dd %s\n.Dt WARPMEM 1\n.Os\n"
               ".Sh NAME\n.Nm warpmem\n"
               ".Nd show how a warp's memory accesses become memory "
               "traffic\n",
               WM_VERSION, date);
    mdoc_synopsis(f);
    fputs(".Sh DESCRIPTION\n", f);
    mdoc_body(f, "warpmem");
    fputs(".Pp\nThe commands:\n.Bl -tag -width Ds\n", f);
    for (size_t c = 0; c < cli_help_ncommands; c++) {
        fprintf(f, ".It Cm %s\n", cli_help_commands[c].name);
        roff_text(f, cli_help_commands[c].summary, 0);
    }
    fputs(".El\n", f);
    for (size_t c = 1; c < gd_ncommands(); c++) {
        fprintf(f, ".Ss warpmem %s\n", gd_command_at(c));
        mdoc_body(f, gd_command_at(c));
    }
    fputs(".Ss Limits\nThe limits against hostile or mistaken input, and "
          "what raises each:\n.Bl -tag -width Ds\n",
          f);
    char line[512];
#define X(name, what, raise)                                                  \
    fprintf(f, ".It %llu\n", (unsigned long long)(name));                     \
    snprintf(line, sizeof line, "%s (raise: %s)", what, raise);               \
    roff_text(f, line, 0);
    WM_LIMIT_LIST(X)
#undef X
    fputs(".El\n.Sh ENVIRONMENT\n.Bl -tag -width Ds\n"
          ".It Ev NO_COLOR\nwhen set, no colours unless "
          ".Fl \\-color Cm always\n"
          ".It Ev COLUMNS\nthe width drawings fit (default 100)\n"
          ".It Ev PATH\nwhere nvcc is looked for to compile a .cu file\n"
          ".El\n.Sh EXIT STATUS\n.Bl -tag -width Ds\n",
          f);
    for (size_t i = 0; i < cli_help_nrows; i++)
        if (cli_help_rows[i].kind == CLI_ROW_EXIT) {
            fprintf(f, ".It %d\n", cli_help_rows[i].code);
            roff_text(f, cli_help_rows[i].text, 0);
        }
    fputs(".El\n.Sh EXAMPLES\n"
          "Sectors of a warp reading a column of floats:\n"
          ".Pp\n.Dl $ warpmem global \\-\\-stride 32\n"
          ".Pp\nEvery memory instruction of a kernel, per source line:\n"
          ".Pp\n.Dl $ warpmem run copy.ptx \\-\\-grid 64 \\-\\-block 256 "
          "\\-\\-arg f32[16384] \\-\\-arg f32[16384] \\-\\-arg u32=16384\n"
          ".Sh SEE ALSO\n.Xr nvcc 1\n",
          f);
}
