/*
 * bridge_reconfig.h -- putting the creator table back as MPI_Init left it before the
 * config files, so that another list of files can be loaded in the middle of a run
 * (MPIX_Coll_reconfigure, the MPI_T control variable coll_config).
 *
 * Ownership: as bridge.h: the creator table belongs to the bridge; buffers to the caller.
 */
#ifndef COMPI_BRIDGE_RECONFIG_H
#define COMPI_BRIDGE_RECONFIG_H

#include "core/include/compi_status.h"

#include <stddef.h>

/*
 * Empties the creator table of (compi) and installs the default creators of
 * (compi defaults) again: the table as it is before MPI_Init loads the config files.
 * The (at-finalize THUNK) hooks that configs registered stay (they report on closures
 * that ran).  Errors: COMPI_ERR_CONFIG (or COMPI_ERR_INTERNAL before bridge_init) and
 * one line in errbuf.
 */
compi_status_t bridge_reset_creators(char *errbuf, size_t len);

#endif
