/*
 * dt_test.h -- what the unit tests of the datatype engine and of the file views built on
 * it (test_dt.c, test_io_view.c) share: a handle as a checked internal type (T) and the
 * fixture that starts and stops the engine.
 */
#ifndef COMPI_TEST_DT_TEST_H
#define COMPI_TEST_DT_TEST_H

#include "core/dt/dt.h"

#include <check.h>
#include <mpi.h>

static compi_datatype_t *T(MPI_Datatype h)
{
    compi_datatype_t *dt = dt_from_handle(h);
    ck_assert_ptr_nonnull(dt);
    return dt;
}

static void setup(void)
{
    ck_assert_int_eq(dt_init(), COMPI_OK);
}

static void teardown(void)
{
    dt_finalize();
}

#endif
