/*
 * tree_ext.c -- the C side of (compi trees): a tree of the module (size, root, a vector
 * of parents, a vector of each rank's children lists) becomes a topo_tree_t, and
 * topologies/tree.c validates it, measures it and builds the classic shapes, and
 * tree_draw.c draws it.  So every tree builder and every validation message exists once,
 * in C, for the library's executors, the embedded Guile, plain guile and compi-tree.
 *
 *   (%tree-validate SIZE ROOT PARENTS CHILDREN CALL-SIZE CALL-ROOT) -> #t or "message"
 *   (%tree-depth SIZE ROOT PARENTS CHILDREN)      -> depth, or "message" (invalid tree)
 *   (%tree-ordered? SIZE ROOT PARENTS CHILDREN)   -> #t / #f, or "message"
 *   (%tree-build SHAPE SIZE ROOT K)               -> (PARENTS . CHILDREN)
 *   (%tree-draw SIZE ROOT PARENTS CHILDREN FROM LABELS MARKS) -> "text"
 *   (%exchange-forest GROUPS TREES SIZE)          -> #(GROUP-OF COORDS PARENTS ORDER),
 *                                                    or "message"
 *   (%collective-kinds)                           -> (barrier bcast ...)
 *
 * SHAPE is flat, binomial, in-order-binomial, kary, knomial or chain (K for the last
 * three); LABELS and MARKS are #f or vectors of a string or #f per rank.  A problem of the
 * tree's shape (a parent out of range, a missing rank) is an answer, the message; a
 * wrong argument type raises, before anything is allocated, so no C memory is lost to a
 * non-local exit (the checks walk the Scheme values first, the copies come after).
 */
#include "scheme/tree_ext.h"
#include "topologies/tree.h"

#include <libguile.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int ext__is_int(SCM x)
{
    return scm_is_exact_integer(x) && scm_is_signed_integer(x, INT_MIN, INT_MAX);
}

/* raises unless x is an integer of lo..hi */
static void ext__check_range(const char *who, int pos, SCM x, int lo, int hi)
{
    if (!scm_is_exact_integer(x) || !scm_is_signed_integer(x, lo, hi)) {
        scm_out_of_range_pos(who, x, scm_from_int(pos));
    }
}

static SCM ext__msg(const char *fmt, SCM args)
{
    return scm_simple_format(SCM_BOOL_F, scm_from_utf8_string(fmt), args);
}

/*
 * The tree SIZE ROOT PARENTS CHILDREN as a topo_tree_t in *t_p: SCM_BOOL_F, or the
 * message of a tree that cannot be one (*t_p NULL).  Raises on wrong types only, before
 * allocating.  Nothing is validated beyond what the copy needs: topo_tree_validate
 * names the rest.
 */
