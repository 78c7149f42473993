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
#include <time.h>
#include <unistd.h>

rte_proc_info_t rte_proc;

static int *local_ranks;   /* world ranks on this host, ascending */
static char *is_local;     /* [world_size] */
static char node_name[256];

/* peers of other worlds: index world_size + i is dyn_gid[i]; a process of another mpirun
   job also has its universe and its business cards ("key=value key=value ...", what it
   published in its own key-value space) in dyn_foreign[i], NULL for our job's */
static int *dyn_gid;
static char *dyn_local;
static char **dyn_foreign;
static int n_dyn, cap_dyn;

/* the modex keys this process published (every process of a world publishes the same):
   the business cards another mpirun job is given */
#define RTE_CARD_KEYS 8
static char card_keys[RTE_CARD_KEYS][32];
static int n_card_keys;

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
    const char *uni = getenv("COMPI_UNIVERSE"), *base = getenv("COMPI_GID_BASE");
    if (uni != NULL && pmi_can_spawn()) {
        snprintf(rte_proc.universe, sizeof(rte_proc.universe), "%s", uni);
        rte_proc.gid_base = base != NULL ? atoi(base) : 0;
    }
    snprintf(node_name, sizeof(node_name), "%s", node);

    is_local = calloc((size_t)rte_proc.world_size, 1);
    local_ranks = calloc((size_t)rte_proc.world_size, sizeof(int));
    if (!is_local || !local_ranks) {
        return COMPI_ERR_NO_MEMORY;
    }

    /* rank facts (host, addresses, place) travel in this same round */
    if (facts_hooks && facts_hooks->publish && (st = facts_hooks->publish()) != COMPI_OK) {
        return st;
    }
    /* a world of one publishes too when other worlds may connect to it */
    if (rte_proc.world_size > 1 || rte_dynamic()) {
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
    for (int i = 0; i < n_dyn; i++) {
        free(dyn_foreign[i]);
    }
    free(dyn_gid);
    free(dyn_local);
    free(dyn_foreign);
    dyn_foreign = NULL;
    n_card_keys = 0;
    local_ranks = NULL;
    is_local = NULL;
    dyn_gid = NULL;
    dyn_local = NULL;
    n_dyn = cap_dyn = 0;
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
    modex_key(k, sizeof(k), key, rte_proc.gid_base + rte_proc.world_rank);
    int i = 0;
    while (i < n_card_keys && strcmp(card_keys[i], key) != 0) {
        i++;
    }
    if (i == n_card_keys && i < RTE_CARD_KEYS && strlen(key) < sizeof(card_keys[0])) {
        snprintf(card_keys[n_card_keys++], sizeof(card_keys[0]), "%s", key);
    }
    return pmi_put(k, value);
}

/* the value of `key` in a foreign peer's cards (see dyn_foreign) */
static compi_status_t foreign_get(const char *cards, const char *key, char *value, size_t len)
{
    size_t klen = strlen(key);
    const char *p = strchr(cards, ' '); /* after the universe */

    while (p != NULL) {
        p++;
        const char *end = strchr(p, ' ');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            if (n - klen - 1 >= len) {
                return COMPI_ERR_TRUNCATE;
            }
            memcpy(value, p + klen + 1, n - klen - 1);
            value[n - klen - 1] = '\0';
            return COMPI_OK;
        }
        p = end;
    }
    return COMPI_ERR_NOT_FOUND;
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
    if (world_rank < 0 || world_rank >= rte_peer_count()) {
        return COMPI_ERR_INVALID_PARAM;
    }
    const char *cards =
        world_rank >= rte_proc.world_size ? dyn_foreign[world_rank - rte_proc.world_size] : NULL;
    if (strcmp(key, RTE_KEY_UNIVERSE) == 0) {
        size_t n = cards != NULL ? strcspn(cards, " ") : strlen(rte_proc.universe);
        if (n >= len) {
            return COMPI_ERR_TRUNCATE;
        }
        memcpy(value, cards != NULL ? cards : rte_proc.universe, n);
        value[n] = '\0';
        return COMPI_OK;
    }
    if (cards != NULL) {
        return foreign_get(cards, key, value, len);
    }
    modex_key(k, sizeof(k), key, rte_peer_gid(world_rank));
    /* the hint is a rank of our own world (PMIx); other worlds exist only with our mpirun */
    return pmi_get(world_rank < rte_proc.world_size ? world_rank : 0, k, value, len);
}

void rte_abort(int code, const char *msg)
{
    if (code == 0) {
        code = 1; /* an aborted job never reports success */
    }
    pmi_abort(code, msg ? msg : "");
    _exit(code);
}

void rte_abort_line(int code, const char *line)
{
    if (code == 0) {
        code = 1;
    }
    int launcher_prints = pmi_abort_prints_line();
    if (!launcher_prints) {
        fprintf(stderr, "%s\n", line);
        fflush(stderr);
    }
    if (pmi_abort_line(code, line) != COMPI_OK && launcher_prints) {
        fprintf(stderr, "%s\n", line); /* mpirun did not get it */
        fflush(stderr);
    }
    _exit(code);
}

const int *rte_local_ranks(void)
{
    return local_ranks;
}

int rte_world_rank_is_local(int world_rank)
{
    if (world_rank >= rte_proc.world_size && world_rank < rte_peer_count()) {
        return dyn_local[world_rank - rte_proc.world_size];
    }
    if (world_rank < 0 || world_rank >= rte_proc.world_size || !is_local) {
        return 0;
    }
    return is_local[world_rank];
}

int rte_peer_count(void)
{
    return rte_proc.world_size + n_dyn;
}

