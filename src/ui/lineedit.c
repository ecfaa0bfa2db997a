/* SPDX-License-Identifier: MIT */
/* lineedit — a one-line entry (see lineedit.h). Pure: no curses. */
#include "ui/lineedit.h"

#include "ui/keys.h"

#include <string.h>

bool lineedit_is_char(int key)
{
    return (key >= 0x20 && key < 0x7f) || (key >= 0xa0 && key < 0x800);
}

bool lineedit_key(char *buf, size_t size, int key)
{
    size_t n = strlen(buf);
    if (key == UIK_BACKSPACE || key == 127 || key == 8) {
        while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
            n--; /* continuation bytes of the last character */
        buf[n > 0 ? n - 1 : 0] = '\0';
        return true;
    }
    if (!lineedit_is_char(key))
        return false;
    char enc[3] = {(char)key, 0, 0};
    if (key >= 0x80) { /* two bytes: 110xxxxx 10xxxxxx */
        enc[0] = (char)(0xc0 | (key >> 6));
        enc[1] = (char)(0x80 | (key & 0x3f));
    }
    size_t m = strlen(enc);
    if (n + m < size)
        memcpy(buf + n, enc, m + 1);
    return true;
}
