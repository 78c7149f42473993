/*
 * dt_fortran: the Fortran datatypes used from C (MPI_INTEGER, MPI_COMPLEX, MPI_2REAL ...)
 * and the complex types: sizes, extents and names as gfortran lays them out; a send of
 * each between ranks; reductions where MPI defines them (SUM/PROD on complex, the
 * arithmetic ops on the Fortran integers and reals, LAND on LOGICAL, MAXLOC/MINLOC on
 * the Fortran pairs) against values computed here; MPI_ERR_OP where it does not
 * (SUM on CHARACTER, LAND on REAL); Type_match_size, the _x queries, and the handle and
 * status conversions; the MPI_Type_create_f90_* types.
 */
#include "tests/mpi/mpitest.h"

#include <complex.h>
#include <stdbool.h>

static const struct {
    MPI_Datatype t;
    const char *name;
    int size;
} fortran_types[] = {
    {MPI_INTEGER, "MPI_INTEGER", 4},
    {MPI_REAL, "MPI_REAL", 4},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8},
    {MPI_COMPLEX, "MPI_COMPLEX", 8},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16},
    {MPI_LOGICAL, "MPI_LOGICAL", 4},
    {MPI_CHARACTER, "MPI_CHARACTER", 1},
    {MPI_2INTEGER, "MPI_2INTEGER", 8},
    {MPI_2REAL, "MPI_2REAL", 8},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16},
    {MPI_INTEGER1, "MPI_INTEGER1", 1},
    {MPI_INTEGER2, "MPI_INTEGER2", 2},
    {MPI_INTEGER4, "MPI_INTEGER4", 4},
    {MPI_INTEGER8, "MPI_INTEGER8", 8},
    {MPI_INTEGER16, "MPI_INTEGER16", 16},
    {MPI_REAL4, "MPI_REAL4", 4},
    {MPI_REAL8, "MPI_REAL8", 8},
    {MPI_COMPLEX8, "MPI_COMPLEX8", 8},
    {MPI_COMPLEX16, "MPI_COMPLEX16", 16},
    /* one handle under two names (as in MPICH), named as MPICH names it */
    {MPI_C_COMPLEX, "MPI_C_COMPLEX", 8},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX", 8},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", (int)sizeof(long double _Complex)},
    {MPI_C_BOOL, "MPI_C_BOOL", (int)sizeof(bool)},
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", (int)sizeof(bool)},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16},
};

static void sizes_and_names(void)
{
    for (size_t i = 0; i < sizeof(fortran_types) / sizeof(fortran_types[0]); i++) {
        MPI_Datatype t = fortran_types[i].t;
        char name[MPI_MAX_OBJECT_NAME];
        int size = -1, len = -1, ni, na, nd, comb;
        MPI_Aint lb = -1, ext = -1;
        MPI_Count sx = -1, lbx = -1, extx = -1, tlbx = -1, textx = -1;

        MPI_OK(MPI_Type_size(t, &size));
        MPI_OK(MPI_Type_get_extent(t, &lb, &ext));
        MPI_OK(MPI_Type_size_x(t, &sx));
        MPI_OK(MPI_Type_get_extent_x(t, &lbx, &extx));
        MPI_OK(MPI_Type_get_true_extent_x(t, &tlbx, &textx));
        MPI_OK(MPI_Type_get_name(t, name, &len));
        MPI_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
        CHECK(size == fortran_types[i].size && ext == size && lb == 0, "%s: size %d extent %ld",
              fortran_types[i].name, size, (long)ext);
        CHECK(sx == size && lbx == 0 && extx == size && tlbx == 0 && textx == size,
              "%s: _x queries disagree", fortran_types[i].name);
        CHECK(strcmp(name, fortran_types[i].name) == 0 && len == (int)strlen(name),
              "name %s, expected %s", name, fortran_types[i].name);
        CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0,
              "%s: envelope %d %d %d %d", fortran_types[i].name, comb, ni, na, nd);
    }
    /* a name set on a duplicate stays there */
    {
        MPI_Datatype d;
        char name[MPI_MAX_OBJECT_NAME];
        int len;

        MPI_OK(MPI_Type_dup(MPI_DOUBLE_COMPLEX, &d));
        MPI_OK(MPI_Type_set_name(d, "zvec"));
        MPI_OK(MPI_Type_get_name(d, name, &len));
        CHECK(strcmp(name, "zvec") == 0 && len == 4, "dup name %s", name);
        MPI_OK(MPI_Type_free(&d));
    }
}

