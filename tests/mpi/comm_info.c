/*
 * comm_info: a communicator's hints and the MPI-3/4 constructors around them.
 *
 * MPI_Comm_set_info keeps every hint (the MPI-4 mpi_assert_* keys among them), a second
 * call adds keys and replaces values; MPI_Comm_get_info returns a new object with them;
 * MPI_Comm_dup copies the hints, MPI_Comm_dup_with_info replaces them by its info's.
 * MPI_Comm_create_group called by the even ranks only (the odd ones build their own at
 * the same time): right size, rank order and a working ring on each.
 * MPI_Comm_split_type: MPI_COMM_TYPE_SHARED (every rank of these runs is on one host),
 * MPI_COMM_TYPE_HW_GUIDED with mpi_hw_resource_type=mpi_shared_memory (the same split,
 * the key in the new communicator's hints) or an unknown value (MPI_COMM_NULL),
 * MPI_COMM_TYPE_HW_UNGUIDED on one host (no smaller level: MPI_COMM_NULL).
 * Errors under MPI_ERRORS_RETURN: MPI_ERR_INFO, MPI_ERR_COMM, MPI_ERR_TAG, MPI_ERR_ARG.
 */
#include "tests/mpi/mpitest.h"

/* the hint `key` of comm is `want` (NULL: absent) */
static void expect_hint(MPI_Comm comm, const char *key, const char *want, const char *what)
{
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = -1;
    MPI_OK(MPI_Comm_get_info(comm, &info));
    MPI_OK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
    if (want == NULL)
        CHECK(!flag, "%s: hint %s present ('%s')", what, key, v);
    else
        CHECK(flag && strcmp(v, want) == 0, "%s: hint %s: flag %d '%s', expected '%s'", what, key,
              flag, flag ? v : "", want);
    MPI_OK(MPI_Info_free(&info));
}

static void ring(MPI_Comm comm, const char *what)
{
    int rank, size, got = -1;
    MPI_OK(MPI_Comm_rank(comm, &rank));
    MPI_OK(MPI_Comm_size(comm, &size));
    MPI_OK(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT,
                        (rank + size - 1) % size, 5, comm, MPI_STATUS_IGNORE));
    CHECK(got == (rank + size - 1) % size, "%s: ring got %d", what, got);
}

static void test_hints(void)
{
    MPI_Info info, got;
    MPI_Comm dup, dupi;
    int n;

    MPI_OK(MPI_Comm_get_info(MPI_COMM_SELF, &got));
    MPI_OK(MPI_Info_get_nkeys(got, &n));
    CHECK(n == 0, "MPI_COMM_SELF starts with %d hints", n);
    MPI_OK(MPI_Info_free(&got));

    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MPI_OK(MPI_Info_set(info, "mpi_assert_allow_overtaking", "false"));
    MPI_OK(MPI_Info_set(info, "compi_test_hint", "a"));
    MPI_OK(MPI_Comm_set_info(dup, info));
    MPI_OK(MPI_Info_free(&info));
    expect_hint(dup, "mpi_assert_no_any_tag", "true", "set_info");
    expect_hint(dup, "mpi_assert_allow_overtaking", "false", "set_info");
    expect_hint(dup, "compi_test_hint", "a", "set_info");

    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "compi_test_hint", "b"));
    MPI_OK(MPI_Info_set(info, "mpi_assert_no_any_source", "true"));
    MPI_OK(MPI_Comm_set_info(dup, info));
    expect_hint(dup, "compi_test_hint", "b", "second set_info");
    expect_hint(dup, "mpi_assert_no_any_source", "true", "second set_info");
    expect_hint(dup, "mpi_assert_no_any_tag", "true", "second set_info");

    /* a dup has the hints; dup_with_info has only its info's */
    {
        MPI_Comm d2;
        MPI_OK(MPI_Comm_dup(dup, &d2));
        expect_hint(d2, "compi_test_hint", "b", "Comm_dup");
        ring(d2, "Comm_dup");
        MPI_OK(MPI_Comm_free(&d2));
    }
    MPI_OK(MPI_Info_set(info, "compi_test_hint", "c"));
    MPI_OK(MPI_Comm_dup_with_info(dup, info, &dupi));
    MPI_OK(MPI_Info_free(&info));
    expect_hint(dupi, "compi_test_hint", "c", "Comm_dup_with_info");
    expect_hint(dupi, "mpi_assert_no_any_tag", NULL, "Comm_dup_with_info");
    expect_hint(dup, "compi_test_hint", "b", "the parent of Comm_dup_with_info");
    ring(dupi, "Comm_dup_with_info");
    MPI_OK(MPI_Comm_free(&dupi));
    MPI_OK(MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &dupi));
    expect_hint(dupi, "compi_test_hint", NULL, "Comm_dup_with_info(MPI_INFO_NULL)");
    MPI_OK(MPI_Comm_free(&dupi));

    MPI_OK(MPI_Comm_set_info(dup, MPI_INFO_NULL)); /* nothing to add */
    expect_hint(dup, "compi_test_hint", "b", "Comm_set_info(MPI_INFO_NULL)");
    mt_expect_class(MPI_Comm_set_info(dup, (MPI_Info)12345), MPI_ERR_INFO, "Comm_set_info(bad info)");
    mt_expect_class(MPI_Comm_set_info(MPI_COMM_NULL, MPI_INFO_ENV), MPI_ERR_COMM,
                 "Comm_set_info(MPI_COMM_NULL)");
    mt_expect_class(MPI_Comm_get_info(MPI_COMM_NULL, &got), MPI_ERR_COMM,
                 "Comm_get_info(MPI_COMM_NULL)");
    mt_expect_class(MPI_Comm_dup_with_info(dup, (MPI_Info)12345, &dupi), MPI_ERR_INFO,
                 "Comm_dup_with_info(bad info)");
    /* the hints go with the communicator */
    MPI_OK(MPI_Comm_free(&dup));
}

