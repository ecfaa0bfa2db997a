/* SPDX-License-Identifier: MIT */
/* lesson_api — the `scalelab` library lessons call (documented for authors in
 * lessons/AUTHORING.md), and the readers that turn a lesson's cluster,
 * workload and mapping tables into model structs.
 *
 * Every function here that takes a lua_State may raise a Lua error, so it
 * runs only inside sandbox_call / sandbox_protect; none of them holds C heap
 * memory while it can raise (model structs are plain values on the C stack).
 * Only src/lesson includes this header (it includes lua.h).
 */
#ifndef SCALELAB_LESSON_LESSON_API_H
#define SCALELAB_LESSON_LESSON_API_H

#include "lesson/wire.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/serve.h"
#include "model/step.h"
#include "model/workload.h"

#include <lua.h>

/* Sets the global table `scalelab` in the state's environment. */
void lesson_api_open(lua_State *L);

/* Readers. idx is a table ({system=, gpus=, ...}) or a scalelab.cluster
 * object; what names the field in messages ("pages[3].cluster"). */
void lesson_api_cluster(lua_State *L, int idx, const char *what, Cluster *out);
/* A workload table {model=, batch=, mb=, ...}; nil gives llama3-8b. */
void lesson_api_workload(lua_State *L, int idx, const char *what, Workload *out);
/* A mapping table {tp=, pp=, dp=, ep=, cp=, interleave=, zero=}; missing dp
 * is the rest of the cluster (gpus / (tp*cp*pp)); nil is all DP. Checked
 * against the cluster and workload with mapping_check. */
void lesson_api_mapping(lua_State *L, int idx, const char *what, const Cluster *c,
                        const Workload *w, Mapping *out);

/* Pushes the result table goals see (format: lessons/AUTHORING.md). With c
 * non-NULL also .cluster (system, gpus, domain, power); with m non-NULL also
 * .mapping (with mb, the micro-batch); with start non-NULL also .start (the
 * scenario's start result). */
void lesson_api_push_result(lua_State *L, const StepResult *r, const Cluster *c, const Mapping *m,
                            int mb, const StepResult *start);

/* Pushes a decode step's table (format: lessons/AUTHORING.md, r.serve),
 * named name in messages ("r.serve"). Result tables are strict: a read of a
 * field they lack raises an error naming it and the fields they have. */
void lesson_api_push_serve(lua_State *L, const ServeResult *r, const char *name);

/* Unknown fields of the tables a reader checks (lesson_api_check_known):
 * with a sink set, each goes to it and reading goes on; without, the first
 * raises. near: the nearest known name, or NULL. */
typedef struct {
    void (*unknown)(void *ctx, const char *what, const char *key, const char *near,
                    const char *const *known);
    void *ctx;
} LessonFieldSink;
void lesson_api_set_field_sink(lua_State *L, const LessonFieldSink *sink); /* NULL: raise */
/* Checks the string keys of the table at idx against known (NULL-ended). */
void lesson_api_check_known(lua_State *L, int idx, const char *what, const char *const *known);
/* Where scalelab.note sends its text (len bytes) and the line of the call;
 * without a sink notes are dropped. */
typedef struct {
    void (*note)(void *ctx, int line, const char *text, size_t len);
    void *ctx;
} LessonNoteSink;
void lesson_api_set_note_sink(lua_State *L, const LessonNoteSink *sink);

/* For strbuf_join over a NULL-ended list of names: entry i, and the count. */
const char *lesson_api_known_at(int i, const void *ctx);
int lesson_api_known_count(const char *const *known);

/* Clusters, workloads and mappings of pages, sent from the lesson host to
 * scalelab (wire.h): the cluster as its preset and the fields a lesson may
 * set, built again and checked by the receiving end; the workload likewise;
 * the mapping as its degrees, each in range. A page without a cluster
 * (all zero) travels as one byte. */
extern const WireCodec lesson_api_cluster_codec;
extern const WireCodec lesson_api_workload_codec;
extern const WireCodec lesson_api_mapping_codec;

#endif
