/*
 * coll_trees: the tree executors (core/coll/executors/) run directly, without the
 * trampolines, for barrier, bcast, reduce, allreduce, gather, scatter and allgather over
 * binomial, chain, flat, 3-ary and random trees, several roots, 0 B to 1 MiB, unsegmented
 * and in 4 KiB segments, in place and not, with a derived datatype (a strided vector) and
 * with a non-commutative op, each against a reference computed locally.  Also: a closure
 * run with the wrong root, or a non-commutative op on an unordered tree, returns an
 * error on every rank without sending anything (the next collective still works).
 * Everything runs twice: blocking (the closure's fn) and as a schedule (its start, then a
 * wait: what MPI_Ibcast and the persistent calls run), segments and all.
 *
 * Links the internal library (lib/libcompi.la) to reach coll_closure_tree; run it under
 * mpirun at np 1..8 (1,2,3,4,5,7,8 covers powers of two and the rest).
 */
#include "tests/mpi/mpitest.h"

#include "core/coll/executors/tree_closure.h"
#include "core/pml/pml.h"

enum { SHAPE_BINOMIAL, SHAPE_CHAIN, SHAPE_FLAT, SHAPE_KARY3, SHAPE_RANDOM, NSHAPES };
static const char *const shape_names[NSHAPES] = {"binomial", "chain", "flat", "3-ary", "random"};

static compi_comm_t *world;
static int me, np;
static MPI_Datatype vec_t; /* one int out of every two: a strided, non-contiguous type */

/* a random tree, the same on every rank: each relative rank hangs under an earlier one,
   children served in a shuffled order */
static topo_tree_t *random_tree(int n, int root, unsigned seed)
{
    int *parent = malloc((size_t)n * sizeof(int)), *order = malloc((size_t)n * sizeof(int));
    topo_tree_t *t = NULL;
    unsigned x = seed * 2654435761u + 12345u;
    for (int rel = 0; rel < n; rel++) {
        x = x * 1103515245u + 12345u;
        parent[(rel + root) % n] = rel == 0 ? -1 : ((int)((x >> 8) % (unsigned)rel) + root) % n;
        order[rel] = rel;
    }
    for (int i = n - 1; i > 0; i--) {
        x = x * 1103515245u + 12345u;
        int j = (int)((x >> 8) % (unsigned)(i + 1)), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    if (topo_tree_from_parents(n, root, parent, order, &t) != COMPI_OK) {
        t = NULL;
    }
    free(parent);
    free(order);
    return t;
}

static topo_tree_t *make_tree(int shape, int root)
{
    switch (shape) {
    case SHAPE_BINOMIAL:
        return topo_tree_binomial(np, root);
    case SHAPE_CHAIN:
        return topo_tree_chain(np, root);
    case SHAPE_FLAT:
        return topo_tree_flat(np, root);
    case SHAPE_KARY3:
        return topo_tree_kary(np, root, 3);
    default:
        return random_tree(np, root, (unsigned)(np * 131 + root));
    }
}

static coll_closure_t *make_closure(coll_kind_t kind, int shape, int root, long segsize)
{
    coll_params_t p = {.segsize = segsize};
    compi_status_t st;
    coll_closure_t *c = coll_closure_tree(kind, make_tree(shape, root), &p, &st);
    CHECK(c != NULL, "%s over %s root %d: closure not built (%d)", coll_kind_name(kind),
          shape_names[shape], root, st);
    return c;
}

static int as_schedule; /* run through the closure's start (nonblocking), not its fn */

static compi_status_t run(coll_closure_t *c, coll_call_t *call)
{
    call->comm = world;
    if (!as_schedule) {
        return c->fn(c, call);
    }
    call->mode = COLL_MODE_NONBLOCKING;
    compi_request_t *req = NULL;
    CHECK(c->start != NULL, "%s has no start", c->name);
    compi_status_t st = c->start(c, call, &req);
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_wait(req, NULL);
    pml_request_free(req);
    return st;
}

static compi_datatype_t *dt(MPI_Datatype h)
{
    return dt_from_handle(h);
}

/* ---- ops: a commutative sum and a non-commutative, associative composition -------- */

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++) {
        ((int *)inout)[i] += ((int *)in)[i];
    }
}

static compi_op_t op_sum = {
    .commutative = 1, .name = "user-sum", .user_fn = user_sum, .refcount = 1};
static compi_op_t op_affine = {
    .commutative = 0, .name = "user-affine", .user_fn = mt_affine, .refcount = 1};

static int input_of(int rank, size_t i)
{
    return (int)((size_t)(rank + 1) * (i + 7) % 1009) - 300;
}

/* ---- the checks ---------------------------------------------------------------------- */

