/* SPDX-License-Identifier: MIT */
/* file — the one way scalelab reads a whole file and writes one.
 *
 * file_read takes a whole regular file into memory, refusing what is not a
 * regular file (a folder, a FIFO, a device: nothing blocks) and what is
 * larger than the caller's limit. file_write writes a file through a
 * callback, either atomically over an old one (a temporary file beside it,
 * flushed to disk, renamed over it, the folder flushed: a reader sees the
 * old file or the new one, never part of either) or as a new file that never
 * replaces an existing one.
 *
 * Errors: file_read reports a FileProblem the caller words for its own
 * context (file_problem_text gives a default); file_write returns false,
 * leaves errno at the cause and writes one line through msg_set. Neither
 * prints. A write past a file-size limit (ulimit -f) is an EFBIG error like
 * any other: every program linking this file ignores SIGXFSZ from its
 * start. Part of src/base, the bottom layer: depends on msg and xmem.
 */
#ifndef SCALELAB_BASE_FILE_H
#define SCALELAB_BASE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum {
    FILE_OK,
    FILE_MISSING,     /* no such file (errnum ENOENT) */
    FILE_CANNOT_OPEN, /* open failed for another reason (errnum) */
    FILE_NOT_REGULAR, /* a folder, FIFO, device...: kind says which */
    FILE_TOO_LARGE,   /* over the limit: size is what was found */
    FILE_CANNOT_READ, /* a read error (errnum) */
} FileStatus;

typedef struct {
    FileStatus status;
    int errnum;       /* errno for FILE_MISSING, FILE_CANNOT_OPEN, FILE_CANNOT_READ */
    long long size;   /* bytes found, for FILE_TOO_LARGE */
    const char *kind; /* FILE_NOT_REGULAR: "a directory", "a FIFO", "a device" or
                         "not a regular file" */
} FileProblem;

/* Reads the whole regular file at path, at most max_bytes. Returns a buffer
 * of *len bytes plus a terminating NUL (the file may hold NULs itself);
 * the caller frees it. On failure returns NULL and fills *why (why may be
 * NULL). */
char *file_read(const char *path, size_t max_bytes, size_t *len, FileProblem *why);

/* One line for why without the path: "cannot open: <reason>", "not a
 * regular file (a FIFO)", "too large (N bytes, limit M)", "cannot read:
 * <reason>". */
void file_problem_text(const FileProblem *why, size_t max_bytes, char *err, size_t err_len);

/* Writes the file's content to f; false when a write failed. */
typedef bool (*FileWriteFn)(FILE *f, const void *ctx);

enum {
    FILE_NEW = 1u,     /* create path; fail (errno EEXIST) if it exists, never replace it */
    FILE_PRIVATE = 2u, /* mode 0600 (state files); otherwise 0666 less the umask */
};

/* Writes path through fn (flags: FILE_NEW, FILE_PRIVATE; 0 = atomic
 * replace, except that an output path naming a FIFO or a device, such as
 * /dev/stdout, is written into as it is). The folder must exist. On failure nothing is left behind
 * (no temporary file, no partial new file), errno is the cause (EIO when fn failed without one)
 * and err gets "cannot write PATH: reason". */
bool file_write(const char *path, unsigned flags, FileWriteFn fn, const void *ctx, char *err,
                size_t err_len);

#endif