static void test_create_group(void)
{
    MPI_Group world, half;
    MPI_Comm c;
    int n = (mt_size + 1 - mt_rank % 2) / 2, ranks[64], size, rank;

    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    for (int i = 0; i < n; i++)
        ranks[i] = 2 * i + mt_rank % 2; /* my parity's ranks */
    MPI_OK(MPI_Group_incl(world, n, ranks, &half));
    /* only the members call; both halves at the same time, different tags */
    MPI_OK(MPI_Comm_create_group(MPI_COMM_WORLD, half, 10 + mt_rank % 2, &c));
    CHECK(c != MPI_COMM_NULL, "Comm_create_group gave MPI_COMM_NULL");
    MPI_OK(MPI_Comm_size(c, &size));
    MPI_OK(MPI_Comm_rank(c, &rank));
    CHECK(size == n && rank == mt_rank / 2, "Comm_create_group: size %d rank %d, expected %d %d",
          size, rank, n, mt_rank / 2);
    ring(c, "Comm_create_group");
    MPI_OK(MPI_Comm_free(&c));
    mt_expect_class(MPI_Comm_create_group(MPI_COMM_WORLD, half, -1, &c), MPI_ERR_TAG,
                 "Comm_create_group negative tag");
    MPI_OK(MPI_Group_free(&half));
    MPI_OK(MPI_Group_free(&world));
}

static void test_split_type(void)
{
    MPI_Comm c;
    MPI_Info info;
    int size;

    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mt_rank, MPI_INFO_NULL, &c));
    MPI_OK(MPI_Comm_size(c, &size));
    CHECK(size == mt_size, "COMM_TYPE_SHARED: size %d, expected %d (one host)", size, mt_size);
    expect_hint(c, "mpi_hw_resource_type", "mpi_shared_memory", "COMM_TYPE_SHARED");
    MPI_OK(MPI_Comm_free(&c));

    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory"));
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    if (c != MPI_COMM_NULL) {
        MPI_OK(MPI_Comm_size(c, &size));
        CHECK(size == mt_size, "HW_GUIDED: size %d", size);
        expect_hint(c, "mpi_hw_resource_type", "mpi_shared_memory", "HW_GUIDED");
        ring(c, "HW_GUIDED");
        MPI_OK(MPI_Comm_free(&c));
    }
    MPI_OK(MPI_Info_set(info, "mpi_hw_resource_type", "compi_no_such_level"));
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED with an unknown level gave a communicator");
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED without info gave a communicator");
    MPI_OK(MPI_Info_free(&info));

    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "HW_UNGUIDED on one host gave a communicator");
    mt_expect_class(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG,
                 "Comm_split_type(99)");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "comm_info");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    test_hints();
    test_create_group();
    test_split_type();
    return mt_finish();
}
