/* SPDX-License-Identifier: MIT */
/* keys — the key codes the screens understand, independent of curses.
 *
 * A key is an int: a printable character is its Unicode code point; the
 * special keys below sit above the Unicode range so they never collide.
 * term.c translates curses key codes into these; the screens and their tests
 * see only these. No curses here.
 */
#ifndef SCALELAB_UI_KEYS_H
#define SCALELAB_UI_KEYS_H

enum {
    UIK_NONE = 0,
    UIK_CTRL_C = 3,
    UIK_TAB = 9,
    UIK_ENTER = 10,
    UIK_ESC = 27,
    UIK_SPECIAL = 0x110000,
    UIK_UP = UIK_SPECIAL + 1,
    UIK_DOWN,
    UIK_LEFT,
    UIK_RIGHT,
    UIK_PGUP,
    UIK_PGDN,
    UIK_HOME,
    UIK_END,
    UIK_BACKSPACE,
    UIK_BTAB,   /* shift-tab */
    UIK_RESIZE, /* the terminal changed size */
    UIK_SIGNAL, /* a quit signal arrived while waiting */
};

#endif
