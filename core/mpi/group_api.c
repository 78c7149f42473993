/*
 * group_api.c -- MPI_Group_*: the implementations around core/comm/group.c; their entry
 * points, which check the handles, lengths and output pointers, are generated
 * (core/mpi/gen/group.c, included last).
 *
 * Group errors have no communicator, so they go to MPI_COMM_WORLD's error handler.
 */
#include "core/comm/group.h"

#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

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

static int group_size_impl(compi_group_t *group, int *size, const char *fn)
{
    (void)fn;
    *size = group->size;
    return MPI_SUCCESS;
}

static int group_rank_impl(compi_group_t *group, int *rank, const char *fn)
{
    (void)fn;
    *rank = group->rank;
    return MPI_SUCCESS;
}

static int group_translate_ranks_impl(compi_group_t *group1, int n, const int ranks1[],
                                      compi_group_t *group2, int ranks2[], const char *fn)
{
    for (int i = 0; i < n; i++) {
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= group1->size)) {
            return mpi_err_raise(NULL, MPI_ERR_RANK, fn,
                                 "ranks1[%d]=%d is not a rank of group1 (size %d)", i, ranks1[i],
                                 group1->size);
        }
    }
    compi_status_t st = group_translate_ranks(group1, n, ranks1, group2, ranks2);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

static int group_compare_impl(compi_group_t *group1, compi_group_t *group2, int *result,
                              const char *fn)
{
    (void)fn;
    *result = group_compare(group1, group2);
    return MPI_SUCCESS;
}

static int group_union_impl(compi_group_t *group1, compi_group_t *group2, MPI_Group *newgroup,
                            const char *fn)
{
    compi_group_t *g = NULL;
    compi_status_t st = group_union(group1, group2, &g);
    return group_out(fn, st, &g, newgroup);
}

static int group_intersection_impl(compi_group_t *group1, compi_group_t *group2,
                                   MPI_Group *newgroup, const char *fn)
{
    compi_group_t *g = NULL;
    compi_status_t st = group_intersection(group1, group2, &g);
    return group_out(fn, st, &g, newgroup);
}

static int group_difference_impl(compi_group_t *group1, compi_group_t *group2, MPI_Group *newgroup,
                                 const char *fn)
{
    compi_group_t *g = NULL;
    compi_status_t st = group_difference(group1, group2, &g);
    return group_out(fn, st, &g, newgroup);
}

/* Group_incl and Group_excl (a rank list, `ranks`), Group_range_incl and Group_range_excl
   (`ranges`, when not NULL): check the list's values, then build */
static int group_list(const char *fn, int excl, compi_group_t *g, int n, const int ranks[],
                      int ranges[][3], MPI_Group *newgroup)
{
    compi_group_t *ng = NULL;
    compi_status_t st;
    int bad;
    group_check_t chk = ranges != NULL ? group_check_ranges(g, n, ranges, &bad)
                                       : group_check_ranks(g, n, ranks, &bad);
    if (chk != GROUP_CHECK_OK) {
        return bad_ranks(fn, chk, bad, ranges != NULL ? "ranges" : "ranks", g->size);
    }
    if (ranges != NULL) {
        st = excl ? group_range_excl(g, n, ranges, &ng) : group_range_incl(g, n, ranges, &ng);
    } else {
        st = excl ? group_excl(g, n, ranks, &ng) : group_incl(g, n, ranks, &ng);
    }
    return group_out(fn, st, &ng, newgroup);
}

static int group_incl_impl(compi_group_t *group, int n, const int ranks[], MPI_Group *newgroup,
                           const char *fn)
{
    return group_list(fn, 0, group, n, ranks, NULL, newgroup);
}

static int group_excl_impl(compi_group_t *group, int n, const int ranks[], MPI_Group *newgroup,
                           const char *fn)
{
    return group_list(fn, 1, group, n, ranks, NULL, newgroup);
}

static int group_range_incl_impl(compi_group_t *group, int n, int ranges[][3], MPI_Group *newgroup,
                                 const char *fn)
{
    return group_list(fn, 0, group, n, NULL, ranges, newgroup);
}

static int group_range_excl_impl(compi_group_t *group, int n, int ranges[][3], MPI_Group *newgroup,
                                 const char *fn)
{
    return group_list(fn, 1, group, n, NULL, ranges, newgroup);
}

static int group_free_impl(MPI_Group *group, compi_group_t *group_obj, const char *fn)
{
    (void)fn;
    /* MPI_GROUP_EMPTY is static: releasing it does nothing */
    group_release(group_obj);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/group.c"
