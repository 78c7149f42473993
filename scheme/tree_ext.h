/*
 * tree_ext.h -- the tree primitives of (compi trees): topologies/tree.c's builders,
 * validation and shape queries and tree_draw.c's drawing, as Scheme procedures.
 *
 * One file, two ways in: linked into the library, where bridge_init registers it as a
 * Guile extension before any module loads; and built alone as the loadable module
 * compi-trees.so, which plain guile opens.  Either way (compi trees) asks for it with
 * (load-extension "compi-trees" "bridge_trees_init"), and Guile calls the registered
 * function or opens the file.
 *
 * Ownership: nothing is kept; each primitive frees what it allocates before it returns.
 */
#ifndef COMPI_SCHEME_TREE_EXT_H
#define COMPI_SCHEME_TREE_EXT_H

#include <libguile.h>

struct topo_tree;

#define BRIDGE_TREES_EXTENSION "compi-trees"
#define BRIDGE_TREES_INIT "bridge_trees_init"

/* Defines the primitives (%tree-validate, %tree-build, %tree-depth, %tree-ordered?,
   %tree-draw, and %collective-kinds, the kinds of core/coll/kinds.def as a list of
   symbols, which (compi private) asks for) in the current module.  Guile mode. */
void bridge_trees_init(void);

/* Registers bridge_trees_init as the extension BRIDGE_TREES_EXTENSION, so that
   load-extension finds it in the running program; once is enough, more is harmless. */
void bridge_trees_register(void);

/* A tree of (compi trees), given by its fields SIZE ROOT PARENTS (a vector) CHILDREN (a
   vector of lists), copied into a new topo_tree_t in *t_p, not validated: SCM_BOOL_F, or
   the message of a tree that cannot be copied (*t_p NULL).  Raises on wrong types only,
   before allocating (`who' names the primitive or step). */
SCM bridge_tree_in(const char *who, SCM size, SCM root, SCM parents, SCM children,
                   struct topo_tree **t_p);

/*
 * The groups of an exchange allreduce (lists of communicator ranks) and their trees (one
 * per group, over its positions: #(SIZE ROOT PARENTS CHILDREN), the fields of a tree of
 * (compi trees)), checked -- every rank of 0..size-1 in exactly one group, each tree
 * valid for its group (topo_tree_validate) -- and mapped to communicator ranks: the
 * arrays of coll_exchange_from_parents in *g (a forest whose roots are the
 * coordinators; order lists each group's coordinator, then every rank's children in
 * serving order).  SCM_BOOL_F, or the message.  The bridge (bridge_closure.c) and
 * (compi internal)'s view of the lowered exchange (%exchange-forest) both use it, so
 * the groups are checked in one place, with one wording.  The arrays are collected
 * memory (the caller copies them); raises on wrong types only, leaving nothing behind.
 */
typedef struct bridge_groups {
    int size, ngroups;
    int *group_of, *coord, *parent, *order;
} bridge_groups_t;
SCM bridge_groups_in(SCM groups, SCM trees, int size, bridge_groups_t *g);

#endif
