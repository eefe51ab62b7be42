/*
 * nvcc.c -- the PTX `run` and `lint` read: a .ptx file, or a .cu that
 * nvcc (run only here) compiles to PTX with line information in a
 * temporary file; read and parsed, with the reason printed on failure.
 */
#define _GNU_SOURCE /* pipe2 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Compile a .cu to PTX with nvcc into a temporary file; path in out.
   flags: extra nvcc arguments (-I, -D, -std, --extended-lambda ...). */
int cli_compile_cu(const char *cu, unsigned sm, const char *const *flags,
                   size_t nflags, char *out, size_t outlen)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, outlen, "%s/warpmem-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(out);
    if (fd < 0)
        return cli_error("cannot create a temporary file: %s", strerror(errno)), 0;
    close(fd);
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%u",
             sm ? sm : wm_arch_default()->sm);
    /* ran: a close-on-exec pipe; a byte on it says no nvcc was found */
    int ran[2];
    if (pipe2(ran, O_CLOEXEC) < 0) {
        unlink(out);
        return cli_error("cannot run nvcc: %s", strerror(errno)), 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(ran[0]);
        close(ran[1]);
        unlink(out);
        return cli_error("cannot run nvcc: %s", strerror(errno)), 0;
    }
    if (pid == 0) {
        close(ran[0]);
        char *argv[8 + CLI_MAX_NVCC_FLAGS];
        size_t n = 0;
        argv[n++] = (char *)(uintptr_t)"nvcc";
        argv[n++] = (char *)(uintptr_t)"-ptx";
        argv[n++] = (char *)(uintptr_t)"-lineinfo";
        argv[n++] = arch;
        for (size_t i = 0; i < nflags && i < CLI_MAX_NVCC_FLAGS; i++)
            argv[n++] = (char *)(uintptr_t)flags[i];
        argv[n++] = (char *)(uintptr_t)"-o";
        argv[n++] = out;
        argv[n++] = (char *)(uintptr_t)cu;
        argv[n] = NULL;
        /* $CUDA_HOME/bin/nvcc when CUDA_HOME is set (the toolkit a user
           named), else nvcc on PATH, else the toolkit's usual place.
           argv[0] is the path run: nvcc finds cicc and its profile from
           it (a bare "nvcc" not on PATH sends it looking elsewhere). */
        const char *home = getenv("CUDA_HOME");
        char path[4096];
        if (home && *home) {
            snprintf(path, sizeof path, "%s/bin/nvcc", home);
            if (access(path, X_OK) == 0) {
                argv[0] = path;
                execv(path, argv);
            }
        }
        argv[0] = (char *)(uintptr_t)"nvcc";
        execvp("nvcc", argv);
        argv[0] = (char *)(uintptr_t)"/usr/local/cuda/bin/nvcc";
        execv(argv[0], argv);
        /* tell the parent nothing ran (nvcc itself may exit 127) */
        char e = 1;
        if (write(ran[1], &e, 1) < 0)
            _exit(126);
        _exit(127);
    }
    close(ran[1]);
    char none = 0;
    ssize_t got;
    while ((got = read(ran[0], &none, 1)) < 0 && errno == EINTR)
        ;
    close(ran[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got == 1) {
        unlink(out);
        return cli_error("%s: compiling CUDA needs nvcc: in $CUDA_HOME/bin, "
                         "on PATH or in /usr/local/cuda/bin (or pass the "
                         "PTX: nvcc -ptx -lineinfo -arch=sm_%u %s)",
                         cu, sm ? sm : wm_arch_default()->sm, cu),
               0;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(out);
        return cli_error("%s: nvcc failed", cu), 0;
    }
    return 1;
}

int cli_is_cu(const char *path)
{
    size_t len = strlen(path);
    return len > 3 && strcmp(path + len - 3, ".cu") == 0;
}

int cli_load_ptx(const char *input, unsigned sm, const char *const *flags,
                 size_t nflags, char **src, size_t *n, wm_ptx_module **m)
{
    char tmp[512] = "";
    const char *path = input;
    *src = NULL;
    *m = NULL;
    if (cli_is_cu(input)) {
        if (!cli_compile_cu(input, sm, flags, nflags, tmp, sizeof tmp))
            return 0;
        path = tmp;
    }
    *src = wm_read_file(path, n);
    int err = errno;
    if (*tmp)
        unlink(tmp);
    if (!*src)
        return cli_error("cannot read '%s': %s", input, wm_read_error(err)),
               0;
    wm_diag d;
    if (wm_ptx_parse(*src, *n, input, m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, *tmp ? "(nvcc output)" : input, *src, *n);
        return 0;
    }
    return 1;
}
