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
/*
 * An abort whose message is the one line for people that says why (an MPI error's): 1
 * when the launcher prints that line as it is, compi's own mpirun (which says so by
 * COMPI_JOBID in the environment of the processes it starts over PMI_FD), so the rank
 * need not; pmi_abort_line then tells it so.
 */
int pmi_abort_prints_line(void);
compi_status_t pmi_abort_line(int code, const char *line);

/*
 * Dynamic processes, served by compi's own mpirun only (which says so by COMPI_UNIVERSE in
 * the environment of the processes it starts over PMI_FD): 1 when this process may spawn.
 */
int pmi_can_spawn(void);

typedef struct pmi_spawn_cmd {
    char *const *argv; /* argv[0] the program; NULL-terminated */
    int maxprocs;
    int appnum;
    const char *wdir; /* NULL: mpirun's directory */
} pmi_spawn_cmd_t;

/*
 * Asks mpirun to start the commands' processes as one new world, whose processes find
 * `parent_key` in COMPI_PARENT; *base_p gets the global id of its rank 0 and *size_p its
 * size.  COMPI_ERR_NOT_FOUND with mpirun's reason in `why` when it refused (nothing was
 * started); COMPI_ERR_UNSUPPORTED when the launcher cannot spawn; another error when a
 * command does not fit the wire (too many or too long arguments).
 */
/* compi's mpirun: *old_p = the number under `key` (0 when new), which becomes old + 1 */
compi_status_t pmi_fetch_add(const char *key, int *old_p);

compi_status_t pmi_spawn(int ncmds, const pmi_spawn_cmd_t *cmds, const char *parent_key,
                         int *base_p, int *size_p, char *why, size_t whylen);

#endif
