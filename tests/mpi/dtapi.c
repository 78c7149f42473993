/*
 * dtapi: datatype calls at the API, on one process.  Size, extent, lb and true extent of
 * each constructor against values worked out by hand; Pack/Unpack round trips (several
 * packs into one buffer, Pack_size as an upper bound) for derived types; Get_elements
 * and Get_count on a partial receive.  The MPI-1 calls MPI-3 removed (MPI_Address,
 * MPI_Type_extent/lb/ub, MPI_Type_hvector/hindexed/struct) give what their replacements
 * give, errors included.
 */
#include "tests/mpi/mpitest.h"

static void expect(MPI_Datatype t, const char *name, int size, MPI_Aint lb, MPI_Aint extent,
                   MPI_Aint tlb, MPI_Aint textent)
{
    int s = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;

    MPI_OK(MPI_Type_size(t, &s));
    MPI_OK(MPI_Type_get_extent(t, &l, &e));
    MPI_OK(MPI_Type_get_true_extent(t, &tl, &te));
    CHECK(s == size, "%s: size %d, expected %d", name, s, size);
    CHECK(l == lb && e == extent, "%s: lb/extent %ld/%ld, expected %ld/%ld", name, (long)l,
          (long)e, (long)lb, (long)extent);
    CHECK(tl == tlb && te == textent, "%s: true lb/extent %ld/%ld, expected %ld/%ld", name,
          (long)tl, (long)te, (long)tlb, (long)textent);
}

static void constructors(void)
{
    MPI_Datatype c, v, hv, ix, ib, st, rs, rs2, sub;

    expect(MPI_INT, "MPI_INT", 4, 0, 4, 0, 4);
    expect(MPI_DOUBLE, "MPI_DOUBLE", 8, 0, 8, 0, 8);

    MPI_OK(MPI_Type_contiguous(5, MPI_INT, &c));
    expect(c, "contiguous(5, int)", 20, 0, 20, 0, 20);

    /* 3 blocks of 2 ints, stride 4 ints: spans (2*4 + 2) ints */
    MPI_OK(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
    expect(v, "vector(3, 2, 4, int)", 24, 0, 40, 0, 40);

    /* hvector of 2 doubles every 20 bytes, 3 times: 2*20 + 16 */
    MPI_OK(MPI_Type_create_hvector(3, 2, 20, MPI_DOUBLE, &hv));
    expect(hv, "hvector(3, 2, 20B, double)", 48, 0, 56, 0, 56);

    /* indexed: blocks {1 at 5, 3 at 1}: ints 1..3 and 5; lb 4 bytes, ub 24 */
    {
        int bl[2] = {1, 3}, d[2] = {5, 1};

        MPI_OK(MPI_Type_indexed(2, bl, d, MPI_INT, &ix));
        expect(ix, "indexed({1,3}, {5,1}, int)", 16, 4, 20, 4, 20);
    }
    {
        int d[3] = {2, 0, 6};

        MPI_OK(MPI_Type_create_indexed_block(3, 2, d, MPI_SHORT, &ib));
        expect(ib, "indexed_block(3, 2, {2,0,6}, short)", 12, 0, 16, 0, 16);
    }
    /* struct {char at 0, double at 8, int at 16}: size 13, extent padded to 24 */
    {
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {0, 8, 16};
        MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};

        MPI_OK(MPI_Type_create_struct(3, bl, d, ty, &st));
        expect(st, "struct(char@0, double@8, int@16)", 13, 0, 24, 0, 20);
    }
    /* resized: the true extent stays, lb/extent change */
    MPI_OK(MPI_Type_create_resized(MPI_INT, -4, 16, &rs));
    expect(rs, "resized(int, -4, 16)", 4, -4, 16, 0, 4);
    MPI_OK(MPI_Type_contiguous(3, rs, &rs2));
    expect(rs2, "contiguous(3, resized(int, -4, 16))", 12, -4, 48, 0, 36);
    /* subarray 2x3 at (1,1) of a 4x5 int array, C order */
    {
        int sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 1};

        MPI_OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sub));
        expect(sub, "subarray(4x5, 2x3 @ 1,1)", 24, 0, 80, 24, 32);
    }

    MPI_Datatype *all[] = {&c, &v, &hv, &ix, &ib, &st, &rs, &rs2, &sub};
    for (int i = 0; i < (int)(sizeof(all) / sizeof(all[0])); i++) {
        MPI_OK(MPI_Type_free(all[i]));
        CHECK(*all[i] == MPI_DATATYPE_NULL, "Type_free did not reset handle %d", i);
    }
}

