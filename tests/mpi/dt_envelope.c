/*
 * dt_envelope: MPI_Type_get_envelope and MPI_Type_get_contents for every combiner.
 * Each type is built, its constituent freed at once (the contents must outlive it), and
 * its envelope checked against the constructor's arguments; then the type is rebuilt
 * from its contents alone, recursively (the way mpi4py decodes types), and both must
 * pack a test buffer to the same bytes and have the same size and extent.  Also the
 * error classes: contents of a named type, arrays too small, an invalid handle.
 */
#include "tests/mpi/mpitest.h"

#define MAXN 64

typedef struct {
    int ni, na, nd, comb;
    int ints[MAXN];
    MPI_Aint addrs[MAXN];
    MPI_Datatype types[MAXN];
} contents_t;

static void get_contents(MPI_Datatype t, contents_t *c)
{
    MPI_OK(MPI_Type_get_envelope(t, &c->ni, &c->na, &c->nd, &c->comb));
    if (c->comb != MPI_COMBINER_NAMED) {
        MPI_OK(MPI_Type_get_contents(t, MAXN, MAXN, MAXN, c->ints, c->addrs, c->types));
    }
}

static int is_named(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    return comb == MPI_COMBINER_NAMED;
}

static void free_contents(contents_t *c)
{
    for (int i = 0; i < c->nd; i++) {
        if (!is_named(c->types[i])) {
            MPI_OK(MPI_Type_free(&c->types[i]));
        }
    }
}

/* a new type built from t's contents, constituents rebuilt the same way */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    contents_t c;
    MPI_Datatype sub[MAXN], out = MPI_DATATYPE_NULL;
    int *v = c.ints;

    get_contents(t, &c);
    if (c.comb == MPI_COMBINER_NAMED) {
        return t;
    }
    for (int i = 0; i < c.nd; i++) {
        sub[i] = rebuild(c.types[i]);
    }
    switch (c.comb) {
    case MPI_COMBINER_DUP:
        MPI_OK(MPI_Type_dup(sub[0], &out));
        break;
    case MPI_COMBINER_CONTIGUOUS:
        MPI_OK(MPI_Type_contiguous(v[0], sub[0], &out));
        break;
    case MPI_COMBINER_VECTOR:
        MPI_OK(MPI_Type_vector(v[0], v[1], v[2], sub[0], &out));
        break;
    case MPI_COMBINER_HVECTOR:
        MPI_OK(MPI_Type_create_hvector(v[0], v[1], c.addrs[0], sub[0], &out));
        break;
    case MPI_COMBINER_INDEXED:
        MPI_OK(MPI_Type_indexed(v[0], v + 1, v + 1 + v[0], sub[0], &out));
        break;
    case MPI_COMBINER_HINDEXED:
        MPI_OK(MPI_Type_create_hindexed(v[0], v + 1, c.addrs, sub[0], &out));
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        MPI_OK(MPI_Type_create_indexed_block(v[0], v[1], v + 2, sub[0], &out));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        MPI_OK(MPI_Type_create_hindexed_block(v[0], v[1], c.addrs, sub[0], &out));
        break;
    case MPI_COMBINER_STRUCT:
        MPI_OK(MPI_Type_create_struct(v[0], v + 1, c.addrs, sub, &out));
        break;
    case MPI_COMBINER_RESIZED:
        MPI_OK(MPI_Type_create_resized(sub[0], c.addrs[0], c.addrs[1], &out));
        break;
    case MPI_COMBINER_SUBARRAY: {
        int nd = v[0];
        MPI_OK(MPI_Type_create_subarray(nd, v + 1, v + 1 + nd, v + 1 + 2 * nd, v[1 + 3 * nd],
                                        sub[0], &out));
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int nd = v[2];
        MPI_OK(MPI_Type_create_darray(v[0], v[1], nd, v + 3, v + 3 + nd, v + 3 + 2 * nd,
                                      v + 3 + 3 * nd, v[3 + 4 * nd], sub[0], &out));
        break;
    }
    default:
        CHECK(0, "unknown combiner %d", c.comb);
        out = MPI_BYTE;
    }
    for (int i = 0; i < c.nd; i++) {
        if (sub[i] != c.types[i]) {
            MPI_OK(MPI_Type_free(&sub[i]));
        }
    }
    free_contents(&c);
    return out;
}

