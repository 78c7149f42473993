/*
 * facts.h -- what every rank knows of itself and tells the others at init: the host
 * name it reports, its IP addresses, and its hwloc place (package, NUMA node, core, L3
 * cache).  Topology descriptions (topologies/compi/topology.scm) group ranks by these
 * facts; scheme/bridge_facts.c hands them to Scheme.
 *
 * rte_init() calls topo_facts_host() for the host name, then topo_facts_publish() before
 * its one fence (through the hooks MPI_Init gives it: core/runtime/rte.h), so the facts
 * travel in the modex round that init does anyway.  Peers'
 * facts are read from the modex on first use, one rank at a time.
 *
 * Parameters override what a rank finds, so layouts of many hosts can be tried on one
 * machine (ranks still talk through shared memory: locality follows the real host):
 *   rte_layout     a:2@10.1.0.0/24,b:2@10.2.0.0/24: host and address of every rank, the
 *                  syntax of compi-tree --layout (core/runtime/layout.h), numbered as
 *                  compi-tree numbers them; its counts must add up to the world size, and
 *                  it excludes the two below
 *   rte_hostname   NAME, or NAME0,NAME1,... (rank i takes the i-th, ranks past the end
 *                  the last)
 *   rte_addresses  ADDR/PREFIX[,ADDR/PREFIX...] for every rank, or one such list per rank
 *                  separated by ';' (rank i takes the i-th, ranks past the end the last)
 *
 * Ownership: this file owns every topo_facts_t; callers get read-only pointers valid
 * until rte_finalize().  Not thread-safe on first use of a peer (creators, which read
 * facts, run under the trampolines' miss path, one at a time).
 */
#ifndef COMPI_TOPO_FACTS_H
#define COMPI_TOPO_FACTS_H

#include "core/include/compi_status.h"
#include "core/runtime/layout.h"

#include <stddef.h>

#define TOPO_FACTS_MAXADDRS 16
#define TOPO_FACTS_ADDRLEN 64 /* "ffff:...:ffff/128" fits, with room */

typedef struct topo_facts {
    int world_rank;
    char host[256];
    int naddrs;
    char addrs[TOPO_FACTS_MAXADDRS][TOPO_FACTS_ADDRLEN]; /* "10.1.0.5/24", non-loopback first */
    /* hwloc logical indices of the place, -1 each when unknown (l3 also on machines
       without an L3 cache) */
    int package, numa, core, l3;
    int bound; /* 1: bound (to this core or a set around it); 0: where it last ran */
} topo_facts_t;

/*
 * The host name this rank reports into buf: rte_layout's or rte_hostname's (either form)
 * when set, else `real' (the machine's name).  Registers rte_layout, rte_hostname and
 * rte_addresses; checks rte_layout (its syntax, its size against rte_proc.world_size, no
 * rte_hostname or rte_addresses beside it), logging what is wrong.
 */
compi_status_t topo_facts_host(const char *real, char *buf, size_t len);

/* Finds this rank's addresses and place and puts them in the modex (world size > 1).
   Call after topo_facts_host, before the fence. */
compi_status_t topo_facts_publish(void);

/* The facts of a world rank (read from the modex on first use), or NULL with an error
   logged when the rank is out of range or its facts cannot be read. */
const topo_facts_t *topo_facts(int world_rank);

/* Without a job (compi-tree): the facts of every rank of layout `l', as a job started
   with rte_layout=l would report them (no place: -1, unbound), answered by topo_facts()
   from then on; no modex.  Replaces any facts held before. */
compi_status_t topo_facts_from_layout(const rte_layout_t *l);

void topo_facts_finalize(void);

/* ---- helpers, exposed for the unit tests ------------------------------------------- */

/* Entry `index' of a list separated by `sep' (the last one past the end) into buf;
   COMPI_ERR_INVALID_PARAM when it does not fit or the list is empty. */
compi_status_t topo_facts_pick(const char *list, char sep, int index, char *buf, size_t len);

/* Parses "ADDR/PREFIX,..." into f->addrs (checked with inet_pton, prefix 0..32 or
   0..128); COMPI_ERR_INVALID_PARAM with a message in err when an entry is bad. */
compi_status_t topo_facts_parse_addrs(const char *list, topo_facts_t *f, char *err, size_t errlen);

/* Modex form of the facts, and back: "BOUND|PKG,NUMA,CORE,L3|HOST|ADDR,ADDR..." */
compi_status_t topo_facts_encode(const topo_facts_t *f, char *buf, size_t len);
compi_status_t topo_facts_decode(const char *s, topo_facts_t *f);

#endif
