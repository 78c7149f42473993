/*
 * obj_args: the argument checks of the calls on groups, communicators, info objects,
 * attributes, error handlers and ops, under MPI_ERRORS_RETURN, give the class the
 * standard names: a handle that names no group MPI_ERR_GROUP, a negative array length
 * or a NULL array or output pointer MPI_ERR_ARG, a rank outside a group MPI_ERR_RANK.
 * What the checks must let through (MPI_PROC_NULL in a translation, empty arrays) works,
 * and the library stays usable after.
 */
#include "tests/mpi/mpitest.h"

static void expect_class(int rc, int cls, const char *what, int line)
{
    int got = -1;

    if (rc == MPI_SUCCESS) {
        CHECK(0, "line %d: %s succeeded, expected error class %d", line, what, cls);
        return;
    }
    MPI_OK(MPI_Error_class(rc, &got));
    CHECK(got == cls, "line %d: %s: error class %d, expected %d", line, what, got, cls);
}

#define EXPECT(cls, fn, ...) expect_class(fn(__VA_ARGS__), cls, #fn, __LINE__)

static void groups(void)
{
    MPI_Group wg, ng, freed;
    int n, ranks[2] = {0, 0}, out[2], range[1][3] = {{0, 0, 0}};

    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &freed));
    MPI_OK(MPI_Group_free(&freed));
    EXPECT(MPI_ERR_GROUP, MPI_Group_size, MPI_GROUP_NULL, &n);
    EXPECT(MPI_ERR_GROUP, MPI_Group_rank, (MPI_Group)0x7fff1234, &n);
    EXPECT(MPI_ERR_ARG, MPI_Group_size, wg, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Group_rank, wg, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_compare, wg, MPI_GROUP_NULL, &n);
    EXPECT(MPI_ERR_ARG, MPI_Group_compare, wg, wg, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_union, MPI_GROUP_NULL, wg, &ng);
    EXPECT(MPI_ERR_GROUP, MPI_Group_intersection, wg, MPI_GROUP_NULL, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_difference, wg, wg, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks, wg, -1, ranks, wg, out);
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks, wg, 1, NULL, wg, out);
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks, wg, 1, ranks, wg, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_translate_ranks, wg, 1, ranks, MPI_GROUP_NULL, out);
    ranks[0] = mt_size;
    EXPECT(MPI_ERR_RANK, MPI_Group_translate_ranks, wg, 1, ranks, wg, out);
    ranks[0] = MPI_PROC_NULL;
    MPI_OK(MPI_Group_translate_ranks(wg, 1, ranks, wg, out));
    CHECK(out[0] == MPI_PROC_NULL, "MPI_PROC_NULL translated to %d", out[0]);
    MPI_OK(MPI_Group_translate_ranks(wg, 0, NULL, wg, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_incl, wg, -1, ranks, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_incl, wg, 1, NULL, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_excl, wg, 0, ranks, NULL);
    ranks[0] = ranks[1] = 0;
    EXPECT(MPI_ERR_RANK, MPI_Group_incl, wg, 2, ranks, &ng);
    ranks[0] = -1;
    EXPECT(MPI_ERR_RANK, MPI_Group_excl, wg, 1, ranks, &ng);
    EXPECT(MPI_ERR_GROUP, MPI_Group_range_incl, MPI_GROUP_NULL, 1, range, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_range_excl, wg, 1, NULL, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl, wg, -2, range, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_free, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_free, &freed);
    MPI_OK(MPI_Group_incl(wg, 0, NULL, &ng));
    MPI_OK(MPI_Group_size(ng, &n));
    CHECK(n == 0, "Group_incl of no ranks: size %d", n);
    if (ng != MPI_GROUP_EMPTY) {
        MPI_OK(MPI_Group_free(&ng));
    }
    MPI_OK(MPI_Group_free(&wg));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "obj_args");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    groups();
    return mt_finish();
}
