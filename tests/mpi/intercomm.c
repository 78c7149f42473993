/*
 * intercomm.c -- intercommunicators: MPI_Intercomm_create from halves of WORLD (even,
 * uneven, one against the rest, interleaved), the queries (test_inter, size, rank,
 * remote_size, group, remote_group), point-to-point both ways with MPI_ANY_SOURCE and
 * probes (status.MPI_SOURCE a remote rank), Intercomm_merge in both orders, dup, split
 * (a color on one side only gives MPI_COMM_NULL), create, compare, free, and the error
 * classes of bad arguments; pairs of MPI_COMM_SELF, and an intercommunicator as the peer.
 * Needs 2 processes or more (1: nothing to do).
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

/* world ranks of group g of comm (local or remote) */
static void world_of(MPI_Group g, int n, int *out)
{
    MPI_Group wg;
    int *r = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        r[i] = i;
    }
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Group_translate_ranks(g, n, r, wg, out));
    MPI_OK(MPI_Group_free(&wg));
    free(r);
}

/* the world ranks in side `side` of a split by color(r) */
static int members(int (*color)(int, int), int side, int *out)
{
    int n = 0;
    for (int r = 0; r < mt_size; r++) {
        if (color(r, mt_size) == side) {
            out[n++] = r;
        }
    }
    return n;
}

static int halves(int r, int n) { return r < n / 2; }            /* 0: upper half */
static int one_rest(int r, int n) { (void)n; return r == 0; }      /* 1: rank 0 alone */
static int parity(int r, int n) { (void)n; return r % 2; }

/* p2p over inter: every rank sends its world rank to every remote rank (each call its
   own tag, so a fast sender's next round stays apart), and
   receives remote_size messages with ANY_SOURCE, checking source and content */
static void p2p_all(MPI_Comm inter, const int *rworld, int rsize, int tag)
{
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)rsize);
    int *seen = calloc((size_t)rsize, sizeof(int));
    for (int i = 0; i < rsize; i++) {
        MPI_OK(MPI_Isend(&mt_rank, 1, MPI_INT, i, tag, inter, &reqs[i]));
    }
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int flag = 0, v = -1, cnt = 0;
        MPI_OK(MPI_Probe(MPI_ANY_SOURCE, tag, inter, &st));
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize, "probe source %d", st.MPI_SOURCE);
        MPI_OK(MPI_Get_count(&st, MPI_INT, &cnt));
        CHECK(cnt == 1, "probe count %d", cnt);
        MPI_OK(MPI_Iprobe(st.MPI_SOURCE, tag, inter, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "iprobe of a probed message");
        MPI_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag, inter, &st));
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize, "source %d", st.MPI_SOURCE);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize) {
            CHECK(v == rworld[st.MPI_SOURCE], "from remote %d got world rank %d, expected %d",
                  st.MPI_SOURCE, v, rworld[st.MPI_SOURCE]);
            CHECK(!seen[st.MPI_SOURCE], "remote %d twice", st.MPI_SOURCE);
            seen[st.MPI_SOURCE] = 1;
        }
    }
    MPI_OK(MPI_Waitall(rsize, reqs, MPI_STATUSES_IGNORE));
    free(reqs);
    free(seen);
}

/* queries of inter against the expected groups */
static void check_shape(MPI_Comm inter, const int *lw, int ln, const int *rw, int rn)
{
    int flag = 0, sz = -1, rk = -1, rsz = -1;
    int *got = malloc(sizeof(int) * (size_t)(mt_size + 1));
    MPI_Group g;
    MPI_OK(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag, "test_inter of an intercommunicator");
    MPI_OK(MPI_Comm_size(inter, &sz));
    MPI_OK(MPI_Comm_rank(inter, &rk));
    MPI_OK(MPI_Comm_remote_size(inter, &rsz));
    CHECK(sz == ln && rsz == rn, "size %d remote %d, expected %d %d", sz, rsz, ln, rn);
    CHECK(rk >= 0 && rk < ln && lw[rk] == mt_rank, "rank %d", rk);
    MPI_OK(MPI_Comm_group(inter, &g));
    world_of(g, ln, got);
    MPI_OK(MPI_Group_free(&g));
    CHECK(memcmp(got, lw, sizeof(int) * (size_t)ln) == 0, "local group");
    MPI_OK(MPI_Comm_remote_group(inter, &g));
    world_of(g, rn, got);
    MPI_OK(MPI_Group_free(&g));
    CHECK(memcmp(got, rw, sizeof(int) * (size_t)rn) == 0, "remote group");
    free(got);
}

