/* SPDX-License-Identifier: MIT */
/* test_progress — the learner's record: default path, round trip through the
 * file, atomic save, and a corrupt file reported once and set aside under a
 * name of its own, never overwritten (a second corrupt file, and one found
 * corrupt at a save, each keep theirs). Each test works in its own
 * temporary folder. */
#include "store/progress.h"

/* cmocka.h needs these four first. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"
// clang-format on

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    char dir[64];   /* a fresh scratch folder */
    char sub[96];   /* dir/sub, the progress file's folder: not made by setup */
    char path[128]; /* sub/progress */
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    if (!tl_tmpdir_make(f->dir, sizeof f->dir, "progress"))
        return -1;
    snprintf(f->sub, sizeof f->sub, "%s/sub", f->dir);
    snprintf(f->path, sizeof f->path, "%s/progress", f->sub);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    if (!tl_tmpdir_remove(f->dir))
        return -1;
    free(f);
    return 0;
}

static void test_progress_default_path_prefers_xdg(void **state)
{
    (void)state;
    char buf[256];
    setenv("XDG_STATE_HOME", "/x/state", 1);
    setenv("HOME", "/home/u", 1);
    assert_string_equal(progress_default_path(buf, sizeof buf), "/x/state/scalelab/progress");
    /* A relative XDG_STATE_HOME is ignored (XDG base directory spec). */
    setenv("XDG_STATE_HOME", "rel", 1);
    assert_string_equal(progress_default_path(buf, sizeof buf),
                        "/home/u/.local/state/scalelab/progress");
    unsetenv("XDG_STATE_HOME");
    assert_string_equal(progress_default_path(buf, sizeof buf),
                        "/home/u/.local/state/scalelab/progress");
    unsetenv("HOME");
    assert_null(progress_default_path(buf, sizeof buf));
    setenv("HOME", "/home/u", 1);
    assert_null(progress_default_path(buf, 10)); /* does not fit */
}

static void test_progress_missing_file_is_empty(void **state)
{
    Fixture *f = *state;
    char note[256];
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_non_null(p);
    assert_string_equal(note, "");
    assert_int_equal(progress_status(p, "intro"), PROGRESS_NEW);
    assert_int_equal(progress_page(p, "intro"), 0);
    assert_int_equal(progress_quiz_answer(p, "intro", 2, NULL), -1);
    progress_free(p);
}

static void test_progress_round_trip_survives_reopen(void **state)
{
    Fixture *f = *state;
    char note[256], err[256];
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_true(progress_visit(p, "intro", 3, err, sizeof err));
    assert_true(progress_set_hints(p, "intro", 2, 2, err, sizeof err));
    assert_true(progress_set_hints(p, "intro", 2, 1, err, sizeof err)); /* never goes down */
    assert_true(progress_set_scenario_met(p, "intro", 2, err, sizeof err));
    assert_true(progress_set_quiz(p, "intro", 4, 1, true, err, sizeof err));
    assert_true(progress_visit(p, "other", 1, err, sizeof err));
    assert_true(progress_set_done(p, "other", err, sizeof err));
    assert_true(progress_visit(p, "other", 0, err, sizeof err)); /* done stays done */
    progress_free(p);

    p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    assert_int_equal(progress_status(p, "intro"), PROGRESS_STARTED);
    assert_int_equal(progress_page(p, "intro"), 3);
    assert_int_equal(progress_hints(p, "intro", 2), 2);
    assert_true(progress_scenario_met(p, "intro", 2));
    assert_false(progress_scenario_met(p, "intro", 3));
    bool correct = false;
    assert_int_equal(progress_quiz_answer(p, "intro", 4, &correct), 1);
    assert_true(correct);
    assert_int_equal(progress_status(p, "other"), PROGRESS_DONE);
    assert_int_equal(progress_status(p, "never"), PROGRESS_NEW);
    progress_free(p);
}

static void test_progress_save_leaves_no_temp_file(void **state)
{
    Fixture *f = *state;
    Progress *p = progress_open(f->path, NULL, 0);
    assert_true(progress_visit(p, "intro", 1, NULL, 0));
    progress_free(p);
    DIR *d = opendir(f->sub);
    assert_non_null(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && strcmp(e->d_name, "progress.lock") != 0) {
            files++;
            assert_string_equal(e->d_name, "progress");
        }
    closedir(d);
    assert_int_equal(files, 1);
}

