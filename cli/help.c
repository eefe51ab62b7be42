/*
 * help.c -- `warpmem --help` and `warpmem CMD --help`, printed from the
 * rows of help.def (help_table.c): usage forms, paragraphs wrapped to the
 * width, the options in a column, the exit statuses.  The manual page is
 * made from the same rows (doc/gendoc.c).
 */
#include "cli.h"
#include "help.h"

#include <string.h>

#define WIDTH 79   /* --help is wrapped to this many columns */
#define OPT_COL 24 /* where option descriptions start */
#define LIT_COL 6  /* where literal lines under an option start */

/*
 * Print text word by word from column col (the cursor's), breaking lines
 * before WIDTH and starting continuation lines at column indent; ends
 * with a newline.
 */
static void wrap(FILE *f, const char *text, unsigned col, unsigned indent)
{
    int first = 1;
    for (const char *p = text; *p;) {
        p += strspn(p, " ");
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        if (!first && col + 1 + w > WIDTH) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)w, p);
        col += (unsigned)w;
        p += w;
        first = 0;
    }
    fputc('\n', f);
}

/* "usage: warpmem CMD [options] OPERANDS", one line per USAGE row. */
static void print_usage(FILE *f, const char *cmd)
{
    int n = 0;
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind != CLI_ROW_USAGE || !cli_row_for(r, cmd))
            continue;
        int col = fprintf(f, "%s", n++ ? "       " : "usage: ");
        if (strcmp(cmd, "warpmem") == 0) {
            col += fprintf(f, "warpmem");
        } else {
            col += fprintf(f, "warpmem %s [options]", cmd);
        }
        if (*r->text) {
            fputc(' ', f);
            wrap(f, r->text, (unsigned)col + 1, (unsigned)col + 1);
        } else {
            fputc('\n', f);
        }
    }
}

/* The option rows of cmd in a two-column list. */
static void print_option(FILE *f, const cli_row *r)
{
    char label[128];
    cli_opt_label(r, label, sizeof label);
    int len = fprintf(f, "  %s", label);
    if (len + 2 > OPT_COL) {
        fprintf(f, "\n%*s", OPT_COL, "");
    } else {
        fprintf(f, "%*s", OPT_COL - len, "");
    }
    wrap(f, r->text, OPT_COL, OPT_COL);
}

/*
 * Every row of cmd but its usage, in help.def's order: first the
 * paragraphs (and the literal lines under them), then the options (and the
 * literal lines under each), so that an option row shared by several
 * commands may sit anywhere in the file.
 */
static void print_body(FILE *f, const char *cmd)
{
    for (int pass = 0; pass < 2; pass++) {
        cli_row_kind under = CLI_ROW_USAGE; /* the row a LIT hangs under */
        int nopts = 0;
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (!cli_row_for(r, cmd))
                continue;
            if (r->kind != CLI_ROW_LIT)
                under = r->kind;
            int mine = pass == 0 ? under == CLI_ROW_ABOUT
                                 : under == CLI_ROW_OPT;
            if (!mine)
                continue;
            switch (r->kind) {
            case CLI_ROW_ABOUT:
                fputc('\n', f);
                wrap(f, r->text, 0, 0);
                break;
            case CLI_ROW_LIT:
                if (!pass && i && cli_help_rows[i - 1].kind != CLI_ROW_LIT)
                    fputc('\n', f); /* a block under a paragraph */
                fprintf(f, "%*s%s\n", pass ? LIT_COL : 2, "", r->text);
                break;
            case CLI_ROW_OPT:
                if (!nopts++)
                    fputs("\noptions:\n", f);
                print_option(f, r);
                break;
            case CLI_ROW_USAGE:
            case CLI_ROW_EXIT: break;
            }
        }
    }
}

static void print_exits(FILE *f)
{
    fputs("\nexit status:\n", f);
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind == CLI_ROW_EXIT) {
            fprintf(f, "  %d  ", r->code);
            wrap(f, r->text, 5, 5);
        }
    }
}

void cli_help_command(FILE *f, const char *cmd)
{
    print_usage(f, cmd);
    print_body(f, cmd);
    print_exits(f);
}

void cli_help_main(FILE *f)
{
    print_usage(f, "warpmem");
    print_body(f, "warpmem");
    fputs("\ncommands:\n", f);
    for (size_t i = 0; i < cli_help_ncommands; i++)
        fprintf(f, "  %-8s %s\n", cli_help_commands[i].name,
                cli_help_commands[i].summary);
    print_exits(f);
    /* the limits against hostile or mistaken input (docs/limits.md) */
    static const struct {
        unsigned long long value;
        const char *what, *raise;
    } limits[] = {
#define X(name, what, raise) {name, what, raise},
        WM_LIMIT_LIST(X)
#undef X
    };
    fprintf(f, "\nlimits (docs/limits.md):\n");
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
    {
        fprintf(f, "  %-12llu ", limits[i].value);
        wrap(f, limits[i].what, 15, 15);
        fprintf(f, "               raise: %s\n", limits[i].raise);
    }
}
