/*
 * sass_tool.c -- the SASS of a PTX module: ptxas (-lineinfo, the
 * profile's sm) compiles it to a cubin, nvdisasm -gi -c prints it (line
 * info with the "inlined at" chains, so code inlined from a header is
 * also placed at the kernel's line); the text is cached per module
 * (docs/ptx.md, "SASS level").
 *
 * Tools are looked up in this order: WARPMEM_PTXAS / WARPMEM_NVDISASM
 * (a path), $CUDA_HOME/bin, $CUDA_PATH/bin, every PATH directory,
 * /usr/local/cuda/bin, then NVIDIA's pip wheels under $VIRTUAL_ENV,
 * $HOME/.local and /usr/local (lib/python3.x/site-packages/nvidia/
 * cu13/bin or cuda_nvdisasm/bin, the wheel's layouts).
 *
 * The cache key is a 64-bit FNV-1a hash of the PTX text, the sm, each
 * tool's path, size and modification time and nvdisasm's line option: a changed module or tool is a
 * new entry; old entries are never read again (delete the directory to
 * reclaim them).  Directory: $WARPMEM_SASS_CACHE ("off": no cache), else
 * $XDG_CACHE_HOME/warpmem/sass, else $HOME/.cache/warpmem/sass.
 */
#define _POSIX_C_SOURCE 200809L
#include "sass_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIS_LINES "-gi" /* nvdisasm's line info, with inlining chains */

static int executable(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* dir/name into out if executable. */
static int try_dir(const char *dir, const char *name, char *out, size_t n)
{
    if (!dir || !*dir)
        return 0;
    int k = snprintf(out, n, "%s/%s", dir, name);
    return k > 0 && (size_t)k < n && executable(out);
}

/* The wheel layouts under prefix (a venv or an install prefix). */
static int try_wheel(const char *prefix, const char *name, char *out,
                     size_t n)
{
    if (!prefix || !*prefix)
        return 0;
    static const char *const layouts[] = {
        "/lib/python3*/site-packages/nvidia/cu1*/bin/",
        "/lib/python3*/site-packages/nvidia/cuda_nvdisasm/bin/",
        "/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/",
        "/lib/python3*/dist-packages/nvidia/cu1*/bin/",
    };
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        char pat[1024];
        snprintf(pat, sizeof pat, "%s%s%s", prefix, layouts[i], name);
        glob_t g;
        int found = 0;
        if (glob(pat, 0, NULL, &g) == 0) {
            for (size_t j = g.gl_pathc; j-- > 0 && !found;)
                if (executable(g.gl_pathv[j]) &&
                    strlen(g.gl_pathv[j]) < n) {
                    memcpy(out, g.gl_pathv[j], strlen(g.gl_pathv[j]) + 1);
                    found = 1;
                }
            globfree(&g);
        }
        if (found)
            return 1;
    }
    return 0;
}

int cli_sass_find_tool(const char *name, const char *env, char *out,
                       size_t n, char *why, size_t nwhy)
{
    const char *e = getenv(env);
    if (e && *e) {
        if (executable(e) && strlen(e) < n) {
            memcpy(out, e, strlen(e) + 1);
            return 1;
        }
        snprintf(why, nwhy, "%s=%s is not an executable file", env, e);
        return 0;
    }
    char dir[1024];
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH")};
    for (size_t i = 0; i < 2; i++)
        if (homes[i] && *homes[i]) {
            snprintf(dir, sizeof dir, "%s/bin", homes[i]);
            if (try_dir(dir, name, out, n))
                return 1;
        }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *c = strchr(path, ':');
        size_t k = c ? (size_t)(c - path) : strlen(path);
        if (k && k < sizeof dir) {
            memcpy(dir, path, k);
            dir[k] = '\0';
            if (try_dir(dir, name, out, n))
                return 1;
        }
        path = c ? c + 1 : NULL;
    }
    if (try_dir("/usr/local/cuda/bin", name, out, n))
        return 1;
    const char *home = getenv("HOME");
    char local[1024] = "";
    if (home && *home)
        snprintf(local, sizeof local, "%s/.local", home);
    const char *prefixes[] = {getenv("VIRTUAL_ENV"), local, "/usr/local",
                              "/usr"};
    for (size_t i = 0; i < 4; i++)
        if (try_wheel(prefixes[i], name, out, n))
            return 1;
    snprintf(why, nwhy, "no %s (set %s, CUDA_HOME or PATH, or pip install "
                        "%s into the active virtualenv)",
             name, env,
             strcmp(name, "ptxas") ? "nvidia-cuda-nvdisasm"
                                   : "nvidia-cuda-nvcc");
    return 0;
}

/* Run argv with stdout to out_path and stderr to err_path; exit status,
   or -1 when it could not start. */