/* Two windows open at once: each saves its own moves, neither loses the
 * other's (the save merges what is on disk under a lock). */
static void test_progress_two_windows_keep_both(void **state)
{
    Fixture *f = *state;
    Progress *a = progress_open(f->path, NULL, 0);
    Progress *b = progress_open(f->path, NULL, 0);
    assert_true(progress_set_scenario_met(a, "intro", 2, NULL, 0));
    assert_true(progress_set_hints(b, "intro", 2, 3, NULL, 0));
    assert_true(progress_set_done(b, "fabric", NULL, 0));
    assert_true(progress_set_quiz(a, "fabric", 4, 1, true, NULL, 0));
    progress_free(a);
    progress_free(b);
    Progress *c = progress_open(f->path, NULL, 0);
    assert_true(progress_scenario_met(c, "intro", 2));
    assert_int_equal(progress_hints(c, "intro", 2), 3);
    assert_int_equal(progress_status(c, "fabric"), PROGRESS_DONE);
    bool correct = false;
    assert_int_equal(progress_quiz_answer(c, "fabric", 4, &correct), 1);
    assert_true(correct);
    progress_free(c);
}

/* A symlink planted at the temporary file's or the lock's name never makes
 * a save write through it: the target outside the state folder stays. */
static void test_progress_planted_symlinks_not_followed(void **state)
{
    Fixture *f = *state;
    char victim[160], link[200];
    mkdir(f->sub, 0700);
    snprintf(victim, sizeof victim, "%s/victim", f->dir);
    tl_write_file(victim, "precious\n");
    snprintf(link, sizeof link, "%s.tmp.%ld", f->path, (long)getpid());
    assert_int_equal(symlink(victim, link), 0);
    Progress *p = progress_open(f->path, NULL, 0);
    assert_true(progress_visit(p, "intro", 1, NULL, 0));
    snprintf(link, sizeof link, "%s.lock", f->path);
    unlink(link);
    assert_int_equal(symlink(victim, link), 0);
    char err[300] = "";
    assert_false(progress_visit(p, "intro", 2, err, sizeof err));
    assert_non_null(strstr(err, "cannot lock"));
    progress_free(p);
    FILE *fp = fopen(victim, "r");
    char got[32] = "";
    assert_non_null(fgets(got, sizeof got, fp));
    fclose(fp);
    assert_string_equal(got, "precious\n");
}

/* A FIFO in place of the file opens at once (nothing blocks); a file over
 * the size cap is set aside; a large valid file parses in linear time. */
static void test_progress_fifo_big_and_many_records(void **state)
{
    Fixture *f = *state;
    char note[512];
    mkdir(f->sub, 0700);
    assert_int_equal(mkfifo(f->path, 0600), 0);
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_non_null(strstr(note, "FIFO"));
    progress_free(p);
    unlink(f->path);
    FILE *fp = fopen(f->path, "w");
    assert_non_null(fp);
    fputs("scalelab-progress 1\n", fp);
    for (int i = 0; i < 4000; i++)
        fprintf(fp, "lesson l%d started 1\npage l%d 1 0 1 -1 0\n", i, i);
    fclose(fp);
    p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    assert_true(progress_scenario_met(p, "l3999", 1));
    assert_int_equal(progress_status(p, "l17"), PROGRESS_STARTED);
    progress_free(p);
    fp = fopen(f->path, "a");
    assert_non_null(fp);
    for (int i = 0; i < 60000; i++) /* past the 1 MiB cap */
        fprintf(fp, "page l1 1 0 1 -1 0\n");
    fclose(fp);
    p = progress_open(f->path, note, sizeof note);
    assert_non_null(strstr(note, "set aside as"));
    progress_free(p);
}

/* The files of dir whose names start with prefix, sorted, into names (at
 * most max); returns how many there are. */
static int names_with(const char *dir, const char *prefix, char names[][512], int max)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n < max)
            snprintf(names[n++], sizeof names[0], "%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
    for (int i = 1; i < n; i++) /* insertion sort: a handful of names */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[512];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
        }
    return n;
}

/* Each unreadable file keeps its bytes under a name of its own: the second
 * one set aside in the same second does not replace the first. */
