/* test_catalog — listing a lessons folder: sort order (track, order, id),
 * failed files kept as entries with their error, files that are skipped,
 * a folder of hostile files listed in bounded time, and the default folder
 * lookup. Each test builds its folder under /tmp and removes it.
 */
#include "lesson/catalog.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h> /* after the three above, which it needs */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bounds on time-to-stop stretch like the sandbox's own clock under
 * valgrind (`make memcheck` sets SCALELAB_SANDBOX_SLOWDOWN). */
static double slowdown(void)
{
    const char *v = getenv("SCALELAB_SANDBOX_SLOWDOWN");
    double f = v ? atof(v) : 1.0;
    return f >= 1.0 && f <= 1000.0 ? f : 1.0;
}


static char dir[64];

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
    snprintf(dir, sizeof dir, "/tmp/scalelab-catXXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
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
    double t0 = now_s();
    Catalog *c = catalog_load(dir, NULL, 0);
    double dt = now_s() - t0;
    print_message("40 files (20 endless loops) listed in %.3f s\n", dt);
    assert_true(dt < 6.0 * slowdown());
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_catalog_sorted_with_errors_last, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_missing_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_catalog_hostile_folder_bounded, setup, teardown),
        cmocka_unit_test(test_catalog_default_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
