/* SPDX-License-Identifier: MIT */
/* catalog — the lessons of a folder as a sorted list (see catalog.h).
 *
 * Each *.lua file whose size and mtime match its line in the header cache
 * (below) is taken from there; any other is loaded with lesson_load_quick
 * (one sandbox per file, tighter limits), its header copied, the Lesson
 * freed at once. A failed
 * file becomes an entry with its error. Only regular files ending in ".lua"
 * are read; names starting with '.' are skipped (editor backups). At most
 * CATALOG_MAX files are listed so a huge folder cannot stall the menu.
 */
#include "lesson/catalog.h"

#include "base/escape.h"
#include "base/file.h"
#include "base/msg.h"
#include "base/xdg.h"
#include "base/xmem.h"
#include "lesson/lesson.h"
#include "lesson/sandbox.h"
#include "store/aside.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
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

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- The header cache ------------------------------------------------
 * $XDG_CACHE_HOME/scalelab/catalog (else ~/.cache/scalelab/catalog): a
 * version line, then one line per lesson that loaded without error:
 * path, size, mtime (ns), id, title, summary, track, order, minutes,
 * pages, tab-separated, strings escaped (\t \n \\). A line is used only
 * when path (the folder's real path + name), size and mtime all match.
 * Anything malformed, truncated or over CACHE_MAX_BYTES voids the whole
 * file (it is set aside, store/aside.h, and written afresh); strings read
 * back are sanitized again, so a
 * tampered cache cannot send escapes to the terminal. Written to a temp
 * file and renamed, only when something changed; never when the folder
 * cannot be made or when no lesson loaded. */
#define CACHE_VERSION   "scalelab-catalog 1"
#define CACHE_MAX_BYTES (1024 * 1024)
#define CACHE_NFIELDS   10

typedef struct {
    char *f[CACHE_NFIELDS]; /* unescaped, owned; f[0] = path */
    long long size, mtime_ns;
    bool used; /* matched a file of this folder */
} CacheLine;

typedef struct {
    CacheLine *lines;
    int n;
    bool dirty;      /* something to write */
    bool unreadable; /* a file is there that is no cache of ours: set aside before writing */
    bool any_ok;     /* at least one lesson of this folder loaded */
    char *dir_real;  /* realpath of the folder, NULL: no cache */
    size_t dir_len;
    CacheLine *fresh; /* lessons loaded this time, to be cached */
    int n_fresh;
} Cache;

static void cache_line_free(CacheLine *l)
{
    for (int k = 0; k < CACHE_NFIELDS; k++)
        free(l->f[k]);
}

static char *cache_file_path(void)
{
    char buf[4096];
    const char *p = xdg_path(XDG_CACHE, "catalog", buf, sizeof buf);
    return p ? xmem_strdup(p) : NULL;
}

/* Unescapes s[0..n) into a new string; NULL on a bad escape. */
static char *cache_unescape(const char *s, size_t n)
{
    char *out = xmem_alloc(n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            out[o++] = s[i];
            continue;
        }
        if (++i == n) {
            free(out);
            return NULL;
        }
        char c = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : s[i] == '\\' ? '\\' : 0;
        if (!c) {
            free(out);
            return NULL;
        }
        out[o++] = c;
    }
    out[o] = '\0';
    return out;
}

/* Control characters (C0, DEL, and C1 as UTF-8 0xC2 0x80-0x9F) become '?'. */
static void cache_sanitize(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            *p = '?';
        } else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            p[0] = '?';
            p[1] = '?';
            p++;
        }
    }
}

static bool cache_parse_ll(const char *s, long long lo, long long hi, long long *v)
{
    if (!s[0] || strlen(s) > 19)
        return false;
    long long x = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || x > (LLONG_MAX - 9) / 10)
            return false;
        x = x * 10 + (*p - '0');
    }
    if (x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

static bool cache_parse_line(const char *s, size_t n, CacheLine *l)
{
    memset(l, 0, sizeof *l);
    size_t start = 0;
    int k = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '\t')
            continue;
        if (k == CACHE_NFIELDS || !(l->f[k] = cache_unescape(s + start, i - start)))
            goto bad;
        k++;
        start = i + 1;
    }
    long long v;
    if (k != CACHE_NFIELDS || l->f[0][0] != '/' ||
        !cache_parse_ll(l->f[1], 0, LLONG_MAX, &l->size) ||
        !cache_parse_ll(l->f[2], 0, LLONG_MAX, &l->mtime_ns) ||
        !cache_parse_ll(l->f[7], 0, INT_MAX, &v) || !cache_parse_ll(l->f[8], 0, INT_MAX, &v) ||
        !cache_parse_ll(l->f[9], 0, INT_MAX, &v) || !l->f[3][0])
        goto bad;
    for (int j = 3; j <= 6; j++)
        cache_sanitize(l->f[j]);
    return true;