static void test_bcast(int shape, int root, long seg, size_t bytes)
{
    coll_closure_t *c = make_closure(COLL_BCAST, shape, root, seg);
    unsigned char *buf = malloc(bytes + 1);
    for (size_t i = 0; i < bytes; i++) {
        buf[i] = me == root ? mt_pattern(root, (long)bytes, i) : 0xEE;
    }
    coll_call_t call = {.kind = COLL_BCAST,
                        .root = root,
                        .sbuf = buf,
                        .rbuf = buf,
                        .scount = bytes,
                        .rcount = bytes,
                        .sdt = dt(MPI_BYTE),
                        .rdt = dt(MPI_BYTE),
                        .bytes = bytes};
    compi_status_t st = run(c, &call);
    CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    for (size_t i = 0; i < bytes; i++) {
        if (buf[i] != mt_pattern(root, (long)bytes, i)) {
            CHECK(0, "%s %zu B: byte %zu is %u", c->name, bytes, i, buf[i]);
            break;
        }
    }
    free(buf);

    /* the same with a strided type: n ints taken from 2n, the gaps left alone */
    size_t n = bytes / sizeof(int);
    int *v = malloc((2 * n + 1) * sizeof(int));
    for (size_t i = 0; i < 2 * n; i++) {
        v[i] = me == root || i % 2 ? (int)(i * 3 + (size_t)root) : -1;
    }
    call.sbuf = call.rbuf = v;
    call.scount = call.rcount = n;
    call.sdt = call.rdt = dt(vec_t);
    st = run(c, &call);
    CHECK(st == COMPI_OK, "%s (vector) returned %d", c->name, st);
    for (size_t i = 0; i < 2 * n; i++) {
        if (v[i] != (int)(i * 3 + (size_t)root)) {
            CHECK(0, "%s vector of %zu: int %zu is %d", c->name, n, i, v[i]);
            break;
        }
    }
    free(v);
    coll_closure_release(c);
}

static void test_reduce(coll_kind_t kind, int shape, int root, long seg, size_t count, int in_place)
{
    coll_closure_t *c = make_closure(kind, shape, root, seg);
    int all = kind == COLL_ALLREDUCE;
    int *in = malloc((count + 1) * sizeof(int)), *out = malloc((count + 1) * sizeof(int));
    for (size_t i = 0; i < count; i++) {
        in[i] = input_of(me, i);
        out[i] = in_place ? in[i] : 0x5A5A5A5A;
    }
    int ip = in_place && (all || me == root);
    coll_call_t call = {.kind = kind,
                        .root = all ? -1 : root,
                        .in_place = ip,
                        .sbuf = ip ? MPI_IN_PLACE : in,
                        .rbuf = out,
                        .scount = count,
                        .rcount = count,
                        .sdt = dt(MPI_INT),
                        .rdt = dt(MPI_INT),
                        .op = &op_sum,
                        .bytes = count * sizeof(int)};
    compi_status_t st = run(c, &call);
    CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    if (all || me == root) {
        for (size_t i = 0; i < count; i++) {
            int want = 0;
            for (int r = 0; r < np; r++) {
                want += input_of(r, i);
            }
            if (out[i] != want) {
                CHECK(0, "%s count %zu%s: [%zu] = %d, expected %d", c->name, count,
                      in_place ? " in place" : "", i, out[i], want);
                break;
            }
        }
    }
    free(in);
    free(out);
    coll_closure_release(c);
}

