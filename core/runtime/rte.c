/*
 * rte.c -- the process's place in the job, over PMI.
 *
 * rte_init: PMI handshake, publish the host name and the rank facts, one fence, then
 * learn which ranks share this host (for the shared-memory transport and
 * MPI_COMM_TYPE_SHARED) and whether the host is oversubscribed (then waiting ranks yield
 * the CPU).
 * Modex keys are stored in PMI as "<key>.<rank>".
 */
#include "core/runtime/rte.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/pmi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

rte_proc_info_t rte_proc;

static int *local_ranks;   /* world ranks on this host, ascending */
static char *is_local;     /* [world_size] */

/* Cores of this host.  Not our affinity mask: a rank bound to one core (by a launcher
   or taskset) shares the host with its peers on the other cores, and is not
   oversubscribed for that. */
static int cpus_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void make_jobid(const pmi_info_t *info)
{
    const char *env = getenv("COMPI_JOBID");
    if (env && *env) {
        snprintf(rte_proc.jobid, sizeof(rte_proc.jobid), "%s", env);
        return;
    }
    /* Under another launcher: derive it from the KVS name, which all ranks share.
       Names must start with "compi" (leftover checks look for that). */
    char clean[48];
    size_t j = 0;
    const char *src = info->singleton ? "" : info->kvsname;
    for (size_t i = 0; src[i] && j < sizeof(clean) - 1; i++) {
        char c = src[i];
        clean[j++] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                         ? c : '_';
    }
    clean[j] = '\0';
    if (j) {
        snprintf(rte_proc.jobid, sizeof(rte_proc.jobid), "compi.%s", clean);
    } else {
        snprintf(rte_proc.jobid, sizeof(rte_proc.jobid), "compi.%d", (int)getpid());
    }
}

static const rte_facts_hooks_t *facts_hooks;

void rte_set_facts_hooks(const rte_facts_hooks_t *hooks)
{
    facts_hooks = hooks;
}

compi_status_t rte_init(void)
{
    pmi_info_t info;
    compi_status_t st;

    memset(&rte_proc, 0, sizeof(rte_proc));
    st = pmi_init(&info);
    if (st != COMPI_OK) {
        compi_log_error("cannot reach the process manager (PMI): %s", compi_status_string(st));
        return st;
    }
    rte_proc.world_rank = info.rank;
    rte_proc.world_size = info.size;
    rte_proc.singleton = info.singleton;
    rte_proc.appnum = info.appnum;
    rte_proc.universe_size = info.universe_size > 0 ? info.universe_size : info.size;
    rte_proc.pid = getpid();

    /* the machine's name decides who shares memory; the name reported (rte_hostname,
       topologies/facts.c) may differ per rank, to try layouts of many hosts on one machine */
    char node[256] = "";
    if (gethostname(node, sizeof(node) - 1) != 0) {
        snprintf(node, sizeof(node), "localhost");
    }
    if (facts_hooks && facts_hooks->host) {
        if ((st = facts_hooks->host(node, rte_proc.hostname, sizeof(rte_proc.hostname))) !=
            COMPI_OK) {
            return st;
        }
    } else {
        snprintf(rte_proc.hostname, sizeof(rte_proc.hostname), "%s", node);
    }
    make_jobid(&info);

    is_local = calloc((size_t)rte_proc.world_size, 1);
    local_ranks = calloc((size_t)rte_proc.world_size, sizeof(int));
    if (!is_local || !local_ranks) {
        return COMPI_ERR_NO_MEMORY;
    }

    /* rank facts (host, addresses, place) travel in this same round */
    if (facts_hooks && facts_hooks->publish && (st = facts_hooks->publish()) != COMPI_OK) {
        return st;
    }
    if (rte_proc.world_size > 1) {
        if ((st = rte_modex_put("host", node)) != COMPI_OK || (st = rte_fence()) != COMPI_OK) {
            return st;
        }
    }
    char peer[RTE_MODEX_VALMAX];
    for (int r = 0; r < rte_proc.world_size; r++) {
        int same = (r == rte_proc.world_rank);
        if (!same) {
            st = rte_modex_get(r, "host", peer, sizeof(peer));
            if (st != COMPI_OK) {
                compi_log_error("cannot learn the host of rank %d: %s", r,
                                compi_status_string(st));
                return st;
            }
            same = strcmp(peer, node) == 0;
        }
        if (same) {
            if (r == rte_proc.world_rank) {
                rte_proc.local_rank = rte_proc.local_size;
            }
            is_local[r] = 1;
            local_ranks[rte_proc.local_size++] = r;
        }
    }

    /* our mpirun says what it knows (it sees its own, unbound, CPU set); otherwise
       compare the ranks on this host with its cores */
    const char *over = getenv("COMPI_OVERSUBSCRIBED");
    if (over && (*over == '0' || *over == '1')) {
        rte_proc.oversubscribed = *over == '1';
    } else {
        rte_proc.oversubscribed = rte_proc.local_size > cpus_online();
    }
    rte_proc.oversubscribed = (int)param_register_int(
        "mpi_yield_when_idle", rte_proc.oversubscribed,
        "Yield the CPU while waiting (default: 1 when more ranks than cores on this host)");
    return COMPI_OK;
}

void rte_finalize(void)
{
    if (facts_hooks && facts_hooks->finalize) {
        facts_hooks->finalize();
    }
    pmi_finalize();
    free(local_ranks);
    free(is_local);
    local_ranks = NULL;
    is_local = NULL;
}

static void modex_key(char *buf, size_t len, const char *key, int rank)
{
    snprintf(buf, len, "%s.%d", key, rank);
}

compi_status_t rte_modex_put(const char *key, const char *value)
{
    char k[128];
    if (strlen(value) > RTE_MODEX_VALMAX) {
        compi_log_error("modex value for '%s' is too long (%zu bytes)", key, strlen(value));
        return COMPI_ERR_INVALID_PARAM;
    }
    modex_key(k, sizeof(k), key, rte_proc.world_rank);
    return pmi_put(k, value);
}

compi_status_t rte_fence(void)
{
    compi_status_t st = pmi_commit();
    if (st != COMPI_OK) {
        return st;
    }
    return pmi_barrier();
}

compi_status_t rte_modex_get(int world_rank, const char *key, char *value, size_t len)
{
    char k[128];
    modex_key(k, sizeof(k), key, world_rank);
    return pmi_get(world_rank, k, value, len);
}

void rte_abort(int code, const char *msg)
{
    if (code == 0) {
        code = 1; /* an aborted job never reports success */
    }
    pmi_abort(code, msg ? msg : "");
    _exit(code);
}

const int *rte_local_ranks(void)
{
    return local_ranks;
}

int rte_world_rank_is_local(int world_rank)
{
    if (world_rank < 0 || world_rank >= rte_proc.world_size || !is_local) {
        return 0;
    }
    return is_local[world_rank];
}