bad:
    cache_line_free(l);
    return false;
}

static int cache_line_cmp(const void *pa, const void *pb)
{
    return strcmp(((const CacheLine *)pa)->f[0], ((const CacheLine *)pb)->f[0]);
}

static void cache_drop_lines(Cache *c)
{
    for (int i = 0; i < c->n; i++)
        cache_line_free(&c->lines[i]);
    free(c->lines);
    c->lines = NULL;
    c->n = 0;
}

/* Reads the cache file; a bad one leaves no lines and marks it dirty. */
static void cache_read(Cache *c)
{
    char *path = cache_file_path();
    size_t len = 0;
    FileProblem why = {FILE_MISSING, 0, 0, NULL};
    char *buf = path ? file_read(path, CACHE_MAX_BYTES, &len, &why) : NULL;
    free(path);
    c->dirty = true;
    c->unreadable = true; /* until it parses */
    if (!buf) {
        c->unreadable = why.status != FILE_MISSING;
        return;
    }
    size_t vlen = strlen(CACHE_VERSION);
    if (len < vlen + 1 || memcmp(buf, CACHE_VERSION "\n", vlen + 1) != 0 || buf[len - 1] != '\n' ||
        memchr(buf, '\0', len)) {
        free(buf);
        return;
    }
    for (size_t i = vlen + 1; i < len;) {
        char *nl = memchr(buf + i, '\n', len - i);
        size_t n = (size_t)(nl - (buf + i));
        c->lines = xmem_realloc(c->lines, (size_t)(c->n + 1) * sizeof *c->lines);
        if (!cache_parse_line(buf + i, n, &c->lines[c->n])) {
            cache_drop_lines(c);
            free(buf);
            return;
        }
        c->n++;
        i += n + 1;
    }
    free(buf);
    if (c->n > 1)
        qsort(c->lines, (size_t)c->n, sizeof *c->lines, cache_line_cmp);
    for (int i = 1; i < c->n; i++)
        if (strcmp(c->lines[i - 1].f[0], c->lines[i].f[0]) == 0) {
            cache_drop_lines(c); /* the same path twice: not written by us */
            return;
        }
    c->dirty = false;
    c->unreadable = false;
}

static void cache_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\t')
            fputs("\\t", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else if (*s == '\\')
            fputs("\\\\", f);
        else
            fputc(*s, f);
    }
}

static void cache_put_line(FILE *f, const CacheLine *l)
{
    for (int k = 0; k < CACHE_NFIELDS; k++) {
        if (k)
            fputc('\t', f);
        cache_escape(f, l->f[k]);
    }
    fputc('\n', f);
}

static bool cache_in_dir(const Cache *c, const char *path)
{
    return strncmp(path, c->dir_real, c->dir_len) == 0 && path[c->dir_len] == '/' &&
           !strchr(path + c->dir_len + 1, '/');
}

/* Writes the cache file: this folder's fresh lines, then the lines of
 * other folders (those not looked at this time only while they fit). */
static bool cache_put_all(FILE *f, const void *ctx)
{
    const Cache *c = ctx;
    fputs(CACHE_VERSION "\n", f);
    long budget = CACHE_MAX_BYTES / 2; /* room kept for other folders' lines */
    for (int i = 0; i < c->n_fresh; i++)
        cache_put_line(f, &c->fresh[i]);
    for (int i = 0; i < c->n; i++) {
        const CacheLine *l = &c->lines[i];
        if (l->used || !cache_in_dir(c, l->f[0])) {
            if (!l->used && ftell(f) > budget)
                continue;
            cache_put_line(f, l);
        }
    }
    return !ferror(f) && ftell(f) <= CACHE_MAX_BYTES;
}

