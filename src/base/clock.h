/* SPDX-License-Identifier: MIT */
/* clock — the one monotonic clock of scalelab: seconds since an arbitrary
 * fixed point, never going back when the wall clock is set. Used for
 * timeouts, sandbox deadlines and elapsed-time figures; never for dates.
 *
 * Part of src/base, the bottom layer: pure C (POSIX), no other dependency.
 */
#ifndef SCALELAB_BASE_CLOCK_H
#define SCALELAB_BASE_CLOCK_H

/* Monotonic time in seconds (CLOCK_MONOTONIC, nanosecond resolution). */
double clock_now_s(void);

#endif
