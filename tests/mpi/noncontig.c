/*
 * noncontig: point-to-point with derived datatypes.  Five layouts carry the same type
 * signature (N doubles): contiguous, vector, indexed, resized, and a struct whose type
 * map runs backwards in memory.  Every sender layout is sent to every receiver layout,
 * small and large (rendezvous); the receiver checks each double lands at the right place
 * and that the gaps between them are untouched.  Then a struct of mixed basic types is
 * exchanged between two C structs that order their fields differently.
 */
#include "tests/mpi/mpitest.h"

#include <stddef.h>

#define NLAYOUT 5
#define GAP 0xEE

typedef struct layout {
    const char *name;
    MPI_Datatype type;
    int count;      /* how many `type` carry the N doubles */
    size_t bufsize; /* bytes the buffer must span */
    size_t *off;    /* byte offset of the k-th double, in type-map order */
} layout_t;

static double value(int src, int k, int n) { return (double)src * 1048576.0 + k + n * 0.5; }

static void make_layouts(layout_t *l, int n)
{
    MPI_Datatype t;
    int nb = 0, *bl, *disp;

    for (int i = 0; i < NLAYOUT; i++)
        l[i].off = mt_malloc(sizeof(size_t) * (size_t)n);

    l[0].name = "contiguous";
    l[0].type = MPI_DOUBLE;
    l[0].count = n;
    for (int k = 0; k < n; k++)
        l[0].off[k] = (size_t)k * 8;

    /* pairs of doubles, every 5 doubles */
    l[1].name = "vector";
    MPI_OK(MPI_Type_vector(n / 2, 2, 5, MPI_DOUBLE, &l[1].type));
    l[1].count = 1;
    for (int k = 0; k < n; k++)
        l[1].off[k] = ((size_t)(k / 2) * 5 + (size_t)(k % 2)) * 8;

    /* blocks of 1, 2, 3, 1, 2, 3... doubles, each followed by a one-double hole */
    l[2].name = "indexed";
    bl = mt_malloc(sizeof(int) * (size_t)n);
    disp = mt_malloc(sizeof(int) * (size_t)n);
    for (int k = 0, pos = 0; k < n; nb++) {
        bl[nb] = 1 + nb % 3;
        if (k + bl[nb] > n)
            bl[nb] = n - k;
        disp[nb] = pos;
        for (int j = 0; j < bl[nb]; j++)
            l[2].off[k++] = (size_t)(pos + j) * 8;
        pos += bl[nb] + 1;
    }
    MPI_OK(MPI_Type_indexed(nb, bl, disp, MPI_DOUBLE, &l[2].type));
    l[2].count = 1;
    free(bl);
    free(disp);

    /* one double every 24 bytes */
    l[3].name = "resized";
    MPI_OK(MPI_Type_create_resized(MPI_DOUBLE, 0, 24, &l[3].type));
    l[3].count = n;
    for (int k = 0; k < n; k++)
        l[3].off[k] = (size_t)k * 24;

    /* two doubles, the first at +8 and the second at +0: type-map order, not memory order */
    l[4].name = "struct-backwards";
    {
        int sbl[2] = {1, 1};
        MPI_Aint sdisp[2] = {8, 0};
        MPI_Datatype stypes[2] = {MPI_DOUBLE, MPI_DOUBLE};

        MPI_OK(MPI_Type_create_struct(2, sbl, sdisp, stypes, &t));
        MPI_OK(MPI_Type_create_resized(t, 0, 16, &l[4].type));
        MPI_OK(MPI_Type_free(&t));
    }
    l[4].count = n / 2;
    for (int k = 0; k < n; k++)
        l[4].off[k] = (size_t)(k / 2) * 16 + (k % 2 == 0 ? 8 : 0);

    for (int i = 0; i < NLAYOUT; i++) {
        l[i].bufsize = 0;
        for (int k = 0; k < n; k++)
            if (l[i].off[k] + 8 > l[i].bufsize)
                l[i].bufsize = l[i].off[k] + 8;
        if (l[i].type != MPI_DOUBLE)
            MPI_OK(MPI_Type_commit(&l[i].type));
    }
}

static void free_layouts(layout_t *l)
{
    for (int i = 0; i < NLAYOUT; i++) {
        if (l[i].type != MPI_DOUBLE)
            MPI_OK(MPI_Type_free(&l[i].type));
        free(l[i].off);
    }
}