int rte_peer_gid(int peer)
{
    return peer < rte_proc.world_size ? rte_proc.gid_base + peer
                                      : dyn_gid[peer - rte_proc.world_size];
}

/* room for one more peer of another world */
static compi_status_t dyn_grow(void)
{
    if (n_dyn < cap_dyn) {
        return COMPI_OK;
    }
    int cap = cap_dyn ? 2 * cap_dyn : 16;
    int *g = realloc(dyn_gid, (size_t)cap * sizeof(int));
    if (g == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    dyn_gid = g;
    char *l = realloc(dyn_local, (size_t)cap);
    if (l == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    dyn_local = l;
    char **f = realloc(dyn_foreign, (size_t)cap * sizeof(char *));
    if (f == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    dyn_foreign = f;
    cap_dyn = cap;
    return COMPI_OK;
}

compi_status_t rte_peer_add(int gid, int *peer_p)
{
    char host[RTE_MODEX_VALMAX];
    compi_status_t st;

    if (gid >= rte_proc.gid_base && gid < rte_proc.gid_base + rte_proc.world_size) {
        *peer_p = gid - rte_proc.gid_base;
        return COMPI_OK;
    }
    for (int i = 0; i < n_dyn; i++) {
        if (dyn_gid[i] == gid && dyn_foreign[i] == NULL) {
            *peer_p = rte_proc.world_size + i;
            return COMPI_OK;
        }
    }
    if ((st = dyn_grow()) != COMPI_OK) {
        return st;
    }
    char k[128];
    modex_key(k, sizeof(k), "host", gid);
    if ((st = pmi_get(0, k, host, sizeof(host))) != COMPI_OK) {
        compi_log_error("cannot learn the host of process %d of another world: %s", gid,
                        compi_status_string(st));
        return st;
    }
    dyn_gid[n_dyn] = gid;
    dyn_local[n_dyn] = strcmp(host, node_name) == 0;
    dyn_foreign[n_dyn] = NULL;
    *peer_p = rte_proc.world_size + n_dyn++;
    return COMPI_OK;
}

compi_status_t rte_peer_cards(int peer, char *buf, size_t len)
{
    char val[RTE_MODEX_VALMAX + 1];
    size_t off = 0;

    if (peer < 0 || peer >= rte_peer_count()) {
        return COMPI_ERR_INVALID_PARAM;
    }
    if (rte_modex_get(peer, RTE_KEY_UNIVERSE, val, sizeof(val)) != COMPI_OK) {
        return COMPI_ERR_TRUNCATE;
    }
    int w = snprintf(buf, len, "%s", val);
    if (w < 0 || (size_t)w >= len) {
        return COMPI_ERR_TRUNCATE;
    }
    off = (size_t)w;
    for (int i = 0; i < n_card_keys; i++) {
        compi_status_t st = rte_modex_get(peer, card_keys[i], val, sizeof(val));
        if (st == COMPI_ERR_NOT_FOUND) {
            continue;
        }
        if (st != COMPI_OK) {
            return st;
        }
        w = snprintf(buf + off, len - off, " %s=%s", card_keys[i], val);
        if (w < 0 || (size_t)w >= len - off) {
            return COMPI_ERR_TRUNCATE;
        }
        off += (size_t)w;
    }
    return COMPI_OK;
}

compi_status_t rte_peer_add_foreign(int gid, const char *cards, int *peer_p)
{
    size_t ulen = strcspn(cards, " ");
    char host[RTE_MODEX_VALMAX + 1];
    compi_status_t st;

    for (int i = 0; i < n_dyn; i++) {
        if (dyn_gid[i] == gid && dyn_foreign[i] != NULL &&
            strncmp(dyn_foreign[i], cards, ulen) == 0 && dyn_foreign[i][ulen] == ' ') {
            *peer_p = rte_proc.world_size + i;
            return COMPI_OK;
        }
    }
    if ((st = foreign_get(cards, "host", host, sizeof(host))) != COMPI_OK) {
        compi_log_error("process %d of mpirun job %.*s sent no host name", gid, (int)ulen, cards);
        return COMPI_ERR_PMI;
    }
    if ((st = dyn_grow()) != COMPI_OK) {
        return st;
    }
    if ((dyn_foreign[n_dyn] = strdup(cards)) == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    dyn_gid[n_dyn] = gid;
    dyn_local[n_dyn] = strcmp(host, node_name) == 0;
    *peer_p = rte_proc.world_size + n_dyn++;
    return COMPI_OK;
}

int rte_dynamic(void)
{
    return rte_proc.universe[0] != '\0';
}

const char *rte_parent_key(void)
{
    const char *k = getenv("COMPI_PARENT");
    return rte_dynamic() && k != NULL && *k != '\0' ? k : NULL;
}

compi_status_t rte_kvs_put(const char *key, const char *value)
{
    return pmi_put(key, value);
}

compi_status_t rte_kvs_get(const char *key, char *value, size_t len)
{
    return pmi_get(0, key, value, len);
}

compi_status_t rte_kvs_fetch_add(const char *key, int *old_p)
{
    return pmi_fetch_add(key, old_p);
}

compi_status_t rte_kvs_wait(const char *key, char *value, size_t len)
{
    struct timespec pause = {.tv_sec = 0, .tv_nsec = 100000L};
    compi_status_t st;

    /* the other side of a connection is on its way (or the job goes down with it) */
    while ((st = pmi_get(0, key, value, len)) == COMPI_ERR_NOT_FOUND) {
        nanosleep(&pause, NULL);
        if (pause.tv_nsec < 10000000L) {
            pause.tv_nsec *= 2;
        }
    }
    return st;
}