static SCM ext__tree_in(const char *who, SCM size, SCM root, SCM parents, SCM children,
                        topo_tree_t **t_p)
{
    *t_p = NULL;
    SCM_ASSERT_TYPE(scm_is_exact_integer(size) && scm_is_signed_integer(size, 1, INT_MAX - 1),
                    size, SCM_ARG1, who, "positive integer");
    SCM_ASSERT_TYPE(scm_is_exact_integer(root), root, SCM_ARG2, who, "integer");
    SCM_ASSERT_TYPE(scm_is_vector(parents), parents, SCM_ARG3, who, "vector");
    SCM_ASSERT_TYPE(scm_is_vector(children), children, SCM_ARG4, who, "vector");
    int n = scm_to_int(size);

    if (!ext__is_int(root)) {
        return ext__msg("root ~A is outside 0..~A", scm_list_2(root, scm_from_int(n - 1)));
    }
    if (scm_c_vector_length(parents) != (size_t)n) {
        return ext__msg("the tree has ~A parents for ~A ranks",
                        scm_list_2(scm_from_size_t(scm_c_vector_length(parents)), size));
    }
    if (scm_c_vector_length(children) != (size_t)n) {
        scm_wrong_type_arg_msg(who, SCM_ARG4, children, "vector of a list per rank");
    }
    long nchild = 0;
    for (int r = 0; r < n; r++) {
        SCM p = scm_c_vector_ref(parents, (size_t)r);
        if (!ext__is_int(p)) {
            return ext__msg("rank ~A has parent ~S, outside 0..~A",
                            scm_list_3(scm_from_int(r), p, scm_from_int(n - 1)));
        }
        SCM cs = scm_c_vector_ref(children, (size_t)r);
        long len = scm_ilength(cs);
        if (len < 0) {
            scm_wrong_type_arg_msg(who, SCM_ARG4, children, "vector of a list per rank");
        }
        for (; scm_is_pair(cs); cs = scm_cdr(cs)) {
            if (!ext__is_int(scm_car(cs))) {
                return ext__msg("rank ~A has child ~S, outside 0..~A",
                                scm_list_3(scm_from_int(r), scm_car(cs), scm_from_int(n - 1)));
            }
        }
        nchild += len;
        if (nchild > INT_MAX) {
            return ext__msg("the children lists hold more than ~A entries",
                            scm_list_1(scm_from_int(INT_MAX)));
        }
    }

    /* past the checks: nothing below raises */
    topo_tree_t *t = calloc(1, sizeof(*t));
    if (t != NULL) {
        t->size = n;
        t->root = scm_to_int(root);
        t->parent = malloc((size_t)n * sizeof(int));
        t->child_off = malloc(((size_t)n + 1) * sizeof(int));
        t->children = malloc((size_t)(nchild > 0 ? nchild : 1) * sizeof(int));
    }
    if (t == NULL || t->parent == NULL || t->child_off == NULL || t->children == NULL) {
        topo_tree_free(t);
        return scm_from_utf8_string("out of memory converting the tree");
    }
    int k = 0;
    for (int r = 0; r < n; r++) {
        t->parent[r] = scm_to_int(scm_c_vector_ref(parents, (size_t)r));
        t->child_off[r] = k;
        for (SCM cs = scm_c_vector_ref(children, (size_t)r); scm_is_pair(cs); cs = scm_cdr(cs)) {
            t->children[k++] = scm_to_int(scm_car(cs));
        }
    }
    t->child_off[n] = k;
    *t_p = t;
    return SCM_BOOL_F;
}

/* the tree, checked against its own size and root: SCM_BOOL_F and *t_p, or the message */
static SCM ext__valid_tree(const char *who, SCM size, SCM root, SCM parents, SCM children,
                           topo_tree_t **t_p)
{
    char why[256];
    SCM msg = ext__tree_in(who, size, root, parents, children, t_p);

    if (scm_is_true(msg)) {
        return msg;
    }
    if (topo_tree_validate(*t_p, (*t_p)->size, (*t_p)->root, why, sizeof(why)) != COMPI_OK) {
        topo_tree_free(*t_p);
        *t_p = NULL;
        return scm_from_utf8_string(why);
    }
    return SCM_BOOL_F;
}

static SCM prim_validate(SCM size, SCM root, SCM parents, SCM children, SCM call_size,
                         SCM call_root)
{
    static const char who[] = "%tree-validate";
    topo_tree_t *t;
    char why[256];

    SCM_ASSERT_TYPE(ext__is_int(call_size), call_size, SCM_ARG5, who, "integer");
    SCM_ASSERT_TYPE(ext__is_int(call_root), call_root, SCM_ARG6, who, "integer");
    SCM msg = ext__tree_in(who, size, root, parents, children, &t);
    if (scm_is_true(msg)) {
        return msg;
    }
    compi_status_t st = topo_tree_validate(t, scm_to_int(call_size), scm_to_int(call_root), why,
                                           sizeof(why));
    topo_tree_free(t);
    return st == COMPI_OK ? SCM_BOOL_T : scm_from_utf8_string(why);
}

static SCM prim_depth(SCM size, SCM root, SCM parents, SCM children)
{
    topo_tree_t *t;
    SCM msg = ext__valid_tree("%tree-depth", size, root, parents, children, &t);

    if (scm_is_true(msg)) {
        return msg;
    }
    int d = topo_tree_depth(t);
    topo_tree_free(t);
    return d >= 0 ? scm_from_int(d) : scm_from_utf8_string("out of memory measuring the tree");
}

static SCM prim_ordered(SCM size, SCM root, SCM parents, SCM children)
{
    topo_tree_t *t;
    SCM msg = ext__valid_tree("%tree-ordered?", size, root, parents, children, &t);

    if (scm_is_true(msg)) {
        return msg;
    }
    int ok = topo_tree_is_ordered(t);
    topo_tree_free(t);
    return ok >= 0 ? scm_from_bool(ok) : scm_from_utf8_string("out of memory");
}

