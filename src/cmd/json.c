/* json — JSON strings and numbers for the headless commands (see json.h). */
#include "cmd/json.h"

#include <math.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
    else
        fputs("null", out);
}
