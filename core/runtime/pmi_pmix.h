/*
 * pmi_pmix.h -- the PMIx backend of the PMI client (pmi.c dispatches to it).
 *
 * Used when the process was started by a PMIx launcher (Open MPI's mpirun, prrte, Slurm
 * with --mpi=pmix) and compi was built with PMIx.  libpmix is loaded with dlopen by
 * pmi_pmix_init only, so jobs under our own mpirun never load it.
 *
 * Ownership: all state is this file's (one PMIx session per process); values returned by
 * PMIx are copied into the caller's buffers and freed here.  Calls are blocking and
 * return a compi status, like pmi.h's.
 */
#ifndef COMPI_PMI_PMIX_H
#define COMPI_PMI_PMIX_H

#include "core/include/compi_status.h"
#include "core/runtime/pmi.h"
#include <stddef.h>

/* 1 when the environment says a PMIx server started us (PMIX_NAMESPACE and PMIX_RANK,
   or a PMIX_SERVER_URI*); works whether or not compi was built with PMIx */
int pmi_pmix_detected(void);

#ifdef COMPI_HAVE_PMIX
compi_status_t pmi_pmix_init(pmi_info_t *info);
compi_status_t pmi_pmix_put(const char *key, const char *value);
compi_status_t pmi_pmix_commit(void);
compi_status_t pmi_pmix_barrier(void);
compi_status_t pmi_pmix_get(int rank, const char *key, char *value, size_t len);
compi_status_t pmi_pmix_finalize(void);
compi_status_t pmi_pmix_abort(int code, const char *msg);
#endif

#endif
