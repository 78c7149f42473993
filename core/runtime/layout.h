/*
 * layout.h -- a layout of hosts given as text, the one syntax of compi-tree --layout,
 * mpirun --layout and the parameter rte_layout:
 *
 *   a:4@10.1.0.0/24,b:4@10.2.0.0/24,c:2
 *
 * Entries NAME:COUNT or NAME:COUNT@A.B.C.D/NN, comma-separated.  Ranks are numbered in
 * order (a: 0-3, b: 4-7, c: 8-9); each rank of an entry with a subnet gets its own
 * address in it, the first free one (entries of one subnet continue each other), with
 * the subnet's prefix length: 10.1.0.1/24 ... 10.1.0.4/24.  A /31 or /32 hands out every
 * address, a larger subnet leaves out its network and broadcast addresses.  Ranks of an
 * entry without a subnet have no address.
 *
 * Here, in core/runtime, because mpirun (which links only core/runtime's PMI code) counts
 * a layout's ranks, topologies/facts.c gives each rank its entry, and compi-tree draws
 * it: one parser, one set of messages.  No logging, no allocation but the layout's own.
 *
 * Ownership: rte_layout_parse allocates the layout; rte_layout_free frees it.
 */
#ifndef COMPI_RTE_LAYOUT_H
#define COMPI_RTE_LAYOUT_H

#include "core/include/compi_status.h"

#include <stddef.h>
#include <stdint.h>

/* the syntax, as the messages and the help texts give it */
#define RTE_LAYOUT_SYNTAX "NAME:COUNT or NAME:COUNT@A.B.C.D/NN, comma-separated"
#define RTE_LAYOUT_NAMELEN 256 /* a host name's bytes, terminator included */

typedef struct rte_layout_entry {
    char name[RTE_LAYOUT_NAMELEN];
    int first, count; /* its ranks: first .. first + count - 1 */
    int prefix;       /* -1: no subnet */
    uint32_t network; /* the subnet, host bits cleared (host byte order) */
    uint32_t addr0;   /* the address of its first rank */
} rte_layout_entry_t;

typedef struct rte_layout {
    int size; /* ranks */
    int nentries;
    rte_layout_entry_t *entries;
} rte_layout_t;

/*
 * Parses `text' into *l_p.  COMPI_OK, or COMPI_ERR_INVALID_PARAM with one line in err
 * naming the bad entry ("bad layout entry 'a@10.1.0.0/24': missing ':COUNT' after the
 * host name (expected ...)"), and COMPI_ERR_NO_MEMORY.  More than max_ranks ranks is an
 * error too.
 */
compi_status_t rte_layout_parse(const char *text, int max_ranks, rte_layout_t **l_p, char *err,
                                 size_t errlen);
void rte_layout_free(rte_layout_t *l);

/* the entry of rank r (0 <= r < size) */
const rte_layout_entry_t *rte_layout_entry_of(const rte_layout_t *l, int r);
/* "10.1.0.1/24", the address of rank r, into buf; 0 when its entry has no subnet */
int rte_layout_addr(const rte_layout_t *l, int r, char *buf, size_t len);
/* "10.1.0.0/24", the subnet of rank r's entry, into buf; 0 when it has none */
int rte_layout_subnet(const rte_layout_t *l, int r, char *buf, size_t len);

#endif
