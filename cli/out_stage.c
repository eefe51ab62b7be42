/*
 * out_stage.c -- output files that lose nothing (out_stage.h).  A
 * regular file (or a new one) is written to ".NAME.wm-XXXXXX" in its own
 * directory, so the final rename(2) is atomic and never crosses a file
 * system; an existing non-regular file (a device such as /dev/null, a
 * FIFO) cannot be replaced, nor can a writable file in a directory that
 * refuses new files, so their temporaries live in $TMPDIR and are copied
 * into them at commit.
 */
#define _POSIX_C_SOURCE 200809L
#include "out_stage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_stage_init(cli_stage *s)
{
    memset(s, 0, sizeof *s);
}

static char *dup_str(const char *p)
{
    size_t n = strlen(p) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, p, n);
    return d;
}

static cli_staged *find(cli_stage *s, const char *dst)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].dst, dst) == 0)
            return &s->v[i];
    return NULL;
}

int cli_stage_add(cli_stage *s, const char *path, const char *flag)
{
    if (s->n == CLI_MAX_STAGED) {
        cli_error("more than %d output files", CLI_MAX_STAGED);
        return 0;
    }
    cli_staged *e = &s->v[s->n];
    memset(e, 0, sizeof *e);
    if (!(e->dst = dup_str(path))) {
        cli_error("out of memory");
        return 0;
    }
    e->flag = flag;
    s->n++;
    return 1;
}

/* What a path names: the file's device and inode when it exists, else
   its directory's and its last component (name; "" for an existing
   file).  0 when neither can be found (the write will say why). */
typedef struct file_id {
    dev_t dev;
    ino_t ino;
    char name[256];
} file_id;

static int path_id(const char *path, file_id *id)
{
    struct stat sb;
    memset(id, 0, sizeof *id);
    if (stat(path, &sb) == 0) {
        id->dev = sb.st_dev;
        id->ino = sb.st_ino;
        return 1;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dl = slash ? (size_t)(slash - path) : 0;
    char dir[4096];
    if (strlen(base) >= sizeof id->name || dl + 2 > sizeof dir)
        return 0;
    if (!slash)
        strcpy(dir, ".");
    else if (dl == 0)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, dl);
        dir[dl] = 0;
    }
    if (stat(dir, &sb) != 0)
        return 0;
    id->dev = sb.st_dev;
    id->ino = sb.st_ino;
    strcpy(id->name, base);
    return 1;
}

static int same_id(const file_id *a, const file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino &&
           strcmp(a->name, b->name) == 0;
}

/* Is the existing path a device, FIFO or socket (written in place)? */
static int is_special(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) &&
           !S_ISDIR(sb.st_mode);
}

int cli_stage_check(const cli_stage *s, const char *const *in, size_t nin)
{
    for (size_t i = 0; i < s->n; i++) {
        file_id o;
        if (!path_id(s->v[i].dst, &o) || is_special(s->v[i].dst))
            continue; /* /dev/null twice is fine; a bad path fails later */
        for (size_t j = 0; j < nin; j++) {
            file_id x;
            if (in[j] && path_id(in[j], &x) && same_id(&o, &x))
                return cli_error("output '%s' (%s) is the input '%s': "
                                 "refusing to overwrite it",
                                 s->v[i].dst, s->v[i].flag, in[j]);
        }
        for (size_t j = 0; j < i; j++) {
            file_id x;
            if (path_id(s->v[j].dst, &x) && same_id(&o, &x))
                return cli_error("output '%s' (%s) is also output '%s' "
                                 "(%s): give each output its own file",
                                 s->v[i].dst, s->v[i].flag, s->v[j].dst,
                                 s->v[j].flag);
        }
    }
    return WM_EXIT_OK;
}

/* The temporary's template for dst: beside it, or in $TMPDIR for a
   special file.  0 when the path is too long. */
