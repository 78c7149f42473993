/*
 * rte.h -- the run-time environment of one process: who am I in the job, who else is
 * there, how to exchange business cards (modex) and how to take the job down.
 *
 * Ownership: everything here is owned by the runtime, set up by rte_init() and torn down
 * by rte_finalize(); callers get read-only views.
 */
#ifndef COMPI_RTE_H
#define COMPI_RTE_H

#include "core/include/compi_status.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct rte_proc_info {
    int world_rank;
    int world_size;
    int local_rank;   /* index among the ranks on this host */
    int local_size;   /* ranks on this host */
    int singleton;    /* 1 when started without a launcher */
    int oversubscribed; /* more ranks on this host than cores available to us */
    int appnum;
    int universe_size;
    pid_t pid;
    char hostname[256];
    char jobid[96]; /* unique per job: used to name shared-memory files */
    /* dynamic processes (compi's mpirun only): the id of the whole mpirun job, which
       every world it spawned shares ("" elsewhere), and the global id of our rank 0 */
    char universe[64];
    int gid_base;
} rte_proc_info_t;

extern rte_proc_info_t rte_proc;

/*
 * What the topology layer (topologies/facts.c) adds to rte_init, set by MPI_Init before
 * it: the host name a rank reports (may differ from the machine's, to try layouts of
 * many hosts on one machine), and the rank facts put into the modex before the one
 * fence.  The runtime sits below the topologies and only calls through these pointers;
 * without them a rank reports the machine's name and publishes no facts.
 */
typedef struct rte_facts_hooks {
    compi_status_t (*host)(const char *real, char *buf, size_t len);
    compi_status_t (*publish)(void);
    void (*finalize)(void);
} rte_facts_hooks_t;

void rte_set_facts_hooks(const rte_facts_hooks_t *hooks);

compi_status_t rte_init(void);
void rte_finalize(void);

/*
 * Modex: publish small strings (at most RTE_MODEX_VALMAX bytes, no spaces or '=')
 * before rte_fence(), read any rank's after it.  Keys are short names such as
 * "btl.sm"; the rank is added by the runtime.
 */
#define RTE_MODEX_VALMAX 900
compi_status_t rte_modex_put(const char *key, const char *value);
compi_status_t rte_fence(void); /* collective over the whole job */
compi_status_t rte_modex_get(int world_rank, const char *key, char *value, size_t len);

/*
 * Peers.  The processes this one talks to are numbered by a process-wide peer index:
 * 0 .. world_size - 1 are MPI_COMM_WORLD's ranks, and processes of other worlds (spawned,
 * or met through MPI_Comm_accept / connect) get the next indices as they are met, for the
 * life of the process.  Groups hold peer indices; the modex reads a peer's keys by its
 * global id (world rank plus its world's base in mpirun's numbering, see
 * core/runtime/launcher/launcher.h), which both sides of a connection exchange.
 */
int rte_peer_count(void);
int rte_peer_gid(int peer);
/* the index of the process with global id `gid`, added when new */
compi_status_t rte_peer_add(int gid, int *peer_p);
/*
 * Processes of another mpirun job (met through a port that names an address) have no
 * keys in our key-value space: their side sends their business cards, one line per
 * process, "<universe> key=value key=value ..." (the keys every process publishes with
 * rte_modex_put, read by rte_peer_cards), and rte_peer_add_foreign keeps them, so that
 * rte_modex_get answers for that peer from them.  A peer is known by its universe and
 * its global id in that universe.
 */
compi_status_t rte_peer_cards(int peer, char *buf, size_t len);
compi_status_t rte_peer_add_foreign(int gid, const char *cards, int *peer_p);
/* the key rte_modex_get answers for every peer without asking anyone: its universe */
#define RTE_KEY_UNIVERSE "rte.universe"

/* the launcher can start and connect worlds (compi's mpirun; not a singleton, not Hydra
   or a PMIx launcher) */
int rte_dynamic(void);
/* COMPI_PARENT: the key under which our parents' spawn waits (NULL when not spawned) */
const char *rte_parent_key(void);
/*
 * Keys of the whole mpirun job, outside the modex's naming: rte_kvs_put publishes at once
 * (no fence: mpirun serves it to everyone), rte_kvs_wait polls until the key exists.
 */
compi_status_t rte_kvs_put(const char *key, const char *value);
compi_status_t rte_kvs_get(const char *key, char *value, size_t len);
compi_status_t rte_kvs_wait(const char *key, char *value, size_t len);
/* *old_p = the number under `key` (0 when new), and key holds old + 1: atomic in mpirun */
compi_status_t rte_kvs_fetch_add(const char *key, int *old_p);

/* Tell the launcher to kill the job and exit with `code`; does not return. */
void rte_abort(int code, const char *msg) __attribute__((noreturn));
/* the job goes down with `line' (one line for people: why) said once, last: compi's mpirun
   prints it after its own line; under another launcher, or none, it goes to stderr here */
void rte_abort_line(int code, const char *line) __attribute__((noreturn));

/* ranks of world that live on this host, ascending; valid after rte_init */
const int *rte_local_ranks(void);
/* a peer index (above) on this host */
int rte_world_rank_is_local(int world_rank);

#endif
