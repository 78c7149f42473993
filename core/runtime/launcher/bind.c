/*
 * bind.c -- where mpirun binds each rank: the plan (made once, in mpirun, with hwloc), the
 * --report-bindings lines, and the sched_setaffinity in each child before exec.
 *
 * Ranks are placed by core, round-robin over the cores mpirun itself may use, counting
 * only the ranks on this machine (k: the rank's number among them, MPI_LOCALRANKID):
 *
 *     --bind-to core    local rank k -> core k mod ncores (all its hardware threads)
 *     --bind-to numa    local rank k -> the NUMA node holding core k mod ncores
 *     --bind-to none    no binding
 *     (default)         core when the local ranks <= ncores, else none: oversubscribed
 *                       ranks that could not move would wait on each other's time slices
 *
 * Ranks on other hosts (through the launch agent) are never bound by mpirun.
 *
 * Only the cores mpirun may run on count, so an mpirun started under taskset binds its
 * ranks inside that set.  A rank re-pinned afterwards (taskset in a wrapper script)
 * simply overrides us.  mpirun also hands every rank the place of each CPU
 * (COMPI_CPU_PLACES), so that ranks need not load hwloc at init.
 */
#include "core/runtime/launcher/launcher.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *bind_policy_name(bind_policy_t p)
{
    switch (p) {
    case BIND_NONE:
        return "none";
    case BIND_CORE:
        return "core";
    case BIND_NUMA:
        return "numa";
    default:
        return "default";
    }
}

int bind_policy_parse(const char *s, bind_policy_t *p)
{
    static const bind_policy_t all[] = {BIND_NONE, BIND_CORE, BIND_NUMA};

    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        if (strcmp(s, bind_policy_name(all[i])) == 0) {
            *p = all[i];
            return 0;
        }
    }
    return -1;
}

/* "core 1 (cpus 1,5)" or "numa 0 (cores 0-3, cpus 0-7)": what `cpus' (a part of obj's
   CPUs: those mpirun may use) binds to */
static void bind__describe(hwloc_topology_t topo, hwloc_obj_t obj, hwloc_const_bitmap_t cpus,
                           char *buf, size_t len)
{
    char list[256];
    hwloc_bitmap_list_snprintf(list, sizeof(list), cpus);
    if (obj->type == HWLOC_OBJ_CORE) {
        snprintf(buf, len, "core %u (cpus %s)", obj->logical_index, list);
        return;
    }
    hwloc_bitmap_t cores = hwloc_bitmap_alloc();
    char clist[256] = "?";
    if (cores != NULL) {
        int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
            if (hwloc_bitmap_intersects(c->cpuset, cpus)) {
                hwloc_bitmap_set(cores, c->logical_index);
            }
        }
        hwloc_bitmap_list_snprintf(clist, sizeof(clist), cores);
        hwloc_bitmap_free(cores);
    }
    snprintf(buf, len, "numa %u (cores %s, cpus %s)", obj->logical_index, clist, list);
}

/* the object of `type' whose CPUs hold the PU's, or NULL */
static hwloc_obj_t bind__holder(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_obj_t pu)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        if (o->cpuset != NULL && hwloc_bitmap_isincluded(pu->cpuset, o->cpuset)) {
            return o;
        }
    }
    return NULL;
}

/*
 * COMPI_CPU_PLACES="HOST|CPU:PKG,NUMA,CORE,L3;..." for the ranks (topologies/facts.c): the hwloc
 * place of every CPU of this machine (L3 -1 where no L3 cache holds it), so a rank finds
 * its own place from its affinity and sched_getcpu() instead of loading hwloc itself
 * (2-3 ms per rank, that 8 ranks on 2 cores pay one after the other in MPI_Init).  Whole
 * machine, not mpirun's CPU set: the indices are the ones a rank's own hwloc would give.
 */
static void bind__export_places(hwloc_topology_t topo, const char *host)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    size_t cap = strlen(host) + 2 + (size_t)n * 64, len;
    char *s = malloc(cap);

    if (s == NULL) {
        return;
    }
    len = (size_t)snprintf(s, cap, "%s|", host);
    for (int i = 0; i < n && len < cap; i++) {
        hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
        hwloc_obj_t core = bind__holder(topo, HWLOC_OBJ_CORE, pu);
        hwloc_obj_t pkg = bind__holder(topo, HWLOC_OBJ_PACKAGE, pu);
        hwloc_obj_t numa = bind__holder(topo, HWLOC_OBJ_NUMANODE, pu);
        hwloc_obj_t l3 = bind__holder(topo, HWLOC_OBJ_L3CACHE, pu);

        if (core == NULL || numa == NULL) {
            free(s); /* an odd machine: the ranks ask hwloc themselves */
            return;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%u:%d,%u,%u,%d", i ? ";" : "", pu->os_index,
                                pkg != NULL ? (int)pkg->logical_index : 0, numa->logical_index,
                                core->logical_index, l3 != NULL ? (int)l3->logical_index : -1);
    }
    if (len < cap) {
        setenv("COMPI_CPU_PLACES", s, 1);
    }
    free(s);
}

