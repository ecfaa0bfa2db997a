/* SPDX-License-Identifier: MIT */
/* test_catalog — listing a lessons folder: sort order (track, order, id),
 * failed files kept as entries with their error, files that are skipped,
 * a folder of hostile files listed in bounded time, the default folder
 * lookup, and the header cache ($XDG_CACHE_HOME/scalelab/catalog, pointed
 * at a temporary folder): a second load reads it, a changed file is loaded
 * again, a corrupt cache is ignored, kept byte for byte under a name of its
 * own (never overwritten) and written afresh, an entry with an error
 * is never cached, and control characters in it are sanitized. Each test
 * builds its folder under /tmp and removes it.
 */
#include "base/clock.h"
#include "lesson/catalog.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h> /* after the three above, which it needs */

#include "testlib.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];
static char cache_home[64]; /* $XDG_CACHE_HOME for the cache tests */
static char cache_file[128];

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void lesson_file(const char *name, const char *id, const char *track, int order)
{
    char text[512];
    snprintf(text, sizeof text,
             "return { id = '%s', title = 'T %s', summary = 'S', track = '%s', order = %d,\n"
             "  minutes = 3, pages = { { kind = 'text', title = 'p', text = 'x' },\n"
             "  { kind = 'text', title = 'q', text = 'y' } } }\n",
             id, id, track, order);
    put(name, text);
}

static int setup(void **state)
{
    (void)state;
    if (!tl_tmpdir_make(dir, sizeof dir, "cat") ||
        !tl_tmpdir_make(cache_home, sizeof cache_home, "cache"))
        return -1;
    snprintf(cache_file, sizeof cache_file, "%s/scalelab/catalog", cache_home);
    return setenv("XDG_CACHE_HOME", cache_home, 1);
}

static int teardown(void **state)
{
    (void)state;
    unsetenv("XDG_CACHE_HOME");
    bool ok = tl_tmpdir_remove(dir);
    return tl_tmpdir_remove(cache_home) && ok ? 0 : -1;
}

