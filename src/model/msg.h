/* msg — the one way model code reports a reason: a printf-style one-line
 * message into a caller's buffer. Model functions return a status and fill
 * `err`; they never print. Pure C, no other dependency.
 */
#ifndef SCALELAB_MODEL_MSG_H
#define SCALELAB_MODEL_MSG_H

#include <stddef.h>

/* Writes the formatted message into err (cut to err_len, always
 * terminated). err may be NULL or err_len 0: then nothing is written. */
void msg_set(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
