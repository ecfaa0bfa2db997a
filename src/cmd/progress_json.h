/* SPDX-License-Identifier: MIT */
/* progress_json — the form of `scalelab progress --json`, the file a student
 * hands in and `scalelab report` reads. One object:
 *
 *   {"format": "scalelab-progress", "version": 1, "learner": "NAME",
 *    "lessons": [{"id", "title", "status": "new"|"started"|"done",
 *                 "pages", "last_page", "hints",
 *                 "questions": [{"page", "kind": "quiz"|"predict", "title",
 *                                "tried", "right", "first_try", "tries"}],
 *                 "scenarios": [{"page", "title", "met", "hints"}]}],
 *    "practice": {"mapping"|"predict"|"bottleneck":
 *                 {"tried", "first_try", "streak"}, "level": N}}
 *
 * Pages are numbered from 0. Readers ignore keys they do not know, so the
 * form can grow without a new version.
 */
#ifndef SCALELAB_CMD_PROGRESS_JSON_H
#define SCALELAB_CMD_PROGRESS_JSON_H

#define PROGRESS_JSON_FORMAT  "scalelab-progress"
#define PROGRESS_JSON_VERSION 1

#endif