/* (PARENTS . CHILDREN) of a topo_tree_t */
static SCM ext__tree_out(const topo_tree_t *t)
{
    SCM parents = scm_c_make_vector((size_t)t->size, SCM_BOOL_F);
    SCM children = scm_c_make_vector((size_t)t->size, SCM_EOL);

    for (int r = 0; r < t->size; r++) {
        SCM cs = SCM_EOL;
        for (int i = t->child_off[r + 1] - 1; i >= t->child_off[r]; i--) {
            cs = scm_cons(scm_from_int(t->children[i]), cs);
        }
        scm_c_vector_set_x(parents, (size_t)r, scm_from_int(t->parent[r]));
        scm_c_vector_set_x(children, (size_t)r, cs);
    }
    return scm_cons(parents, children);
}

static SCM prim_build(SCM shape, SCM size, SCM root, SCM k)
{
    static const char who[] = "%tree-build";

    SCM_ASSERT_TYPE(scm_is_symbol(shape), shape, SCM_ARG1, who, "symbol");
    SCM_ASSERT_TYPE(scm_is_exact_integer(size) && scm_is_signed_integer(size, 1, INT_MAX - 1),
                    size, SCM_ARG2, who, "positive integer");
    int n = scm_to_int(size);
    ext__check_range(who, SCM_ARG3, root, 0, n - 1);
    ext__check_range(who, SCM_ARG4, k, 1, INT_MAX);
    int r = scm_to_int(root), kk = scm_to_int(k);
    topo_tree_t *t = NULL;

    if (scm_is_eq(shape, scm_from_utf8_symbol("flat"))) {
        t = topo_tree_flat(n, r);
    } else if (scm_is_eq(shape, scm_from_utf8_symbol("binomial"))) {
        t = topo_tree_binomial(n, r);
    } else if (scm_is_eq(shape, scm_from_utf8_symbol("in-order-binomial"))) {
        t = topo_tree_in_order_binomial(n, r);
    } else if (scm_is_eq(shape, scm_from_utf8_symbol("kary"))) {
        t = topo_tree_kary(n, r, kk);
    } else if (scm_is_eq(shape, scm_from_utf8_symbol("knomial"))) {
        ext__check_range(who, SCM_ARG4, k, 2, INT_MAX);
        t = topo_tree_knomial(n, r, kk);
    } else if (scm_is_eq(shape, scm_from_utf8_symbol("chain"))) {
        t = topo_tree_chain(n, r);
    } else {
        scm_misc_error(who,
                       "unknown shape ~S (flat, binomial, in-order-binomial, kary, knomial, chain)",
                       scm_list_1(shape));
    }
    if (t == NULL) {
        scm_misc_error(who, "out of memory building a ~A tree of ~A ranks",
                       scm_list_2(shape, size));
    }
    SCM out = ext__tree_out(t);
    topo_tree_free(t);
    return out;
}

/* #f or a vector of a string or #f per rank, checked (raises) */
static void ext__check_texts(const char *who, int pos, SCM v, int n)
{
    if (scm_is_false(v)) {
        return;
    }
    SCM_ASSERT_TYPE(scm_is_vector(v) && scm_c_vector_length(v) == (size_t)n, v, pos, who,
                    "#f or a vector of a string or #f per rank");
    for (int r = 0; r < n; r++) {
        SCM s = scm_c_vector_ref(v, (size_t)r);
        SCM_ASSERT_TYPE(scm_is_false(s) || scm_is_string(s), v, pos, who,
                        "#f or a vector of a string or #f per rank");
    }
}

/* the checked texts as C strings (NULL for #f), or NULL for no vector */
static char **ext__texts(SCM v, int n)
{
    if (scm_is_false(v)) {
        return NULL;
    }
    char **out = calloc((size_t)n, sizeof(char *));
    for (int r = 0; out != NULL && r < n; r++) {
        SCM s = scm_c_vector_ref(v, (size_t)r);
        out[r] = scm_is_string(s) ? scm_to_utf8_string(s) : NULL;
    }
    return out;
}

static void ext__free_texts(char **texts, int n)
{
    for (int r = 0; texts != NULL && r < n; r++) {
        free(texts[r]);
    }
    free(texts);
}

