/* SPDX-License-Identifier: MIT */
/* escape — printable copies of untrusted text (escape.h). */
#include "base/escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Unicode bidirectional and format controls a terminal may obey: U+061C
 * (Arabic letter mark), U+200E-U+200F (LRM, RLM), U+202A-U+202E (LRE, RLE,
 * PDF, LRO, RLO), U+2066-U+2069 (LRI, RLI, FSI, PDI). A right-to-left
 * override in a message would reorder what follows it on the screen. */
static bool escape_is_bidi(const unsigned char *s, size_t seq)
{
    if (seq == 2)
        return s[0] == 0xd8 && s[1] == 0x9c;
    if (seq != 3 || s[0] != 0xe2)
        return false;
    return (s[1] == 0x80 && (s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae))) ||
           (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9);
}

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
        if (valid && escape_is_bidi(s + i, seq))
            valid = false; /* written byte by byte as \xNN, like C1 */
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