/* every sender layout to every receiver layout, n doubles each time */
static void doubles(int n, int left, int right)
{
    layout_t l[NLAYOUT];
    unsigned char *sbuf, *rbuf;
    size_t max = 0;

    make_layouts(l, n);
    for (int i = 0; i < NLAYOUT; i++)
        if (l[i].bufsize > max)
            max = l[i].bufsize;
    sbuf = mt_malloc(max);
    rbuf = mt_malloc(max);

    for (int s = 0; s < NLAYOUT; s++)
        for (int r = 0; r < NLAYOUT; r++) {
            MPI_Request req;
            MPI_Status st;
            int count = -1, bad = 0;

            memset(sbuf, 0x11, max);
            for (int e = 0; e < n; e++) {
                double v = value(mt_rank, e, n);
                memcpy(sbuf + l[s].off[e], &v, 8);
            }
            memset(rbuf, GAP, max);
            MPI_OK(MPI_Irecv(rbuf, l[r].count, l[r].type, left, s * 10 + r, MPI_COMM_WORLD,
                             &req));
            MPI_OK(MPI_Send(sbuf, l[s].count, l[s].type, right, s * 10 + r, MPI_COMM_WORLD));
            MPI_OK(MPI_Wait(&req, &st));

            for (int e = 0; e < n && bad < 3; e++) {
                double v;

                memcpy(&v, rbuf + l[r].off[e], 8);
                if (v != value(left, e, n)) {
                    CHECK(0, "n=%d %s -> %s: element %d is %g, expected %g", n, l[s].name,
                          l[r].name, e, v, value(left, e, n));
                    bad++;
                }
            }
            /* gaps: every byte that is not one of the doubles keeps the fill value */
            {
                unsigned char *mask = mt_malloc(l[r].bufsize);

                memset(mask, 0, l[r].bufsize);
                for (int e = 0; e < n; e++)
                    memset(mask + l[r].off[e], 1, 8);
                for (size_t b = 0; b < l[r].bufsize; b++)
                    if (!mask[b] && rbuf[b] != GAP) {
                        CHECK(0, "n=%d %s -> %s: gap byte %zu overwritten", n, l[s].name,
                              l[r].name, b);
                        break;
                    }
                free(mask);
            }
            MPI_OK(MPI_Get_count(&st, l[r].type, &count));
            CHECK(count == l[r].count, "n=%d %s -> %s: Get_count %d, expected %d", n,
                  l[s].name, l[r].name, count, l[r].count);
            MPI_OK(MPI_Get_elements(&st, l[r].type, &count));
            CHECK(count == n, "n=%d %s -> %s: Get_elements %d, expected %d", n, l[s].name,
                  l[r].name, count, n);
        }
    free(sbuf);
    free(rbuf);
    free_layouts(l);
}

typedef struct s1 {
    int a;
    double d[2];
    char c;
} s1_t;

typedef struct s2 {
    char c;
    double d[2];
    short pad;
    int a;
} s2_t;

/* mixed basic types: the signature is (int, double, double, char) in both layouts */
static void mixed(int n, int left, int right)
{
    int bl[3] = {1, 2, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t1, t2, tmp;
    MPI_Aint d1[3] = {offsetof(s1_t, a), offsetof(s1_t, d), offsetof(s1_t, c)};
    MPI_Aint d2[3] = {offsetof(s2_t, a), offsetof(s2_t, d), offsetof(s2_t, c)};
    s1_t *src = mt_malloc(sizeof(s1_t) * (size_t)n);
    s2_t *dst = mt_malloc(sizeof(s2_t) * (size_t)n);
    MPI_Request req;
    MPI_Status st;
    int count = -1;

    MPI_OK(MPI_Type_create_struct(3, bl, d1, types, &tmp));
    MPI_OK(MPI_Type_create_resized(tmp, 0, sizeof(s1_t), &t1));
    MPI_OK(MPI_Type_free(&tmp));
    MPI_OK(MPI_Type_create_struct(3, bl, d2, types, &tmp));
    MPI_OK(MPI_Type_create_resized(tmp, 0, sizeof(s2_t), &t2));
    MPI_OK(MPI_Type_free(&tmp));
    MPI_OK(MPI_Type_commit(&t1));
    MPI_OK(MPI_Type_commit(&t2));

    memset(src, 0, sizeof(s1_t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        src[i].a = mt_rank * 100000 + i;
        src[i].d[0] = i * 0.25;
        src[i].d[1] = -i - mt_rank;
        src[i].c = (char)('a' + (i + mt_rank) % 26);
    }
    memset(dst, 0x5a, sizeof(s2_t) * (size_t)n);
    MPI_OK(MPI_Irecv(dst, n, t2, left, 60, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Send(src, n, t1, right, 60, MPI_COMM_WORLD));
    MPI_OK(MPI_Wait(&req, &st));
    for (int i = 0, bad = 0; i < n && bad < 3; i++) {
        if (dst[i].a != left * 100000 + i || dst[i].d[0] != i * 0.25 ||
            dst[i].d[1] != -i - left || dst[i].c != (char)('a' + (i + left) % 26) ||
            dst[i].pad != 0x5a5a) {
            CHECK(0, "struct n=%d: element %d is {%d, %g, %g, %c, pad %x}", n, i, dst[i].a,
                  dst[i].d[0], dst[i].d[1], dst[i].c, (unsigned)(unsigned short)dst[i].pad);
            bad++;
        }
    }
    MPI_OK(MPI_Get_count(&st, t2, &count));
    CHECK(count == n, "struct n=%d: Get_count %d", n, count);
    MPI_OK(MPI_Get_elements(&st, t2, &count));
    CHECK(count == 4 * n, "struct n=%d: Get_elements %d, expected %d", n, count, 4 * n);
    MPI_OK(MPI_Type_free(&t1));
    MPI_OK(MPI_Type_free(&t2));
    free(src);
    free(dst);
}

int main(int argc, char **argv)
{
    int left, right;

    mt_init(&argc, &argv, "noncontig");
    right = (mt_rank + 1) % mt_size;
    left = (mt_rank + mt_size - 1) % mt_size;
    doubles(10, left, right);
    doubles(131072, left, right);
    mixed(7, left, right);
    mixed(50000, left, right);
    return mt_finish();
}