static SCM prim_draw(SCM size, SCM root, SCM parents, SCM children, SCM from, SCM labels,
                     SCM marks)
{
    static const char who[] = "%tree-draw";
    topo_tree_t *t;

    /* every check before the tree is copied */
    SCM_ASSERT_TYPE(scm_is_exact_integer(size) && scm_is_signed_integer(size, 1, INT_MAX - 1),
                    size, SCM_ARG1, who, "positive integer");
    int n = scm_to_int(size);
    ext__check_range(who, SCM_ARG5, from, 0, n - 1);
    ext__check_texts(who, SCM_ARG6, labels, n);
    ext__check_texts(who, SCM_ARG7, marks, n);
    SCM msg = ext__tree_in(who, size, root, parents, children, &t);
    if (scm_is_true(msg)) {
        scm_misc_error(who, "cannot draw the tree: ~A", scm_list_1(msg));
    }
    /* past this point nothing raises until every C allocation is freed */
    char **ls = ext__texts(labels, n), **ms = ext__texts(marks, n);
    char *text = NULL;
    if ((scm_is_false(labels) || ls != NULL) && (scm_is_false(marks) || ms != NULL)) {
        text = topo_tree_draw(t, scm_to_int(from), (const char *const *)ls,
                              (const char *const *)ms);
    }
    ext__free_texts(ls, n);
    ext__free_texts(ms, n);
    topo_tree_free(t);
    if (text == NULL) {
        scm_misc_error(who, "out of memory drawing the tree", SCM_EOL);
    }
    SCM out = scm_from_utf8_string(text);
    free(text);
    return out;
}

SCM bridge_tree_in(const char *who, SCM size, SCM root, SCM parents, SCM children,
                   topo_tree_t **t_p)
{
    return ext__tree_in(who, size, root, parents, children, t_p);
}

SCM bridge_groups_in(SCM groups, SCM trees, int size, bridge_groups_t *g)
{
    static const char who[] = "exchange-closure";
    long ng = scm_ilength(groups), nt = scm_ilength(trees);
    int n = 0;

    if (ng <= 0 || nt < 0) {
        return ext__msg("the groups and the trees must be lists, got ~S and ~S",
                        scm_list_2(groups, trees));
    }
    if (ng != nt) {
        return ext__msg("~A trees for ~A groups",
                        scm_list_2(scm_from_long(nt), scm_from_long(ng)));
    }
    /* collected memory: a wrong type raising below leaves nothing behind */
    *g = (bridge_groups_t){.size = size, .ngroups = (int)ng};
    g->group_of = scm_gc_malloc_pointerless(sizeof(int) * (size_t)size, who);
    g->coord = scm_gc_malloc_pointerless(sizeof(int) * (size_t)ng, who);
    g->parent = scm_gc_malloc_pointerless(sizeof(int) * (size_t)size, who);
    g->order = scm_gc_malloc_pointerless(sizeof(int) * (size_t)size, who);
    int *member = scm_gc_malloc_pointerless(sizeof(int) * (size_t)size, who);
    for (int r = 0; r < size; r++) {
        g->group_of[r] = -1;
    }
    SCM gs = groups;
    for (int k = 0; k < ng; k++, gs = scm_cdr(gs)) {
        SCM ms = scm_car(gs);
        if (scm_ilength(ms) <= 0) {
            return ext__msg("group ~A is ~S, not a non-empty list of ranks",
                            scm_list_2(scm_from_int(k), ms));
        }
        for (; scm_is_pair(ms); ms = scm_cdr(ms)) {
            SCM x = scm_car(ms);
            if (!scm_is_exact_integer(x) || !scm_is_signed_integer(x, 0, size - 1)) {
                return ext__msg("group ~A holds ~S, not a rank of 0..~A",
                                scm_list_3(scm_from_int(k), x, scm_from_int(size - 1)));
            }
            int r = scm_to_int(x);
            if (g->group_of[r] != -1) {
                return ext__msg("rank ~A is in groups ~A and ~A",
                                scm_list_3(x, scm_from_int(g->group_of[r]), scm_from_int(k)));
            }
            g->group_of[r] = k;
        }
    }
    for (int r = 0; r < size; r++) {
        if (g->group_of[r] == -1) {
            return ext__msg("rank ~A is in no group", scm_list_1(scm_from_int(r)));
        }
    }
    gs = groups;
    SCM ts = trees;
    for (int k = 0; k < ng; k++, gs = scm_cdr(gs), ts = scm_cdr(ts)) {
        int m = 0;
        for (SCM ms = scm_car(gs); scm_is_pair(ms); ms = scm_cdr(ms)) {
            member[m++] = scm_to_int(scm_car(ms));
        }
        SCM tv = scm_car(ts), why = SCM_BOOL_F;
        topo_tree_t *t = NULL;
        char text[256];
        if (!scm_is_vector(tv) || scm_c_vector_length(tv) != 4) {
            why = ext__msg("~A is not a tree of (compi trees)", scm_list_1(tv));
        } else {
            why = ext__tree_in(who, scm_c_vector_ref(tv, 0), scm_c_vector_ref(tv, 1),
                               scm_c_vector_ref(tv, 2), scm_c_vector_ref(tv, 3), &t);
        }
        /* each group's tree, validated once, for its group */
        if (scm_is_false(why) &&
            topo_tree_validate(t, m, t->root, text, sizeof(text)) != COMPI_OK) {
            why = scm_from_utf8_string(text);
        }
        if (scm_is_true(why)) {
            topo_tree_free(t);
            return ext__msg("the tree of group ~A ~S: ~A",
                            scm_list_3(scm_from_int(k), scm_car(gs), why));
        }
        g->coord[k] = member[t->root];
        g->order[n++] = member[t->root];
        for (int i = 0; i < m; i++) {
            int p = t->parent[i];
            g->parent[member[i]] = p == -1 ? -1 : member[p];
            for (int c = t->child_off[i]; c < t->child_off[i + 1]; c++) {
                g->order[n++] = member[t->children[c]];
            }
        }
        topo_tree_free(t);
    }
    return SCM_BOOL_F;
}

