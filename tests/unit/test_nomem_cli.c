/*
 * test_nomem_cli.c -- allocation-failure injection for the warpmem
 * command.  The CLI's sources are linked in (main.c aside) and every
 * allocation of the CLI and the library goes through nomem_alloc.c.  Each
 * command line below is run in-process once to count its allocations and
 * keep its output; then, for every N up to that count, it is run again
 * with the N-th allocation failing.  Each such run must either
 *   - exit 1 with "cannot allocate" (any case: strerror(ENOMEM) is
 *     "Cannot allocate memory") or "out of memory" on stderr, or
 *   - exit 0 with the same standard output as the run without failure
 *     (a failure the command works around: a lazily filled buffer that
 *     cannot be mapped is filled eagerly),
 * and must free everything it allocated; under ASan a crash or a leak
 * fails as well.  WM_NOMEM_ONLY=NAME runs one command line,
 * WM_NOMEM_TRACE=1 prints the address of each failing allocation.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "cli.h"
#include "nomem_alloc.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 40
#define MAX_OUT (1u << 20)

static char tmpdir[64], out_path[96], err_path[96];

static int dispatch(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
#define X(name, fn, summary) {#name, fn},
#include "commands.def"
#undef X
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[0], cmds[i].name) == 0)
            return cmds[i].fn(argc, argv);
    return -1;
}

/* Read path into buf[cap] (NUL-terminated); its length. */
static size_t slurp(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    size_t n = 0;
    if (fd >= 0) {
        ssize_t k;
        while (n + 1 < cap && (k = read(fd, buf + n, cap - 1 - n)) > 0)
            n += (size_t)k;
        close(fd);
    }
    buf[n] = 0;
    return n;
}

static void redirect(int fd, const char *path)
{
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (f < 0 || dup2(f, fd) < 0)
        abort();
    close(f);
}

/* Run argv in-process with the at-th allocation failing (0: none), its
   stdout and stderr in out_path and err_path; the exit code. */
static int run_once(int argc, char *const *argv, unsigned long at)
{
    char *copy[MAX_ARGS + 1]; /* commands may permute argv */
    memcpy(copy, argv, (size_t)(argc + 1) * sizeof *copy);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    redirect(1, out_path);
    redirect(2, err_path);
    clearerr(stdout);
    nomem_arm(at);
    int rc = dispatch(argc, copy);
    nomem_disarm();
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    clearerr(stdout);
    return rc;
}

/* Writable copies of the strings of src (argv is char **) in a pool. */
static int make_argv(const char *const *src, char **dst)
{
    static char pool[16384];
    size_t used = 0, i = 0;
    for (; src[i] && i < MAX_ARGS; i++) {
        size_t n = strlen(src[i]) + 1;
        if (used + n > sizeof pool)
            break;
        dst[i] = memcpy(pool + used, src[i], n);
        used += n;
    }
    if (src[i]) {
        dst[0] = NULL;
        return 0;
    }
    dst[i] = NULL;
    return 1;
}

static char base_out[MAX_OUT], got_out[MAX_OUT], got_err[8192];
static char base_file[4096], got_file[4096];

/* The bytes of the output file path (NULL: none) after a run, into buf;
   -1 when the run left no such file. */
static long file_of(const char *path, char *buf, size_t cap)
{
    if (!path)
        return 0;
    if (access(path, F_OK) != 0)
        return -1;
    return (long)slurp(path, buf, cap);
}

/* Count the allocations of one run, then fail each in turn.  file: an
   output file the command writes (NULL: none), removed before each run:
   a run that exits 0 must have written it, byte for byte as without
   injection (an output the user asked for is never dropped). */
