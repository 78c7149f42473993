/*
 * group.h -- process groups: ordered sets of MPI_COMM_WORLD ranks, and the set algebra
 * of MPI_Group_* on them.
 *
 * Ownership: every function that returns a group returns a new reference the caller
 * owns (group_release).  Results that are empty are MPI_GROUP_EMPTY's object, which is
 * static: retaining and releasing it is harmless.  Input arrays belong to the caller.
 * None of these functions gives the group a handle; group_to_handle() does.
 *
 * Validation: the set operations assume valid input (the API layer checks first with
 * group_check_ranks / group_check_ranges, which are also what the unit tests exercise).
 */
#ifndef COMPI_GROUP_H
#define COMPI_GROUP_H

#include "core/comm/comm.h"

/* what a check of user-given ranks found (the API turns it into an MPI error class) */
typedef enum {
    GROUP_CHECK_OK = 0,
    GROUP_CHECK_BAD_RANK, /* a rank outside the group, or one given twice: MPI_ERR_RANK */
    GROUP_CHECK_BAD_ARG   /* n < 0, stride 0, a range going the wrong way: MPI_ERR_ARG */
} group_check_t;

/* the static empty group (MPI_GROUP_EMPTY) */
compi_group_t *group_empty(void);

/* group rank of a world rank, or MPI_UNDEFINED */
int group_rank_of_world(const compi_group_t *g, int world_rank);

/* ranks[0..n) for Group_incl/Group_excl: each in [0, size), no duplicates */
group_check_t group_check_ranks(const compi_group_t *g, int n, const int *ranks, int *bad_idx_p);
/* ranges[0..n) for Group_range_incl/excl; *bad_idx_p gets the offending triplet */
group_check_t group_check_ranges(const compi_group_t *g, int n, int ranges[][3], int *bad_idx_p);

compi_status_t group_union(compi_group_t *g1, compi_group_t *g2, compi_group_t **g_p);
compi_status_t group_intersection(compi_group_t *g1, compi_group_t *g2, compi_group_t **g_p);
compi_status_t group_difference(compi_group_t *g1, compi_group_t *g2, compi_group_t **g_p);
compi_status_t group_incl(compi_group_t *g, int n, const int *ranks, compi_group_t **g_p);
compi_status_t group_excl(compi_group_t *g, int n, const int *ranks, compi_group_t **g_p);
compi_status_t group_range_incl(compi_group_t *g, int n, int ranges[][3], compi_group_t **g_p);
compi_status_t group_range_excl(compi_group_t *g, int n, int ranges[][3], compi_group_t **g_p);

/*
 * ranks2[i] = rank in g2 of the process with rank ranks1[i] in g1, MPI_UNDEFINED when it
 * is not in g2; MPI_PROC_NULL stays MPI_PROC_NULL.  ranks1 must be valid (or PROC_NULL).
 */
compi_status_t group_translate_ranks(const compi_group_t *g1, int n, const int *ranks1,
                                     const compi_group_t *g2, int *ranks2);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL */
int group_compare(const compi_group_t *g1, const compi_group_t *g2);

/* the group's handle, allocated on first use; takes a reference for the user */
compi_status_t group_to_handle(compi_group_t *g, MPI_Group *h_p);

#endif
