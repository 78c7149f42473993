/*
 * group_api.c -- MPI_Group_*: argument checks and handles around core/comm/group.c.
 *
 * Group errors have no communicator, so they go to MPI_COMM_WORLD's error handler.
 */
#include "core/comm/group.h"

#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

static int bad_group(const char *func, MPI_Group h)
{
    if (h == MPI_GROUP_NULL) {
        return mpi_err_raise(NULL, MPI_ERR_GROUP, func, "group is MPI_GROUP_NULL");
    }
    return mpi_err_raise(NULL, MPI_ERR_GROUP, func,
                         "invalid group handle 0x%x (not a group, or freed)", (unsigned)h);
}

static int null_arg(const char *func, const char *what)
{
    return mpi_err_raise(NULL, MPI_ERR_ARG, func, "%s is NULL", what);
}

/*
 * what a call on one group checks first: MPI is initialized, `h` names a group (*g_p),
 * and the output argument `out`, called `what`, is not NULL
 */
static int group_check(const char *func, MPI_Group h, const void *out, const char *what,
                      compi_group_t **g_p)
{
    *g_p = NULL;
    COMPI_CHECK_INIT_HELD(func);
    *g_p = group_from_handle(h);
    if (*g_p == NULL) {
        return bad_group(func, h);
    }
    if (out == NULL) {
        return null_arg(func, what);
    }
    return MPI_SUCCESS;
}

/*
 * give a new group to the user (dropping our reference: the handle holds its own); st is
 * the status of the call that built *g_p
 */
static int group_out(const char *func, compi_status_t st, compi_group_t **g_p, MPI_Group *out)
{
    compi_group_t *g = *g_p;

    if (st == COMPI_OK) {
        st = group_to_handle(g, out);
        group_release(g);
    }
    if (st != COMPI_OK) {
        *out = MPI_GROUP_NULL;
        return mpi_err_raise(NULL, mpi_err_class_of(st), func, "cannot build the group: %s",
                             compi_status_string(st));
    }
    return MPI_SUCCESS;
}

/* turn a failed rank check into the right error */
static int bad_ranks(const char *func, group_check_t chk, int idx, const char *what, int size)
{
    if (chk == GROUP_CHECK_BAD_RANK) {
        return mpi_err_raise(NULL, MPI_ERR_RANK, func,
                             "%s[%d] names a rank outside the group (size %d) or a repeated one",
                             what, idx, size);
    }
    return mpi_err_raise(NULL, MPI_ERR_ARG, func,
                         idx >= 0 ? "%s[%d]: stride 0 or pointing away from the last rank"
                                  : "%s: negative count or NULL array",
                         what, idx);
}

#pragma weak MPI_Group_size = PMPI_Group_size
int PMPI_Group_size(MPI_Group group, int *size)
{
    COMPI_API_LOCK();
    compi_group_t *g;
    int rc = group_check("MPI_Group_size", group, size, "size", &g);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *size = g->size;
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_rank = PMPI_Group_rank
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    COMPI_API_LOCK();
    compi_group_t *g;
    int rc = group_check("MPI_Group_rank", group, rank, "rank", &g);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *rank = g->rank;
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    COMPI_CHECK_INIT("MPI_Group_translate_ranks");
    compi_group_t *g1 = group_from_handle(group1);
    compi_group_t *g2 = group_from_handle(group2);
    compi_status_t st;
    if (g1 == NULL) {
        return bad_group("MPI_Group_translate_ranks", group1);
    }
    if (g2 == NULL) {
        return bad_group("MPI_Group_translate_ranks", group2);
    }
    if (n < 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Group_translate_ranks", "n=%d is negative", n);
    }
    if (n > 0 && (ranks1 == NULL || ranks2 == NULL)) {
        return null_arg("MPI_Group_translate_ranks", ranks1 == NULL ? "ranks1" : "ranks2");
    }
    for (int i = 0; i < n; i++) {
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= g1->size)) {
            return mpi_err_raise(NULL, MPI_ERR_RANK, "MPI_Group_translate_ranks",
                                 "ranks1[%d]=%d is not a rank of group1 (size %d)", i, ranks1[i],
                                 g1->size);
        }
    }
    st = group_translate_ranks(g1, n, ranks1, g2, ranks2);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), "MPI_Group_translate_ranks", "%s",
                             compi_status_string(st));
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_compare = PMPI_Group_compare
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    COMPI_CHECK_INIT("MPI_Group_compare");
    compi_group_t *g1 = group_from_handle(group1);
    compi_group_t *g2 = group_from_handle(group2);
    if (g1 == NULL) {
        return bad_group("MPI_Group_compare", group1);
    }
    if (g2 == NULL) {
        return bad_group("MPI_Group_compare", group2);
    }
    if (result == NULL) {
        return null_arg("MPI_Group_compare", "result");
    }
    *result = group_compare(g1, g2);
    return MPI_SUCCESS;
}