static void test_progress_two_corrupt_files_both_kept(void **state)
{
    Fixture *f = *state;
    char note[512], names[4][512];
    mkdir(f->sub, 0700);
    tl_write_file(f->path, "first learner record\n");
    progress_free(progress_open(f->path, note, sizeof note));
    assert_non_null(strstr(note, "set aside as"));
    tl_write_file(f->path, "second learner record\n");
    progress_free(progress_open(f->path, note, sizeof note));
    assert_non_null(strstr(note, "set aside as"));
    assert_int_equal(names_with(f->sub, "progress.corrupt-", names, 4), 2);
    char *a = tl_read_file(names[0]), *b = tl_read_file(names[1]);
    /* Same second: counters 1 and 2, in that order; else the earlier time. */
    assert_string_equal(a, "first learner record\n");
    assert_string_equal(b, "second learner record\n");
    free(a);
    free(b);
    assert_non_null(strstr(names[0], "progress.corrupt-"));
}

/* A file that turns unreadable after it was opened (another program wrote
 * over it) is set aside by the next save, not written over. */
static void test_progress_corrupt_at_save_kept(void **state)
{
    Fixture *f = *state;
    char names[4][512];
    Progress *p = progress_open(f->path, NULL, 0);
    assert_true(progress_visit(p, "intro", 1, NULL, 0));
    tl_write_file(f->path, "an editor saved this here\n");
    assert_true(progress_visit(p, "intro", 2, NULL, 0));
    progress_free(p);
    assert_int_equal(names_with(f->sub, "progress.corrupt-", names, 4), 1);
    char *kept = tl_read_file(names[0]);
    assert_string_equal(kept, "an editor saved this here\n");
    free(kept);
    p = progress_open(f->path, NULL, 0);
    assert_int_equal(progress_page(p, "intro"), 2);
    progress_free(p);
}

static void test_progress_corrupt_file_moved_aside_once(void **state)
{
    Fixture *f = *state;
    char note[512], aside[512];
    mkdir(f->sub, 0700);
    tl_write_file(f->path, "scalelab-progress 1\nlesson intro started 2\ngarbage here\n");
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_non_null(p);
    assert_non_null(strstr(note, "line 3 does not parse"));
    assert_non_null(strstr(note, "set aside as"));
    /* Nothing of the bad file is trusted. */
    assert_int_equal(progress_status(p, "intro"), PROGRESS_NEW);
    char names[2][512];
    assert_int_equal(names_with(f->sub, "progress.corrupt-", names, 2), 1);
    snprintf(aside, sizeof aside, "%s", names[0]);
    assert_non_null(strstr(note, aside));
    assert_int_equal(access(aside, F_OK), 0);
    assert_int_equal(access(f->path, F_OK), -1);
    assert_true(progress_visit(p, "intro", 1, NULL, 0));
    progress_free(p);
    /* The second start is quiet: the note was shown once. */
    p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    assert_int_equal(progress_page(p, "intro"), 1);
    progress_free(p);
}

static void test_progress_bad_header_and_numbers_are_corrupt(void **state)
{
    Fixture *f = *state;
    static const char *bad[] = {
        "",                                                         /* empty */
        "hello\n",                                                  /* no header */
        "scalelab-progress 1\nlesson a done x\n",                   /* page not a number */
        "scalelab-progress 1\nlesson a maybe 1\n",                  /* unknown status */
        "scalelab-progress 1\npage a 1 0 2 -1 0\n",                 /* met is 0 or 1 */
        "scalelab-progress 1\npage a 1 0 1 -2 0\n",                 /* answer >= -1 */
        "scalelab-progress 1\nseed 12ab\n",                         /* a seed only in version 2 */
        "scalelab-progress 1\npage a 1 0 1 -1 0 -1 0 0 0 0 0\n",    /* v2 fields in v1 */
        "scalelab-progress 2\nseed xyz\n",                          /* not hex */
        "scalelab-progress 2\nseed 12345678901234567\n",            /* over 64 bits */
        "scalelab-progress 2\npage a 1 0 1 -1 0 2 0 0 0 0 0\n",     /* first is -1, 0 or 1 */
        "scalelab-progress 2\npage a 1 0 1 -1 0 1 0 0 0 2 0\n",     /* review_ok 0 or 1 */
        "scalelab-progress 2\npage a 1 0 1 -1 0 1 0 0 0 0\n",       /* one field short */
        "scalelab-progress 2\nlesson a started 1 1700000000\n",     /* a time only in version 3 */
        "scalelab-progress 3\nlesson a started 1 -5\n",             /* a time before 1970 */
        "scalelab-progress 3\nlesson a started 1 99999999999999\n", /* past 2^40 seconds */
        "scalelab-progress 3\nlesson a started 1 12x\n",            /* not a number */
        "scalelab-progress 4\n",                                    /* a version from the future */
    };
    char note[512];
    mkdir(f->sub, 0700);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tl_write_file(f->path, bad[i]);
        Progress *p = progress_open(f->path, note, sizeof note);
        if (note[0] == '\0')
            fail_msg("case %zu was accepted: %s", i, bad[i]);
        progress_free(p);
    }
}

