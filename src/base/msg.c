/* SPDX-License-Identifier: MIT */
/* msg — one-line reasons into a caller's buffer (see msg.h). */
#include "base/msg.h"

#include <stdarg.h>
#include <stdio.h>

void msg_set(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || err_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
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
    vsnprintf(err, err_len, fmt, ap);
}