typedef compi_status_t (*group_setop_fn)(compi_group_t *, compi_group_t *, compi_group_t **);

/* Group_union, _intersection and _difference differ only in the operation */
static int group_binary(const char *func, group_setop_fn op, MPI_Group group1, MPI_Group group2,
                        MPI_Group *newgroup)
{
    compi_group_t *g1 = group_from_handle(group1);
    compi_group_t *g2 = group_from_handle(group2);
    compi_group_t *g = NULL;
    if (g1 == NULL) {
        return bad_group(func, group1);
    }
    if (g2 == NULL) {
        return bad_group(func, group2);
    }
    if (newgroup == NULL) {
        return null_arg(func, "newgroup");
    }
    compi_status_t st = op(g1, g2, &g);
    return group_out(func, st, &g, newgroup);
}

#pragma weak MPI_Group_union = PMPI_Group_union
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_union");
    return group_binary("MPI_Group_union", group_union, group1, group2, newgroup);
}

#pragma weak MPI_Group_intersection = PMPI_Group_intersection
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_intersection");
    return group_binary("MPI_Group_intersection", group_intersection, group1, group2, newgroup);
}

#pragma weak MPI_Group_difference = PMPI_Group_difference
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_difference");
    return group_binary("MPI_Group_difference", group_difference, group1, group2, newgroup);
}

/* Group_incl and Group_excl (a rank list, `ranks`), Group_range_incl and Group_range_excl
   (`ranges`, when not NULL): check the list, then build */
static int group_list(const char *func, int excl, MPI_Group group, int n, const int ranks[],
                      int ranges[][3], MPI_Group *newgroup)
{
    compi_group_t *g = group_from_handle(group);
    compi_group_t *ng = NULL;
    compi_status_t st;
    group_check_t chk;
    int bad;
    if (g == NULL) {
        return bad_group(func, group);
    }
    if (newgroup == NULL) {
        return null_arg(func, "newgroup");
    }
    chk = ranges != NULL ? group_check_ranges(g, n, ranges, &bad)
                         : group_check_ranks(g, n, ranks, &bad);
    if (chk != GROUP_CHECK_OK) {
        return bad_ranks(func, chk, bad, ranges != NULL ? "ranges" : "ranks", g->size);
    }
    if (ranges != NULL) {
        st = excl ? group_range_excl(g, n, ranges, &ng) : group_range_incl(g, n, ranges, &ng);
    } else {
        st = excl ? group_excl(g, n, ranks, &ng) : group_incl(g, n, ranks, &ng);
    }
    return group_out(func, st, &ng, newgroup);
}

#pragma weak MPI_Group_incl = PMPI_Group_incl
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_incl");
    return group_list("MPI_Group_incl", 0, group, n, ranks, NULL, newgroup);
}

#pragma weak MPI_Group_excl = PMPI_Group_excl
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_excl");
    return group_list("MPI_Group_excl", 1, group, n, ranks, NULL, newgroup);
}

#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_range_incl");
    return group_list("MPI_Group_range_incl", 0, group, n, NULL, ranges, newgroup);
}

#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    COMPI_CHECK_INIT("MPI_Group_range_excl");
    return group_list("MPI_Group_range_excl", 1, group, n, NULL, ranges, newgroup);
}

#pragma weak MPI_Group_free = PMPI_Group_free
int PMPI_Group_free(MPI_Group *group)
{
    COMPI_CHECK_INIT("MPI_Group_free");
    compi_group_t *g;
    if (group == NULL) {
        return null_arg("MPI_Group_free", "group");
    }
    g = group_from_handle(*group);
    if (g == NULL) {
        return bad_group("MPI_Group_free", *group);
    }
    /* MPI_GROUP_EMPTY is static: releasing it does nothing */
    group_release(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