static void cache_write(Cache *c)
{
    char *path = cache_file_path();
    if (!path)
        return;
    /* Make the folders: .../scalelab and those above it. */
    char *slash = strrchr(path, '/');
    *slash = '\0';
    bool ok = xdg_mkdirs(path, NULL, 0);
    *slash = '/';
    /* A cache that did not read is kept (store/aside.h), never replaced;
     * when it cannot be moved, nothing is written. */
    if (ok && (!c->unreadable || aside_keep(path, NULL, 0)))
        file_write(path, FILE_PRIVATE, cache_put_all, c, NULL, 0);
    free(path);
}

/* The cached line for path, or NULL. */
static CacheLine *cache_find(Cache *c, const char *path)
{
    CacheLine key;
    key.f[0] = (char *)path;
    return c->n ? bsearch(&key, c->lines, (size_t)c->n, sizeof *c->lines, cache_line_cmp) : NULL;
}

static void cache_free(Cache *c)
{
    cache_drop_lines(c);
    for (int i = 0; i < c->n_fresh; i++)
        cache_line_free(&c->fresh[i]);
    free(c->fresh);
    free(c->dir_real);
}

static char *own(const char *s)
{
    return xmem_strdup(s ? s : "");
}

static char *fmt_ll(long long v)
{
    char b[24];
    snprintf(b, sizeof b, "%lld", v);
    return xmem_strdup(b);
}

/* Fills it from the cache when its file matches a line (true). */
static bool fill_from_cache(Item *it, Cache *c, const char *key, const struct stat *st,
                            long long mtime_ns)
{
    CacheLine *l = cache_find(c, key);
    if (!l || l->size != (long long)st->st_size || l->mtime_ns != mtime_ns)
        return false;
    l->used = true;
    c->any_ok = true;
    for (int k = 1; k <= 4; k++)
        it->owned[k] = xmem_strdup(l->f[k + 2]);
    it->e.order = atoi(l->f[7]);
    it->e.minutes = atoi(l->f[8]);
    it->e.pages = atoi(l->f[9]);
    return true;
}

static void fill_item(Item *it, const char *dir, const char *name, Cache *c)
{
    memset(it, 0, sizeof *it);
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = xmem_alloc(len);
    snprintf(path, len, "%s/%s", dir, name);
    it->owned[0] = path;
    it->e.path = path;
    /* The cache key: the folder's real path and the name. */
    char *key = NULL;
    struct stat st;
    long long mtime_ns = 0;
    if (c->dir_real && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        size_t klen = c->dir_len + strlen(name) + 2;
        key = xmem_alloc(klen);
        snprintf(key, klen, "%s/%s", c->dir_real, name);
        mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    }
    char err[MSG_LEN];
    Lesson *l = NULL;
    if (key && fill_from_cache(it, c, key, &st, mtime_ns)) {
        free(key);
        key = NULL;
    } else if ((l = lesson_load_quick(path, err, sizeof err)) != NULL) {
        it->owned[1] = own(lesson_id(l));
        it->owned[2] = own(lesson_title(l));
        it->owned[3] = own(lesson_summary(l));
        it->owned[4] = own(lesson_track(l));
        it->e.order = lesson_order(l);
        it->e.minutes = lesson_minutes(l);
        it->e.pages = lesson_page_count(l);
        lesson_free(l);
        c->any_ok = true;
        if (key && it->e.order >= 0 && it->e.minutes >= 0 && it->e.pages >= 0 && it->owned[1][0]) {
            c->fresh = xmem_realloc(c->fresh, (size_t)(c->n_fresh + 1) * sizeof *c->fresh);
            CacheLine *cl = &c->fresh[c->n_fresh++];
            memset(cl, 0, sizeof *cl);
            cl->f[0] = key;
            key = NULL;
            cl->f[1] = fmt_ll((long long)st.st_size);
            cl->f[2] = fmt_ll(mtime_ns);
            for (int k = 1; k <= 4; k++)
                cl->f[k + 2] = xmem_strdup(it->owned[k]);
            cl->f[7] = fmt_ll(it->e.order);
            cl->f[8] = fmt_ll(it->e.minutes);
            cl->f[9] = fmt_ll(it->e.pages);
            c->dirty = true;
        }
    } else {
        char shown[256]; /* a file name may hold control characters */
        escape_text(name, strlen(name), shown, sizeof shown);
        char *id = xmem_strdup(shown);
        size_t n = strlen(id);
        if (n > 4 && strcmp(id + n - 4, ".lua") == 0)
            id[n - 4] = '\0';
        it->owned[1] = id;
        it->owned[2] = xmem_strdup(shown);
        it->owned[3] = xmem_strdup("");
        it->owned[4] = xmem_strdup("");
        it->owned[5] = xmem_strdup(err);
        it->e.error = it->owned[5];
    }
    free(key);
    it->e.id = it->owned[1];
    it->e.title = it->owned[2];
    it->e.summary = it->owned[3];
    it->e.track = it->owned[4];
}