static int tmp_template(const char *dst, int special, char *buf, size_t cap)
{
    const char *slash = strrchr(dst, '/');
    const char *base = slash ? slash + 1 : dst;
    int n;
    if (special) {
        const char *t = getenv("TMPDIR");
        n = snprintf(buf, cap, "%s/warpmem-out-XXXXXX", t && *t ? t : "/tmp");
    } else {
        n = snprintf(buf, cap, "%.*s.%s.wm-XXXXXX",
                     slash ? (int)(slash - dst + 1) : 0, dst, base);
    }
    return n > 0 && (size_t)n < cap;
}

/* The mode a new file gets from open(2) (0666 less the umask), or the
   existing file's. */
static mode_t dst_mode(const char *dst)
{
    struct stat sb;
    if (stat(dst, &sb) == 0 && S_ISREG(sb.st_mode))
        return sb.st_mode & 07777;
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~um;
}

FILE *cli_stage_open(cli_stage *s, const char *dst)
{
    cli_staged *e = find(s, dst);
    if (!e) {
        if (!cli_stage_add(s, dst, "output"))
            return errno = ENOMEM, NULL;
        e = &s->v[s->n - 1];
    }
    if (e->tmp) { /* written again: the earlier text is dropped */
        unlink(e->tmp);
        free(e->tmp);
        e->tmp = NULL;
    }
    char t[4200];
    e->copy = is_special(dst);
    if (!tmp_template(dst, e->copy, t, sizeof t))
        return errno = ENAMETOOLONG, NULL;
    int fd = mkstemp(t), err = errno;
    if (fd < 0 && !e->copy &&
        (err == EACCES || err == EROFS || err == EPERM) &&
        access(dst, W_OK) == 0) { /* a writable file, a closed directory */
        e->copy = 1;
        if (tmp_template(dst, 1, t, sizeof t))
            fd = mkstemp(t);
    }
    if (fd < 0) {
        errno = err; /* why the file's own directory refused */
        return NULL;
    }
    FILE *f = NULL;
    if (fchmod(fd, dst_mode(dst)) != 0 || !(e->tmp = dup_str(t)) ||
        !(f = fdopen(fd, "wb"))) {
        err = errno ? errno : ENOMEM;
        close(fd);
        unlink(t);
        free(e->tmp);
        e->tmp = NULL;
        errno = err;
        return NULL;
    }
    return f;
}

/* Copy the temporary src into the special file dst.  1, or 0 with errno
   set. */
static int copy_into(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, "wb") : NULL;
    char buf[65536];
    int ok = out != NULL, err = 0;
    size_t k;
    while (ok && (k = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, k, out) == k;
    if (!ok)
        err = errno;
    if (in && ferror(in) && ok)
        ok = 0, err = errno;
    if (out && fclose(out) != 0 && ok)
        ok = 0, err = errno;
    if (in)
        fclose(in);
    errno = err;
    return ok;
}

int cli_stage_commit(cli_stage *s)
{
    int rc = WM_EXIT_OK;
    for (size_t i = 0; i < s->n; i++) {
        cli_staged *e = &s->v[i];
        if (!e->tmp)
            continue;
        int ok = e->copy ? copy_into(e->tmp, e->dst)
                         : rename(e->tmp, e->dst) == 0;
        int err = errno;
        if (!ok) {
            char what[1200];
            snprintf(what, sizeof what, "'%s' (%s)", e->dst, e->flag);
            rc = cli_write_error(what, err);
        }
        unlink(e->tmp); /* gone already after a rename */
        free(e->tmp);
        e->tmp = NULL;
    }
    return rc;
}

size_t cli_stage_discard(cli_stage *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!s->v[i].tmp)
            continue;
        unlink(s->v[i].tmp);
        free(s->v[i].tmp);
        s->v[i].tmp = NULL;
        n++;
    }
    return n;
}

void cli_stage_free(cli_stage *s)
{
    cli_stage_discard(s);
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].dst);
    s->n = 0;
}
