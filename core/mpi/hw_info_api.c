/*
 * hw_info_api.c -- MPI_Get_hw_resource_info (MPI 4.1): a new info object with what this
 * process knows of its hardware place, the hwloc facts every rank publishes at init
 * (topologies/facts.h).
 *
 *   mpi_hw_resource_type   the hwloc levels named below, comma-separated, outermost
 *                          first ("hwloc://Package,hwloc://NUMANode,hwloc://L3Cache,
 *                          hwloc://Core"); "" when the place is unknown
 *   hwloc://Package ...    this process's object at that level: its hwloc logical index
 *   compi_host             the host name the process reports (rte_hostname may set it)
 *   compi_bound            "true" when bound to its core (or a set around it), else "false"
 *
 * Ownership: the info object is the caller's (MPI_Info_free).
 */
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/rte.h"
#include "topologies/facts.h"

#include <stdio.h>
#include <string.h>

static int hw__set_index(MPI_Info info, char *types, size_t len, const char *type, int index)
{
    char value[16];
    if (index < 0) {
        return MPI_SUCCESS;
    }
    snprintf(value, sizeof(value), "%d", index);
    size_t used = strlen(types);
    snprintf(types + used, len - used, "%s%s", used > 0 ? "," : "", type);
    return PMPI_Info_set(info, type, value);
}

static int get_hw_resource_info_impl(MPI_Info *hw_info, const char *fn)
{
    MPI_Info info;
    if (mpi_info_dup(MPI_INFO_NULL, &info) != MPI_SUCCESS) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    const topo_facts_t *f = topo_facts(rte_proc.world_rank);
    char types[128] = "";
    int rc = PMPI_Info_set(info, "compi_host", f != NULL ? f->host : rte_proc.hostname);
    if (f != NULL) {
        if (rc == MPI_SUCCESS) {
            rc = PMPI_Info_set(info, "compi_bound", f->bound ? "true" : "false");
        }
        const struct {
            const char *type;
            int index;
        } levels[] = {{"hwloc://Package", f->package},
                      {"hwloc://NUMANode", f->numa},
                      {"hwloc://L3Cache", f->l3},
                      {"hwloc://Core", f->core}};
        for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]) && rc == MPI_SUCCESS; i++) {
            rc = hw__set_index(info, types, sizeof(types), levels[i].type, levels[i].index);
        }
    }
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Info_set(info, "mpi_hw_resource_type", types);
    }
    if (rc != MPI_SUCCESS) {
        mpi_info_release(info);
        return rc;
    }
    *hw_info = info;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/hw_info.c"