/* The whole cache file in a static buffer ("" when there is none). */
static const char *cache_text(void)
{
    static char buf[8192];
    buf[0] = '\0';
    FILE *f = fopen(cache_file, "r");
    if (!f)
        return buf;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void cache_put(const char *text)
{
    FILE *f = fopen(cache_file, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Replaces the first `from` in the cache file by `to`. */
static void cache_edit(const char *from, const char *to)
{
    char text[8192];
    snprintf(text, sizeof text, "%s", cache_text());
    char *at = strstr(text, from);
    assert_non_null(at);
    char out[8192];
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    cache_put(out);
}

/* The title of the entry with this id (NULL when none). */
static const char *title_of(const Catalog *c, const char *id)
{
    int i = catalog_find(c, id);
    return i < 0 ? NULL : catalog_entry(c, i)->title;
}

/* Sets a file's modification time (seconds, nanoseconds). */
static void set_mtime(const char *name, long sec, long nsec)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct timespec ts[2] = {{sec, nsec}, {sec, nsec}};
    assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void test_catalog_sorted_with_errors_last(void **state)
{
    (void)state;
    lesson_file("z.lua", "b-two", "Basics", 2);
    lesson_file("y.lua", "b-one", "Basics", 1);
    lesson_file("x.lua", "a-late", "Advanced", 9);
    lesson_file("w.lua", "b-also-one", "Basics", 1);
    put("broken.lua", "return {\n  id = 'broken'\n  title = 'x' }\n");
    put(".hidden.lua", "error('must not be read')");
    put("notes.txt", "not a lesson");
    char sub[128];
    snprintf(sub, sizeof sub, "%s/folder.lua", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    char err[256];
    Catalog *c = catalog_load(dir, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(catalog_count(c), 6);
    /* Advanced < Basics; within Basics order 1 (b-also-one < b-one), then 2. */
    static const char *const want[] = {"a-late", "b-also-one", "b-one", "b-two"};
    for (int i = 0; i < 4; i++) {
        const CatalogEntry *e = catalog_entry(c, i);
        assert_string_equal(e->id, want[i]);
        assert_null(e->error);
        assert_int_equal(e->pages, 2);
        assert_int_equal(e->minutes, 3);
    }
    assert_string_equal(catalog_entry(c, 0)->title, "T a-late");
    assert_string_equal(catalog_entry(c, 0)->track, "Advanced");
    /* Failed files: last, named by file, with "file:line: message". */
    const CatalogEntry *b = catalog_entry(c, 4);
    const CatalogEntry *f = catalog_entry(c, 5);
    if (strcmp(b->id, "broken") != 0) {
        const CatalogEntry *t = b;
        b = f;
        f = t;
    }
    assert_string_equal(b->id, "broken");
    assert_non_null(b->error);
    char want_prefix[128];
    snprintf(want_prefix, sizeof want_prefix, "%s/broken.lua:3: ", dir);
    assert_true(strncmp(b->error, want_prefix, strlen(want_prefix)) == 0);
    assert_int_equal(b->pages, 0);
    assert_non_null(strstr(f->error, "not a lesson file (a directory)"));
    assert_int_equal(catalog_find(c, "b-one"), 2);
    assert_int_equal(catalog_find(c, "nope"), -1);
    assert_null(catalog_entry(c, 6));
    assert_null(catalog_entry(c, -1));
    catalog_free(c);
    catalog_free(NULL);
    assert_int_equal(catalog_count(NULL), 0);
}

static void test_catalog_missing_folder(void **state)
{
    (void)state;
    char err[256] = "";
    assert_null(catalog_load("/nonexistent/scalelab-lessons", err, sizeof err));
    assert_string_equal(err, "/nonexistent/scalelab-lessons: No such file or directory");
    Catalog *c = catalog_load(dir, err, sizeof err); /* empty folder: empty list */
    assert_non_null(c);
    assert_int_equal(catalog_count(c), 0);
    catalog_free(c);
}

static void test_catalog_hostile_folder_bounded(void **state)
{
    (void)state;
    /* 20 endless loops and 20 good lessons: the catalog limits (5 million
     * instructions, 0.25 s each) keep the listing short. */
    for (int i = 0; i < 20; i++) {
        char name[32], id[32];
        snprintf(name, sizeof name, "loop%02d.lua", i);
        put(name, "while true do end");
        snprintf(name, sizeof name, "good%02d.lua", i);
        snprintf(id, sizeof id, "good-%02d", i);
        lesson_file(name, id, "T", i);
    }
    double t0 = clock_now_s();
    Catalog *c = catalog_load(dir, NULL, 0);
    double dt = clock_now_s() - t0;
    print_message("40 files (20 endless loops) listed in %.3f s\n", dt);
    assert_true(dt < 6.0 * tl_slowdown());
    assert_int_equal(catalog_count(c), 40);
    assert_string_equal(catalog_entry(c, 0)->id, "good-00");
    assert_non_null(strstr(catalog_entry(c, 39)->error, "instruction limit reached (5 million)"));
    catalog_free(c);
}

static void test_catalog_default_dir(void **state)
{
    (void)state;
    char buf[512];
    setenv("SCALELAB_LESSONS", "/somewhere/lessons", 1);
    assert_string_equal(catalog_default_dir(buf, sizeof buf), "/somewhere/lessons");
    char tiny[8];
    assert_null(catalog_default_dir(tiny, sizeof tiny)); /* truncated: refused */
    unsetenv("SCALELAB_LESSONS");
    /* Beside the test binary (build/tests/) there is no lessons/ folder, so
     * the installed data folder is next. */
    assert_string_equal(catalog_default_dir(buf, sizeof buf), SCALELAB_DATADIR "/lessons");
    setenv("SCALELAB_ASSETS", "/a", 1);
    assert_string_equal(catalog_assets_dir(buf, sizeof buf), "/a");
    unsetenv("SCALELAB_ASSETS");
}

static void test_catalog_cache_used_then_refreshed(void **state)
{
    (void)state;
    lesson_file("a.lua", "alpha", "T", 1);
    set_mtime("a.lua", 1700000000, 123456789);
    Catalog *c = catalog_load(dir, NULL, 0);
    assert_string_equal(title_of(c, "alpha"), "T alpha");
    catalog_free(c);
    /* The first load wrote the version line and alpha's line: size, then
     * mtime 1700000000 s * 1e9 + 123456789 ns = 1700000000123456789. */
    const char *t = cache_text();
    assert_true(strncmp(t, "scalelab-catalog 1\n", 19) == 0);
    assert_non_null(strstr(t, "\t1700000000123456789\talpha\tT alpha\tS\tT\t1\t3\t2\n"));
    /* Edit the cached title (the lesson file keeps its size and mtime):
     * the second load shows the edited title, so it came from the cache,
     * with its escaped tab and newline turned to '?'. */
    cache_edit("\tT alpha\t", "\tCached\\tti\\ntle\t");
    c = catalog_load(dir, NULL, 0);
    assert_string_equal(title_of(c, "alpha"), "Cached?ti?tle");
    assert_int_equal(catalog_entry(c, 0)->pages, 2);
    catalog_free(c);
    /* Touch the lesson file (a new mtime, same size): loaded again. */
    set_mtime("a.lua", 1700000001, 0);
    c = catalog_load(dir, NULL, 0);
    assert_string_equal(title_of(c, "alpha"), "T alpha");
    catalog_free(c);
    assert_non_null(strstr(cache_text(), "\t1700000001000000000\talpha\tT alpha\t"));
    assert_null(strstr(cache_text(), "Cached"));
    /* A removed lesson's line goes at the next write. */
    lesson_file("b.lua", "beta", "T", 2);
    char gone[256];
    snprintf(gone, sizeof gone, "%s/a.lua", dir);
    assert_int_equal(unlink(gone), 0);
    c = catalog_load(dir, NULL, 0);
    assert_int_equal(catalog_count(c), 1);
    catalog_free(c);
    assert_null(strstr(cache_text(), "alpha"));
    assert_non_null(strstr(cache_text(), "\tbeta\t"));
}

static void test_catalog_cache_unchanged_not_rewritten(void **state)
{
    (void)state;
    lesson_file("a.lua", "alpha", "T", 1);
    catalog_free(catalog_load(dir, NULL, 0));
    /* Set the cache file's own mtime back to 2001, load again with
     * nothing changed: the file is left alone (no rewrite, same mtime). */
    struct timespec ts[2] = {{1000000000, 0}, {1000000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, cache_file, ts, 0), 0);
    catalog_free(catalog_load(dir, NULL, 0));
    struct stat st;
    assert_int_equal(stat(cache_file, &st), 0);
    assert_int_equal((long)st.st_mtim.tv_sec, 1000000000L);
}

/* The caches set aside in folder sub ("catalog.corrupt-..."): how many,
 * and whether one of them holds exactly text. */
static int kept_caches(const char *sub, const char *text, bool *found)
{
    DIR *d = opendir(sub);
    int n = 0;
    struct dirent *e;
    *found = false;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "catalog.corrupt-", 16) != 0)
            continue;
        n++;
        char path[400];
        snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
        char *got = tl_read_file(path);
        *found = *found || (got && strcmp(got, text) == 0);
        free(got);
    }
    if (d)
        closedir(d);
    return n;
}

static void test_catalog_cache_corrupt_ignored(void **state)
{
    (void)state;
    lesson_file("a.lua", "alpha", "T", 1);
    set_mtime("a.lua", 1700000000, 5);
    char path[256];
    snprintf(path, sizeof path, "%s/a.lua", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    char *real = realpath(dir, NULL);
    assert_non_null(real);
    char line[1024];
    /* A well-formed line that would say "Fake": each corruption below
     * must make the whole cache ignored, so the real title comes back. */
    snprintf(line, sizeof line,
             "%s/a.lua\t%lld\t1700000000000000005\talpha\tFake\tS\tT\t1\t3\t2\n", real,
             (long long)st.st_size);
    free(real);
    char text[2048];
    static const char *const bad[] = {
        "scalelab-catalog 9\n%s",                                   /* another version */
        "scalelab-catalog 1\n%.60s",                                /* truncated (no newline) */
        "scalelab-catalog 1\n%sjunk\n",                             /* a line with one field */
        "scalelab-catalog 1\n%s%s",                                 /* the same path twice */
        "scalelab-catalog 1\n/x\\q\t1\t1\ti\tt\ts\tk\t1\t1\t1\n%s", /* unknown escape */
    };
    char sub[128];
    snprintf(sub, sizeof sub, "%s/scalelab", cache_home);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, bad[i], line, line);
        cache_put(text);
        Catalog *c = catalog_load(dir, NULL, 0);
        assert_string_equal(title_of(c, "alpha"), "T alpha");
        catalog_free(c);
        /* ...rewritten with the real title, the bad one kept as it was. */
        assert_non_null(strstr(cache_text(), "\talpha\tT alpha\t"));
        bool found;
        assert_int_equal(kept_caches(sub, text, &found), (int)i + 1);
        assert_true(found);
    }
    /* The same line in a good file is used: the corruptions above were
     * the only reason it was not. */
    snprintf(text, sizeof text, "scalelab-catalog 1\n%s", line);
    cache_put(text);
    Catalog *c = catalog_load(dir, NULL, 0);
    assert_string_equal(title_of(c, "alpha"), "Fake");
    catalog_free(c);
    /* Over 1 MB: ignored. */
    FILE *f = fopen(cache_file, "w");
    assert_non_null(f);
    fputs(text, f);
    for (int i = 0; i < 1100000 / 8; i++)
        fputs("#padding", f);
    fclose(f);
    c = catalog_load(dir, NULL, 0);
    assert_string_equal(title_of(c, "alpha"), "T alpha");
    catalog_free(c);
    /* A folder where the cache file should be: ignored, no write, no harm. */
    assert_int_equal(unlink(cache_file), 0);
    assert_int_equal(mkdir(cache_file, 0700), 0);
    c = catalog_load(dir, NULL, 0);
    assert_string_equal(title_of(c, "alpha"), "T alpha");
    catalog_free(c);
}

static void test_catalog_cache_errors_never_cached(void **state)
{
    (void)state;
    lesson_file("good.lua", "good", "T", 1);
    put("broken.lua", "return {\n  id = 'broken'\n  title = 'x' }\n");
    Catalog *c = catalog_load(dir, NULL, 0);
    assert_int_equal(catalog_count(c), 2);
    catalog_free(c);
    assert_non_null(strstr(cache_text(), "\tgood\t"));
    assert_null(strstr(cache_text(), "broken"));
    /* Second load: still the error (recomputed, not read from a cache). */
    c = catalog_load(dir, NULL, 0);
    assert_non_null(catalog_entry(c, 1)->error);
    assert_string_equal(catalog_entry(c, 1)->id, "broken");
    catalog_free(c);
    assert_null(strstr(cache_text(), "broken"));
    /* A folder with only broken lessons writes no cache at all. */
    char sub[256];
    snprintf(sub, sizeof sub, "%s/good.lua", dir);
    assert_int_equal(unlink(sub), 0);
    assert_int_equal(unlink(cache_file), 0);
    catalog_free(catalog_load(dir, NULL, 0));
    assert_string_equal(cache_text(), "");
}

static void test_catalog_cache_sanitized(void **state)
{
    (void)state;
    lesson_file("a.lua", "alpha", "T", 1);
    catalog_free(catalog_load(dir, NULL, 0));
    /* Raw ESC, BEL and a UTF-8 C1 control (U+009B, CSI: 0xC2 0x9B) put into
     * the cached title and track by hand: each control byte becomes '?';
     * a plain UTF-8 letter (U+00E9, 0xC3 0xA9) is kept. */
    cache_edit("\tT alpha\t", "\t\033[2J\007x\302\233y\303\251\t");
    cache_edit("\tS\tT\t", "\tS\t\033]0;t\t");
    Catalog *c = catalog_load(dir, NULL, 0);
    const CatalogEntry *e = catalog_entry(c, 0);
    assert_string_equal(e->id, "alpha");
    assert_string_equal(e->title, "?[2J?x??y\303\251");
    assert_string_equal(e->track, "?]0;t");
    catalog_free(c);
}

/* Two files with one id: the second by file name is refused with a
 * file:line error naming the first, so they never share a menu entry or a
 * progress record; catalog_find finds the one that loads. */
static void test_catalog_duplicate_id_refused(void **state)
{
    (void)state;
    lesson_file("a.lua", "same", "T", 1);
    put("b.lua", "-- the copy\nreturn { id = 'same', title = 'Copy',\n"
                 "  pages = { { kind = 'text', title = 'p', text = 'x' } } }\n");
    Catalog *c = catalog_load(dir, NULL, 0);
    assert_int_equal(catalog_count(c), 2);
    int bad = -1, good = -1;
    for (int i = 0; i < 2; i++)
        *(catalog_entry(c, i)->error ? &bad : &good) = i;
    assert_true(bad >= 0 && good >= 0);
    char want[200];
    snprintf(want, sizeof want, "%s/b.lua:2: lesson id 'same' is already used by %s/a.lua", dir,
             dir);
    assert_string_equal(catalog_entry(c, bad)->error, want);
    assert_int_equal(catalog_find(c, "same"), good);
    catalog_free(c);
}

/* A FIFO in place of the header cache: the listing neither blocks nor
 * trusts it, and lists from the files. */
static void test_catalog_cache_fifo_does_not_block(void **state)
{
    (void)state;
    lesson_file("a.lua", "alpha", "T", 1);
    char sub[128];
    snprintf(sub, sizeof sub, "%s/scalelab", cache_home);
    mkdir(sub, 0700);
    assert_int_equal(mkfifo(cache_file, 0600), 0);
    double t0 = clock_now_s();
    Catalog *c = catalog_load(dir, NULL, 0);
    assert_true(clock_now_s() - t0 < 2.0 * tl_slowdown());
    assert_int_equal(catalog_count(c), 1);
    assert_string_equal(catalog_entry(c, 0)->title, "T alpha");
    catalog_free(c);
    struct stat st;
    assert_int_equal(lstat(cache_file, &st), 0); /* left alone, not written through */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_catalog_sorted_with_errors_last, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_missing_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_hostile_folder_bounded, setup, teardown),
        cmocka_unit_test(test_catalog_default_dir),
        cmocka_unit_test_setup_teardown(test_catalog_cache_used_then_refreshed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_cache_unchanged_not_rewritten, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_catalog_cache_corrupt_ignored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_cache_errors_never_cached, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_cache_sanitized, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_duplicate_id_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_cache_fifo_does_not_block, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
