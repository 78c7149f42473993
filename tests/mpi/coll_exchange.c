/*
 * coll_exchange: the exchange allreduce (core/coll/algorithms/allreduce/exchange.c) run directly,
 * without the trampolines or Scheme, over group structures built here: random groups
 * (ranks dealt at random, random coordinators, random local trees, some groups of one
 * rank) and contiguous blocks with binomial local trees; 0 B to 1 MiB, unsegmented and in
 * 4 KiB segments, in place and not, with a strided vector type, and with a
 * non-commutative op (right in rank order on contiguous blocks; refused on every rank
 * without sending anything on random groups); blocking, and up to 64 KiB also as a
 * nonblocking call (the same schedule started, then waited for).  Also: coll_exchange_validate names what
 * is wrong with bad structures, and two structures get different closure names.
 *
 * Links the internal library (lib/libcompi.la) to reach coll_closure_exchange; run it
 * under mpirun at np 1..8.
 */
#include "tests/mpi/mpitest.h"

#include "core/coll/algorithms/allreduce/exchange.h"
#include "core/pml/pml.h"

static compi_comm_t *world;
static int me, np;
static MPI_Datatype vec_t; /* one int out of every two */

/* ---- structures -------------------------------------------------------------------- */

static unsigned rnd(unsigned *x)
{
    *x = *x * 1103515245u + 12345u;
    return *x >> 8;
}

/* group_of[], coord[], parent[], order[] -> an exchange (NULL when it cannot be built) */
static coll_exchange_t *build(int ng, const int *group_of, const int *coord, const int *parent,
                              const int *order)
{
    coll_exchange_t *x = NULL;
    compi_status_t st = coll_exchange_from_parents(np, ng, group_of, coord, parent, order, &x);
    CHECK(st == COMPI_OK, "coll_exchange_from_parents: %d", st);
    return x;
}

/* Random groups, the same on every rank for one seed: every group gets at least one rank,
   a random member coordinates, every other member hangs under an earlier member of a
   random order of the group, children served in a shuffled order. */