static void pack_unpack(void)
{
    MPI_Datatype v, st;
    int a[40], b[40], psize, pos, total = 0;
    struct {
        char c;
        double d;
        int i;
    } s[3] = {{'x', 1.5, 7}, {'y', -2.25, 8}, {'z', 1e10, 9}}, s2[3];
    char *pbuf;

    MPI_OK(MPI_Type_vector(4, 3, 5, MPI_INT, &v));
    MPI_OK(MPI_Type_commit(&v));
    {
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3], base;
        MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, tmp;

        MPI_OK(MPI_Get_address(&s[0], &base));
        MPI_OK(MPI_Get_address(&s[0].c, &d[0]));
        MPI_OK(MPI_Get_address(&s[0].d, &d[1]));
        MPI_OK(MPI_Get_address(&s[0].i, &d[2]));
        for (int k = 0; k < 3; k++)
            d[k] -= base;
        MPI_OK(MPI_Type_create_struct(3, bl, d, ty, &tmp));
        MPI_OK(MPI_Type_create_resized(tmp, 0, sizeof(s[0]), &st));
        MPI_OK(MPI_Type_free(&tmp));
        MPI_OK(MPI_Type_commit(&st));
    }
    for (int k = 0; k < 40; k++)
        a[k] = k * 11;

    MPI_OK(MPI_Pack_size(2, v, MPI_COMM_WORLD, &psize));
    CHECK(psize >= 2 * 12 * 4, "Pack_size(2 vectors) = %d, below the data size", psize);
    total += psize;
    MPI_OK(MPI_Pack_size(3, st, MPI_COMM_WORLD, &psize));
    CHECK(psize >= 3 * 13, "Pack_size(3 structs) = %d, below the data size", psize);
    total += psize;
    pbuf = mt_malloc((size_t)total);

    /* two vectors starting at a[0] with extent 18 ints: elements of 2 vectors */
    pos = 0;
    MPI_OK(MPI_Pack(a, 2, v, pbuf, total, &pos, MPI_COMM_WORLD));
    CHECK(pos >= 96, "position after packing 2 vectors: %d", pos);
    MPI_OK(MPI_Pack(s, 3, st, pbuf, total, &pos, MPI_COMM_WORLD));
    CHECK(pos <= total, "packed %d bytes, more than Pack_size's %d", pos, total);

    memset(b, -1, sizeof(b));
    memset(s2, 0, sizeof(s2));
    {
        int upos = 0;

        MPI_OK(MPI_Unpack(pbuf, total, &upos, b, 2, v, MPI_COMM_WORLD));
        MPI_OK(MPI_Unpack(pbuf, total, &upos, s2, 3, st, MPI_COMM_WORLD));
        CHECK(upos == pos, "unpacked %d bytes, packed %d", upos, pos);
    }
    /* vector i covers ints 18*i + 5*j + {0,1,2}, j < 4; all else stays -1 */
    for (int k = 0; k < 40; k++) {
        int want = (k < 36 && (k % 18) % 5 < 3) ? k * 11 : -1;

        CHECK(b[k] == want, "unpacked int %d is %d, expected %d", k, b[k], want);
    }
    for (int k = 0; k < 3; k++)
        CHECK(s2[k].c == s[k].c && s2[k].d == s[k].d && s2[k].i == s[k].i,
              "unpacked struct %d is {%c, %g, %d}", k, s2[k].c, s2[k].d, s2[k].i);

    /* packed data goes through a message as MPI_PACKED, and is unpacked on arrival */
    {
        char *rbuf = mt_malloc((size_t)pos);
        MPI_Request r;
        int count = -1, upos = 0;
        MPI_Status status;

        MPI_OK(MPI_Irecv(rbuf, pos, MPI_PACKED, 0, 1, MPI_COMM_SELF, &r));
        MPI_OK(MPI_Send(pbuf, pos, MPI_PACKED, 0, 1, MPI_COMM_SELF));
        MPI_OK(MPI_Wait(&r, &status));
        MPI_OK(MPI_Get_count(&status, MPI_PACKED, &count));
        CHECK(count == pos, "MPI_PACKED message: count %d, expected %d", count, pos);
        memset(b, -1, sizeof(b));
        MPI_OK(MPI_Unpack(rbuf, pos, &upos, b, 2, v, MPI_COMM_WORLD));
        CHECK(b[0] == 0 && b[1] == 11 && b[5] == 55 && b[3] == -1 && b[35] == 35 * 11 &&
                  b[36] == -1,
              "unpack after MPI_PACKED message: %d %d %d %d %d %d", b[0], b[1], b[5], b[3],
              b[35], b[36]);
        free(rbuf);
    }
    free(pbuf);
    MPI_OK(MPI_Type_free(&v));
    MPI_OK(MPI_Type_free(&st));
}

