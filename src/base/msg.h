/* msg — the one way library code reports a reason: a printf-style one-line
 * message into a caller's buffer. Functions return a status and fill `err`;
 * they never print. Part of src/base, the bottom layer: pure C, no other
 * dependency.
 */
#ifndef SCALELAB_BASE_MSG_H
#define SCALELAB_BASE_MSG_H

#include <stddef.h>

/* Writes the formatted message into err (cut to err_len, always
 * terminated). err may be NULL or err_len 0: then nothing is written. */
void msg_set(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
