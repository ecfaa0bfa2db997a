/* SPDX-License-Identifier: MIT */
/* progress_json — the form of `scalelab progress --json`, the file a student
 * hands in and `scalelab report` reads. One object:
 *
 *   {"format": "scalelab-progress", "version": 1, "learner": "NAME",
 *    "last_active": SECONDS,
 *    "lessons": [{"id", "title", "status": "new"|"started"|"done",
 *                 "pages", "last_page", "last_page_title", "last_page_kind",
 *                 "last_active": SECONDS, "hints",
 *                 "questions": [{"page", "kind": "quiz"|"predict"|"prediction",
 *                                "title", "tried", "right", "first_try", "tries"}],
 *                 "scenarios": [{"page", "title", "met", "hints"}]}],
 *    "practice": {"mapping"|"predict"|"bottleneck":
 *                 {"tried", "first_try", "streak"}, "level": N}}
 *
 * Pages are numbered from 0. last_active is when the record last changed, in
 * seconds since 1970 (UTC), 0 when not known. Readers ignore keys they do not
 * know, so the form grows without a new version: last_active,
 * last_page_title and last_page_kind came after the first files were
 * handed in, and readers take them as optional. A lesson the record holds
 * but the lessons folder lacks is listed from the record alone: its title
 * is its id, pages 0 (not known), questions only those tried (kind
 * "question"), scenarios only those met or hinted. A "prediction" is a
 * scenario page's question before a marked move; it asks once, so right
 * means answered and first_try whether the answer was right.
 */
#ifndef SCALELAB_CMD_PROGRESS_JSON_H
#define SCALELAB_CMD_PROGRESS_JSON_H

#include "lesson/catalog.h"
#include "store/progress.h"

#include <stdbool.h>
#include <stdio.h>

#define PROGRESS_JSON_FORMAT  "scalelab-progress"
#define PROGRESS_JSON_VERSION 1

/* One question page (quiz or predict) as the record has it: tried (a first
 * try, a right answer, or an answer kept by a version 1 file), right, right
 * at the first try, tries counted. */
typedef struct {
    bool tried, right, first_try;
    int tries;
} ProgressQuestion;
ProgressQuestion progress_json_question(const Progress *p, const char *id, int page);

/* Writes p as the object above, one line: the lessons of cat in its order
 * (each loaded in the sandbox to name its pages; one that does not load is
 * listed from the record), then those only the record has. learner may be
 * "" (the reader names the file). */
void progress_json_write(FILE *out, const Progress *p, const Catalog *cat, const char *learner);

#endif
