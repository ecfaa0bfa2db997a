/* SPDX-License-Identifier: MIT */
/* xdg — the XDG base directories (xdg.h). */
#include "base/xdg.h"

#include "base/msg.h"
#include "base/xmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* An environment variable that holds an absolute path, else NULL. */
static const char *xdg_absolute_env(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] == '/' ? v : NULL;
}

const char *xdg_path(XdgBase base, const char *name, char *buf, size_t n)
{
    const char *var = base == XDG_STATE ? "XDG_STATE_HOME" : "XDG_CACHE_HOME";
    const char *fallback = base == XDG_STATE ? ".local/state" : ".cache";
    const char *dir = xdg_absolute_env(var), *home = NULL;
    if (!dir && !(home = xdg_absolute_env("HOME")))
        return NULL;
    int len = dir ? snprintf(buf, n, "%s/scalelab%s%s", dir, name ? "/" : "", name ? name : "")
                  : snprintf(buf, n, "%s/%s/scalelab%s%s", home, fallback, name ? "/" : "",
                             name ? name : "");
    return len >= 0 && (size_t)len < n ? buf : NULL;
}

static bool xdg_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool xdg_mkdirs(const char *dir, char *err, size_t err_len)
{
    char *p = xmem_strdup(dir);
    bool ok = true;
    /* Each prefix ending at a '/' (not the root), then dir itself. */
    for (char *c = p + 1; ok; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        char keep = *c;
        *c = '\0';
        if (mkdir(p, 0700) != 0 && !(errno == EEXIST && xdg_is_dir(p))) {
            msg_set(err, err_len, "cannot create %s: %s", p,
                    errno == EEXIST ? "not a folder" : strerror(errno));
            ok = false;
        }
        *c = keep;
        if (keep == '\0')
            break;
    }
    free(p);
    return ok;
}
