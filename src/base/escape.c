/* SPDX-License-Identifier: MIT */
/* escape — printable copies of untrusted text (escape.h). */
#include "base/escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void escape_text(const char *msg, size_t msg_len, char *out, size_t out_len)
{
    if (!out || out_len == 0)
        return;
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)(msg ? msg : "");
    bool cut = false;
    for (size_t i = 0; i < msg_len; i++) {
        char piece[8];
        size_t plen = 0;
        unsigned char c = s[i];
        size_t seq = 0;
        if (c >= 0xc2 && c <= 0xdf)
            seq = 2;
        else if (c >= 0xe0 && c <= 0xef)
            seq = 3;
        else if (c >= 0xf0 && c <= 0xf4)
            seq = 4;
        bool valid = seq > 0 && i + seq <= msg_len;
        for (size_t k = 1; valid && k < seq; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                valid = false;
        if (valid && seq == 2 && c == 0xc2 && s[i + 1] < 0xa0)
            valid = false; /* C1 control characters */
        if (valid && seq == 3 && c == 0xe0 && s[i + 1] < 0xa0)
            valid = false; /* overlong */
        if (valid && seq == 4 && c == 0xf0 && s[i + 1] < 0x90)
            valid = false;
        if (valid) {
            memcpy(piece, s + i, seq);
            plen = seq;
            i += seq - 1;
        } else if (c == '\n') {
            memcpy(piece, "\\n", plen = 2);
        } else if (c == '\t') {
            memcpy(piece, "\\t", plen = 2);
        } else if (c == '\r') {
            memcpy(piece, "\\r", plen = 2);
        } else if (c < 0x20 || c >= 0x7f) {
            plen = (size_t)snprintf(piece, sizeof piece, "\\x%02x", c);
        } else {
            piece[0] = (char)c;
            plen = 1;
        }
        if (o + plen + 4 > out_len) {
            cut = true;
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen;
    }
    if (cut && out_len >= 4) {
        while (o + 4 > out_len)
            o--;
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o < out_len ? o : out_len - 1] = '\0';
}
