/* SPDX-License-Identifier: MIT */
/* lessonarg — LESSON arguments to lesson paths (see lessonarg.h). */
#include "cmd/lessonarg.h"

#include "base/msg.h"
#include "base/xmem.h"
#include "lesson/catalog.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

static bool lessonarg_is_path(const char *arg)
{
    size_t len = strlen(arg);
    return access(arg, F_OK) == 0 || (len > 4 && strcmp(arg + len - 4, ".lua") == 0);
}

/* The entry of cat whose id or file name without ".lua" is arg, or NULL. */
static const CatalogEntry *lessonarg_find(const Catalog *cat, const char *arg)
{
    size_t len = strlen(arg);
    for (int i = 0; i < catalog_count(cat); i++) {
        const CatalogEntry *e = catalog_entry(cat, i);
        const char *base = strrchr(e->path, '/');
        base = base ? base + 1 : e->path;
        if (strcmp(e->id, arg) == 0 ||
            (strncmp(base, arg, len) == 0 && strcmp(base + len, ".lua") == 0))
            return e;
    }
    return NULL;
}

void lessonarg_paths(const char *const *args, int n, const char *dir, char **out)
{
    Catalog *cat = NULL;
    bool loaded = false;
    for (int i = 0; i < n; i++) {
        const CatalogEntry *e = NULL;
        if (!lessonarg_is_path(args[i])) {
            if (!loaded) {
                char dirbuf[4096], err[MSG_LEN];
                const char *d = dir ? dir : catalog_default_dir(dirbuf, sizeof dirbuf);
                cat = d ? catalog_load(d, err, sizeof err) : NULL;
                loaded = true;
            }
            e = lessonarg_find(cat, args[i]);
        }
        out[i] = xmem_strdup(e ? e->path : args[i]);
    }
    catalog_free(cat);
}
