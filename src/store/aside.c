/* SPDX-License-Identifier: MIT */
/* aside — unreadable files kept under a unique name (see aside.h). */
#include "store/aside.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0) /* linux/fs.h */
#endif

#define ASIDE_TRIES 10000

/* rename(from, to) that fails with EEXIST instead of replacing to. */
static int aside_rename(const char *from, const char *to)
{
#ifdef SYS_renameat2
    if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
#endif
    /* No RENAME_NOREPLACE here: a hard link never replaces either. */
    if (link(from, to) == 0)
        return unlink(from);
    if (errno != EPERM && errno != EOPNOTSUPP)
        return -1;
    struct stat st; /* no hard links either (some shared folders): look, then rename */
    if (lstat(to, &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}

bool aside_keep(const char *path, char *aside, size_t aside_len)
{
    if (aside && aside_len)
        aside[0] = '\0';
    char stamp[32] = "unknown-time";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    char name[4200];
    for (int n = 1; n <= ASIDE_TRIES; n++) {
        int w = snprintf(name, sizeof name, "%s.corrupt-%s-%d", path, stamp, n);
        if (w < 0 || (size_t)w >= sizeof name) {
            errno = ENAMETOOLONG;
            return false;
        }
        if (aside_rename(path, name) == 0) {
            if (aside && aside_len)
                snprintf(aside, aside_len, "%s", name);
            return true;
        }
        if (errno != EEXIST)
            return false;
    }
    errno = EEXIST;
    return false;
}