/* t and its rebuilt twin lay out the same bytes of a patterned buffer */
static void same_as_rebuilt(MPI_Datatype t, const char *what)
{
    static unsigned char src[4096];
    unsigned char p1[2048], p2[2048];
    MPI_Datatype r = rebuild(t);
    int s1, s2, pos1 = 0, pos2 = 0;
    MPI_Aint lb1, e1, lb2, e2;

    mt_fill(src, sizeof(src), 1, 2);
    MPI_OK(MPI_Type_commit(&t));
    MPI_OK(MPI_Type_commit(&r));
    MPI_OK(MPI_Type_size(t, &s1));
    MPI_OK(MPI_Type_size(r, &s2));
    MPI_OK(MPI_Type_get_extent(t, &lb1, &e1));
    MPI_OK(MPI_Type_get_extent(r, &lb2, &e2));
    CHECK(s1 == s2 && lb1 == lb2 && e1 == e2, "%s: rebuilt size/lb/extent %d/%ld/%ld vs %d/%ld/%ld",
          what, s2, (long)lb2, (long)e2, s1, (long)lb1, (long)e1);
    if (s1 <= (int)sizeof(p1) && s1 == s2) {
        MPI_OK(MPI_Pack(src + 1024, 1, t, p1, sizeof(p1), &pos1, MPI_COMM_SELF));
        MPI_OK(MPI_Pack(src + 1024, 1, r, p2, sizeof(p2), &pos2, MPI_COMM_SELF));
        CHECK(pos1 == pos2 && memcmp(p1, p2, (size_t)pos1) == 0, "%s: rebuilt packs differently",
              what);
    }
    MPI_OK(MPI_Type_free(&r));
}

static void expect_env(MPI_Datatype t, const char *what, int comb, int ni, const int *ints,
                       int na, const MPI_Aint *addrs, int nd)
{
    contents_t c;

    get_contents(t, &c);
    CHECK(c.comb == comb && c.ni == ni && c.na == na && c.nd == nd,
          "%s: envelope %d %d/%d/%d, expected %d %d/%d/%d", what, c.comb, c.ni, c.na, c.nd, comb,
          ni, na, nd);
    for (int i = 0; i < ni && i < c.ni; i++) {
        CHECK(c.ints[i] == ints[i], "%s: integer %d is %d, expected %d", what, i, c.ints[i],
              ints[i]);
    }
    for (int i = 0; i < na && i < c.na; i++) {
        CHECK(c.addrs[i] == addrs[i], "%s: address %d is %ld, expected %ld", what, i,
              (long)c.addrs[i], (long)addrs[i]);
    }
    free_contents(&c);
    same_as_rebuilt(t, what);
}

