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
#include "help.h"
#include "warpmem.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* The commands in order: the top level, then commands.def's. */
static const char *command_at(size_t i)
{
    return i == 0 ? "warpmem" : cli_help_commands[i - 1].name;
}

static size_t ncommands(void)
{
    return cli_help_ncommands + 1;
}

/* ---- mdoc ---------------------------------------------------------------- */

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
    for (size_t c = 0; c < ncommands(); c++) {
        const char *cmd = command_at(c);
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

static void gen_man(FILE *f, const char *date)
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
    for (size_t c = 1; c < ncommands(); c++) {
        fprintf(f, ".Ss warpmem %s\n", command_at(c));
        mdoc_body(f, command_at(c));
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

/* ---- completions ---------------------------------------------------------- */

/* Does the option take a value? */
static int takes_value(const cli_row *r)
{
    return *r->arg != 0;
}

/* Write the words of an ARG like "text|json|csv" (lower-case words only)
 * separated by spaces; 0 when ARG offers no fixed words. */
static int arg_words(FILE *f, const char *arg)
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
static int value_kind(const cli_row *r)
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
static int takes_kernels(const char *cmd)
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
static void opt_words(FILE *f, const char *cmd, int valued_only)
{
    int n = 0;
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd))
            continue;
        if (valued_only && !takes_value(r))
            continue;
        fprintf(f, "%s%s", n++ ? " " : "", r->flag);
        if (*r->short_flag)
            fprintf(f, " %s", r->short_flag);
    }
}

static const char bash_helpers[] =
    "# The kernels of the first .ptx/.cu operand, for --kernel.\n"
    "_warpmem_kernels() {\n"
    "    local w file=\n"
    "    for w in \"${COMP_WORDS[@]:2}\"; do\n"
    "        case $w in *.ptx|*.cu) [ -f \"$w\" ] && { file=$w; break; } ;; esac\n"
    "    done\n"
    "    [ -n \"$file\" ] || return 0\n"
    "    \"${COMP_WORDS[0]}\" run \"$file\" --list 2>/dev/null | awk '\n"
    "        /^kernel / { d = substr($0, 8); sub(/\\(.*/, \"\", d) }\n"
    "        /^  ptx name / { p = $3; sub(/;$/, \"\", p);\n"
    "                         print (d ~ / / || d == \"\") ? p : d }'\n"
    "}\n\n"
    "# The architecture profiles, for --arch.\n"
    "_warpmem_archs() {\n"
    "    \"${COMP_WORDS[0]}\" arch 2>/dev/null | awk 'NR > 1 { print $1 }'\n"
    "}\n\n";

static void gen_bash(FILE *f)
{
    fputs("# bash completion for warpmem -- generated from cli/help.def by "
          "warpmem-gendoc.\n\n",
          f);
    fputs(bash_helpers, f);
    fputs("_warpmem() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} "
          "prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local IFS=$'\\n'\n"
          "    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(IFS=' '; compgen -W \"",
          f);
    for (size_t c = 0; c < cli_help_ncommands; c++)
        fprintf(f, "%s ", cli_help_commands[c].name);
    opt_words(f, "warpmem", 0);
    fputs("\" -- \"$cur\"))\n        return 0\n    fi\n"
          "    local cmd=${COMP_WORDS[1]} opts= kernels=\n"
          "    case $cmd in\n",
          f);
    for (size_t c = 1; c < ncommands(); c++) {
        const char *cmd = command_at(c);
        fprintf(f, "    %s)\n        opts=\"", cmd);
        opt_words(f, cmd, 0);
        fprintf(f, "\"\n        kernels=%d\n", takes_kernels(cmd));
        /* values of the previous word's option */
        fputs("        case $prev in\n", f);
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd) ||
                !takes_value(r))
                continue;
            fprintf(f, "        %s%s%s)\n            ", r->flag,
                    *r->short_flag ? "|" : "", r->short_flag);
            switch (value_kind(r)) {
            case 'k':
                fputs("COMPREPLY=($(compgen -W \"$(_warpmem_kernels)\" -- "
                      "\"$cur\"))",
                      f);
                break;
            case 'a':
                fputs("COMPREPLY=($(compgen -W \"$(_warpmem_archs)\" -- "
                      "\"$cur\"))",
                      f);
                break;
            case 'f': fputs("COMPREPLY=($(compgen -f -- \"$cur\"))", f); break;
            case 'w':
                fputs("COMPREPLY=($(IFS=' '; compgen -W \"", f);
                arg_words(f, r->arg);
                fputs("\" -- \"$cur\"))", f);
                break;
            default: fputs(": no fixed values", f); break;
            }
            fputs("\n            return 0 ;;\n", f);
        }
        fputs("        esac ;;\n", f);
    }
    fputs("    *) return 0 ;;\n    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(IFS=' '; compgen -W \"$opts\" -- \"$cur\"))\n"
          "    elif [ \"$kernels\" = 1 ]; then\n"
          "        COMPREPLY=($(compgen -f -X '!*.ptx' -- \"$cur\"; "
          "compgen -f -X '!*.cu' -- \"$cur\"; compgen -d -- \"$cur\"))\n"
          "    fi\n"
          "    return 0\n}\n"
          "complete -o filenames -F _warpmem warpmem\n",
          f);
}