static SCM ext__ints(const int *v, int n)
{
    SCM out = scm_c_make_vector((size_t)n, SCM_BOOL_F);
    for (int i = 0; i < n; i++) {
        scm_c_vector_set_x(out, (size_t)i, scm_from_int(v[i]));
    }
    return out;
}

/* (%exchange-forest GROUPS TREES SIZE) -> #(GROUP-OF COORDS PARENTS ORDER) or "message",
   TREES as bridge_groups_in takes them */
static SCM prim_exchange_forest(SCM groups, SCM trees, SCM size)
{
    bridge_groups_t g;
    ext__check_range("%exchange-forest", 3, size, 1, INT_MAX - 1);
    SCM why = bridge_groups_in(groups, trees, scm_to_int(size), &g);
    if (scm_is_true(why)) {
        return why;
    }
    return scm_vector(scm_list_4(ext__ints(g.group_of, g.size), ext__ints(g.coord, g.ngroups),
                                 ext__ints(g.parent, g.size), ext__ints(g.order, g.size)));
}

/* (%collective-kinds): the kinds of core/coll/kinds.def, in coll_kind_t's order */
static SCM prim_kinds(void)
{
    static const char *const names[] = {
#define COLL_KIND(e, name) name,
#include "core/coll/kinds.def"
    };
    SCM kinds = SCM_EOL;
    for (size_t i = sizeof(names) / sizeof(names[0]); i > 0; i--) {
        kinds = scm_cons(scm_from_utf8_symbol(names[i - 1]), kinds);
    }
    return kinds;
}

static const struct {
    const char *name;
    int req;
    scm_t_subr fn;
} ext_prims[] = {
    {"%collective-kinds", 0, (scm_t_subr)prim_kinds},
    {"%exchange-forest", 3, (scm_t_subr)prim_exchange_forest},
    {"%tree-validate", 6, (scm_t_subr)prim_validate},
    {"%tree-depth", 4, (scm_t_subr)prim_depth},
    {"%tree-ordered?", 4, (scm_t_subr)prim_ordered},
    {"%tree-build", 4, (scm_t_subr)prim_build},
    {"%tree-draw", 7, (scm_t_subr)prim_draw},
};

__attribute__((visibility("default"))) void bridge_trees_init(void)
{
    for (size_t i = 0; i < sizeof(ext_prims) / sizeof(ext_prims[0]); i++) {
        scm_c_define_gsubr(ext_prims[i].name, ext_prims[i].req, 0, 0, ext_prims[i].fn);
    }
}

static void ext__init(void *unused)
{
    (void)unused;
    bridge_trees_init();
}

void bridge_trees_register(void)
{
    static int done;

    if (!done) {
        done = 1;
        scm_c_register_extension(BRIDGE_TREES_EXTENSION, BRIDGE_TREES_INIT, ext__init, NULL);
    }
}
