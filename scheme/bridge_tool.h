/*
 * bridge_tool.h -- the bridge's entry point for compi-tree (tools/compi_tree.c): the
 * closure the installed creators build for one call on a layout of hosts (parsed by
 * core/runtime/layout.c), rendered as text or Graphviz DOT by (compi tree-tool), without
 * MPI.  Call bridge_init and load the configs first; compi-tree builds the C closure
 * itself (bridge_build_closure) and hands its signature in.
 *
 * Built into compi-tree only, not into the library: the library never needs it.
 *
 * Ownership: the request and its strings belong to the caller; *text_p is malloc'd and
 * becomes the caller's.
 */
#ifndef COMPI_BRIDGE_TOOL_H
#define COMPI_BRIDGE_TOOL_H

#include "scheme/bridge.h"
#include "core/include/compi_status.h"
#include "core/runtime/layout.h"

#include <stddef.h>

typedef struct bridge_tree_request {
    bridge_kind_t kind;
    const rte_layout_t *layout; /* the ranks' hosts and addresses */
    const char *layout_text;    /* "a:4@10.1.0.0/24,b:4@10.2.0.0/24", as given */
    long root;            /* -1: the kind has no root */
    long rank;            /* the rank whose view of the call is shown */
    unsigned long bytes;  /* what call-bytes says */
    const char *datatype; /* "MPI_DOUBLE", as call-datatype says it */
    const char *op;       /* "MPI_SUM" for reductions, NULL for other kinds */
    int commutative;      /* call-commutative? */
    int dot;              /* 1: Graphviz DOT, 0: text */
    const char *signature; /* "0123456789abcdef (bcast:binomial)": the C closure's */
} bridge_tree_request_t;

/*
 * COMPI_OK and the rendering in *text_p, or COMPI_ERR_CONFIG and one line in errbuf: a
 * creator failure worded as the library words it ("creator NAME (KIND, installed at
 * FILE:L:C) failed: ... (call: ...)").  The root and the rank must be in the layout.
 */
compi_status_t bridge_tree_render(const bridge_tree_request_t *req, char **text_p, char *errbuf,
                                  size_t len);

#endif