static void merge_check(MPI_Comm inter, int high, int rhigh, const int *lw, int ln,
                        const int *rw, int rn)
{
    MPI_Comm m;
    int sz, rk, flag = 1;
    int *want = malloc(sizeof(int) * (size_t)mt_size), *got = malloc(sizeof(int) * (size_t)mt_size);
    MPI_Group g;
    MPI_OK(MPI_Intercomm_merge(inter, high, &m));
    MPI_OK(MPI_Comm_test_inter(m, &flag));
    CHECK(!flag, "a merged communicator is an intracommunicator");
    MPI_OK(MPI_Comm_size(m, &sz));
    CHECK(sz == ln + rn, "merged size %d", sz);
    int local_first = high != rhigh ? !high : lw[0] < rw[0];
    memcpy(want, local_first ? lw : rw, sizeof(int) * (size_t)(local_first ? ln : rn));
    memcpy(want + (local_first ? ln : rn), local_first ? rw : lw,
           sizeof(int) * (size_t)(local_first ? rn : ln));
    MPI_OK(MPI_Comm_group(m, &g));
    world_of(g, sz, got);
    MPI_OK(MPI_Group_free(&g));
    CHECK(memcmp(got, want, sizeof(int) * (size_t)sz) == 0, "merged order (high %d/%d)", high,
          rhigh);
    MPI_OK(MPI_Comm_rank(m, &rk));
    CHECK(want[rk] == mt_rank, "merged rank");
    /* the merged communicator works: an allreduce of world ranks */
    int sum = 0;
    MPI_OK(MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, m));
    CHECK(sum == mt_size * (mt_size - 1) / 2, "allreduce on merged: %d", sum);
    MPI_OK(MPI_Comm_free(&m));
    free(want);
    free(got);
}