/* zsh wants descriptions without brackets, colons or single quotes. */
static void zsh_desc(FILE *f, const char *s)
{
    size_t n = 0, end = strcspn(s, ";(");
    while (end && s[end - 1] == ' ')
        end--; /* "the launch (required)" -> "the launch" */
    if (end > 60)
        end = 60;
    for (; n < end; s++, n++) {
        if (*s == '[' || *s == ']' || *s == ':' || *s == '\\')
            fputc(' ', f);
        else if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
}

static void zsh_action(FILE *f, const cli_row *r)
{
    switch (value_kind(r)) {
    case 'k': fputs(":kernel:_warpmem_kernels", f); break;
    case 'a': fputs(":profile:_warpmem_archs", f); break;
    case 'f': fputs(":file:_files", f); break;
    case 'w':
        fputs(":value:(", f);
        arg_words(f, r->arg);
        fputc(')', f);
        break;
    default:
        fputc(':', f);
        zsh_desc(f, r->arg);
        fputs(": ", f);
        break;
    }
}

static void gen_zsh(FILE *f)
{
    fputs("#compdef warpmem\n"
          "# zsh completion for warpmem -- generated from cli/help.def by "
          "warpmem-gendoc.\n\n"
          "_warpmem_kernels() {\n"
          "    local w file\n"
          "    for w in ${words[2,-1]}; do\n"
          "        [[ $w == *.(ptx|cu) && -f $w ]] && { file=$w; break }\n"
          "    done\n"
          "    [[ -n $file ]] || return 1\n"
          "    local -a ks\n"
          "    ks=(${(f)\"$(warpmem run $file --list 2>/dev/null | awk '\n"
          "        /^kernel / { d = substr($0, 8); sub(/\\(.*/, \"\", d) }\n"
          "        /^  ptx name / { p = $3; sub(/;$/, \"\", p);\n"
          "                         print (d ~ / / || d == \"\") ? p : d }')\"})\n"
          "    compadd -a ks\n"
          "}\n\n"
          "_warpmem_archs() {\n"
          "    local -a as\n"
          "    as=(${(f)\"$(warpmem arch 2>/dev/null | awk 'NR > 1 "
          "{ print $1 }')\"})\n"
          "    compadd -a as\n"
          "}\n\n"
          "_warpmem() {\n"
          "    local -a cmds\n"
          "    cmds=(\n",
          f);
    for (size_t c = 0; c < cli_help_ncommands; c++) {
        fprintf(f, "        '%s:", cli_help_commands[c].name);
        zsh_desc(f, cli_help_commands[c].summary);
        fputs("'\n", f);
    }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands 'warpmem command' cmds\n"
          "        compadd -- --help --version\n"
          "        return\n"
          "    fi\n"
          "    local cmd=$words[2]\n"
          "    shift words\n"
          "    (( CURRENT-- ))\n"
          "    case $cmd in\n",
          f);
    for (size_t c = 1; c < ncommands(); c++) {
        const char *cmd = command_at(c);
        fprintf(f, "    %s)\n        _arguments -s \\\n", cmd);
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd))
                continue;
            const char *names[2] = {r->flag, r->short_flag};
            for (int k = 0; k < 2; k++) {
                if (!*names[k])
                    continue;
                fprintf(f, "            '*%s[", names[k]);
                zsh_desc(f, r->text);
                fputc(']', f);
                if (takes_value(r))
                    zsh_action(f, r);
                fputs("' \\\n", f);
            }
        }
        if (takes_kernels(cmd))
            fputs("            '*:kernel file:_files -g \"*.(ptx|cu)\"'", f);
        else
            fputs("            '*:argument: '", f);
        fputs(" ;;\n", f);
    }
    fputs("    esac\n}\n\n_warpmem \"$@\"\n", f);
}

/* "COMMAND FLAG" for every option, long and short. */
static void gen_flags(FILE *f)
{
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind != CLI_ROW_OPT)
            continue;
        for (size_t c = 0; c < ncommands(); c++) {
            if (!cli_row_for(r, command_at(c)))
                continue;
            fprintf(f, "%s %s%s\n", command_at(c), r->flag,
                    takes_value(r) ? " =" : "");
            if (*r->short_flag)
                fprintf(f, "%s %s%s\n", command_at(c), r->short_flag,
                        takes_value(r) ? " =" : "");
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
        for (size_t c = 0; c < ncommands(); c++)
            printf("%s\n", command_at(c));
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
        gen_man(f, argv[2]);
    else if (mode[0] == 'b')
        gen_bash(f);
    else
        gen_zsh(f);
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "warpmem-gendoc: cannot write %s\n", out);
        return 1;
    }
    return 0;
}
