/*
 * info.h -- what other API files need of info objects (info_api.c) and of a
 * communicator's hints (comm_info_api.c).
 *
 * Ownership: mpi_info_dup makes a new info object the caller owns and gives back with
 * mpi_info_release.  A communicator's hints are an info object held by the communicator
 * (as a hidden attribute: copied by MPI_Comm_dup, freed with the communicator).
 */
#ifndef COMPI_MPI_INFO_H
#define COMPI_MPI_INFO_H

#include "core/comm/comm.h"

#include <mpi.h>

/* is h an info object (MPI_INFO_NULL is not) */
int mpi_info_valid(MPI_Info h);
/* a copy of `in` (MPI_INFO_NULL: an empty one); MPI_SUCCESS or MPI_ERR_NO_MEM, no raise */
int mpi_info_dup(MPI_Info in, MPI_Info *out_p);
void mpi_info_release(MPI_Info h);
/* the keys of src set in dst (values replaced); MPI_SUCCESS, MPI_ERR_INFO or _NO_MEM */
int mpi_info_merge(MPI_Info dst, MPI_Info src);

/* hints of `comm` become a copy of `info` (replace) or get info's keys added (merge) */
int mpi_comm_hints_set(compi_comm_t *comm, MPI_Info info, int replace);

#endif