/* A prediction on a scenario page is a first try (the menu's count) but
 * never the scenario's goal: wrong first, right later, the goal still unmet;
 * kept across a reload. */
static void test_progress_prediction_is_a_first_try(void **state)
{
    Fixture *f = *state;
    char note[256], err[256];
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_true(progress_record_prediction(p, "lab", 6, false, err, sizeof err));
    assert_true(progress_record_prediction(p, "lab", 6, true, err, sizeof err));
    ProgressExercise e;
    assert_true(progress_exercise(p, "lab", 6, &e));
    assert_int_equal(e.first, 0);
    assert_int_equal(e.tries, 2);
    assert_false(e.solved); /* the goal is the scenario's, not the prediction's */
    assert_false(progress_scenario_met(p, "lab", 6));
    progress_free(p);
    p = progress_open(f->path, note, sizeof note);
    int right = -1;
    assert_int_equal(progress_first_tries(p, "lab", &right), 1);
    assert_int_equal(right, 0);
    assert_true(progress_needs_review(p, "lab", 6));
    assert_true(progress_set_scenario_met(p, "lab", 6, err, sizeof err));
    assert_true(progress_exercise(p, "lab", 6, &e));
    assert_int_equal(e.first, 0); /* meeting the goal does not rewrite the first try */
    progress_free(p);
}

static void test_progress_exercises_round_trip(void **state)
{
    Fixture *f = *state;
    char note[256], err[256];
    Progress *p = progress_open(f->path, note, sizeof note);
    uint64_t seed = progress_seed(p);
    assert_true(seed != 0);
    /* quiz on page 2: wrong (choice 3), wrong, right: first try wrong */
    assert_true(progress_record_try(p, "intro", 2, 3, false, err, sizeof err));
    assert_true(progress_record_try(p, "intro", 2, 1, false, err, sizeof err));
    assert_true(progress_record_try(p, "intro", 2, 0, true, err, sizeof err));
    /* predict on page 4: right at once; page 5: wrong then right */
    assert_true(progress_record_try(p, "intro", 4, -1, true, err, sizeof err));
    assert_true(progress_record_try(p, "intro", 5, -1, false, err, sizeof err));
    assert_true(progress_record_try(p, "intro", 5, -1, true, err, sizeof err));
    assert_true(progress_record_try(p, "intro", 5, -1, false, err, sizeof err)); /* stays solved */
    /* scenario on page 3: search used, met in 4 moves with 1 hint */
    assert_true(progress_set_search_used(p, "intro", 3, err, sizeof err));
    assert_true(progress_set_moves(p, "intro", 3, 4, err, sizeof err));
    assert_true(progress_set_scenario_met(p, "intro", 3, err, sizeof err));
    assert_true(progress_set_hints(p, "intro", 3, 1, err, sizeof err));
    /* a review of page 2, right at once */
    assert_true(progress_needs_review(p, "intro", 2));
    assert_true(progress_record_review(p, "intro", 2, true, err, sizeof err));
    progress_free(p);

    p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    assert_true(progress_seed(p) == seed); /* a reload keeps the quiz order */
    ProgressExercise e;
    assert_true(progress_exercise(p, "intro", 2, &e));
    assert_int_equal(e.first, 0);
    assert_int_equal(e.tries, 3);
    assert_true(e.solved);
    assert_int_equal(e.reviews, 1);
    assert_true(e.review_ok);
    assert_false(progress_needs_review(p, "intro", 2)); /* reviewed right */
    assert_int_equal(progress_quiz_answer(p, "intro", 2, NULL), 0);
    assert_true(progress_exercise(p, "intro", 4, &e));
    assert_int_equal(e.first, 1);
    assert_int_equal(e.tries, 1);
    assert_true(progress_exercise(p, "intro", 5, &e));
    assert_int_equal(e.first, 0);
    assert_int_equal(e.tries, 3);
    assert_true(e.solved);
    assert_true(progress_needs_review(p, "intro", 5));
    int pages[4] = {-1, -1, -1, -1};
    assert_int_equal(progress_review_pages(p, "intro", pages, 4), 1); /* 2 was reviewed */
    assert_int_equal(pages[0], 5);
    assert_int_equal(progress_review_pages(p, "intro", NULL, 0), 1);
    assert_true(progress_exercise(p, "intro", 3, &e));
    assert_true(e.search && e.solved);
    assert_int_equal(e.moves, 4);
    assert_int_equal(e.first, -1); /* scenarios have no first try */
    assert_int_equal(progress_hints(p, "intro", 3), 1);
    int right = -1;
    assert_int_equal(progress_first_tries(p, "intro", &right), 3); /* pages 2, 4, 5 */
    assert_int_equal(right, 1);
    assert_false(progress_exercise(p, "intro", 9, &e));
    assert_int_equal(e.first, -1);
    assert_int_equal(progress_first_tries(p, "never", &right), 0);
    progress_free(p);
}