static int run_tool(char *const argv[], const char *out_path,
                    const char *err_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fnv_tool(uint64_t h, const char *path)
{
    struct stat st;
    h = fnv(h, path, strlen(path) + 1);
    if (stat(path, &st) == 0) {
        int64_t v[2] = {(int64_t)st.st_size, (int64_t)st.st_mtime};
        h = fnv(h, v, sizeof v);
    }
    return h;
}

/* The cache directory (created), or 0 for none. */
static int cache_dir(char *out, size_t n)
{
    const char *e = getenv("WARPMEM_SASS_CACHE");
    if (e && !strcmp(e, "off"))
        return 0;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (e && *e)
        snprintf(out, n, "%s", e);
    else if (xdg && *xdg)
        snprintf(out, n, "%s/warpmem/sass", xdg);
    else if (home && *home)
        snprintf(out, n, "%s/.cache/warpmem/sass", home);
    else
        return 0;
    for (char *p = out + 1; *p; p++) /* mkdir -p */
        if (*p == '/') {
            *p = '\0';
            mkdir(out, 0755);
            *p = '/';
        }
    mkdir(out, 0755);
    return access(out, W_OK) == 0;
}

static int write_all(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(s, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* The first line of file path (a tool's stderr) into why. */
static void first_line(const char *path, const char *tool, char *why,
                       size_t nwhy)
{
    size_t n = 0;
    char *t = wm_read_file(path, &n);
    char *nl = t ? strchr(t, '\n') : NULL;
    if (nl)
        *nl = '\0';
    snprintf(why, nwhy, "%s failed%s%s", tool, t && *t ? ": " : "",
             t ? t : "");
    free(t);
}

/* ptxas then nvdisasm in a temporary directory; the text, or NULL. */
static char *compile(const cli_sass_tools *t, const char *ptx, size_t n,
                     const char *arch, size_t *len, char *why, size_t nwhy)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512], in[600], cubin[600], out[600], err[600];
    snprintf(dir, sizeof dir, "%s/warpmem-sass-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(why, nwhy, "cannot create a temporary directory: %s",
                 strerror(errno));
        return NULL;
    }
    snprintf(in, sizeof in, "%s/m.ptx", dir);
    snprintf(cubin, sizeof cubin, "%s/m.cubin", dir);
    snprintf(out, sizeof out, "%s/m.sass", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    char *text = NULL;
    char *pa[] = {(char *)(uintptr_t)t->ptxas, (char *)(uintptr_t)"-lineinfo",
                  (char *)(uintptr_t)"-arch", (char *)(uintptr_t)arch,
                  (char *)(uintptr_t)"-o", cubin, in, NULL};
    char *da[] = {(char *)(uintptr_t)t->nvdisasm, (char *)(uintptr_t)DIS_LINES,
                  (char *)(uintptr_t)"-c", cubin, NULL};
    if (!write_all(in, ptx, n))
        snprintf(why, nwhy, "cannot write %s", in);
    else if (run_tool(pa, out, err) != 0)
        first_line(err, "ptxas", why, nwhy);
    else if (run_tool(da, out, err) != 0)
        first_line(err, "nvdisasm", why, nwhy);
    else if (!(text = wm_read_file(out, len)))
        snprintf(why, nwhy, "cannot read the disassembly");
    unlink(in), unlink(cubin), unlink(out), unlink(err);
    rmdir(dir);
    return text;
}

char *cli_sass_text(const cli_sass_tools *t, const char *ptx, size_t n,
                    const char *arch, size_t *len, char *why, size_t nwhy)
{
    uint64_t h = fnv(0xcbf29ce484222325ull, ptx, n);
    h = fnv(h, arch, strlen(arch) + 1);
    h = fnv_tool(fnv_tool(h, t->ptxas), t->nvdisasm);
    h = fnv(h, DIS_LINES, sizeof DIS_LINES);
    char dir[900], path[1000], part[1100];
    int cached = cache_dir(dir, sizeof dir);
    if (cached) {
        snprintf(path, sizeof path, "%s/%016llx.sass", dir,
                 (unsigned long long)h);
        char *text = wm_read_file(path, len);
        if (text)
            return text;
    }
    char *text = compile(t, ptx, n, arch, len, why, nwhy);
    if (text && cached) { /* a whole file or none: rename is atomic */
        snprintf(part, sizeof part, "%s.%ld.part", path, (long)getpid());
        if (write_all(part, text, *len))
            rename(part, path);
        else
            unlink(part);
    }
    return text;
}

int cli_sass_tools_find(cli_sass_tools *t, char *why, size_t nwhy)
{
    return cli_sass_find_tool("ptxas", "WARPMEM_PTXAS", t->ptxas,
                              sizeof t->ptxas, why, nwhy) &&
           cli_sass_find_tool("nvdisasm", "WARPMEM_NVDISASM", t->nvdisasm,
                              sizeof t->nvdisasm, why, nwhy);
}

void cli_sass_arch(const wm_ptx_module *m, unsigned sm, char *out, size_t n)
{
    const char *target = wm_ptx_target(m);
    unsigned tsm = 0;
    char suffix = '\0';
    if (target && sscanf(target, "sm_%u%c", &tsm, &suffix) >= 1 && tsm == sm &&
        (suffix == 'a' || suffix == 'f'))
        snprintf(out, n, "sm_%u%c", sm, suffix);
    else
        snprintf(out, n, "sm_%u", sm);
}
