/* SPDX-License-Identifier: MIT */
/* test_xdg — the XDG base directories: which variable counts (absolute
 * paths only, as the specification says), the HOME fallbacks, and mkdir -p
 * with mode 0700. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "base/xdg.h"

static void set(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

static void test_xdg_absolute_state_home_is_used(void **state)
{
    (void)state;
    char buf[256];
    set("XDG_STATE_HOME", "/srv/state");
    set("HOME", "/home/ada");
    assert_string_equal(xdg_path(XDG_STATE, "progress", buf, sizeof buf),
                        "/srv/state/scalelab/progress");
    assert_string_equal(xdg_path(XDG_STATE, NULL, buf, sizeof buf), "/srv/state/scalelab");
}

/* A relative, empty or unset value is ignored: $HOME's default instead. */
static void test_xdg_relative_or_empty_is_ignored(void **state)
{
    (void)state;
    char buf[256];
    set("HOME", "/home/ada");
    const char *values[] = {"state", "./state", "", NULL};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        set("XDG_STATE_HOME", values[i]);
        set("XDG_CACHE_HOME", values[i]);
        assert_string_equal(xdg_path(XDG_STATE, "progress", buf, sizeof buf),
                            "/home/ada/.local/state/scalelab/progress");
        assert_string_equal(xdg_path(XDG_CACHE, "catalog", buf, sizeof buf),
                            "/home/ada/.cache/scalelab/catalog");
    }
}

static void test_xdg_cache_home(void **state)
{
    (void)state;
    char buf[256];
    set("XDG_CACHE_HOME", "/var/cache/ada");
    set("XDG_STATE_HOME", NULL);
    set("HOME", "/home/ada");
    assert_string_equal(xdg_path(XDG_CACHE, "catalog", buf, sizeof buf),
                        "/var/cache/ada/scalelab/catalog");
    /* the two bases never mix */
    assert_string_equal(xdg_path(XDG_STATE, NULL, buf, sizeof buf),
                        "/home/ada/.local/state/scalelab");
}

/* No usable variable and no absolute HOME: no path; nor when it is too long. */
static void test_xdg_no_path(void **state)
{
    (void)state;
    char buf[32];
    set("XDG_STATE_HOME", "rel");
    set("HOME", NULL);
    assert_null(xdg_path(XDG_STATE, "progress", buf, sizeof buf));
    set("HOME", "relative/home");
    assert_null(xdg_path(XDG_STATE, "progress", buf, sizeof buf));
    set("HOME", "/home/a-rather-long-name-for-a-home");
    assert_null(xdg_path(XDG_STATE, "progress", buf, sizeof buf));
}

static void test_xdg_mkdirs_makes_every_level_0700(void **state)
{
    (void)state;
    char dir[256], deep[512], err[256] = "";
    assert_true(tl_tmpdir_make(dir, sizeof dir, "xdg"));
    snprintf(deep, sizeof deep, "%s/a/b/scalelab", dir);
    assert_true(xdg_mkdirs(deep, err, sizeof err));
    struct stat st;
    assert_int_equal(stat(deep, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    snprintf(deep, sizeof deep, "%s/a", dir);
    assert_int_equal(stat(deep, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    /* existing folders are fine, a trailing slash too */
    snprintf(deep, sizeof deep, "%s/a/b/", dir);
    assert_true(xdg_mkdirs(deep, err, sizeof err));
    /* a file in the way: false, with the folder named */
    snprintf(deep, sizeof deep, "%s/file", dir);
    tl_write_file(deep, "x");
    snprintf(deep, sizeof deep, "%s/file/scalelab", dir);
    assert_false(xdg_mkdirs(deep, err, sizeof err));
    CONTAINS(err, "cannot create ");
    CONTAINS(err, "/file");
    assert_true(tl_tmpdir_remove(dir));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xdg_absolute_state_home_is_used),
        cmocka_unit_test(test_xdg_relative_or_empty_is_ignored),
        cmocka_unit_test(test_xdg_cache_home),
        cmocka_unit_test(test_xdg_no_path),
        cmocka_unit_test(test_xdg_mkdirs_makes_every_level_0700),
    };
    return cmocka_run_group_tests_name("xdg", tests, NULL, NULL);
}