static void match_size(void)
{
    static const struct {
        int tclass, size;
        MPI_Datatype expect;
    } cases[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},   {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},         {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16},
    };
    MPI_Datatype t;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int size = -1;
        MPI_OK(MPI_Type_match_size(cases[i].tclass, cases[i].size, &t));
        MPI_OK(MPI_Type_size(t, &size));
        CHECK(t == cases[i].expect && size == cases[i].size, "match_size(%d, %d)",
              cases[i].tclass, cases[i].size);
    }
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t) == MPI_ERR_ARG,
          "match_size(INTEGER, 3) is not MPI_ERR_ARG");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* rank r sends 3 DOUBLE_COMPLEX and 2 MPI_2REAL to r+1 */
static void send_recv(void)
{
    int to = (mt_rank + 1) % mt_size, from = (mt_rank + mt_size - 1) % mt_size;
    double _Complex z[3], zr[3];
    float p[4], pr[4];

    for (int i = 0; i < 3; i++) {
        z[i] = (mt_rank + i) + (mt_rank - 2.0 * i) * I;
    }
    for (int i = 0; i < 4; i++) {
        p[i] = (float)(mt_rank * 10 + i);
    }
    MPI_OK(MPI_Sendrecv(z, 3, MPI_DOUBLE_COMPLEX, to, 1, zr, 3, MPI_DOUBLE_COMPLEX, from, 1,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Sendrecv(p, 2, MPI_2REAL, to, 2, pr, 2, MPI_2REAL, from, 2, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    for (int i = 0; i < 3; i++) {
        CHECK(zr[i] == (from + i) + (from - 2.0 * i) * I, "complex %d from %d", i, from);
    }
    for (int i = 0; i < 4; i++) {
        CHECK(pr[i] == (float)(from * 10 + i), "2REAL item %d from %d", i, from);
    }
}

static void reductions(void)
{
    int n = mt_size;

    /* complex SUM and PROD: each rank contributes (r+1) + i, small enough to be exact */
    {
        float _Complex c[2] = {(mt_rank + 1) + 1.0f * I, 2.0f}, cr[2];
        double _Complex z[2] = {(mt_rank + 1) + 1.0 * I, 1.0 * I}, zr[2], zs = 0, zp = 1;
        double _Complex ipow = 1;

        MPI_OK(MPI_Allreduce(c, cr, 2, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
        CHECK(crealf(cr[0]) == n * (n + 1) / 2.0f && cimagf(cr[0]) == (float)n &&
                  cr[1] == 2.0f * n,
              "MPI_COMPLEX SUM (%g, %g)", crealf(cr[0]), cimagf(cr[0]));
        for (int r = 0; r < n; r++) {
            zs += (r + 1) + 1.0 * I;
            zp *= (r + 1) + 1.0 * I;
            ipow *= I;
        }
        MPI_OK(MPI_Allreduce(z, zr, 2, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
        CHECK(zr[0] == zp && zr[1] == ipow, "MPI_DOUBLE_COMPLEX PROD (%g, %g), expected (%g, %g)",
              creal(zr[0]), cimag(zr[0]), creal(zp), cimag(zp));
        MPI_OK(MPI_Allreduce(z, zr, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
        CHECK(zr[0] == zs, "MPI_C_DOUBLE_COMPLEX SUM");
        MPI_OK(MPI_Reduce(z, zr, 1, MPI_COMPLEX16, MPI_SUM, 0, MPI_COMM_WORLD));
        CHECK(mt_rank != 0 || zr[0] == zs, "MPI_COMPLEX16 Reduce SUM");
    }
    /* Fortran integers and reals through the C loops */
    {
        int32_t iv = mt_rank + 1, ir = 0;
        int64_t lv = (int64_t)1 << (32 + mt_rank % 8), lr = 0, lexp = 0;
        float rv = 0.5f * (float)mt_rank, rr = 0;
        double dv = mt_rank + 0.25, dr = 0;

        for (int r = 0; r < n; r++) {
            lexp += (int64_t)1 << (32 + r % 8);
        }
        MPI_OK(MPI_Allreduce(&iv, &ir, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD));
        CHECK(ir == n * (n + 1) / 2, "MPI_INTEGER SUM %d", ir);
        MPI_OK(MPI_Allreduce(&iv, &ir, 1, MPI_INTEGER4, MPI_MAX, MPI_COMM_WORLD));
        CHECK(ir == n, "MPI_INTEGER4 MAX %d", ir);
        MPI_OK(MPI_Allreduce(&lv, &lr, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD));
        CHECK(lr == lexp, "MPI_INTEGER8 SUM");
        MPI_OK(MPI_Allreduce(&rv, &rr, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD));
        CHECK(rr == 0.5f * (float)(n - 1), "MPI_REAL MAX %g", rr);
        MPI_OK(MPI_Allreduce(&dv, &dr, 1, MPI_DOUBLE_PRECISION, MPI_MIN, MPI_COMM_WORLD));
        CHECK(dr == 0.25, "MPI_DOUBLE_PRECISION MIN %g", dr);
        MPI_OK(MPI_Allreduce(&dv, &dr, 1, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD));
        CHECK(dr == n * (n - 1) / 2.0 + 0.25 * n, "MPI_REAL8 SUM %g", dr);
    }
    /* LOGICAL: .true. is 1 in gfortran; LAND true only when all are */
    {
        int32_t l[2] = {1, mt_rank == 0}, lr[2];

        MPI_OK(MPI_Allreduce(l, lr, 2, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
        CHECK(lr[0] == 1 && lr[1] == (n == 1), "MPI_LOGICAL LAND %d %d", lr[0], lr[1]);
        MPI_OK(MPI_Allreduce(l, lr, 2, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD));
        CHECK(lr[0] == 1 && lr[1] == 1, "MPI_LOGICAL LOR %d %d", lr[0], lr[1]);
    }
    /* Fortran pairs: value and index of one type; ties go to the smaller index */
    {
        int32_t ip[4] = {mt_rank % 2, mt_rank, -mt_rank, mt_rank}, ipr[4];
        float fp[2] = {(float)(mt_rank % 3), (float)mt_rank}, fpr[2];
        double dp[2] = {-(double)mt_rank, (double)mt_rank}, dpr[2];
        int maxr = n > 1 ? 1 : 0, maxv3 = n >= 3 ? 2 : n - 1;

        MPI_OK(MPI_Allreduce(ip, ipr, 2, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD));
        CHECK(ipr[0] == maxr && ipr[1] == maxr && ipr[2] == 0 && ipr[3] == 0,
              "MPI_2INTEGER MAXLOC %d@%d %d@%d", ipr[0], ipr[1], ipr[2], ipr[3]);
        MPI_OK(MPI_Allreduce(fp, fpr, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD));
        CHECK(fpr[0] == (float)maxv3 && fpr[1] == (float)maxv3, "MPI_2REAL MAXLOC %g@%g", fpr[0],
              fpr[1]);
        MPI_OK(MPI_Allreduce(fp, fpr, 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD));
        CHECK(fpr[0] == 0.0f && fpr[1] == 0.0f, "MPI_2REAL MINLOC %g@%g", fpr[0], fpr[1]);
        MPI_OK(MPI_Allreduce(dp, dpr, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD));
        CHECK(dpr[0] == -(double)(n - 1) && dpr[1] == (double)(n - 1),
              "MPI_2DOUBLE_PRECISION MINLOC %g@%g", dpr[0], dpr[1]);
    }
    /* ops MPI does not define on a type */
    {
        char c = 'a', cr;
        float f = 1, fr;
        float _Complex z = 1, zr;

        MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        CHECK(MPI_Allreduce(&c, &cr, 1, MPI_CHARACTER, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_OP,
              "SUM on MPI_CHARACTER is not MPI_ERR_OP");
        CHECK(MPI_Allreduce(&f, &fr, 1, MPI_REAL, MPI_LAND, MPI_COMM_WORLD) == MPI_ERR_OP,
              "LAND on MPI_REAL is not MPI_ERR_OP");
        CHECK(MPI_Allreduce(&z, &zr, 1, MPI_COMPLEX, MPI_MAX, MPI_COMM_WORLD) == MPI_ERR_OP,
              "MAX on MPI_COMPLEX is not MPI_ERR_OP");
        CHECK(MPI_Allreduce(&f, &fr, 1, MPI_2REAL, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_OP,
              "SUM on MPI_2REAL is not MPI_ERR_OP");
        MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    }
}

static void elements_x(void)
{
    MPI_Status st;
    MPI_Count n = -1;
    int count = -1;

    /* 5 basic elements of MPI_2REAL: two whole pairs and half of one */
    MPI_OK(MPI_Status_set_elements_x(&st, MPI_2REAL, 5));
    MPI_OK(MPI_Get_elements_x(&st, MPI_2REAL, &n));
    MPI_OK(MPI_Get_count(&st, MPI_2REAL, &count));
    CHECK(n == 5 && count == MPI_UNDEFINED, "set_elements_x(5): elements %lld count %d", n, count);
    MPI_OK(MPI_Status_set_elements_x(&st, MPI_DOUBLE_COMPLEX, (MPI_Count)3 << 31));
    MPI_OK(MPI_Get_elements_x(&st, MPI_DOUBLE_COMPLEX, &n));
    MPI_OK(MPI_Get_count(&st, MPI_DOUBLE_COMPLEX, &count));
    CHECK(n == (MPI_Count)3 << 31 && count == MPI_UNDEFINED, "set_elements_x(3<<31): %lld", n);
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Status_set_elements_x(&st, MPI_INTEGER, -1) == MPI_ERR_COUNT,
          "negative count is not MPI_ERR_COUNT");
    CHECK(MPI_Status_set_elements_x(&st, MPI_DATATYPE_NULL, 1) == MPI_ERR_TYPE,
          "MPI_DATATYPE_NULL is not MPI_ERR_TYPE");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void conversions(void)
{
    MPI_Info info;
    MPI_Status st, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];

    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE_COMPLEX)) == MPI_DOUBLE_COMPLEX, "Type");
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD, "Comm");
    CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY, "Group");
    CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_MAXLOC)) == MPI_MAXLOC, "Op");
    CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL, "Request");
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN,
          "Errhandler");
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC, "Message");
    CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL, "Win");
    CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL, "File");
    MPI_OK(MPI_Info_create(&info));
    CHECK(MPI_Info_f2c(MPI_Info_c2f(info)) == info, "Info");
    MPI_OK(MPI_Info_free(&info));

    memset(&st, 0, sizeof(st));
    st.MPI_SOURCE = 3;
    st.MPI_TAG = 77;
    st.MPI_ERROR = MPI_ERR_TRUNCATE;
    MPI_OK(MPI_Status_set_elements(&st, MPI_INTEGER, 9));
    MPI_OK(MPI_Status_c2f(&st, f));
    CHECK(f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 77 && f[MPI_F_ERROR] == MPI_ERR_TRUNCATE,
          "Fortran status %d %d %d", f[MPI_F_SOURCE], f[MPI_F_TAG], f[MPI_F_ERROR]);
    MPI_OK(MPI_Status_f2c(f, &back));
    {
        int count = -1;
        MPI_OK(MPI_Get_count(&back, MPI_INTEGER, &count));
        CHECK(back.MPI_SOURCE == 3 && back.MPI_TAG == 77 && count == 9, "status round trip");
    }
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Status_c2f(MPI_STATUS_IGNORE, f) == MPI_ERR_ARG, "Status_c2f(IGNORE)");
    CHECK(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back) == MPI_ERR_ARG, "Status_f2c(IGNORE)");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* MPI_Type_create_f90_*: gfortran's kinds, one handle per (p, r), usable and unfreeable */
