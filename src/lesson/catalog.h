/* SPDX-License-Identifier: MIT */
/* catalog — the list of lessons in a folder, for the lesson menu and
 * `scalelab --list`.
 *
 * catalog_load reads every *.lua file of a folder (not sub-folders), loads
 * each one fully in its own sandbox (the same limits as lesson_load, so a
 * hostile file costs at most one lesson's budget) and keeps only the header
 * fields. A lesson that fails to load is still an entry: its id is the file
 * name without ".lua", its title the file name, and error holds the one-line
 * "file:line: message"; the list as a whole never fails because of one file.
 * Entries are sorted by track, then order, then id (strcmp), so the menu is
 * the same on every machine; entries with an error sort last.
 *
 * Header cache: the header fields of lessons that loaded are kept in
 * $XDG_CACHE_HOME/scalelab/catalog (else ~/.cache/scalelab/catalog), keyed
 * by real path, size and mtime (ns); an unchanged file is not run again.
 * The cache is only a speed-up: a bad one is set aside under a name of its
 * own (store/aside.h) and an unwritable one ignored, silently; errors are
 * never cached, and it is written (temp file + rename) only when something
 * changed and at least one lesson loaded. A lesson not in the cache is
 * loaded in a lesson host of its own (lesson_load_quick).
 *
 * Ownership: catalog_load returns a Catalog the caller frees with
 * catalog_free (NULL accepted). Entry pointers and their strings live until
 * the catalog is freed. No Lua header here: only src/lesson/ sees Lua.
 */
#ifndef SCALELAB_LESSON_CATALOG_H
#define SCALELAB_LESSON_CATALOG_H

#include <stddef.h>

typedef struct {
    const char *path;    /* "DIR/name.lua" */
    const char *id;      /* lesson id, or the file name without .lua on error */
    const char *title;   /* never NULL */
    const char *summary; /* never NULL, "" when missing */
    const char *track;   /* never NULL, "" when missing */
    int order;
    int minutes;       /* 0 when the lesson does not say */
    int pages;         /* page count, 0 on error */
    const char *error; /* NULL when the lesson loaded, else "file:line: message" */
} CatalogEntry;

typedef struct Catalog Catalog;

/* Loads the lessons of dir. Returns NULL only when dir cannot be opened
 * (reason in err: "lessons/: No such file or directory"); an empty folder is
 * an empty catalog. err may be NULL. */
Catalog *catalog_load(const char *dir, char *err, size_t err_len);
void catalog_free(Catalog *c);

int catalog_count(const Catalog *c);                        /* 0 for NULL */
const CatalogEntry *catalog_entry(const Catalog *c, int i); /* NULL out of range */
/* Index of the entry with this id, -1 when none. */
int catalog_find(const Catalog *c, const char *id);

/* The lessons folder: $SCALELAB_LESSONS when set and non-empty, else
 * "lessons" beside the executable (the folder of /proc/self/exe) when it
 * exists, else SCALELAB_DATADIR "/lessons". Writes it into buf and returns
 * buf (truncated paths are refused: returns NULL). */
const char *catalog_default_dir(char *buf, size_t n);
/* The same lookup for the assets folder: $SCALELAB_ASSETS, "assets" beside
 * the executable, SCALELAB_DATADIR "/assets". */
const char *catalog_assets_dir(char *buf, size_t n);

#endif