/* non-commutative: ordered trees compute the rank-order composition, others refuse */
static void test_noncommutative(coll_kind_t kind, int shape, int root, long seg, size_t count)
{
    coll_closure_t *c = make_closure(kind, shape, root, seg);
    int all = kind == COLL_ALLREDUCE;
    unsigned *in = malloc((2 * count + 1) * sizeof(unsigned));
    unsigned *out = malloc((2 * count + 1) * sizeof(unsigned));
    mt_affine_fill(in, count, me);
    MPI_Datatype pair;
    MPI_OK(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
    MPI_OK(MPI_Type_commit(&pair));
    coll_call_t call = {.kind = kind,
                        .root = all ? -1 : root,
                        .sbuf = in,
                        .rbuf = out,
                        .scount = count,
                        .rcount = count,
                        .sdt = dt(pair),
                        .rdt = dt(pair),
                        .op = &op_affine,
                        .bytes = count * 8};
    topo_tree_t *t = make_tree(shape, root);
    int ordered = topo_tree_is_ordered(t);
    topo_tree_free(t);
    compi_status_t st = run(c, &call);
    if (!ordered) {
        CHECK(st == COMPI_ERR_INVALID_PARAM, "%s on an unordered tree returned %d", c->name, st);
    } else {
        CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
        if (st == COMPI_OK && (all || me == root)) {
            mt_affine_check(out, count, np, c->name);
        }
    }
    MPI_OK(MPI_Type_free(&pair));
    free(in);
    free(out);
    coll_closure_release(c);
}

static void test_gather(int shape, int root, size_t n, int in_place, int vec)
{
    coll_closure_t *c = make_closure(COLL_GATHER, shape, root, 0);
    /* with vec, the root receives each block as n ints strided by 2 */
    size_t stride = vec ? 2 : 1;
    int *s = malloc((n + 1) * sizeof(int));
    int *r = malloc(((size_t)np * n * stride + 1) * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        s[i] = me * 100000 + (int)i;
    }
    for (size_t i = 0; i < (size_t)np * n * stride; i++) {
        r[i] = -7;
    }
    if (in_place && me == root) {
        for (size_t i = 0; i < n; i++) {
            r[((size_t)me * n + i) * stride] = s[i];
        }
    }
    int ip = in_place && me == root;
    coll_call_t call = {.kind = COLL_GATHER,
                        .root = root,
                        .in_place = ip,
                        .sbuf = ip ? MPI_IN_PLACE : s,
                        .rbuf = r,
                        .scount = n,
                        .rcount = n,
                        .sdt = dt(MPI_INT),
                        .rdt = dt(vec ? vec_t : MPI_INT),
                        .bytes = n * sizeof(int)};
    compi_status_t st = run(c, &call);
    CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    for (size_t i = 0; me == root && i < (size_t)np * n * stride; i++) {
        int want = i % stride ? -7 : (int)(i / stride / n) * 100000 + (int)(i / stride % n);
        if (r[i] != want) {
            CHECK(0, "%s %zu ints%s%s: [%zu] = %d, expected %d", c->name, n,
                  in_place ? " in place" : "", vec ? " vector" : "", i, r[i], want);
            break;
        }
    }
    free(s);
    free(r);
    coll_closure_release(c);
}

static void test_scatter(int shape, int root, size_t n, int in_place, int vec)
{
    coll_closure_t *c = make_closure(COLL_SCATTER, shape, root, 0);
    size_t stride = vec ? 2 : 1;
    int *s = malloc(((size_t)np * n * stride + 1) * sizeof(int));
    int *r = malloc((n + 1) * sizeof(int));
    for (size_t i = 0; i < (size_t)np * n * stride; i++) {
        s[i] = i % stride ? -9 : (int)(i / stride / n) * 100000 + (int)(i / stride % n);
    }
    for (size_t i = 0; i < n; i++) {
        r[i] = -7;
    }
    int ip = in_place && me == root;
    coll_call_t call = {.kind = COLL_SCATTER,
                        .root = root,
                        .in_place = ip,
                        .sbuf = s,
                        .rbuf = ip ? MPI_IN_PLACE : r,
                        .scount = n,
                        .rcount = n,
                        .sdt = dt(vec ? vec_t : MPI_INT),
                        .rdt = dt(MPI_INT),
                        .bytes = n * sizeof(int)};
    compi_status_t st = run(c, &call);
    CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    for (size_t i = 0; !ip && i < n; i++) {
        if (r[i] != me * 100000 + (int)i) {
            CHECK(0, "%s %zu ints%s: [%zu] = %d", c->name, n, vec ? " vector" : "", i, r[i]);
            break;
        }
    }
    free(s);
    free(r);
    coll_closure_release(c);
}

/* allgather: gathered to the tree's root, then bcast down (in segments with seg) */
static void test_allgather(int shape, int root, long seg, size_t n, int in_place, int vec)
{
    coll_closure_t *c = make_closure(COLL_ALLGATHER, shape, root, seg);
    /* with vec, every rank receives each block as n ints strided by 2 */
    size_t stride = vec ? 2 : 1, total = (size_t)np * n * stride;
    int *s = malloc((n + 1) * sizeof(int));
    int *r = malloc((total + 1) * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        s[i] = me * 100000 + (int)i;
    }
    for (size_t i = 0; i < total; i++) {
        r[i] = -7;
    }
    if (in_place) {
        for (size_t i = 0; i < n; i++) {
            r[((size_t)me * n + i) * stride] = s[i];
        }
    }
    coll_call_t call = {.kind = COLL_ALLGATHER,
                        .root = -1,
                        .in_place = in_place,
                        .sbuf = in_place ? MPI_IN_PLACE : s,
                        .rbuf = r,
                        .scount = in_place ? 0 : n,
                        .rcount = n,
                        .sdt = in_place ? NULL : dt(MPI_INT),
                        .rdt = dt(vec ? vec_t : MPI_INT),
                        .bytes = n * sizeof(int)};
    compi_status_t st = run(c, &call);
    CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    for (size_t i = 0; i < total; i++) {
        int want = i % stride ? -7 : (int)(i / stride / n) * 100000 + (int)(i / stride % n);
        if (r[i] != want) {
            CHECK(0, "%s %zu ints%s%s: [%zu] = %d, expected %d", c->name, n,
                  in_place ? " in place" : "", vec ? " vector" : "", i, r[i], want);
            break;
        }
    }
    free(s);
    free(r);
    coll_closure_release(c);
}

static void test_barrier(int shape, int root)
{
    coll_closure_t *c = make_closure(COLL_BARRIER, shape, root, 0);
    coll_call_t call = {.kind = COLL_BARRIER, .root = -1};
    for (int i = 0; i < 3; i++) {
        compi_status_t st = run(c, &call);
        CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    }
    coll_closure_release(c);
}

/* a closure used for a call it was not built for returns an error and sends nothing */
static void test_mismatch(void)
{
    int root = np - 1, x = 0;
    coll_closure_t *c = make_closure(COLL_BCAST, SHAPE_BINOMIAL, 0, 0);
    coll_call_t call = {.kind = COLL_BCAST,
                        .root = root,
                        .sbuf = &x,
                        .rbuf = &x,
                        .scount = 1,
                        .rcount = 1,
                        .sdt = dt(MPI_INT),
                        .rdt = dt(MPI_INT),
                        .bytes = 4};
    compi_status_t st = run(c, &call);
    if (np > 1) {
        CHECK(st == COMPI_ERR_INVALID_PARAM, "bcast with root %d through a root-0 tree: %d", root,
              st);
    }
    coll_closure_release(c);
}

/* every case over every shape and root, in the current mode (as_schedule) */
static void all_cases(const int *roots, int nroots)
{
    static const size_t sizes[] = {0, 1, 8, 1000, 65536 + 12, 1 << 20};
    static const long segs[] = {0, 4096};
    size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);

    for (int shape = 0; shape < NSHAPES; shape++) {
        for (int ri = 0; ri < nroots; ri++) {
            int root = roots[ri];
            test_barrier(shape, root);
            for (size_t si = 0; si < nsizes; si++) {
                /* 1 MiB only over two shapes (one as a schedule): the others add time, not
                   coverage */
                if (sizes[si] == (1 << 20) && shape != SHAPE_CHAIN &&
                    (shape != SHAPE_RANDOM || as_schedule)) {
                    continue;
                }
                if ((long)sizes[si] > mt_max_bytes(1L << 20)) {
                    continue; /* COMPI_TEST_MAX_BYTES */
                }
                size_t count = sizes[si] / sizeof(int);
                for (int k = 0; k < 2; k++) {
                    test_bcast(shape, root, segs[k], sizes[si]);
                    test_reduce(COLL_REDUCE, shape, root, segs[k], count, 0);
                    test_reduce(COLL_ALLREDUCE, shape, root, segs[k], count, 0);
                }
                test_reduce(COLL_REDUCE, shape, root, 4096, count, 1);
                test_reduce(COLL_ALLREDUCE, shape, root, 4096, count, 1);
                if (sizes[si] <= 65536 + 12) {
                    test_noncommutative(COLL_REDUCE, shape, root, 4096, count / 2);
                    test_noncommutative(COLL_ALLREDUCE, shape, root, 0, count / 2);
                }
                size_t blk = sizes[si] / sizeof(int) / (size_t)np;
                test_gather(shape, root, blk, 0, 0);
                test_gather(shape, root, blk, 1, 0);
                test_gather(shape, root, blk, 0, 1);
                test_scatter(shape, root, blk, 0, 0);
                test_scatter(shape, root, blk, 1, 0);
                test_scatter(shape, root, blk, 0, 1);
                test_allgather(shape, root, 0, blk, 0, 0);
                test_allgather(shape, root, 4096, blk, 1, 0);
                test_allgather(shape, root, 4096, blk, 0, 1);
            }
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_trees");
    world = comm_from_handle(MPI_COMM_WORLD);
    me = world->rank;
    np = world->size;
    MPI_OK(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &vec_t));
    MPI_OK(MPI_Type_commit(&vec_t));

    int roots[3] = {0, np - 1, np / 2}, nroots = np > 2 ? 3 : np;
    for (as_schedule = 0; as_schedule < 2; as_schedule++) {
        all_cases(roots, nroots);
    }
    as_schedule = 0;
    test_mismatch();
    test_barrier(SHAPE_FLAT, 0);
    MPI_OK(MPI_Type_free(&vec_t));
    return mt_finish();
}