int main(int argc, char **argv)
{
    MPI_Datatype base, t, ty[3];

    mt_init(&argc, &argv, "dt_envelope");

    /* a derived base (freed right after use) so that constituents are not all named */
    {
        int ints[] = {3};
        MPI_OK(MPI_Type_contiguous(3, MPI_SHORT, &base));
        expect_env(base, "contiguous", MPI_COMBINER_CONTIGUOUS, 1, ints, 0, NULL, 1);
    }
    MPI_OK(MPI_Type_dup(base, &t));
    MPI_OK(MPI_Type_free(&base));
    expect_env(t, "dup", MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1);
    base = t;
    {
        int ints[] = {3, 2, 5};
        MPI_OK(MPI_Type_vector(3, 2, 5, base, &t));
        expect_env(t, "vector", MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int ints[] = {4, 1};
        MPI_Aint a[] = {-40};
        MPI_OK(MPI_Type_create_hvector(4, 1, -40, MPI_DOUBLE, &t));
        expect_env(t, "hvector", MPI_COMBINER_HVECTOR, 2, ints, 1, a, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int bl[] = {2, 1, 3}, d[] = {7, 0, 3};
        int ints[] = {3, 2, 1, 3, 7, 0, 3};
        MPI_OK(MPI_Type_indexed(3, bl, d, base, &t));
        expect_env(t, "indexed", MPI_COMBINER_INDEXED, 7, ints, 0, NULL, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int bl[] = {1, 2};
        MPI_Aint d[] = {100, 8};
        int ints[] = {2, 1, 2};
        MPI_OK(MPI_Type_create_hindexed(2, bl, d, MPI_INT, &t));
        expect_env(t, "hindexed", MPI_COMBINER_HINDEXED, 3, ints, 2, d, 1);
        MPI_OK(MPI_Type_free(&t));
        /* the MPI-1 name records the same envelope */
        MPI_OK(MPI_Type_hindexed(2, bl, d, MPI_INT, &t));
        expect_env(t, "MPI-1 hindexed", MPI_COMBINER_HINDEXED, 3, ints, 2, d, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int d[] = {4, 0, 9};
        int ints[] = {3, 2, 4, 0, 9};
        MPI_OK(MPI_Type_create_indexed_block(3, 2, d, MPI_FLOAT, &t));
        expect_env(t, "indexed_block", MPI_COMBINER_INDEXED_BLOCK, 5, ints, 0, NULL, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        MPI_Aint d[] = {24, 0};
        int ints[] = {2, 3};
        MPI_OK(MPI_Type_create_hindexed_block(2, 3, d, base, &t));
        expect_env(t, "hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, 2, ints, 2, d, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int bl[] = {1, 2, 1};
        MPI_Aint d[] = {0, 8, 40};
        int ints[] = {3, 1, 2, 1};
        ty[0] = MPI_CHAR;
        ty[1] = base;
        ty[2] = MPI_DOUBLE_COMPLEX;
        MPI_OK(MPI_Type_create_struct(3, bl, d, ty, &t));
        expect_env(t, "struct", MPI_COMBINER_STRUCT, 4, ints, 3, d, 3);
        /* the struct outlives a freed member, and so do its contents */
        {
            MPI_Datatype outer;
            MPI_Aint a[] = {-8, 100};
            MPI_OK(MPI_Type_create_resized(t, -8, 100, &outer));
            MPI_OK(MPI_Type_free(&t));
            expect_env(outer, "resized(struct)", MPI_COMBINER_RESIZED, 0, NULL, 2, a, 1);
            MPI_OK(MPI_Type_free(&outer));
        }
    }
    {
        /* a struct of no members, its arrays NULL: empty, and an envelope of one int */
        int ints[] = {0}, size = -1;
        MPI_Aint lb = -1, ext = -1;
        MPI_OK(MPI_Type_create_struct(0, NULL, NULL, NULL, &t));
        MPI_OK(MPI_Type_size(t, &size));
        MPI_OK(MPI_Type_get_extent(t, &lb, &ext));
        CHECK(size == 0 && lb == 0 && ext == 0, "empty struct: size %d lb %ld extent %ld", size,
              (long)lb, (long)ext);
        expect_env(t, "struct of none", MPI_COMBINER_STRUCT, 1, ints, 0, NULL, 0);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int sizes[] = {4, 6, 5}, sub[] = {2, 3, 1}, starts[] = {1, 2, 4};
        int ints[] = {3, 4, 6, 5, 2, 3, 1, 1, 2, 4, MPI_ORDER_FORTRAN};
        MPI_OK(MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_FORTRAN, base, &t));
        expect_env(t, "subarray", MPI_COMBINER_SUBARRAY, 11, ints, 0, NULL, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    {
        int gs[] = {5, 7}, dist[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
        int darg[] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {2, 3};
        int ints[] = {6, 4, 2, 5, 7, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK,
                      2, MPI_DISTRIBUTE_DFLT_DARG, 2, 3, MPI_ORDER_C};
        MPI_OK(MPI_Type_create_darray(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t));
        expect_env(t, "darray", MPI_COMBINER_DARRAY, 12, ints, 0, NULL, 1);
        MPI_OK(MPI_Type_free(&t));
    }
    /* nested three deep, every level derived */
    {
        MPI_Datatype a, b;
        MPI_OK(MPI_Type_vector(2, 1, 3, base, &a));
        MPI_OK(MPI_Type_create_resized(a, 0, 7, &b));
        MPI_OK(MPI_Type_free(&a));
        MPI_OK(MPI_Type_contiguous(3, b, &t));
        MPI_OK(MPI_Type_free(&b));
        {
            int ints[] = {3};
            expect_env(t, "contiguous(resized(vector(dup)))", MPI_COMBINER_CONTIGUOUS, 1, ints, 0,
                       NULL, 1);
        }
        MPI_OK(MPI_Type_free(&t));
    }

    /* error classes */
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    {
        int ints[4];
        MPI_Aint addrs[4];
        MPI_Datatype types[4];
        MPI_OK(MPI_Type_vector(3, 2, 5, base, &t));
        CHECK(MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, addrs, types) == MPI_ERR_TYPE,
              "contents of a named type is not MPI_ERR_TYPE");
        CHECK(MPI_Type_get_contents(t, 2, 4, 4, ints, addrs, types) == MPI_ERR_ARG,
              "too few integers is not MPI_ERR_ARG");
        CHECK(MPI_Type_get_contents(t, 3, 0, 0, ints, addrs, types) == MPI_ERR_ARG,
              "no room for the datatype is not MPI_ERR_ARG");
        CHECK(MPI_Type_get_contents(MPI_DATATYPE_NULL, 4, 4, 4, ints, addrs, types) ==
                  MPI_ERR_TYPE,
              "MPI_DATATYPE_NULL is not MPI_ERR_TYPE");
        {
            int ni, na, nd, comb;
            CHECK(MPI_Type_get_envelope(MPI_DATATYPE_NULL, &ni, &na, &nd, &comb) == MPI_ERR_TYPE,
                  "envelope of MPI_DATATYPE_NULL is not MPI_ERR_TYPE");
        }
        MPI_OK(MPI_Type_free(&t));
    }
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    MPI_OK(MPI_Type_free(&base));
    return mt_finish();
}
