/* SPDX-License-Identifier: MIT */
/* msg — one-line reasons into a caller's buffer (see msg.h). */
#include "base/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void msg_set(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    msg_vset(err, err_len, fmt, ap);
    va_end(ap);
}

bool msg_fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    msg_vset(err, err_len, fmt, ap);
    va_end(ap);
    return false;
}

void msg_vset(char *err, size_t err_len, const char *fmt, va_list ap)
{
    if (!err || err_len == 0)
        return;
    int n = vsnprintf(err, err_len, fmt, ap);
    if (n < 0 || (size_t)n < err_len || err_len < 4)
        return;
    /* Cut: say so with "...", never in the middle of a UTF-8 character
     * (a continuation byte at the cut belongs to a character begun before). */
    size_t end = err_len - 4;
    while (end > 0 && ((unsigned char)err[end] & 0xC0) == 0x80)
        end--;
    memcpy(err + end, "...", 4);
}