static void test_progress_reads_version_1(void **state)
{
    Fixture *f = *state;
    char note[512], err[256];
    mkdir(f->sub, 0700);
    tl_write_file(f->path, "scalelab-progress 1\nlesson a started 3\npage a 2 1 1 -1 0\n"
                           "page a 4 0 0 1 1\n");
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    assert_int_equal(progress_page(p, "a"), 3);
    assert_true(progress_scenario_met(p, "a", 2));
    bool correct = false;
    assert_int_equal(progress_quiz_answer(p, "a", 4, &correct), 1);
    assert_true(correct);
    ProgressExercise e;
    assert_true(progress_exercise(p, "a", 4, &e));
    assert_int_equal(e.first, -1); /* version 1 did not keep the first try */
    assert_true(e.solved);
    assert_true(progress_seed(p) != 0);
    uint64_t seed = progress_seed(p);
    assert_true(progress_visit(p, "a", 1, err, sizeof err)); /* written back as version 3 */
    progress_free(p);
    FILE *fp = fopen(f->path, "r");
    char line[64] = "";
    assert_non_null(fgets(line, sizeof line, fp));
    fclose(fp);
    assert_string_equal(line, "scalelab-progress 3\n");
    p = progress_open(f->path, note, sizeof note);
    assert_true(progress_seed(p) == seed);
    assert_true(progress_scenario_met(p, "a", 2));
    progress_free(p);
}

/* Every change stamps the lesson with the wall-clock time; the stamp
 * survives a reopen, two windows keep the later one, and a version 2 file
 * (which had none) reads as 0, "not known". */
static void test_progress_last_active_kept_and_merged(void **state)
{
    Fixture *f = *state;
    long long before = (long long)time(NULL);
    Progress *a = progress_open(f->path, NULL, 0);
    assert_int_equal(progress_last_active(a, "intro"), 0);
    assert_true(progress_visit(a, "intro", 3, NULL, 0));
    long long t = progress_last_active(a, "intro");
    assert_true(t >= before && t <= (long long)time(NULL));
    progress_free(a);
    /* A stamp from long ago, as another window saved it: the reopened
     * store and a merge keep the later one. */
    char text[200];
    snprintf(text, sizeof text,
             "scalelab-progress 3\nlesson intro started 3 %lld\n"
             "lesson old done 0 1000\n",
             t + 100);
    tl_write_file(f->path, text);
    Progress *b = progress_open(f->path, NULL, 0);
    assert_true(progress_last_active(b, "intro") == t + 100);
    assert_true(progress_last_active(b, "old") == 1000);
    assert_int_equal(progress_page(b, "intro"), 3);
    assert_true(progress_set_hints(b, "old", 1, 2, NULL, 0)); /* now */
    assert_true(progress_last_active(b, "old") >= before);
    assert_true(progress_last_active(b, "intro") == t + 100); /* untouched: kept */
    progress_free(b);
    tl_write_file(f->path, "scalelab-progress 2\nlesson intro started 3\n");
    Progress *c = progress_open(f->path, NULL, 0);
    assert_int_equal(progress_last_active(c, "intro"), 0);
    assert_int_equal(progress_lesson_count(c), 1);
    assert_string_equal(progress_lesson_id(c, 0), "intro");
    assert_null(progress_lesson_id(c, 1));
    progress_free(c);
}

