/*
 * f2c_check.c -- linked into the Fortran tests: C's view of a Fortran handle.
 * CALL F2C_CHECK(COMM, NBAD) counts in NBAD what disagrees: MPI_Comm_f2c of COMM must be
 * a communicator of the same size as Fortran's, and MPI_Comm_c2f must give COMM back.
 */
#include <mpi.h>
#include <stdio.h>

void f2c_check_(MPI_Fint *fcomm, MPI_Fint *fsize, MPI_Fint *nbad);

void f2c_check_(MPI_Fint *fcomm, MPI_Fint *fsize, MPI_Fint *nbad)
{
    MPI_Comm c = MPI_Comm_f2c(*fcomm);
    int size = -1;
    if (MPI_Comm_size(c, &size) != MPI_SUCCESS || size != *fsize) {
        fprintf(stderr, "FAILED: MPI_Comm_f2c(%d): size %d, Fortran says %d\n", (int)*fcomm, size,
                (int)*fsize);
        (*nbad)++;
    }
    if (MPI_Comm_c2f(c) != *fcomm) {
        fprintf(stderr, "FAILED: MPI_Comm_c2f(MPI_Comm_f2c(%d)) is %d\n", (int)*fcomm,
                (int)MPI_Comm_c2f(c));
        (*nbad)++;
    }
}

/*
 * Attributes across languages (MPI 4.1, 19.3.7), C's side.  Each adds to *nbad what
 * disagrees with the standard's examples.
 *
 * CALL C_READ_AINT(COMM, KEY, EXPECTED, NBAD): a value Fortran set with MPI_COMM_SET_ATTR
 *   reads in C as a pointer to an MPI_Aint holding it.
 * CALL C_READ_FINT(COMM, KEY, EXPECTED, NBAD): one set with MPI_ATTR_PUT, as a pointer to
 *   an MPI_Fint.
 * CALL C_READ_TYPE_AINT(TYPE, KEY, EXPECTED, NBAD), C_READ_WIN_AINT(WIN, ...): the same
 *   for datatypes and windows.
 * CALL C_SET_PTR(COMM, KEY, NBAD): C sets the address of a static int; Fortran must read
 *   that address (C_PTR_VALUE gives it).
 * CALL C_DUP_KEY(KEY): a keyval made in C, copied by C's MPI_COMM_DUP_FN.
 * CALL C_DUP_KEEPS(COMM, KEY, EXPECTED, NBAD): COMM holds on KEY (from C_DUP_KEY) a value
 *   Fortran set; a dup of a dup, the first one freed, still reads it in C: the copy is
 *   the integer, not a pointer into the original's storage.
 */
void c_read_aint_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad);
void c_read_fint_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Fint *expected, MPI_Fint *nbad);
void c_read_type_aint_(MPI_Fint *ftype, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad);
void c_read_win_aint_(MPI_Fint *fwin, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad);
void c_set_ptr_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Fint *nbad);
void c_ptr_value_(MPI_Aint *val);
void c_dup_key_(MPI_Fint *key);
void c_dup_keeps_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad);

void c_read_aint_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad)
{
    MPI_Aint *v = NULL;
    int flag = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*fcomm), *key, &v, &flag) != MPI_SUCCESS || !flag ||
        v == NULL || *v != *expected) {
        fprintf(stderr, "FAILED: C reads a Fortran MPI_COMM_SET_ATTR value %ld as %s%ld\n",
                (long)*expected, flag && v != NULL ? "" : "(nothing) ",
                flag && v != NULL ? (long)*v : 0L);
        (*nbad)++;
    }
}

void c_read_fint_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Fint *expected, MPI_Fint *nbad)
{
    MPI_Fint *v = NULL;
    int flag = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*fcomm), *key, &v, &flag) != MPI_SUCCESS || !flag ||
        v == NULL || *v != *expected) {
        fprintf(stderr, "FAILED: C reads a Fortran MPI_ATTR_PUT value %d as %s%d\n", (int)*expected,
                flag && v != NULL ? "" : "(nothing) ", flag && v != NULL ? (int)*v : 0);
        (*nbad)++;
    }
}

void c_read_type_aint_(MPI_Fint *ftype, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad)
{
    MPI_Aint *v = NULL;
    int flag = 0;
    if (MPI_Type_get_attr(MPI_Type_f2c(*ftype), *key, &v, &flag) != MPI_SUCCESS || !flag ||
        v == NULL || *v != *expected) {
        fprintf(stderr, "FAILED: C reads a Fortran MPI_TYPE_SET_ATTR value %ld wrong\n",
                (long)*expected);
        (*nbad)++;
    }
}

void c_read_win_aint_(MPI_Fint *fwin, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad)
{
    MPI_Aint *v = NULL;
    int flag = 0;
    if (MPI_Win_get_attr(MPI_Win_f2c(*fwin), *key, &v, &flag) != MPI_SUCCESS || !flag ||
        v == NULL || *v != *expected) {
        fprintf(stderr, "FAILED: C reads a Fortran MPI_WIN_SET_ATTR value %ld wrong\n",
                (long)*expected);
        (*nbad)++;
    }
}

static int c_target = 42;

void c_set_ptr_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Fint *nbad)
{
    int *v = NULL, flag = 0;
    MPI_Comm c = MPI_Comm_f2c(*fcomm);
    if (MPI_Comm_set_attr(c, *key, &c_target) != MPI_SUCCESS ||
        MPI_Comm_get_attr(c, *key, &v, &flag) != MPI_SUCCESS || !flag || v != &c_target) {
        fprintf(stderr, "FAILED: C sets a pointer and reads it back\n");
        (*nbad)++;
    }
}

void c_ptr_value_(MPI_Aint *val)
{
    *val = (MPI_Aint)&c_target;
}

void c_dup_key_(MPI_Fint *key)
{
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    *key = k;
}

void c_dup_keeps_(MPI_Fint *fcomm, MPI_Fint *key, MPI_Aint *expected, MPI_Fint *nbad)
{
    MPI_Comm dup, dup2;
    MPI_Aint *v = NULL;
    int flag = 0;
    MPI_Comm_dup(MPI_Comm_f2c(*fcomm), &dup);
    MPI_Comm_dup(dup, &dup2);
    MPI_Comm_free(&dup);
    /* the value of the first dup is gone; the second's is its own */
    if (MPI_Comm_get_attr(dup2, *key, &v, &flag) != MPI_SUCCESS || !flag || v == NULL ||
        *v != *expected) {
        fprintf(stderr, "FAILED: MPI_COMM_DUP_FN of a C key with a Fortran value: %s%ld\n",
                flag && v != NULL ? "" : "(nothing) ", flag && v != NULL ? (long)*v : 0L);
        (*nbad)++;
    }
    MPI_Comm_free(&dup2);
}
