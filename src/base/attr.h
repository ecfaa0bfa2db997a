/* SPDX-License-Identifier: MIT */
/* attr — what a declaration promises that C cannot say: a function that
 * never returns, never returns NULL, returns fresh memory, or takes a
 * printf format. The compiler checks callers against them (-Wformat), the
 * optimiser and the analyzers (gcc -fanalyzer, clang's scan-build) stop
 * following paths that cannot happen, and a reader learns it from the
 * header. GCC and clang spell them __attribute__; other compilers get
 * nothing, which changes no behaviour.
 * Part of src/base, the bottom layer: no dependency at all.
 */
#ifndef SCALELAB_BASE_ATTR_H
#define SCALELAB_BASE_ATTR_H

#if defined(__GNUC__) || defined(__clang__)
/* The function ends the process (abort, exit) or jumps away. */
#define ATTR_NORETURN __attribute__((noreturn))
/* The pointer returned is never NULL. */
#define ATTR_RETURNS_NONNULL __attribute__((returns_nonnull))
/* The pointer returned is fresh memory no other pointer aliases (malloc,
 * not realloc). */
#define ATTR_MALLOC __attribute__((malloc))
/* Argument FMT is a printf format whose arguments start at ARGS (0 for a
 * va_list). */
#define ATTR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ATTR_NORETURN
#define ATTR_RETURNS_NONNULL
#define ATTR_MALLOC
#define ATTR_PRINTF(fmt, args)
#endif

#endif