/* progress_load reads a file handed in without touching it: a corrupt file
 * stays where it is, a missing folder is not made, and the store never
 * saves; every version the store has written loads (the fixtures under
 * tests/report/fixtures were written by the store of each version: the
 * same learner's first visits, a quiz missed twice, two hints). */
static void test_progress_load_reads_every_version(void **state)
{
    Fixture *f = *state;
    char err[512] = "";
    mkdir(f->sub, 0700);
    tl_write_file(f->path, "not a progress file\n");
    assert_null(progress_load(f->path, err, sizeof err));
    CONTAINS(err, "not a scalelab progress file");
    char aside[200];
    snprintf(aside, sizeof aside, "%s.corrupt", f->path);
    assert_int_equal(access(aside, F_OK), -1);
    assert_int_equal(access(f->path, F_OK), 0);
    assert_null(progress_load("/nonexistent/dir/progress", err, sizeof err));
    static const char *const versions[] = {"store-v1", "store-v2", "store-v2-practice"};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        char path[200];
        snprintf(path, sizeof path, "tests/report/fixtures/%s/progress", versions[i]);
        char *before = tl_read_file(path);
        Progress *p = progress_load(path, err, sizeof err);
        if (!p)
            fail_msg("%s: %s", path, err);
        assert_int_equal(progress_status(p, "class-basics"), PROGRESS_STARTED);
        assert_int_equal(progress_page(p, "class-basics"), 2);
        assert_int_equal(progress_hints(p, "class-basics", 2), 2);
        bool right = true;
        assert_int_equal(progress_quiz_answer(p, "class-basics", 1, &right), 1);
        assert_false(right);
        ProgressExercise e;
        assert_true(progress_exercise(p, "class-basics", 1, &e));
        assert_int_equal(e.tries, i == 0 ? 0 : 2); /* version 1 did not count tries */
        assert_int_equal(progress_practice(p, "mapping").tried, i == 2 ? 1 : 0);
        assert_true(progress_save(p, err, sizeof err)); /* in memory: writes nothing */
        char *after = tl_read_file(path);
        assert_string_equal(before, after);
        free(before);
        free(after);
        progress_free(p);
    }
}

static void test_progress_review_pages_in_page_order(void **state)
{
    (void)state;
    Progress *p = progress_open(NULL, NULL, 0);
    /* missed first: pages 9, 3, 7 (recorded in that order); right first: 5 */
    assert_true(progress_record_try(p, "l", 9, 1, false, NULL, 0));
    assert_true(progress_record_try(p, "l", 3, 1, false, NULL, 0));
    assert_true(progress_record_try(p, "l", 5, 1, true, NULL, 0));
    assert_true(progress_record_try(p, "l", 7, -1, false, NULL, 0));
    int pages[8];
    assert_int_equal(progress_review_pages(p, "l", pages, 8), 3);
    assert_int_equal(pages[0], 3);
    assert_int_equal(pages[1], 7);
    assert_int_equal(pages[2], 9);
    int two[2];
    assert_int_equal(progress_review_pages(p, "l", two, 2), 3); /* the count, not what fits */
    assert_int_equal(two[0], 3);
    assert_int_equal(two[1], 7);
    assert_true(progress_record_review(p, "l", 7, false, NULL, 0)); /* still missed */
    assert_true(progress_record_review(p, "l", 3, true, NULL, 0));
    assert_int_equal(progress_review_pages(p, "l", pages, 8), 2);
    assert_int_equal(pages[0], 7);
    progress_free(p);
}

/* Done needs every check answered; mastered also needs each right at the
 * first try or at once in a review. */
