/*
 * pmi.h -- client of the PMI-1 wire protocol ("simple PMI" of MPICH).
 *
 * The launcher (our mpirun, MPICH's Hydra, ...) passes PMI_FD, PMI_RANK and PMI_SIZE in
 * the environment (or PMI_PORT host:port to connect to).  Without them, pmi_init reports
 * a singleton.  Every call is blocking and returns a compi status.
 */
#ifndef COMPI_PMI_H
#define COMPI_PMI_H

#include "core/include/compi_status.h"
#include <stddef.h>

typedef struct pmi_info {
    int rank, size, appnum, universe_size;
    int singleton;
    char kvsname[256];
} pmi_info_t;

compi_status_t pmi_init(pmi_info_t *info);
compi_status_t pmi_put(const char *key, const char *value);
compi_status_t pmi_commit(void);
compi_status_t pmi_barrier(void);
compi_status_t pmi_get(int rank_hint, const char *key, char *value, size_t len);
compi_status_t pmi_finalize(void);
compi_status_t pmi_abort(int code, const char *msg);

#endif
