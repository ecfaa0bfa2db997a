/* SPDX-License-Identifier: MIT */
/* screens — the pieces every screen shares: the size check, the "terminal
 * too small" line, the frame (title, rule, footer of keys) and the help
 * overlay. Pure canvas drawing, no curses.
 */
#include "ui/screens.h"

#include "base/utf8.h"
#include "draw/text.h"

#include <stdio.h>
#include <string.h>

bool screen_size_ok(int w, int h)
{
    return w >= SCREEN_MIN_W && h >= SCREEN_MIN_H;
}

void screen_too_small_draw(Canvas *c, int w, int h)
{
    /* The longest wording that fits the width. */
    char line[4][120];
    snprintf(line[0], sizeof line[0],
             "Terminal %dx%d is too small: please make it at least %dx%d.", w, h, SCREEN_MIN_W,
             SCREEN_MIN_H);
    snprintf(line[1], sizeof line[1], "Too small: need %dx%d", SCREEN_MIN_W, SCREEN_MIN_H);
    snprintf(line[2], sizeof line[2], "Need %dx%d", SCREEN_MIN_W, SCREEN_MIN_H);
    snprintf(line[3], sizeof line[3], "%dx%d", SCREEN_MIN_W, SCREEN_MIN_H);
    int pick = 0;
    while (pick < 3 && (int)strlen(line[pick]) > canvas_width(c))
        pick++;
    canvas_clear(c);
    canvas_put_text_max(c, 0, 0, canvas_width(c), line[pick], STYLE_WARNING);
}

int screen_frame(Canvas *c, const char *title, const char *right, const char *footer1,
                 const char *footer2)
{
    int w = canvas_width(c), h = canvas_height(c);
    text_title_rule(c, title, right);
    if (footer2) {
        canvas_put_text_max(c, 1, h - 2, w - 2, footer1, STYLE_DIM);
        canvas_put_text_max(c, 1, h - 1, w - 2, footer2, STYLE_DIM);
    } else if (footer1) {
        canvas_put_text_max(c, 1, h - 1, w - 2, footer1, STYLE_DIM);
    }
    return 2;
}

void screen_help_draw(Canvas *c, const char *title, const char *const *lines)
{
    int w = canvas_width(c), h = canvas_height(c);
    int n = 0, bw = utf8_width(title) + 4;
    for (; lines[n]; n++) {
        int lw = utf8_width(lines[n]) + 4;
        if (lw > bw)
            bw = lw;
    }
    if (bw > w - 2)
        bw = w - 2;
    int bh = n + 4;
    if (bh > h - 2)
        bh = h - 2;
    int x = (w - bw) / 2, y = (h - bh) / 2;
    canvas_fill(c, x, y, bw, bh, " ", STYLE_NORMAL);
    canvas_box(c, x, y, bw, bh, LINE_LIGHT, STYLE_FRAME);
    canvas_put_text_max(c, x + 2, y, bw - 4, title, STYLE_HEADING);
    for (int i = 0; i < n && i < bh - 4; i++)
        canvas_put_text_max(c, x + 2, y + 2 + i, bw - 4, lines[i], STYLE_NORMAL);
    canvas_put_text_max(c, x + 2, y + bh - 1, bw - 4, " any key closes this box ", STYLE_DIM);
}