static void inject_all(const char *name, char *const *argv, const char *file,
                       unsigned long *total, unsigned long *worked_around)
{
    const char *only = getenv("WM_NOMEM_ONLY");
    if (only && strcmp(only, name) != 0)
        return;
    int argc = 0;
    while (argv[argc])
        argc++;
    if (file)
        unlink(file);
    int rc = run_once(argc, argv, 0);
    unsigned long count = nomem_count();
    size_t nbase = slurp(out_path, base_out, sizeof base_out);
    long nfile = file_of(file, base_file, sizeof base_file);
    CHECK_EQ(rc, WM_EXIT_OK);
    CHECK(nfile >= 0);
    CHECK_EQ(nomem_live(), 0);
    CHECK(nbase > 0);
    if (rc != WM_EXIT_OK) {
        slurp(err_path, got_err, sizeof got_err);
        fprintf(stderr, "%s: exit %d without injection: %s\n", name, rc,
                got_err);
        return;
    }
    unsigned long around = 0;
    for (unsigned long at = 1; at <= count; at++) {
        if (file)
            unlink(file);
        rc = run_once(argc, argv, at);
        size_t nout = slurp(out_path, got_out, sizeof got_out);
        long ngot = file_of(file, got_file, sizeof got_file);
        slurp(err_path, got_err, sizeof got_err);
        for (char *c = got_err; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        int oom = strstr(got_err, "cannot allocate") ||
                  strstr(got_err, "out of memory");
        int same = rc == WM_EXIT_OK && nout == nbase &&
                   memcmp(got_out, base_out, nout) == 0 && ngot == nfile &&
                   (ngot <= 0 || memcmp(got_file, base_file,
                                        (size_t)ngot) == 0);
        around += same ? 1u : 0u;
        int ok = nomem_failed() && nomem_live() == 0 &&
                 ((rc == WM_EXIT_INPUT && oom) || same);
        if (same && getenv("WM_NOMEM_TRACE"))
            fprintf(stderr, "%s: allocation %lu worked around: %s", name, at,
                    got_err);
        if (!ok)
            fprintf(stderr, "%s: allocation %lu of %lu failed: exit %d, %ld "
                            "blocks left, output file %s, stderr: %s\n",
                    name, at, count, rc, nomem_live(),
                    ngot < 0 ? "missing" : ngot == nfile ? "as expected"
                                                         : "different",
                    got_err);
        CHECK(ok);
    }
    printf("%s: %lu allocations, %lu worked around\n", name, count, around);
    *total += count;
    *worked_around += around;
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/wm-nomem-cli-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir))
        return 1;
    snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
    char copy_ptx[512], transpose_ptx[512], npy_in[512], npy_out[512],
        out_spec[600], file_spec[600], expr_file[512], sched_ptx[512],
        state_bin[512], global_spec[600];
    snprintf(copy_ptx, sizeof copy_ptx, "%s/examples/kernels/sm_80/copy.ptx",
             WM_SOURCE_DIR);
    snprintf(transpose_ptx, sizeof transpose_ptx,
             "%s/examples/kernels/sm_80/transpose.ptx", WM_SOURCE_DIR);
    snprintf(npy_in, sizeof npy_in, "%s/tests/ptx/iota4_f32.npy",
             WM_SOURCE_DIR);
    snprintf(npy_out, sizeof npy_out, "%s/out.npy", tmpdir);
    snprintf(out_spec, sizeof out_spec, "f32[4]:in-out:out=%s", npy_out);
    snprintf(file_spec, sizeof file_spec, "f32[4]:file=%s", npy_in);
    snprintf(sched_ptx, sizeof sched_ptx, "%s/tests/ptx/sched_state.ptx",
             WM_SOURCE_DIR);
    snprintf(state_bin, sizeof state_bin, "%s/state.bin", tmpdir);
    snprintf(global_spec, sizeof global_spec, "state=u32[2]:iota:out=%s",
             state_bin);
    snprintf(expr_file, sizeof expr_file,
             "%s/examples/expr/transpose_padded.expr", WM_SOURCE_DIR);
    /* fills: rand and a lazily filled 1 MiB iota buffer; JSON report */
    const char *run_json[] = {"run", copy_ptx, "--grid", "2", "--block", "64",
                              "--arg", "f32[128]:rand=1,-1,1",
                              "--arg", "f32[262144]:iota", "--arg", "i32=128",
                              "--format", "json", "-j", "1", NULL};
    /* a .npy in and out; the text report with its drawing */
    const char *run_npy[] = {"run", copy_ptx, "--grid", "1", "--block", "32",
                             "--arg", out_spec, "--arg", file_spec,
                             "--arg", "i32=4", "-j", "1", "--color", "never",
                             NULL};
    const char *run_csv[] = {"run", transpose_ptx, "--kernel",
                             "transpose_padded", "--grid", "2,1", "--block",
                             "32,8", "--arg", "f32[2048]", "--arg",
                             "f32[2048]:rand=3", "--arg", "i32=64", "--arg",
                             "i32=32", "--format", "csv", "-j", "1", NULL};
    /* --check all: the checker, and the second schedule's run on copies
       of the surface and the buffer (one warp: the orders agree) */
    const char *run_sched[] = {"run", sched_ptx, "--kernel", "surf", "--grid",
                               "1", "--block", "32", "--arg",
                               "surf1d:u32[2]:iota", "--arg", "u32[1]",
                               "--check", "all", "--draw", "0", NULL};
    /* a module variable set and read back into a file */
    const char *run_global[] = {"run", sched_ptx, "--kernel", "glob", "--grid",
                                "1", "--block", "32", "--arg", "u32[1]",
                                "--global", global_spec, "--draw", "0", NULL};
    /* a kernel named by its demangled name: the matcher describes each */
    const char *run_text[] = {"run", transpose_ptx, "--kernel",
                              "transpose_naive", "--grid", "1,1", "--block",
                              "32,8", "--arg", "f32[1024]", "--arg",
                              "f32[1024]:iota", "--arg", "i32=32", "--arg",
                              "i32=32", "--color", "never", "-j", "1", NULL};
    const char *expr_text[] = {"expr", "-D", "N=64", "--color", "never", "-f",
                               expr_file, NULL};
    const char *expr_json[] = {"expr", "--block", "32", "--format", "json",
                               "load shared f32 s[64] at [tid.x * 2]", NULL};
    /* lint's shape table (no --block) is a lint per block shape: the
       copy kernel keeps it short */
    const char *lint_text[] = {"lint", copy_ptx, "--color", "never", NULL};
    const char *lint_json[] = {"lint", transpose_ptx, "--kernel",
                               "transpose_padded", "--block", "32,8",
                               "--format", "json", NULL};
    const char *global_text[] = {"global", "--stride", "32", "--explain",
                                 "--color", "never", NULL};
    const char *shared_json[] = {"shared", "--stride", "32", "--explain",
                                 "--format", "json", NULL};
    const struct {
        const char *name;
        const char *const *argv;
        const char *file; /* an output file it writes */
    } lines[] = {
        {"run_json", run_json, NULL},       {"run_npy", run_npy, npy_out},
        {"run_csv", run_csv, NULL},         {"run_text", run_text, NULL},
        {"run_sched", run_sched, NULL},     {"run_global", run_global, state_bin},
        {"expr_text", expr_text, NULL},
        {"expr_json", expr_json, NULL},     {"lint_text", lint_text, NULL},
        {"lint_json", lint_json, NULL},     {"global_text", global_text, NULL},
        {"shared_json", shared_json, NULL},
    };
    unsigned long total = 0, around = 0;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char *argv[MAX_ARGS + 1];
        if (make_argv(lines[i].argv, argv))
            inject_all(lines[i].name, argv, lines[i].file, &total, &around);
        CHECK(argv[0] != NULL);
    }
    printf("test_nomem_cli: %zu command lines, %lu allocations each failed "
           "once, %lu worked around\n",
           sizeof lines / sizeof lines[0], total, around);
    unlink(out_path);
    unlink(err_path);
    unlink(npy_out);
    unlink(state_bin);
    char in_npy[128];
    snprintf(in_npy, sizeof in_npy, "%s/out.in.npy", tmpdir);
    unlink(in_npy);
    rmdir(tmpdir);
    return check_done("test_nomem_cli");
}
