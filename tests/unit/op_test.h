/*
 * op_test.h -- what the op engine's unit tests (test_op.c, test_op_loops.c) share: the
 * handles as checked internal objects (T, O), the fixture's setup (their teardowns
 * differ), and each predefined integer type with its size and signedness.
 */
#ifndef COMPI_TEST_OP_TEST_H
#define COMPI_TEST_OP_TEST_H

#include "core/dt/dt.h"
#include "core/op/op.h"

#include <check.h>
#include <limits.h>
#include <mpi.h>
#include <stddef.h>

static compi_datatype_t *T(MPI_Datatype h)
{
    compi_datatype_t *dt = dt_from_handle(h);
    ck_assert_ptr_nonnull(dt);
    return dt;
}

static compi_op_t *O(MPI_Op h)
{
    compi_op_t *op = op_from_handle(h);
    ck_assert_ptr_nonnull(op);
    return op;
}

static void setup(void)
{
    ck_assert_int_eq(dt_init(), COMPI_OK);
    ck_assert_int_eq(op_init(), COMPI_OK);
}


typedef struct int_type {
    MPI_Datatype h;
    size_t size;
    int is_signed;
} int_type_t;

static const int_type_t int_types[] = {
    {MPI_CHAR, 1, CHAR_MIN < 0},
    {MPI_SIGNED_CHAR, 1, 1},
    {MPI_UNSIGNED_CHAR, 1, 0},
    {MPI_SHORT, sizeof(short), 1},
    {MPI_UNSIGNED_SHORT, sizeof(short), 0},
    {MPI_INT, sizeof(int), 1},
    {MPI_UNSIGNED, sizeof(int), 0},
    {MPI_LONG, sizeof(long), 1},
    {MPI_UNSIGNED_LONG, sizeof(long), 0},
    {MPI_LONG_LONG, sizeof(long long), 1},
    {MPI_UNSIGNED_LONG_LONG, sizeof(long long), 0},
    {MPI_INT8_T, 1, 1},
    {MPI_INT16_T, 2, 1},
    {MPI_INT32_T, 4, 1},
    {MPI_INT64_T, 8, 1},
    {MPI_UINT8_T, 1, 0},
    {MPI_UINT16_T, 2, 0},
    {MPI_UINT32_T, 4, 0},
    {MPI_UINT64_T, 8, 0},
    {MPI_AINT, sizeof(MPI_Aint), 1},
    {MPI_OFFSET, sizeof(MPI_Offset), 1},
    {MPI_COUNT, sizeof(MPI_Count), 1},
};

#endif
