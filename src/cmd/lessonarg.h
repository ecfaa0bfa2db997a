/* SPDX-License-Identifier: MIT */
/* lessonarg — LESSON as the commands take it (`present LESSON`, `practice
 * --from LESSON...`): a path to a file, or the id or file name of a lesson in
 * the lessons folder ("scale-out-fabric", "04-scale-out-fabric").
 *
 * No output; loading and its errors are the caller's (lesson_load names a
 * file that cannot be read).
 */
#ifndef SCALELAB_CMD_LESSONARG_H
#define SCALELAB_CMD_LESSONARG_H

/* out[i] (the caller frees each) gets the path to load for args[i]: args[i]
 * itself when it names a file or ends in ".lua", else the path of the lesson
 * in dir (NULL: catalog_default_dir()) whose id or file name (without .lua)
 * is args[i], or args[i] itself when none is. The folder is read once, and
 * only when some argument needs it. */
void lessonarg_paths(const char *const *args, int n, const char *dir, char **out);

#endif
