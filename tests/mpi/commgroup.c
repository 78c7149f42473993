/*
 * commgroup: communicator and group calls.  Comm_dup/split/split_type(SHARED)/create/
 * compare/free, group set operations and Group_translate_ranks, Comm_set/get_name,
 * attributes with copy and delete callbacks, and MPI_TAG_UB (present, at least 32767,
 * and usable as a tag).
 */
#include "tests/mpi/mpitest.h"

static int copies, deletes;

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    CHECK(*(int *)extra == 4711, "copy callback: extra_state %d", *(int *)extra);
    copies++;
    /* the copy carries value + 1 so the test can tell copy from original */
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)val;
    CHECK(*(int *)extra == 4711, "delete callback: extra_state %d", *(int *)extra);
    deletes++;
    return MPI_SUCCESS;
}

static void comms(void)
{
    MPI_Comm dup, rev, half, shm, sub;
    MPI_Group wg, eg;
    int res, size, rank, *evens, nev = (mt_size + 1) / 2;

    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_IDENT, "compare(WORLD, WORLD) = %d", res);
    MPI_OK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    CHECK(res == MPI_CONGRUENT, "compare(WORLD, dup) = %d", res);

    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, -mt_rank, &rev));
    MPI_OK(MPI_Comm_rank(rev, &rank));
    CHECK(rank == mt_size - 1 - mt_rank, "reversed split: rank %d", rank);
    MPI_OK(MPI_Comm_compare(MPI_COMM_WORLD, rev, &res));
    CHECK(res == (mt_size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "compare(WORLD, rev) = %d",
          res);

    /* split in two halves by parity; key keeps world order */
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &half));
    MPI_OK(MPI_Comm_size(half, &size));
    MPI_OK(MPI_Comm_rank(half, &rank));
    CHECK(size == (mt_rank % 2 ? mt_size / 2 : nev), "parity split: size %d", size);
    CHECK(rank == mt_rank / 2, "parity split: rank %d, expected %d", rank, mt_rank / 2);
    if (mt_size > 1) {
        MPI_OK(MPI_Comm_compare(MPI_COMM_WORLD, half, &res));
        CHECK(res == MPI_UNEQUAL, "compare(WORLD, half) = %d", res);
    }
    /* traffic inside the half: ring with world ranks as payload */
    {
        int right = (rank + 1) % size, left = (rank + size - 1) % size, v = mt_rank, got = -1;

        MPI_OK(MPI_Sendrecv(&v, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, half,
                            MPI_STATUS_IGNORE));
        CHECK(got == (mt_rank % 2) + 2 * left, "half ring: got world rank %d, expected %d",
              got, (mt_rank % 2) + 2 * left);
    }
    /* MPI_UNDEFINED color: MPI_COMM_NULL */
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank == 0 ? MPI_UNDEFINED : 1, 0, &sub));
    CHECK((mt_rank == 0) == (sub == MPI_COMM_NULL), "split with MPI_UNDEFINED: comm %s",
          sub == MPI_COMM_NULL ? "null" : "not null");
    if (sub != MPI_COMM_NULL)
        MPI_OK(MPI_Comm_free(&sub));

    /* everything runs on one host: the shared-memory split is the whole world */
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mt_rank, MPI_INFO_NULL,
                               &shm));
    MPI_OK(MPI_Comm_size(shm, &size));
    MPI_OK(MPI_Comm_rank(shm, &rank));
    CHECK(size == mt_size && rank == mt_rank, "split_type(SHARED): size %d rank %d", size,
          rank);
    MPI_OK(MPI_Comm_free(&shm));

    /* Comm_create over the even ranks */
    evens = mt_malloc(sizeof(int) * (size_t)nev);
    for (int i = 0; i < nev; i++)
        evens[i] = 2 * i;
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Group_incl(wg, nev, evens, &eg));
    MPI_OK(MPI_Comm_create(MPI_COMM_WORLD, eg, &sub));
    if (mt_rank % 2 == 0) {
        CHECK(sub != MPI_COMM_NULL, "Comm_create: member got MPI_COMM_NULL");
        if (sub != MPI_COMM_NULL) {
            MPI_OK(MPI_Comm_size(sub, &size));
            MPI_OK(MPI_Comm_rank(sub, &rank));
            CHECK(size == nev && rank == mt_rank / 2, "Comm_create: size %d rank %d", size,
                  rank);
            MPI_OK(MPI_Comm_free(&sub));
        }
    } else {
        CHECK(sub == MPI_COMM_NULL, "Comm_create: non-member got a communicator");
    }
    MPI_OK(MPI_Group_free(&eg));
    MPI_OK(MPI_Group_free(&wg));
    free(evens);

    MPI_OK(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL, "Comm_free did not reset the handle");
    MPI_OK(MPI_Comm_free(&rev));
    MPI_OK(MPI_Comm_free(&half));
}