static void f90(void)
{
    MPI_Datatype ti, ti2, tr, tz, bad;
    int size, ni, na, nd, comb, ints[2];
    MPI_Aint a[1];
    MPI_Datatype d[1];

    MPI_OK(MPI_Type_create_f90_integer(9, &ti));
    MPI_OK(MPI_Type_create_f90_integer(9, &ti2));
    MPI_OK(MPI_Type_size(ti, &size));
    CHECK(size == 4 && ti == ti2, "f90_integer(9): size %d, handles %d %d", size, ti, ti2);
    MPI_OK(MPI_Type_get_envelope(ti, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nd == 0,
          "f90_integer envelope");
    MPI_OK(MPI_Type_get_contents(ti, 2, 1, 1, ints, a, d));
    CHECK(ints[0] == 9, "f90_integer contents %d", ints[0]);
    MPI_OK(MPI_Type_create_f90_integer(10, &ti2));
    MPI_OK(MPI_Type_size(ti2, &size));
    CHECK(size == 8 && ti2 != ti, "f90_integer(10): size %d", size);

    MPI_OK(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &tr));
    MPI_OK(MPI_Type_size(tr, &size));
    MPI_OK(MPI_Type_get_envelope(tr, &ni, &na, &nd, &comb));
    MPI_OK(MPI_Type_get_contents(tr, 2, 1, 1, ints, a, d));
    CHECK(size == 8 && comb == MPI_COMBINER_F90_REAL && ni == 2 && ints[0] == 15 &&
              ints[1] == MPI_UNDEFINED,
          "f90_real(15, undefined): size %d", size);
    MPI_OK(MPI_Type_create_f90_complex(MPI_UNDEFINED, 30, &tz));
    MPI_OK(MPI_Type_size(tz, &size));
    CHECK(size == 8, "f90_complex(undefined, 30): size %d", size);

    /* they reduce as their kinds do */
    {
        int32_t v = 2, s = 0;
        float _Complex z = 1.0f + 1.0f * I, zs = 0;
        MPI_OK(MPI_Allreduce(&v, &s, 1, ti, MPI_SUM, MPI_COMM_WORLD));
        MPI_OK(MPI_Allreduce(&z, &zs, 1, tz, MPI_SUM, MPI_COMM_WORLD));
        CHECK(s == 2 * mt_size && zs == mt_size * (1.0f + 1.0f * I), "f90 types reduce");
    }

    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Type_free(&ti) == MPI_ERR_TYPE, "an f90 type can be freed");
    CHECK(MPI_Type_create_f90_real(40, 5000, &bad) == MPI_ERR_ARG, "f90_real(40, 5000)");
    CHECK(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &bad) == MPI_ERR_ARG,
          "f90_real(undefined, undefined)");
    CHECK(MPI_Type_create_f90_integer(39, &bad) == MPI_ERR_ARG, "f90_integer(39)");
    {
        /* 19 to 38 digits: INTEGER(16) */
        MPI_Datatype t16;
        int size = -1;
        MPI_OK(MPI_Type_create_f90_integer(19, &t16));
        MPI_OK(MPI_Type_size(t16, &size));
        CHECK(size == 16, "f90_integer(19): size %d", size);
    }
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "dt_fortran");
    sizes_and_names();
    match_size();
    send_recv();
    reductions();
    elements_x();
    conversions();
    f90();
    return mt_finish();
}