static void test_progress_done_and_mastered(void **state)
{
    (void)state;
    Progress *p = progress_open(NULL, NULL, 0);
    assert_true(progress_record_try(p, "l", 2, 0, true, NULL, 0));
    assert_true(progress_record_try(p, "l", 4, -1, false, NULL, 0)); /* a predict missed */
    assert_true(progress_record_try(p, "l", 4, -1, true, NULL, 0));
    assert_false(progress_mastered(p, "l")); /* started, not done */
    assert_true(progress_set_done(p, "l", NULL, 0));
    assert_int_equal(progress_status(p, "l"), PROGRESS_DONE);
    assert_false(progress_mastered(p, "l")); /* done, page 4 still to review */
    assert_true(progress_record_review(p, "l", 4, false, NULL, 0));
    assert_false(progress_mastered(p, "l"));
    assert_true(progress_record_review(p, "l", 4, true, NULL, 0));
    assert_true(progress_mastered(p, "l"));
    /* All right at the first try: mastered as soon as it is done. */
    assert_true(progress_record_try(p, "k", 1, 0, true, NULL, 0));
    assert_false(progress_mastered(p, "k"));
    assert_true(progress_set_done(p, "k", NULL, 0));
    assert_true(progress_mastered(p, "k"));
    assert_false(progress_mastered(p, "never"));
    progress_free(p);
}

static void test_progress_seeds_differ(void **state)
{
    (void)state;
    Progress *a = progress_open(NULL, NULL, 0);
    Progress *b = progress_open(NULL, NULL, 0);
    assert_true(progress_seed(a) != 0 && progress_seed(b) != 0);
    assert_true(progress_seed(a) != progress_seed(b));
    progress_free(a);
    progress_free(b);
}

static void test_progress_refuses_ids_with_spaces(void **state)
{
    Fixture *f = *state;
    char err[256];
    Progress *p = progress_open(f->path, NULL, 0);
    assert_false(progress_visit(p, "two words", 1, err, sizeof err));
    assert_false(progress_visit(p, "", 1, err, sizeof err));
    assert_int_equal(progress_status(p, "two words"), PROGRESS_NEW);
    progress_free(p);
}

static void test_progress_in_memory_store_never_writes(void **state)
{
    (void)state;
    Progress *p = progress_open(NULL, NULL, 0);
    assert_null(progress_path(p));
    assert_true(progress_visit(p, "intro", 2, NULL, 0));
    assert_int_equal(progress_page(p, "intro"), 2);
    progress_free(p);
    progress_free(NULL);
}

static void test_progress_unwritable_folder_noted_at_open(void **state)
{
    (void)state;
    char note[512];
    /* Nobody, not even root, can create folders under /proc/self. */
    Progress *p = progress_open("/proc/self/scalelab/progress", note, sizeof note);
    assert_non_null(p);
    assert_non_null(strstr(note, "progress will not be kept"));
    assert_false(progress_visit(p, "intro", 1, NULL, 0));
    /* Already told through the note: not a second time. */
    assert_null(progress_take_error(p));
    assert_int_equal(progress_page(p, "intro"), 1); /* kept in memory */
    progress_free(p);
}

static void test_progress_failed_save_reported_once(void **state)
{
    Fixture *f = *state;
    char err[256];
    Progress *p = progress_open(f->path, NULL, 0);
    assert_true(progress_visit(p, "intro", 1, err, sizeof err));
    assert_null(progress_take_error(p));
    /* A file where the folder was: every later save fails. */
    assert_true(tl_tmpdir_remove(f->sub));
    tl_write_file(f->sub, "");
    assert_false(progress_visit(p, "intro", 2, err, sizeof err));
    const char *why = progress_take_error(p);
    assert_non_null(why);
    assert_non_null(strstr(why, "sub"));
    assert_false(progress_visit(p, "intro", 3, NULL, 0));
    assert_null(progress_take_error(p)); /* once */
    progress_free(p);
}

/* Practice results per kind: counted by hand through a save and a reopen;
 * a streak resets on a miss; a hand-written file reads back. */