static void groups(void)
{
    MPI_Group wg, a, b, u, in, d, r, e;
    int n, res, rk, low[2] = {0, 1}, ranks[8], out[8];
    int range[1][3];

    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Group_size(wg, &n));
    CHECK(n == mt_size, "world group size %d", n);
    MPI_OK(MPI_Group_rank(wg, &rk));
    CHECK(rk == mt_rank, "world group rank %d", rk);

    /* a = {0, 1} (or {0}), b = world minus {0} */
    MPI_OK(MPI_Group_incl(wg, mt_size > 1 ? 2 : 1, low, &a));
    MPI_OK(MPI_Group_excl(wg, 1, low, &b));
    MPI_OK(MPI_Group_size(b, &n));
    CHECK(n == mt_size - 1, "excl size %d", n);
    MPI_OK(MPI_Group_rank(b, &rk));
    CHECK(rk == (mt_rank == 0 ? MPI_UNDEFINED : mt_rank - 1), "excl rank %d", rk);
    MPI_OK(MPI_Group_union(a, b, &u));
    MPI_OK(MPI_Group_compare(u, wg, &res));
    /* union keeps a's order first: {0,1,2..} is the world order, so identical */
    CHECK(res == MPI_IDENT, "union(a, b) vs world: %d", res);
    MPI_OK(MPI_Group_intersection(a, b, &in));
    MPI_OK(MPI_Group_size(in, &n));
    CHECK(n == (mt_size > 1 ? 1 : 0), "intersection size %d", n);
    MPI_OK(MPI_Group_difference(wg, a, &d));
    MPI_OK(MPI_Group_size(d, &n));
    CHECK(n == mt_size - (mt_size > 1 ? 2 : 1), "difference size %d", n);
    MPI_OK(MPI_Group_difference(a, wg, &e));
    MPI_OK(MPI_Group_compare(e, MPI_GROUP_EMPTY, &res));
    CHECK(res == MPI_IDENT, "a minus world is not MPI_GROUP_EMPTY-identical: %d", res);

    /* reversed world through a range with stride -1 */
    range[0][0] = mt_size - 1;
    range[0][1] = 0;
    range[0][2] = -1;
    MPI_OK(MPI_Group_range_incl(wg, 1, range, &r));
    MPI_OK(MPI_Group_compare(r, wg, &res));
    CHECK(res == (mt_size == 1 ? MPI_IDENT : MPI_SIMILAR), "reversed vs world: %d", res);
    n = mt_size < 8 ? mt_size : 8;
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    MPI_OK(MPI_Group_translate_ranks(wg, n, ranks, r, out));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == mt_size - 1 - i, "translate %d into reversed: %d", i, out[i]);
    MPI_OK(MPI_Group_translate_ranks(wg, n, ranks, b, out));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == (i == 0 ? MPI_UNDEFINED : i - 1), "translate %d into b: %d", i,
              out[i]);
    /* world minus the range 1..size-1: {0} */
    if (mt_size > 1) {
        MPI_Group z;
        range[0][0] = 1;
        range[0][1] = mt_size - 1;
        range[0][2] = 1;
        MPI_OK(MPI_Group_range_excl(wg, 1, range, &z));
        MPI_OK(MPI_Group_size(z, &n));
        MPI_OK(MPI_Group_rank(z, &rk));
        CHECK(n == 1 && rk == (mt_rank == 0 ? 0 : MPI_UNDEFINED), "range_excl: size %d rank %d", n,
              rk);
        MPI_OK(MPI_Group_free(&z));
    }

    MPI_Group *all[] = {&a, &b, &u, &in, &d, &r, &e, &wg};
    for (int i = 0; i < (int)(sizeof(all) / sizeof(all[0])); i++) {
        if (*all[i] == MPI_GROUP_EMPTY)
            continue;
        MPI_OK(MPI_Group_free(all[i]));
        CHECK(*all[i] == MPI_GROUP_NULL, "Group_free did not reset the handle");
    }
}

