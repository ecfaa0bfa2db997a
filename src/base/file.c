/* SPDX-License-Identifier: MIT */
/* file — whole-file read and atomic write; see file.h. */
#include "base/file.h"

#include "base/msg.h"
#include "base/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Under a file-size limit (ulimit -f) a write past it raises SIGXFSZ, whose
 * default ends the process: ignored from the start of every scalelab
 * program, so the write fails with EFBIG instead and is reported as the
 * write error it is (file_write, and cli_finish for standard output). */
__attribute__((constructor)) static void file_ignore_sigxfsz(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

static char *file_fail(FileProblem *why, FileStatus status, int errnum)
{
    if (why) {
        why->status = status;
        why->errnum = errnum;
    }
    return NULL;
}

static const char *file_kind(mode_t mode)
{
    return S_ISDIR(mode)                    ? "a directory"
           : S_ISFIFO(mode)                 ? "a FIFO"
           : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
                                            : "not a regular file";
}

/* Reads fd to its end into a buffer growing up to max_bytes + 1, so a file
 * that grew past the limit since fstat is still caught. */
static char *file_read_fd(int fd, size_t hint, size_t max_bytes, size_t *len, FileProblem *why)
{
    size_t cap = (hint < max_bytes ? hint : max_bytes) + 1;
    char *buf = xmem_alloc(cap + 1);
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            if (cap > max_bytes)
                break;
            cap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            buf = xmem_realloc(buf, cap + 1);
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return file_fail(why, FILE_CANNOT_READ, e);
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > max_bytes) {
        free(buf);
        if (why)
            why->size = (long long)n;
        return file_fail(why, FILE_TOO_LARGE, 0);
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *file_read(const char *path, size_t max_bytes, size_t *len, FileProblem *why)
{
    if (why)
        *why = (FileProblem){FILE_OK, 0, 0, NULL};
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return file_fail(why, errno == ENOENT ? FILE_MISSING : FILE_CANNOT_OPEN, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return file_fail(why, FILE_CANNOT_READ, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (why)
            why->kind = file_kind(st.st_mode);
        return file_fail(why, FILE_NOT_REGULAR, 0);
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        if (why)
            why->size = (long long)st.st_size;
        return file_fail(why, FILE_TOO_LARGE, 0);
    }
    char *buf = file_read_fd(fd, (size_t)st.st_size, max_bytes, len, why);
    close(fd);
    return buf;
}

void file_problem_text(const FileProblem *why, size_t max_bytes, char *err, size_t err_len)
{
    switch (why->status) {
    case FILE_OK:
        msg_set(err, err_len, "no problem");
        break;
    case FILE_MISSING:
    case FILE_CANNOT_OPEN:
        msg_set(err, err_len, "cannot open: %s", strerror(why->errnum));
        break;
    case FILE_NOT_REGULAR:
        msg_set(err, err_len, "not a regular file (%s)", why->kind);
        break;
    case FILE_TOO_LARGE:
        msg_set(err, err_len, "too large (%lld bytes, limit %zu)", why->size, max_bytes);
        break;
    case FILE_CANNOT_READ:
        msg_set(err, err_len, "cannot read: %s", strerror(why->errnum));
        break;
    }
}

/* Flushes the folder holding path, so a rename into it survives a crash. */
static void file_sync_dir(const char *path)
{
    char *dir = xmem_strdup(path);
    char *slash = strrchr(dir, '/');
    const char *d = ".";
    if (slash) {
        *slash = '\0';
        d = *dir ? dir : "/";
    }
    int dfd = open(d, O_RDONLY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
}

/* Runs fn on fd and, for a file, flushes it to disk; closes fd. Returns 0
 * or the errno of what failed. */
static int file_fill(int fd, bool sync, FileWriteFn fn, const void *ctx)
{
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        return e;
    }
    errno = 0;
    bool ok = fn(f, ctx);
    int e = ok ? 0 : (errno ? errno : EIO);
    if (ok && (fflush(f) != 0 || (sync && fsync(fileno(f)) != 0)))
        e = errno ? errno : EIO;
    if (fclose(f) != 0 && e == 0)
        e = errno ? errno : EIO;
    return e;
}

/* Writes into the FIFO or device at path as it is (an output the user
 * named, like /dev/stdout): nothing to replace, nothing to flush to disk.
 * A FIFO nobody reads is refused (ENXIO) rather than waited on. */
static int file_write_through(const char *path, FileWriteFn fn, const void *ctx)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return file_fill(fd, false, fn, ctx);
}

bool file_write(const char *path, unsigned flags, FileWriteFn fn, const void *ctx, char *err,
                size_t err_len)
{
    struct stat st;
    if (!(flags & (FILE_NEW | FILE_PRIVATE)) && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : file_write_through(path, fn, ctx);
        if (e != 0) {
            msg_set(err, err_len, "cannot write %s: %s", path, strerror(e));
            errno = e;
            return false;
        }
        return true;
    }
    mode_t mode = (flags & FILE_PRIVATE) ? 0600 : 0666;
    char *tmp = NULL;
    const char *target = path;
    if (!(flags & FILE_NEW)) {
        size_t tlen = strlen(path) + 32;
        tmp = xmem_alloc(tlen);
        snprintf(tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
        unlink(tmp); /* left by a crashed run that had our process id */
        target = tmp;
    }
    int e = 0;
    int fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode);
    if (fd < 0) {
        e = errno;
    } else {
        e = file_fill(fd, true, fn, ctx);
        if (e == 0 && tmp && rename(tmp, path) != 0)
            e = errno;
        if (e != 0)
            unlink(target);
        else if (tmp)
            file_sync_dir(path);
    }
    free(tmp);
    if (e != 0) {
        msg_set(err, err_len, "cannot write %s: %s", path, strerror(e));
        errno = e;
        return false;
    }
    return true;
}