/* The line of path that first names id in quotes, else 1 (for messages). */
static int id_line(const char *path, const char *id)
{
    size_t len;
    char *text = file_read(path, sandbox_limits_default().file_bytes, &len, NULL);
    int line = 1;
    size_t n = strlen(id);
    for (size_t i = 0; text && i + n + 2 <= len; i++) {
        if ((text[i] == '"' || text[i] == '\'') && memcmp(text + i + 1, id, n) == 0 &&
            text[i + 1 + n] == text[i]) {
            free(text);
            return line;
        }
        line += text[i] == '\n';
    }
    free(text);
    return 1;
}

/* Two files with the same id would share one progress record and one menu
 * entry: the second (by file name) is refused, naming the first. */
static void refuse_duplicate_ids(Catalog *c)
{
    for (int i = 0; i < c->n; i++) {
        Item *it = &c->items[i];
        for (int j = 0; j < i && !it->e.error; j++) {
            const Item *first = &c->items[j];
            if (first->e.error || strcmp(first->e.id, it->e.id) != 0)
                continue;
            char msg[MSG_LEN], shown[MSG_LEN];
            snprintf(msg, sizeof msg, "%s:%d: lesson id '%s' is already used by %s", it->e.path,
                     id_line(it->e.path, it->e.id), it->e.id, first->e.path);
            escape_text(msg, strlen(msg), shown, sizeof shown);
            it->owned[5] = xmem_strdup(shown);
            it->e.error = it->owned[5];
        }
    }
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

Catalog *catalog_load(const char *dir, char *err, size_t err_len)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        if (err && err_len)
            msg_set(err, err_len, "%s: %s", dir ? dir : "(no folder)",
                    dir ? strerror(errno) : "no lessons folder");
        return NULL;
    }
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < CATALOG_MAX) {
        if (de->d_name[0] == '.' || !ends_with_lua(de->d_name))
            continue;
        names = xmem_realloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xmem_strdup(de->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, name_cmp);
    Catalog *c = xmem_calloc(1, sizeof *c);
    c->items = xmem_calloc((size_t)(n ? n : 1), sizeof *c->items);
    Cache cache;
    memset(&cache, 0, sizeof cache);
    if (n > 0 && (cache.dir_real = realpath(dir, NULL)) != NULL) {
        cache.dir_len = strlen(cache.dir_real);
        cache_read(&cache);
    }
    for (int i = 0; i < n; i++) {
        fill_item(&c->items[c->n++], dir, names[i], &cache);
        free(names[i]);
    }
    free(names);
    /* Lines of this folder whose file is gone or changed: drop them. */
    for (int i = 0; cache.dir_real && i < cache.n; i++)
        if (!cache.lines[i].used && cache_in_dir(&cache, cache.lines[i].f[0]))
            cache.dirty = true;
    if (cache.dir_real && cache.dirty && cache.any_ok)
        cache_write(&cache);
    cache_free(&cache);
    refuse_duplicate_ids(c);
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
    int found = -1; /* a lesson that loads wins over a refused duplicate */
    for (int i = 0; c && id && i < c->n; i++)
        if (strcmp(c->items[i].e.id, id) == 0 && (found < 0 || !c->items[i].e.error)) {
            found = i;
            if (!c->items[i].e.error)
                break;
        }
    return found;
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