static void names_and_attrs(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len, key, flag, extra = 4711;
    void *val;
    int *tag_ub;
    MPI_Comm dup, dup2;

    MPI_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "WORLD is named '%s' (%d)",
          name, len);
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_OK(MPI_Comm_set_name(dup, "my dup"));
    MPI_OK(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "my dup") == 0 && len == 6, "dup is named '%s' (%d)", name, len);

    MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && *tag_ub >= 32767, "MPI_TAG_UB: flag %d value %d", flag,
          flag ? *tag_ub : -1);
    if (flag) {
        int v = 5, got = -1, ub = *tag_ub;
        MPI_Request r;

        MPI_OK(MPI_Irecv(&got, 1, MPI_INT, mt_rank, ub, MPI_COMM_WORLD, &r));
        MPI_OK(MPI_Send(&v, 1, MPI_INT, mt_rank, ub, MPI_COMM_WORLD));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(got == 5, "message with tag MPI_TAG_UB: got %d", got);
    }

    copies = deletes = 0;
    MPI_OK(MPI_Comm_create_keyval(copy_fn, delete_fn, &key, &extra));
    MPI_OK(MPI_Comm_get_attr(dup, key, &val, &flag));
    CHECK(!flag, "attribute present before it was set");
    MPI_OK(MPI_Comm_set_attr(dup, key, (void *)(intptr_t)100));
    MPI_OK(MPI_Comm_get_attr(dup, key, &val, &flag));
    CHECK(flag && (intptr_t)val == 100, "attribute: flag %d value %ld", flag, (long)(intptr_t)val);
    MPI_OK(MPI_Comm_dup(dup, &dup2));
    CHECK(copies == 1, "copy callback ran %d times on dup", copies);
    MPI_OK(MPI_Comm_get_attr(dup2, key, &val, &flag));
    CHECK(flag && (intptr_t)val == 101, "copied attribute: flag %d value %ld", flag,
          (long)(intptr_t)val);
    /* the name is not copied by Comm_dup */
    MPI_OK(MPI_Comm_get_name(dup2, name, &len));
    CHECK(strcmp(name, "my dup") != 0, "Comm_dup copied the name");
    /* replacing a value deletes the old one */
    MPI_OK(MPI_Comm_set_attr(dup, key, (void *)(intptr_t)200));
    CHECK(deletes == 1, "delete callback ran %d times on replace", deletes);
    MPI_OK(MPI_Comm_delete_attr(dup, key));
    CHECK(deletes == 2, "delete callback ran %d times on delete_attr", deletes);
    MPI_OK(MPI_Comm_get_attr(dup, key, &val, &flag));
    CHECK(!flag, "attribute still present after delete");
    MPI_OK(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID, "Comm_free_keyval did not reset the key");
    /* freeing the communicator deletes its attribute even after the keyval is freed */
    MPI_OK(MPI_Comm_free(&dup2));
    CHECK(deletes == 3, "delete callback ran %d times on Comm_free", deletes);
    MPI_OK(MPI_Comm_free(&dup));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "commgroup");
    comms();
    groups();
    names_and_attrs();
    return mt_finish();
}
