/* SPDX-License-Identifier: MIT */
/* test_base — the bottom layer's file, clock, message and string modules:
 * file_read refuses what is not a regular file (without blocking on a FIFO)
 * and what is over the limit; file_write replaces atomically (a failed
 * write keeps the old file and leaves no temporary), FILE_NEW never
 * replaces, FILE_PRIVATE is 0600; the monotonic clock moves forward; a
 * message cut to its buffer says so with "..." and never splits a UTF-8
 * character; the list joiner keeps every name however long the list;
 * names_nearest finds the name a typo meant and nothing for a word that is
 * far from every name. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "base/clock.h"
#include "base/file.h"
#include "base/msg.h"
#include "base/names.h"
#include "base/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return tl_tmpdir_make(dir, sizeof dir, "base") ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return tl_tmpdir_remove(dir) ? 0 : -1;
}

/* dir/name in a buffer of four, used round robin. */
static const char *in_dir(const char *name)
{
    static char path[4][128];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static int entries_in_dir(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_base_read_whole_file_and_refusals(void **state)
{
    (void)state;
    size_t len = 99;
    FileProblem why;
    char *s = file_read(in_dir("missing"), 100, &len, &why);
    assert_null(s);
    assert_int_equal(why.status, FILE_MISSING);
    assert_int_equal(why.errnum, ENOENT);

    /* NUL bytes inside are kept; the buffer is terminated after them. */
    FILE *f = fopen(in_dir("nul"), "wb");
    assert_non_null(f);
    fwrite("ab\0cd", 1, 5, f);
    fclose(f);
    s = file_read(in_dir("nul"), 5, &len, &why);
    assert_non_null(s);
    assert_int_equal(len, 5);
    assert_memory_equal(s, "ab\0cd", 6);
    free(s);

    /* One byte over the limit. */
    assert_null(file_read(in_dir("nul"), 4, &len, &why));
    assert_int_equal(why.status, FILE_TOO_LARGE);
    assert_int_equal(why.size, 5);
    char text[100];
    file_problem_text(&why, 4, text, sizeof text);
    assert_string_equal(text, "too large (5 bytes, limit 4)");

    assert_null(file_read(dir, 100, &len, &why));
    assert_int_equal(why.status, FILE_NOT_REGULAR);
    assert_string_equal(why.kind, "a directory");

    /* A FIFO with no writer: refused at once, not waited on. */
    assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
    double t0 = clock_now_s();
    assert_null(file_read(in_dir("fifo"), 100, &len, &why));
    assert_true(clock_now_s() - t0 < 0.5 * tl_slowdown());
    assert_int_equal(why.status, FILE_NOT_REGULAR);
    assert_string_equal(why.kind, "a FIFO");
    file_problem_text(&why, 100, text, sizeof text);
    assert_string_equal(text, "not a regular file (a FIFO)");
    unlink(in_dir("fifo"));
    unlink(in_dir("nul"));
}

static bool put_text(FILE *f, const void *ctx)
{
    return fputs(ctx, f) >= 0;
}

/* Writes half its text, then fails as a full disk would. */
static bool put_then_fail(FILE *f, const void *ctx)
{
    fputs(ctx, f);
    fflush(f);
    errno = ENOSPC;
    return false;
}

static void test_base_atomic_replace(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s", in_dir("state"));
    char err[300];
    assert_true(file_write(path, FILE_PRIVATE, put_text, "one\n", err, sizeof err));
    assert_true(file_write(path, FILE_PRIVATE, put_text, "two\n", err, sizeof err));
    char *s = tl_read_file(path);
    assert_string_equal(s, "two\n");
    free(s);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);

    /* A failed write keeps the old file whole and leaves no temporary. */
    assert_false(file_write(path, FILE_PRIVATE, put_then_fail, "thr", err, sizeof err));
    assert_int_equal(errno, ENOSPC);
    CONTAINS(err, "cannot write ");
    CONTAINS(err, strerror(ENOSPC));
    s = tl_read_file(path);
    assert_string_equal(s, "two\n");
    free(s);
    assert_int_equal(entries_in_dir(), 1);

    /* A device named as the output is written into, not replaced. */
    assert_true(file_write("/dev/null", 0, put_text, "gone\n", err, sizeof err));
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    /* A FIFO nobody reads is refused at once, not waited on. */
    assert_int_equal(mkfifo(in_dir("out.fifo"), 0600), 0);
    assert_false(file_write(in_dir("out.fifo"), 0, put_text, "x", err, sizeof err));
    assert_int_equal(errno, ENXIO);
    unlink(in_dir("out.fifo"));

    /* No folder: one line naming the file. */
    assert_false(file_write(in_dir("none/state"), 0, put_text, "x", err, sizeof err));
    assert_int_equal(errno, ENOENT);
    CONTAINS(err, "none/state");
    unlink(path);
}

static void test_base_new_file_never_replaces(void **state)
{
    (void)state;
    const char *path = in_dir("new.lua");
    char err[300];
    assert_true(file_write(path, FILE_NEW, put_text, "first\n", err, sizeof err));
    assert_false(file_write(path, FILE_NEW, put_text, "second\n", err, sizeof err));
    assert_int_equal(errno, EEXIST);
    char *s = tl_read_file(path);
    assert_string_equal(s, "first\n");
    free(s);
    unlink(path);

    /* A failed write removes what it created. */
    assert_false(file_write(path, FILE_NEW, put_then_fail, "half", err, sizeof err));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(entries_in_dir(), 0);
}

static void test_base_clock_moves_forward(void **state)
{
    (void)state;
    double t0 = clock_now_s();
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    double dt = clock_now_s() - t0;
    assert_true(dt >= 0.019);
    assert_true(dt < 5.0 * tl_slowdown());
}

static void test_base_names_nearest(void **state)
{
    (void)state;
    static const char *const page[] = {"kind",    "title",    "text",      "cluster",
                                       "choices", "solution", "tolerance", "debrief",
                                       "summary", "formula",  "hints",     NULL};
    assert_string_equal(names_nearest("tolerence", page), "tolerance"); /* changed */
    assert_string_equal(names_nearest("clustr", page), "cluster");      /* deleted */
    assert_string_equal(names_nearest("chioces", page), "choices");     /* swapped */
    assert_string_equal(names_nearest("debreif", page), "debrief");     /* swapped */
    assert_string_equal(names_nearest("soluton", page), "solution");
    assert_string_equal(names_nearest("hint", page), "hints"); /* inserted */
    assert_string_equal(names_nearest("Title", page), "title");
    assert_null(names_nearest("title", page));  /* known: nothing to suggest */
    assert_null(names_nearest("zzzzzz", page)); /* far from every name */
    assert_null(names_nearest("x", page));      /* short words: one edit at most */
    static const char *const parts[] = {"compute_s", "tp_s", "bubble_s", "dp_s", NULL};
    assert_string_equal(names_nearest("bubble", parts), "bubble_s"); /* 2 edits */
    assert_string_equal(names_nearest("comp", parts), "compute_s");  /* a prefix */
    assert_null(names_nearest("computation_s", parts));              /* neither begins the other */
    assert_null(names_nearest("co", parts));                         /* too short a prefix */
    static const char *const ties[] = {"tp", "pp", NULL};
    assert_string_equal(names_nearest("xp", ties), "tp");  /* the first on ties */
    assert_string_equal(names_nearest("ppp", ties), "pp"); /* the one sharing the start */
    static const char *const sorted[] = {"pp", "tp", NULL};
    assert_string_equal(names_nearest("tpp", sorted), "tp");
    char long_word[200];
    memset(long_word, 'a', sizeof long_word - 1);
    long_word[sizeof long_word - 1] = '\0';
    static const char *const as[] = {"aaaa", NULL};
    assert_string_equal(names_nearest(long_word, as), "aaaa"); /* prefix only, no table */
}

static void test_base_msg_cut_says_so(void **state)
{
    (void)state;
    char err[16];
    msg_set(err, sizeof err, "%s", "short");
    assert_string_equal(err, "short");
    msg_set(err, sizeof err, "%s", "exactly 15 char");
    assert_string_equal(err, "exactly 15 char");
    msg_set(err, sizeof err, "%s", "sixteen chars!!!");
    assert_string_equal(err, "sixteen char...");
    /* "a" then eight two-byte characters (17 bytes): the cut at byte 12
     * falls inside the sixth, which goes whole. */
    msg_set(err, sizeof err, "a%s", "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9");
    assert_string_equal(err, "a\u00e9\u00e9\u00e9\u00e9\u00e9...");
    /* The same length with a one-byte start: the cut falls between two. */
    msg_set(err, sizeof err, "ab%s", "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9");
    assert_string_equal(err, "ab\u00e9\u00e9\u00e9\u00e9\u00e9...");
    char tiny[3];
    msg_set(tiny, sizeof tiny, "%s", "abcdef");
    assert_string_equal(tiny, "ab");
    msg_set(NULL, 10, "%s", "nothing"); /* no buffer: nothing written, no crash */
}

static const char *name_at(int i, const void *ctx)
{
    static char names[400][8];
    (void)ctx;
    snprintf(names[i], sizeof names[i], "id%d", i);
    return names[i];
}

static void test_base_join_keeps_every_name(void **state)
{
    (void)state;
    char *none = strbuf_join(0, name_at, NULL);
    assert_string_equal(none, "");
    free(none);
    char *three = strbuf_join(3, name_at, NULL);
    assert_string_equal(three, "id0, id1, id2");
    free(three);
    /* 400 names, longer than any fixed message buffer: all of them, the
     * last one whole at the end. */
    char *many = strbuf_join(400, name_at, NULL);
    size_t want = 0;
    for (int i = 0; i < 400; i++)
        want += strlen(name_at(i, NULL)) + (i ? 2 : 0);
    assert_int_equal(strlen(many), want);
    assert_non_null(strstr(many, ", id398, id399"));
    assert_int_equal(strncmp(many, "id0, id1, ", 10), 0);
    free(many);
    /* Into a buffer: the whole length comes back, the buffer holds what fits. */
    char buf[8];
    assert_int_equal(strbuf_join_into(buf, sizeof buf, 3, name_at, NULL), 13);
    assert_string_equal(buf, "id0, id");
    assert_int_equal(strbuf_join_into(NULL, 0, 3, name_at, NULL), 13);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_read_whole_file_and_refusals),
        cmocka_unit_test(test_base_atomic_replace),
        cmocka_unit_test(test_base_new_file_never_replaces),
        cmocka_unit_test(test_base_clock_moves_forward),
        cmocka_unit_test(test_base_names_nearest),
        cmocka_unit_test(test_base_msg_cut_says_so),
        cmocka_unit_test(test_base_join_keeps_every_name),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
