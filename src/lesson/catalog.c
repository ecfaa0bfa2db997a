/* catalog — the lessons of a folder as a sorted list (see catalog.h).
 *
 * Each *.lua file is loaded with lesson_load_quick (one sandbox per file,
 * tighter limits), its header copied, the Lesson freed at once. A failed
 * file becomes an entry with its error. Only regular files ending in ".lua"
 * are read; names starting with '.' are skipped (editor backups). At most
 * CATALOG_MAX files are listed so a huge folder cannot stall the menu.
 */
#include "lesson/catalog.h"

#include "lesson/lesson.h"
#include "lesson/sandbox.h"
#include "model/xmem.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CATALOG_MAX 2000

typedef struct {
    CatalogEntry e;
    char *owned[6]; /* path, id, title, summary, track, error */
} Item;

struct Catalog {
    Item *items;
    int n;
};

static int item_cmp(const void *pa, const void *pb)
{
    const CatalogEntry *a = &((const Item *)pa)->e;
    const CatalogEntry *b = &((const Item *)pb)->e;
    if ((a->error != NULL) != (b->error != NULL))
        return a->error ? 1 : -1;
    int c = strcmp(a->track, b->track);
    if (c)
        return c;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    c = strcmp(a->id, b->id);
    return c ? c : strcmp(a->path, b->path);
}

static bool ends_with_lua(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".lua") == 0;
}

static void fill_item(Item *it, const char *dir, const char *name)
{
    memset(it, 0, sizeof *it);
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = xmalloc(len);
    snprintf(path, len, "%s/%s", dir, name);
    it->owned[0] = path;
    it->e.path = path;
    char err[LESSON_ERR_LEN];
    Lesson *l = lesson_load_quick(path, err, sizeof err);
    if (l) {
        it->owned[1] = xstrdup(lesson_id(l));
        it->owned[2] = xstrdup(lesson_title(l));
        it->owned[3] = xstrdup(lesson_summary(l));
        it->owned[4] = xstrdup(lesson_track(l));
        it->e.order = lesson_order(l);
        it->e.minutes = lesson_minutes(l);
        it->e.pages = lesson_page_count(l);
        lesson_free(l);
    } else {
        char shown[256]; /* a file name may hold control characters */
        sandbox_escape(name, strlen(name), shown, sizeof shown);
        char *id = xstrdup(shown);
        size_t n = strlen(id);
        if (n > 4 && strcmp(id + n - 4, ".lua") == 0)
            id[n - 4] = '\0';
        it->owned[1] = id;
        it->owned[2] = xstrdup(shown);
        it->owned[3] = xstrdup("");
        it->owned[4] = xstrdup("");
        it->owned[5] = xstrdup(err);
        it->e.error = it->owned[5];
    }
    it->e.id = it->owned[1];
    it->e.title = it->owned[2];
    it->e.summary = it->owned[3];
    it->e.track = it->owned[4];
}

Catalog *catalog_load(const char *dir, char *err, size_t err_len)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        if (err && err_len)
            snprintf(err, err_len, "%s: %s", dir ? dir : "(no folder)",
                     dir ? strerror(errno) : "no lessons folder");
        return NULL;
    }
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < CATALOG_MAX) {
        if (de->d_name[0] == '.' || !ends_with_lua(de->d_name))
            continue;
        names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    Catalog *c = xcalloc(1, sizeof *c);
    c->items = xcalloc((size_t)(n ? n : 1), sizeof *c->items);
    for (int i = 0; i < n; i++) {
        fill_item(&c->items[c->n++], dir, names[i]);
        free(names[i]);
    }
    free(names);
    qsort(c->items, (size_t)c->n, sizeof *c->items, item_cmp);
    return c;
}

void catalog_free(Catalog *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        for (int k = 0; k < 6; k++)
            free(c->items[i].owned[k]);
    free(c->items);
    free(c);
}

int catalog_count(const Catalog *c)
{
    return c ? c->n : 0;
}

const CatalogEntry *catalog_entry(const Catalog *c, int i)
{
    return c && i >= 0 && i < c->n ? &c->items[i].e : NULL;
}

int catalog_find(const Catalog *c, const char *id)
{
    for (int i = 0; c && id && i < c->n; i++)
        if (strcmp(c->items[i].e.id, id) == 0)
            return i;
    return -1;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* env, else NAME beside the executable (an in-tree build), else
 * ../share/scalelab/NAME from the executable (an install moved to another
 * PREFIX or DESTDIR), else SCALELAB_DATADIR/NAME. */
static const char *lookup_dir(const char *env, const char *name, char *buf, size_t n)
{
    if (!buf || n == 0)
        return NULL;
    const char *v = getenv(env);
    int w;
    if (v && v[0]) {
        w = snprintf(buf, n, "%s", v);
        return w >= 0 && (size_t)w < n ? buf : NULL;
    }
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            w = snprintf(buf, n, "%s/%s", exe, name);
            if (w >= 0 && (size_t)w < n && is_dir(buf))
                return buf;
            w = snprintf(buf, n, "%s/../share/scalelab/%s", exe, name);
            if (w >= 0 && (size_t)w < n && is_dir(buf))
                return buf;
        }
    }
    w = snprintf(buf, n, "%s/%s", SCALELAB_DATADIR, name);
    return w >= 0 && (size_t)w < n ? buf : NULL;
}

const char *catalog_default_dir(char *buf, size_t n)
{
    return lookup_dir("SCALELAB_LESSONS", "lessons", buf, n);
}

const char *catalog_assets_dir(char *buf, size_t n)
{
    return lookup_dir("SCALELAB_ASSETS", "assets", buf, n);
}
