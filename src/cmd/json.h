/* json — the one JSON writer of the headless commands (eval, sweep, render):
 * strings escaped so any bytes give valid JSON (quotes, backslashes and
 * control characters, DEL included), numbers with ten significant digits and
 * null for NaN or infinity, which JSON cannot hold.
 */
#ifndef SCALELAB_CMD_JSON_H
#define SCALELAB_CMD_JSON_H

#include <stdio.h>

/* s may be NULL: written as "". */
void json_string(FILE *out, const char *s);
void json_number(FILE *out, double v);

#endif
