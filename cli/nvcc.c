/*
 * nvcc.c -- the one place the CLI runs nvcc: a .cu given to `run` or
 * `lint` becomes PTX with line information in a temporary file.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
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
    snprintf(arch, sizeof arch, "-arch=sm_%u", sm ? sm : 80);
    pid_t pid = fork();
    if (pid < 0) {
        unlink(out);
        return cli_error("cannot run nvcc: %s", strerror(errno)), 0;
    }
    if (pid == 0) {
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
        execvp("nvcc", argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        unlink(out);
        return cli_error("%s: compiling CUDA needs nvcc on PATH (or pass the "
                         "PTX: nvcc -ptx -lineinfo -arch=sm_80 %s)",
                         cu, cu),
               0;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(out);
        return cli_error("%s: nvcc failed", cu), 0;
    }
    return 1;
}