/* a message shorter than the receive type: Get_count undefined, Get_elements exact */
static void elements(void)
{
    MPI_Datatype pair;
    int out[7] = {1, 2, 3, 4, 5, 6, 7}, in[8], count;
    MPI_Request r;
    MPI_Status st;

    MPI_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    MPI_OK(MPI_Type_commit(&pair));
    MPI_OK(MPI_Irecv(in, 4, pair, 0, 2, MPI_COMM_SELF, &r));
    MPI_OK(MPI_Send(out, 7, MPI_INT, 0, 2, MPI_COMM_SELF));
    MPI_OK(MPI_Wait(&r, &st));
    MPI_OK(MPI_Get_count(&st, pair, &count));
    CHECK(count == MPI_UNDEFINED, "Get_count of 7 ints in pairs: %d", count);
    MPI_OK(MPI_Get_elements(&st, pair, &count));
    CHECK(count == 7, "Get_elements of 7 ints in pairs: %d", count);
    MPI_OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 7, "Get_count(MPI_INT) of 7 ints: %d", count);
    CHECK(in[6] == 7, "partial receive: last int %d", in[6]);
    MPI_OK(MPI_Type_free(&pair));
}

static void removed(void)
{
    double d[4];
    int bl[2] = {1, 2}, ni = -1, na = -1, nd = -1, comb = -1, rc, cls = -1;
    MPI_Aint a = -1, g = -1, lb = -1, ub = -1, ext = -1, disp[2] = {0, 16};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, hv, hi, st, rs;

    MPI_OK(MPI_Address(&d[2], &a));
    MPI_OK(MPI_Get_address(&d[2], &g));
    CHECK(a == g, "MPI_Address %ld, MPI_Get_address %ld", (long)a, (long)g);
    MPI_OK(MPI_Type_create_resized(MPI_INT, -4, 12, &rs));
    MPI_OK(MPI_Type_lb(rs, &lb));
    MPI_OK(MPI_Type_ub(rs, &ub));
    MPI_OK(MPI_Type_extent(rs, &ext));
    CHECK(lb == -4 && ub == 8 && ext == 12, "Type_lb/ub/extent %ld/%ld/%ld, expected -4/8/12",
          (long)lb, (long)ub, (long)ext);
    MPI_OK(MPI_Type_hvector(3, 2, 20, MPI_INT, &hv));
    expect(hv, "Type_hvector", 24, 0, 48, 0, 48);
    MPI_OK(MPI_Type_get_envelope(hv, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1,
          "Type_hvector's envelope: combiner %d, %d/%d/%d", comb, ni, na, nd);
    MPI_OK(MPI_Type_hindexed(2, bl, disp, MPI_INT, &hi));
    expect(hi, "Type_hindexed", 12, 0, 24, 0, 24);
    MPI_OK(MPI_Type_struct(2, bl, disp, types, &st));
    expect(st, "Type_struct", 20, 0, 32, 0, 32);

    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Type_extent(MPI_DATATYPE_NULL, &ext);
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_TYPE, "Type_extent(MPI_DATATYPE_NULL): class %d", cls);
    rc = MPI_Type_hvector(-1, 1, 8, MPI_INT, &hv);
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_COUNT, "Type_hvector with count -1: class %d", cls);
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
    MPI_OK(MPI_Type_free(&rs));
    MPI_OK(MPI_Type_free(&hv));
    MPI_OK(MPI_Type_free(&hi));
    MPI_OK(MPI_Type_free(&st));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "dtapi");
    constructors();
    pack_unpack();
    elements();
    removed();
    return mt_finish();
}