compi_status_t bind_plan(mpirun_job_t *job)
{
    const mpirun_opts_t *o = job->opts;
    hwloc_topology_t topo;
    hwloc_bitmap_t mine = NULL, cpus = NULL;
    compi_status_t st = COMPI_OK;
    bind_policy_t policy = o->bind_to;
    char host[256] = "localhost";
    int ncores = 0;

    gethostname(host, sizeof(host) - 1);
    for (int i = 0; i < job->n; i++) {
        snprintf(job->ranks[i].binding, sizeof(job->ranks[i].binding), "%s",
                 job->ranks[i].remote ? "remote (not bound by mpirun)" : "not bound");
    }
    if (hwloc_topology_init(&topo) != 0) {
        return COMPI_ERR_NO_MEMORY;
    }
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    /* the x86 component would migrate us over every CPU just to read cpuid */
    hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
    mine = hwloc_bitmap_alloc();
    cpus = hwloc_bitmap_alloc();
    if (mine == NULL || cpus == NULL || hwloc_topology_load(topo) != 0 ||
        hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) != 0) {
        fprintf(stderr, "mpirun: warning: cannot read the machine's topology; ranks not bound\n");
        st = COMPI_ERR_IO;
        goto out;
    }
    bind__export_places(topo, host);

    /* the cores mpirun may use (all of them unless it was started under taskset) */
    hwloc_obj_t *usable =
        calloc((size_t)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) + 1, sizeof(*usable));
    if (usable == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    for (int i = 0; i < hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE); i++) {
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
        if (hwloc_bitmap_intersects(c->cpuset, mine)) {
            usable[ncores++] = c;
        }
    }
    if (policy == BIND_DEFAULT) {
        policy = job->nlocal <= ncores ? BIND_CORE : BIND_NONE;
        for (int i = 0; i < job->n && policy == BIND_NONE; i++) {
            if (!job->ranks[i].remote) {
                snprintf(job->ranks[i].binding, sizeof(job->ranks[i].binding),
                         "not bound (%d ranks > %d cores)", job->nlocal, ncores);
            }
        }
    }
    for (int i = 0; i < job->n && policy != BIND_NONE && ncores > 0; i++) {
        mpirun_rank_t *r = &job->ranks[i];
        if (r->remote) {
            continue;
        }
        hwloc_obj_t obj = usable[r->local_rank % ncores];

        if (policy == BIND_NUMA) {
            hwloc_obj_t pu =
                hwloc_get_next_obj_inside_cpuset_by_type(topo, obj->cpuset, HWLOC_OBJ_PU, NULL);
            hwloc_obj_t numa = pu != NULL ? bind__holder(topo, HWLOC_OBJ_NUMANODE, pu) : NULL;
            obj = numa != NULL ? numa : obj;
        }
        hwloc_bitmap_and(cpus, obj->cpuset, mine);
        if (hwloc_cpuset_to_glibc_sched_affinity(topo, cpus, &r->cpus, sizeof(r->cpus)) != 0) {
            continue;
        }
        r->bound = 1;
        bind__describe(topo, obj, cpus, r->binding, sizeof(r->binding));
    }
    free(usable);
out:
    if (o->report_bindings) {
        for (int i = 0; i < job->n; i++) {
            const mpirun_rank_t *r = &job->ranks[i];
            fprintf(stderr, "mpirun: rank %d host %s: %s%s\n", i, r->remote ? r->host->name : host,
                    r->bound ? "bound to " : "", r->binding);
        }
    }
    hwloc_bitmap_free(mine);
    hwloc_bitmap_free(cpus);
    hwloc_topology_destroy(topo);
    return st;
}

void bind_apply(const mpirun_rank_t *r)
{
    /* in the child after fork: a failure leaves the rank unbound, which is only slower */
    if (r->bound) {
        sched_setaffinity(0, sizeof(r->cpus), &r->cpus);
    }
}
