/* SPDX-License-Identifier: MIT */
/* sheet — worksheets for a class, as `scalelab practice --print`, --answers
 * and --from write them.
 *
 * Two forms of one sheet: the students' sheet (each item's situation and
 * question, lettered choices, a blank for the answer with the unit to give it
 * in, room to work, and a header with the seed and a line for the name), and
 * the answer key (the same items under the same numbers, each with its answer,
 * the tolerance a number is graded within, and the worked answer or the
 * formula). The students' sheet holds no answer text at all. Items are
 * exercises the model makes (learn/practice.h) or the quiz and predict pages
 * of lessons; a quiz's choices are printed in the order quiz_order draws from
 * the sheet's seed (in the UI each learner has an order of their own).
 *
 * Text is laid out for paper: lines of at most SHEET_WIDTH columns, text a
 * lesson wrote drawn through the canvas, so no control character reaches the
 * page. JSON is one object per item and line, "answers" saying which form it
 * is; the students' form has no answer, worked answer, value or formula.
 *
 * Writes to the FILE given; nothing else.
 */
#ifndef SCALELAB_CMD_SHEET_H
#define SCALELAB_CMD_SHEET_H

#include "learn/practice.h"
#include "lesson/lesson.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SHEET_WIDTH 78 /* columns of every text line, within an 80-column page */

typedef struct {
    bool answers;  /* the answer key */
    bool json;     /* one JSON object per item instead of text */
    uint64_t seed; /* the sheet's seed: quiz choices are in its order */
} SheetMode;

/* The header of a text sheet (JSON has none): what the sheet holds ("6
 * exercises, level 1"), the command that prints the students' sheet (the key
 * names it) and whether quiz choices were put in the seed's order (the key
 * says so). */
typedef struct {
    const char *what;
    const char *command;
    bool quiz_order;
} SheetHead;

void sheet_write_head(FILE *out, const SheetMode *m, const SheetHead *h);
/* Item number of a generated exercise. */
void sheet_write_practice(FILE *out, const SheetMode *m, int number, const Practice *p);
/* Whether a lesson page goes on a sheet: quiz and predict pages. */
bool sheet_takes_page(const Lesson *l, int page);
/* Item number of page `page` of a lesson (a quiz or predict page). */
void sheet_write_page(FILE *out, const SheetMode *m, int number, const Lesson *l, int page);

#endif