static void one_split(int (*color)(int, int))
{
    int side = color(mt_rank, mt_size);
    int *lw = malloc(sizeof(int) * (size_t)mt_size), *rw = malloc(sizeof(int) * (size_t)mt_size);
    int ln = members(color, side, lw), rn = members(color, !side, rw);
    MPI_Comm half, inter, dup, sp, cr;
    int cmp;

    if (ln == 0 || rn == 0) {
        free(lw);
        free(rw);
        return;
    }
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, side, mt_rank, &half));
    MPI_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rw[0], 7, &inter));
    check_shape(inter, lw, ln, rw, rn);
    p2p_all(inter, rw, rn, 11);
    /* the same tag on the local comm does not cross */
    p2p_all(inter, rw, rn, 12);

    merge_check(inter, side, !side, lw, ln, rw, rn);
    merge_check(inter, !side, side, lw, ln, rw, rn);
    merge_check(inter, 1, 1, lw, ln, rw, rn);

    MPI_OK(MPI_Comm_dup(inter, &dup));
    check_shape(dup, lw, ln, rw, rn);
    MPI_OK(MPI_Comm_compare(inter, dup, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "compare with dup: %d", cmp);
    MPI_OK(MPI_Comm_compare(inter, inter, &cmp));
    CHECK(cmp == MPI_IDENT, "compare with itself: %d", cmp);
    MPI_OK(MPI_Comm_compare(inter, half, &cmp));
    CHECK(cmp == MPI_UNEQUAL, "compare with an intracommunicator: %d", cmp);
    p2p_all(dup, rw, rn, 13);

    /* split by local rank with key -rank: color c exists on both sides only when both
       groups have more than c members */
    int lrank;
    MPI_OK(MPI_Comm_rank(inter, &lrank));
    MPI_OK(MPI_Comm_split(dup, lrank, -mt_rank, &sp));
    if (lrank < rn) {
        int l1[1] = {mt_rank}, r1[1] = {rw[lrank]};
        CHECK(sp != MPI_COMM_NULL, "split color %d present on both sides", lrank);
        if (sp != MPI_COMM_NULL) {
            check_shape(sp, l1, 1, r1, 1);
            p2p_all(sp, r1, 1, 14);
            MPI_OK(MPI_Comm_free(&sp));
        }
    } else {
        CHECK(sp == MPI_COMM_NULL, "split color %d on one side only", lrank);
    }
    /* split with one color and reversed keys: reversed groups */
    MPI_OK(MPI_Comm_split(inter, 3, -mt_rank, &sp));
    {
        int *lr = malloc(sizeof(int) * (size_t)ln), *rr = malloc(sizeof(int) * (size_t)rn);
        for (int i = 0; i < ln; i++) lr[i] = lw[ln - 1 - i];
        for (int i = 0; i < rn; i++) rr[i] = rw[rn - 1 - i];
        check_shape(sp, lr, ln, rr, rn);
        p2p_all(sp, rr, rn, 15);
        MPI_OK(MPI_Comm_compare(inter, sp, &cmp));
        CHECK(cmp == (ln == 1 && rn == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "compare reversed: %d",
              cmp);
        free(lr);
        free(rr);
        MPI_OK(MPI_Comm_free(&sp));
    }
    /* MPI_UNDEFINED */
    MPI_OK(MPI_Comm_split(inter, MPI_UNDEFINED, 0, &sp));
    CHECK(sp == MPI_COMM_NULL, "split with MPI_UNDEFINED");

    /* create: the first member of each local group */
    MPI_Group lg, first;
    int zero = 0;
    MPI_OK(MPI_Comm_group(inter, &lg));
    MPI_OK(MPI_Group_incl(lg, 1, &zero, &first));
    MPI_OK(MPI_Comm_create(inter, first, &cr));
    if (lrank == 0) {
        int l1[1] = {lw[0]}, r1[1] = {rw[0]};
        CHECK(cr != MPI_COMM_NULL, "create: the leaders");
        if (cr != MPI_COMM_NULL) {
            check_shape(cr, l1, 1, r1, 1);
            p2p_all(cr, r1, 1, 16);
            MPI_OK(MPI_Comm_free(&cr));
        }
    } else {
        CHECK(cr == MPI_COMM_NULL, "create: not a member");
    }
    /* create with the empty group on one side: nobody gets one */
    MPI_OK(MPI_Comm_create(inter, side ? MPI_GROUP_EMPTY : lg, &cr));
    CHECK(cr == MPI_COMM_NULL, "create with an empty side");
    MPI_OK(MPI_Group_free(&first));
    MPI_OK(MPI_Group_free(&lg));

    /* errors */
    MPI_OK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    int rc, ec, dims[1] = {ln}, per[1] = {0};
    MPI_Comm bad;
    rc = MPI_Cart_create(inter, 1, dims, per, 0, &bad);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "Cart_create on an intercommunicator: class %d", ec);
    rc = MPI_Send(&zero, 1, MPI_INT, rn, 1, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_RANK, "send to rank remote_size: class %d", ec);
    rc = MPI_Comm_create_group(inter, MPI_GROUP_EMPTY, 0, &bad);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "Comm_create_group on an intercommunicator: class %d", ec);
    rc = MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, rw[0], 7, &bad);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "Intercomm_create from an intercommunicator: class %d", ec);
    MPI_OK(MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN));
    rc = MPI_Intercomm_create(half, ln, MPI_COMM_WORLD, rw[0], 7, &bad);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_RANK, "local_leader out of range: class %d", ec);
    rc = MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rw[0], -1, &bad);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_TAG, "negative tag: class %d", ec);

    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Comm_free(&inter));
    CHECK(inter == MPI_COMM_NULL, "freed");
    MPI_OK(MPI_Comm_free(&half));
    free(lw);
    free(rw);
}

/* pairs of MPI_COMM_SELF (local groups of one) joined over WORLD: 0-1, 2-3, ...; and an
   intercommunicator made with an intercommunicator as the peer */
static void self_pairs(void)
{
    int partner = mt_rank ^ 1;
    MPI_Comm inter, inter2;
    if (partner >= mt_size) {
        return;
    }
    int l1[1] = {mt_rank}, r1[1] = {partner};
    MPI_OK(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, partner, 9, &inter));
    check_shape(inter, l1, 1, r1, 1);
    p2p_all(inter, r1, 1, 17);
    /* the peer is an intercommunicator: remote_leader is a rank of its remote group */
    MPI_OK(MPI_Intercomm_create(MPI_COMM_SELF, 0, inter, 0, 4, &inter2));
    check_shape(inter2, l1, 1, r1, 1);
    p2p_all(inter2, r1, 1, 18);
    int cmp;
    MPI_OK(MPI_Comm_compare(inter, inter2, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "two intercommunicators of the same pair: %d", cmp);
    MPI_OK(MPI_Comm_free(&inter2));
    MPI_OK(MPI_Comm_free(&inter));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "intercomm");
    int rc, ec, flag = 1, n;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK(!flag, "WORLD is no intercommunicator");
    rc = MPI_Comm_remote_size(MPI_COMM_WORLD, &n);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "remote_size of WORLD: class %d", ec);
    MPI_Comm bad;
    rc = MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &bad);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "merge of WORLD: class %d", ec);
    if (mt_size >= 2) {
        one_split(halves);
        one_split(one_rest);
        one_split(parity);
        if (mt_size % 2 == 0) {
            self_pairs();
        }
    }
    return mt_finish();
}
