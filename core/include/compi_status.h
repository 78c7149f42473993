/*
 * compi_status.h -- the one internal status type (UCX style).
 *
 * 0 is success, 1 means "in progress", negative values are errors grouped by cause.
 * MPI error classes exist only at the API layer (core/mpi/): internal code returns a
 * compi_status_t and the API layer maps it with mpi_err_class_of() (core/mpi/errors.h).
 *
 * An enum, so that debuggers print the names and a switch without a default says which
 * values it misses.  Calls that return a count or a negative status (a BTL's progress()
 * and wait()) return int: the value is a count when >= 0, a compi_status_t otherwise.
 */
#ifndef COMPI_STATUS_H
#define COMPI_STATUS_H

typedef enum compi_status {
    COMPI_OK = 0,
    COMPI_INPROGRESS = 1,

    /* resources */
    COMPI_ERR_NO_MEMORY = -1,
    COMPI_ERR_NO_RESOURCE = -2, /* e.g. transport queue full: retry later */
    COMPI_ERR_AGAIN = -3,

    /* arguments (mapped to the matching MPI error class) */
    COMPI_ERR_INVALID_PARAM = -10,
    COMPI_ERR_TRUNCATE = -11,
    COMPI_ERR_NOT_FOUND = -12,
    COMPI_ERR_UNSUPPORTED = -13,
    COMPI_ERR_ROOT = -14, /* a collective's root: out of range, or not the same on every rank */

    /* system and transport */
    COMPI_ERR_IO = -20,
    COMPI_ERR_UNREACHABLE = -21,
    COMPI_ERR_PMI = -22,

    /* configuration (Scheme, parameters) */
    COMPI_ERR_CONFIG = -30,

    COMPI_ERR_INTERNAL = -99
} compi_status_t;

const char *compi_status_string(compi_status_t st);

#endif
