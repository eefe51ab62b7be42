/*
 * gendoc.h -- the parts of warpmem-gendoc (gendoc.c): the writers of the
 * manual page (gen_man.c) and of the bash and zsh completions
 * (gen_bash.c, gen_zsh.c), all reading the rows of cli/help.def through
 * the gd_* questions of gd_table.c.
 */
#ifndef WM_GENDOC_H
#define WM_GENDOC_H

#include "help.h"

/* The commands in order: 0 is the top level "warpmem", then
 * commands.def's; gd_ncommands() of them. */
const char *gd_command_at(size_t i);
size_t gd_ncommands(void);

/* Does the option take a value (a non-empty ARG)? */
int gd_takes_value(const cli_row *r);

/* Write the fixed words of an ARG like "text|json|csv" (lower-case words
 * only) separated by spaces; returns how many (0 when it offers none). */
int gd_arg_words(FILE *f, const char *arg);

/* What completes an option's value: 'k' the kernels of the operand, 'a'
 * the profiles, 'f' files, 'w' fixed words, 0 nothing. */
int gd_value_kind(const cli_row *r);

/* Does cmd take .ptx / .cu operands (its usage names KERNEL.ptx)? */
int gd_takes_kernels(const char *cmd);

/* The option words of cmd, long and short, separated by spaces. */
void gd_opt_words(FILE *f, const char *cmd);

/* The three outputs; date is the page's ("December 1, 2026"). */
void gd_gen_man(FILE *f, const char *date);
void gd_gen_bash(FILE *f);
void gd_gen_zsh(FILE *f);

#endif /* WM_GENDOC_H */
