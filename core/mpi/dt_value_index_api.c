/*
 * dt_value_index_api.c -- MPI_Type_get_value_index (MPI 4.1): the predefined type of a
 * (value, index) pair, as MPI_MINLOC and MPI_MAXLOC take them.
 *
 * The pairs are those the standard predefines: C's (MPI_FLOAT_INT ... MPI_2INT) and
 * Fortran's (MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER).  Any other combination of
 * valid types gives MPI_DATATYPE_NULL: compi makes no new pair types.
 */
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

static const struct {
    MPI_Datatype value, index, pair;
} value_index_pairs[] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
    {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},
    {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
    {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_REAL, MPI_REAL, MPI_2REAL},
    {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
};

static int type_get_value_index_impl(compi_datatype_t *value_type, compi_datatype_t *index_type,
                                     MPI_Datatype *pair_type, const char *fn)
{
    (void)fn;
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof(value_index_pairs) / sizeof(value_index_pairs[0]); i++) {
        if (dt_from_handle(value_index_pairs[i].value) == value_type &&
            dt_from_handle(value_index_pairs[i].index) == index_type) {
            *pair_type = value_index_pairs[i].pair;
        }
    }
    return MPI_SUCCESS;
}

#include "core/mpi/gen/dt_value_index.c"