static void test_progress_practice_round_trip(void **state)
{
    Fixture *f = *state;
    char note[200], err[200];
    Progress *p = progress_open(f->path, note, sizeof note);
    assert_int_equal(progress_practice_level(p), 1);
    assert_int_equal(progress_practice(p, "mapping").tried, 0);
    assert_true(progress_add_practice(p, "mapping", true, 1, err, sizeof err));
    assert_true(progress_add_practice(p, "mapping", true, 1, err, sizeof err));
    assert_true(progress_add_practice(p, "predict", false, 1, err, sizeof err));
    assert_true(progress_add_practice(p, "mapping", true, 2, err, sizeof err));
    assert_true(progress_add_practice(p, "mapping", false, 1, err, sizeof err));
    assert_true(progress_add_practice(p, "mapping", true, 1, err, sizeof err));
    assert_false(progress_add_practice(p, "two words", true, 1, err, sizeof err));
    assert_true(progress_set_done(p, "l1", err, sizeof err));
    progress_free(p);

    p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    ProgressPractice m = progress_practice(p, "mapping");
    assert_int_equal(m.tried, 5);
    assert_int_equal(m.first_try, 4);
    assert_int_equal(m.streak, 1);
    ProgressPractice q = progress_practice(p, "predict");
    assert_int_equal(q.tried, 1);
    assert_int_equal(q.first_try, 0);
    assert_int_equal(progress_practice_level(p), 1);
    assert_int_equal(progress_status(p, "l1"), PROGRESS_DONE);
    progress_free(p);

    tl_write_file(f->path, "scalelab-progress 1\npractice bottleneck 7 3 2\npractice-level 4\n");
    p = progress_open(f->path, note, sizeof note);
    assert_string_equal(note, "");
    assert_int_equal(progress_practice(p, "bottleneck").tried, 7);
    assert_int_equal(progress_practice(p, "bottleneck").first_try, 3);
    assert_int_equal(progress_practice_level(p), 4);
    progress_free(p);

    /* Two windows practising at once: both windows' exercises are counted. */
    Progress *a = progress_open(f->path, note, sizeof note);
    Progress *b = progress_open(f->path, note, sizeof note);
    assert_true(progress_add_practice(a, "predict", true, 2, err, sizeof err));
    assert_true(progress_add_practice(b, "predict", false, 1, err, sizeof err));
    assert_true(progress_add_practice(a, "predict", true, 3, err, sizeof err));
    assert_true(progress_add_practice(b, "mapping", true, 1, err, sizeof err));
    progress_free(a);
    progress_free(b);
    p = progress_open(f->path, note, sizeof note);
    assert_int_equal(progress_practice(p, "predict").tried, 3);
    assert_int_equal(progress_practice(p, "predict").first_try, 2);
    assert_int_equal(progress_practice(p, "mapping").tried, 1);
    assert_int_equal(progress_practice(p, "bottleneck").tried, 7);
    assert_int_equal(progress_practice_level(p), 1); /* b practised last */
    progress_free(p);

    /* More first tries than tries cannot be: the file is corrupt. */
    tl_write_file(f->path, "scalelab-progress 1\npractice predict 2 3 0\n");
    p = progress_open(f->path, note, sizeof note);
    assert_true(strlen(note) > 0);
    assert_int_equal(progress_practice(p, "predict").tried, 0);
    progress_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_default_path_prefers_xdg),
        cmocka_unit_test_setup_teardown(test_progress_missing_file_is_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_prediction_is_a_first_try, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_round_trip_survives_reopen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_exercises_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_reads_version_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_last_active_kept_and_merged, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_progress_load_reads_every_version, setup, teardown),
        cmocka_unit_test(test_progress_seeds_differ),
        cmocka_unit_test(test_progress_review_pages_in_page_order),
        cmocka_unit_test(test_progress_done_and_mastered),
        cmocka_unit_test_setup_teardown(test_progress_save_leaves_no_temp_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_two_windows_keep_both, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_planted_symlinks_not_followed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_progress_fifo_big_and_many_records, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_two_corrupt_files_both_kept, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_progress_corrupt_at_save_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_corrupt_file_moved_aside_once, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_progress_bad_header_and_numbers_are_corrupt, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_progress_refuses_ids_with_spaces, setup, teardown),
        cmocka_unit_test(test_progress_in_memory_store_never_writes),
        cmocka_unit_test(test_progress_unwritable_folder_noted_at_open),
        cmocka_unit_test_setup_teardown(test_progress_failed_save_reported_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_practice_round_trip, setup, teardown),
    };
    return cmocka_run_group_tests_name("progress", tests, NULL, NULL);
}