static coll_exchange_t *random_groups(unsigned seed, int *ngroups_p)
{
    unsigned x = seed * 2654435761u + 7u;
    int ng = 1 + (int)(rnd(&x) % (unsigned)(np < 4 ? np : 4));
    int *group_of = malloc(sizeof(int) * (size_t)np), *coord = malloc(sizeof(int) * (size_t)ng);
    int *parent = malloc(sizeof(int) * (size_t)np), *order = malloc(sizeof(int) * (size_t)np);
    int *perm = malloc(sizeof(int) * (size_t)np);

    for (int i = 0; i < np; i++)
        perm[i] = i;
    for (int i = np - 1; i > 0; i--) {
        int j = (int)(rnd(&x) % (unsigned)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* perm[0..ng) one per group, the rest anywhere */
    for (int i = 0; i < np; i++)
        group_of[perm[i]] = i < ng ? i : (int)(rnd(&x) % (unsigned)ng);
    for (int g = 0; g < ng; g++) {
        /* the members of g in perm order: the first coordinates, each later one hangs
           under a random earlier one */
        int seen = 0, *mem = malloc(sizeof(int) * (size_t)np);
        for (int i = 0; i < np; i++) {
            int r = perm[i];
            if (group_of[r] != g)
                continue;
            parent[r] = seen == 0 ? -1 : mem[rnd(&x) % (unsigned)seen];
            mem[seen++] = r;
        }
        coord[g] = mem[0];
        free(mem);
    }
    for (int i = 0; i < np; i++)
        order[i] = perm[np - 1 - i];
    coll_exchange_t *ex = build(ng, group_of, coord, parent, order);
    *ngroups_p = ng;
    free(group_of);
    free(coord);
    free(parent);
    free(order);
    free(perm);
    return ex;
}

/* blocks of k consecutive ranks, each a binomial tree from its lowest rank: ordered */
static coll_exchange_t *blocks(int k, int *ngroups_p)
{
    int ng = (np + k - 1) / k;
    int *group_of = malloc(sizeof(int) * (size_t)np), *coord = malloc(sizeof(int) * (size_t)ng);
    int *parent = malloc(sizeof(int) * (size_t)np), *order = malloc(sizeof(int) * (size_t)np);

    for (int r = 0; r < np; r++) {
        int g = r / k, rel = r - g * k;
        group_of[r] = g;
        parent[r] = rel == 0 ? -1 : g * k + (rel & (rel - 1));
        order[r] = r;
    }
    for (int g = 0; g < ng; g++)
        coord[g] = g * k;
    coll_exchange_t *ex = build(ng, group_of, coord, parent, order);
    *ngroups_p = ng;
    free(group_of);
    free(coord);
    free(parent);
    free(order);
    return ex;
}

/* ---- runs ---------------------------------------------------------------------------- */

static compi_op_t op_affine = {
    .commutative = 0, .name = "user-affine", .user_fn = mt_affine, .refcount = 1};

static int input_of(int rank, size_t i)
{
    return (int)((size_t)(rank + 1) * (i + 7) % 1009) - 300;
}

static coll_closure_t *closure(coll_exchange_t *x, long seg)
{
    coll_params_t p = {.segsize = seg};
    compi_status_t st;
    coll_closure_t *c = coll_closure_exchange(x, &p, &st);
    CHECK(c != NULL, "coll_closure_exchange: %d", st);
    return c;
}

/* 1: run the closure's schedule as a nonblocking call (its start, then a wait) */
static int nb_mode;

static compi_status_t run(coll_closure_t *c, coll_call_t *call)
{
    call->comm = world;
    if (!nb_mode) {
        call->mode = COLL_MODE_BLOCKING;
        return c->fn(c, call);
    }
    call->mode = COLL_MODE_NONBLOCKING;
    compi_request_t *req = NULL;
    CHECK(c->start != NULL, "%s has no nonblocking start", c->name);
    if (c->start == NULL) {
        return COMPI_ERR_INTERNAL;
    }
    compi_status_t st = c->start(c, call, &req);
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_wait(req, NULL);
    pml_request_free(req);
    return st;
}

/* count ints (strided by 2 with vec) summed with MPI_SUM (a user op would see the
   strided type's handle, and has to walk it itself); in place or not */
static void test_sum(coll_closure_t *c, size_t count, int in_place, int vec)
{
    size_t stride = vec ? 2 : 1, span = count * stride;
    int *in = malloc((span + 1) * sizeof(int)), *out = malloc((span + 1) * sizeof(int));
    for (size_t i = 0; i < span; i++) {
        in[i] = i % stride ? -3 : input_of(me, i / stride);
        out[i] = in_place ? in[i] : 0x5A5A5A5A;
    }
    compi_datatype_t *dt = dt_from_handle(vec ? vec_t : MPI_INT);
    coll_call_t call = {.kind = COLL_ALLREDUCE,
                        .root = -1,
                        .in_place = in_place,
                        .sbuf = in_place ? MPI_IN_PLACE : in,
                        .rbuf = out,
                        .scount = count,
                        .rcount = count,
                        .sdt = dt,
                        .rdt = dt,
                        .op = op_from_handle(MPI_SUM),
                        .bytes = count * sizeof(int)};
    compi_status_t st = run(c, &call);
    CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
    for (size_t i = 0; st == COMPI_OK && i < span; i++) {
        int want = in_place ? -3 : 0x5A5A5A5A;
        if (i % stride == 0) {
            want = 0;
            for (int r = 0; r < np; r++)
                want += input_of(r, i / stride);
        }
        if (out[i] != want) {
            CHECK(0, "%s count %zu%s%s: [%zu] = %d, expected %d", c->name, count,
                  in_place ? " in place" : "", vec ? " vector" : "", i, out[i], want);
            break;
        }
    }
    free(in);
    free(out);
}

/* the composition in rank order, or a refusal on every rank when !ordered */
static void test_noncommutative(coll_closure_t *c, size_t count, int ordered)
{
    unsigned *in = malloc((2 * count + 1) * sizeof(unsigned));
    unsigned *out = malloc((2 * count + 1) * sizeof(unsigned));
    MPI_Datatype pair;
    mt_affine_fill(in, count, me);
    MPI_OK(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
    MPI_OK(MPI_Type_commit(&pair));
    coll_call_t call = {.kind = COLL_ALLREDUCE,
                        .root = -1,
                        .sbuf = in,
                        .rbuf = out,
                        .scount = count,
                        .rcount = count,
                        .sdt = dt_from_handle(pair),
                        .rdt = dt_from_handle(pair),
                        .op = &op_affine,
                        .bytes = count * 8};
    compi_status_t st = run(c, &call);
    if (!ordered) {
        CHECK(st == COMPI_ERR_INVALID_PARAM, "%s with a non-commutative op returned %d", c->name,
              st);
    } else {
        CHECK(st == COMPI_OK, "%s returned %d", c->name, st);
        if (st == COMPI_OK) {
            mt_affine_check(out, count, np, c->name);
        }
    }
    MPI_OK(MPI_Type_free(&pair));
    free(in);
    free(out);
}

static void test_structure(coll_exchange_t *(*make)(unsigned, int *), unsigned arg, int ordered)
{
    static const size_t sizes[] = {0, 1, 8, 1000, 65536 + 12, 1 << 20};
    static const long segs[] = {0, 4096};
    for (int k = 0; k < 2; k++) {
        int ng;
        coll_exchange_t *x = make(arg, &ng);
        if (x == NULL)
            return;
        CHECK(coll_exchange_is_ordered(x) == ordered || !ordered,
              "an ordered structure is not found ordered");
        int actually_ordered = coll_exchange_is_ordered(x) == 1;
        coll_closure_t *c = closure(x, segs[k]);
        if (c == NULL)
            return;
        char want[64];
        snprintf(want, sizeof(want), "allreduce:exchange(%d ranks,%d groups,#", np, ng);
        CHECK(strncmp(c->name, want, strlen(want)) == 0, "closure name %s, expected %s...", c->name,
              want);
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            size_t count = sizes[si] / sizeof(int);
            /* blocking, then (up to 64 KiB) the same schedule started and waited for */
            for (nb_mode = 0; nb_mode < 2; nb_mode++) {
                if (nb_mode && sizes[si] > 65536 + 12)
                    break;
                test_sum(c, count, 0, 0);
                test_sum(c, count, 1, 0);
                if (sizes[si] <= 65536 + 12) {
                    test_sum(c, count, 0, 1);
                    test_noncommutative(c, count / 2, actually_ordered);
                }
            }
            nb_mode = 0;
        }
        coll_closure_release(c);
    }
}

static coll_exchange_t *make_random(unsigned seed, int *ng_p)
{
    return random_groups(seed, ng_p);
}

static coll_exchange_t *make_blocks(unsigned k, int *ng_p)
{
    return blocks((int)k, ng_p);
}

/* ---- validation ------------------------------------------------------------------------ */

static void expect_invalid(const char *what, int ng, const int *group_of, const int *coord,
                           const int *parent, const char *want)
{
    int order[4] = {0, 1, 2, 3};
    char why[256];
    coll_exchange_t *x = NULL;
    if (coll_exchange_from_parents(4, ng, group_of, coord, parent, order, &x) != COMPI_OK) {
        CHECK(0, "%s: not even built", what);
        return;
    }
    compi_status_t st = coll_exchange_validate(x, why, sizeof(why));
    CHECK(st == COMPI_ERR_INVALID_PARAM && strstr(why, want) != NULL,
          "%s: status %d, message '%s', expected it to contain '%s'", what, st, why, want);
    coll_exchange_free(x);
}

static void test_validation(void)
{
    /* 4 ranks, groups {0 1} {2 3} coordinated by 0 and 2 */
    expect_invalid("a coordinator with a parent", 2, (int[]){0, 0, 1, 1}, (int[]){0, 2},
                   (int[]){1, -1, -1, 2}, "the coordinator 0 of group 0 has parent 1");
    expect_invalid("a parent in another group", 2, (int[]){0, 0, 1, 1}, (int[]){0, 2},
                   (int[]){-1, 2, -1, 2}, "rank 1 has its parent 2 in group 1");
    expect_invalid("a rank in no valid group", 2, (int[]){0, 0, 1, 5}, (int[]){0, 2},
                   (int[]){-1, 0, -1, 2}, "rank 3 is in group 5, outside 0..1");
    expect_invalid("a rank without a parent", 2, (int[]){0, 0, 1, 1}, (int[]){0, 2},
                   (int[]){-1, 0, -1, -1}, "rank 3 has no parent but does not coordinate");
    expect_invalid("a coordinator outside its group", 2, (int[]){0, 0, 1, 1}, (int[]){0, 1},
                   (int[]){-1, 0, 3, 2}, "the coordinator 1 of group 1 is in group 0");
    expect_invalid("a cycle", 1, (int[]){0, 0, 0, 0}, (int[]){0}, (int[]){-1, 2, 3, 1},
                   "ranks 1, 2 and 3 form a cycle");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_exchange");
    world = comm_from_handle(MPI_COMM_WORLD);
    me = world->rank;
    np = world->size;
    MPI_OK(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &vec_t));
    MPI_OK(MPI_Type_commit(&vec_t));

    test_validation();
    for (unsigned seed = 1; seed <= 3; seed++)
        test_structure(make_random, seed + (unsigned)np * 17u, 0);
    test_structure(make_blocks, 3, 1);
    test_structure(make_blocks, 1, 1);

    /* the name depends on the structure: blocks of 2 and of 3 differ from np 3 on */
    int ng;
    coll_closure_t *a = closure(blocks(2, &ng), 0), *b = closure(blocks(3, &ng), 0);
    if (np >= 3 && a != NULL && b != NULL)
        CHECK(a->signature != b->signature, "blocks of 2 and 3 share the name %s", a->name);
    coll_closure_release(a);
    coll_closure_release(b);

    MPI_OK(MPI_Type_free(&vec_t));
    return mt_finish();
}
