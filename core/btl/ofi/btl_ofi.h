/*
 * btl_ofi.h -- libfabric BTL, internal to the module (btl_ofi_component.c, btl_ofi_setup.c,
 * btl_ofi.c).
 *
 * One reliable-datagram endpoint (FI_EP_RDM, FI_MSG, send-after-send ordering) per
 * process, one completion queue for sends and receives, one address vector.  Fragments
 * travel in fixed-size buffers carved out of two arrays, registered once when the
 * provider wants local registration (FI_MR_LOCAL):
 *
 *   buffer:  +-----------+----------------+------------------------------+
 *            | ofi_buf_t | ofi_wire_hdr_t | fragment (what the PML sees) |
 *            +-----------+----------------+------------------------------+
 *                         <------------- what goes on the wire ---------->
 *
 * Send buffers come from a free list (reserve), go out with fi_inject (small: the buffer
 * is free again at once) or fi_send (back on the free list at its completion); a send the
 * provider refuses for now (-FI_EAGAIN) waits on its endpoint's backlog, in order, until
 * progress() posts it.  Receive buffers are all posted at start and posted again as soon
 * as recv_cb has seen their fragment.
 *
 * FI_ORDER_SAS orders how messages land in the posted buffers, not the order in which
 * their receives complete: with rxm a large message (its rendezvous read) completes after
 * a small one sent behind it.  So every fragment carries a per-pair sequence number and
 * one that completes early waits, in its buffer, on the endpoint's `early` list.
 *
 * libfabric itself is loaded with dlopen when the BTL opens (btl_ofi_lib.c), so its code
 * calls fi_getinfo & co through btl_ofi_lib; everything else in libfabric's API is inline.
 *
 * Peers of other worlds (btl.h: indices from world_size up) get endpoints of their own,
 * made in add_procs when the module is open in a job that may meet other worlds
 * (`dynamic`: the launcher can spawn; in a job on one host the module is open only when
 * the PML opened it late for such peers, or btl_ofi_dynamic=1 opened it at MPI_Init).
 * Their fragments carry a process id instead of a rank (ofi_wire_hdr_t).
 *
 * Ownership: the module owns the libfabric objects, both buffer arrays, the endpoint
 * table (one per world rank, one per peer of another world) and the fi_info it chose;
 * btl_ofi_finalize() releases them.
 */
#ifndef COMPI_BTL_OFI_H
#define COMPI_BTL_OFI_H

#include "core/btl/btl.h"
#include "core/include/compi_common.h"

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <stddef.h>
#include <stdint.h>

#define OFI_MODEX_KEY "btl.ofi"
#define OFI_WIRE_MAGIC 0x0f1cu
#define OFI_WIRE_MAGIC_OTHER 0x0f1du /* from a process of another world: `src` is no rank */
#define OFI_BUF_ALIGN 64
#define OFI_NAME_MAX 256 /* bytes of an endpoint name (hex: twice that in the modex) */

/*
 * In front of every fragment on the wire: who sent it, and its place in the pair's FIFO.
 * A sender of our world gives its world rank; one of another world (spawned, met through
 * a port: its rank means nothing here) sends OFI_WIRE_MAGIC_OTHER and its 64-bit
 * process id in `src` (low half) and `id_hi`, the id its business card carries, which
 * the receiver knows its peer index by.
 */
typedef struct ofi_wire_hdr {
    uint32_t src;   /* sender's world rank, or the low half of its process id */
    uint32_t seq;   /* per (sender, receiver) pair, from 0 */
    uint16_t magic; /* OFI_WIRE_MAGIC, OFI_WIRE_MAGIC_OTHER */
    uint16_t pad;
    uint32_t id_hi; /* OFI_WIRE_MAGIC_OTHER: the high half of the sender's process id */
} ofi_wire_hdr_t;

COMPI_STATIC_ASSERT(sizeof(ofi_wire_hdr_t) == 16, "the fragment after it stays 16-aligned");

/* one buffer's bookkeeping; fi_context2 first: it is the operation context we hand over */
typedef struct ofi_buf {
    struct fi_context2 ctx;
    struct ofi_buf *next; /* free list, backlog or early list */
    btl_endpoint_t *ep;   /* send: destination */
    size_t len;           /* bytes on the wire (header included) */
    uint32_t seq;         /* receive held back: its sequence number */
    int is_rx;
} ofi_buf_t;

struct btl_endpoint {
    fi_addr_t addr;
    int world_rank;      /* the peer index (world_size up: a peer of another world) */
    uint64_t id;         /* a peer of another world: its process id (ofi_wire_hdr_t) */
    uint32_t tx_seq;     /* next sequence number we send to this peer */
    uint32_t rx_seq;     /* next one we expect from it */
    ofi_buf_t *reserved; /* handed out by reserve(), not committed yet */
    ofi_buf_t *early;    /* received ahead of rx_seq, held back, by sequence number */
    ofi_buf_t *bl_head;  /* committed, refused by the provider for now: sent in order */
    ofi_buf_t *bl_tail;
    btl_endpoint_t *bl_next; /* on the list of endpoints with a backlog */
    int on_bl_list;
};

/* the whole state of the module (one per process) */
typedef struct btl_ofi_state {
    const btl_services_t *svc;
    struct fi_info *info; /* the provider chosen */
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_cq *cq;
    struct fid_av *av;
    struct fid_ep *ep;
    struct fid_mr *tx_mr, *rx_mr; /* FI_MR_LOCAL only */
    void *tx_desc, *rx_desc;
    int can_wait; /* the CQ has a wait object: fi_cq_sread works */

    char *tx_mem, *rx_mem; /* the two buffer arrays */
    size_t stride;         /* bytes per buffer */
    int n_tx, n_rx;
    ofi_buf_t *tx_free;
    int tx_out;           /* send buffers not on the free list (reserved, in flight, backlog) */
    ofi_buf_t *rx_repost; /* receive buffers whose fi_recv was refused: posted again later */
    btl_endpoint_t *bl_list;
    size_t inject_size; /* bytes on the wire fi_inject takes */

    btl_endpoint_t *eps; /* [world_size]; addr FI_ADDR_NOTAVAIL when not served */
    int serve_local;     /* peers on this host too */
    int dynamic;         /* peers of other worlds may come (btl.h: universe) */
    /* peers of other worlds, by peer index - world_size (NULL: not met, or not served);
       fragments from such a process before our add_procs made its endpoint wait on
       `unclaimed`, in arrival order, and `claimed` says some endpoint got a few */
    btl_endpoint_t **dyn;
    int n_dyn;
    ofi_buf_t *unclaimed;
    int claimed;
    uint64_t id; /* this process's id, in our business card (other worlds only) */
    char name[OFI_NAME_MAX];
    size_t name_len;
} btl_ofi_state_t;

extern btl_ofi_state_t btl_ofi_state;
extern btl_module_t btl_ofi_module;

/* the data a buffer carries on the wire (header first) and the fragment the PML sees */
static inline ofi_wire_hdr_t *ofi_buf_wire(ofi_buf_t *b)
{
    return (ofi_wire_hdr_t *)((char *)b + ((sizeof(ofi_buf_t) + 15) & ~(size_t)15));
}

static inline void *ofi_buf_frag(ofi_buf_t *b)
{
    return ofi_buf_wire(b) + 1;
}

/* ---- btl_ofi_lib.c: the few libfabric functions that are not inline wrappers -------- */

typedef struct btl_ofi_lib {
    int loaded;
    int (*getinfo)(uint32_t version, const char *node, const char *service, uint64_t flags,
                   const struct fi_info *hints, struct fi_info **info);
    void (*freeinfo)(struct fi_info *info);
    struct fi_info *(*dupinfo)(const struct fi_info *info);
    int (*fabric)(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);
    const char *(*strerror)(int errnum);
} btl_ofi_lib_t;

extern btl_ofi_lib_t btl_ofi_lib;

/* dlopen libfabric (once); COMPI_OK or an error already reported */
compi_status_t btl_ofi_lib_load(const btl_services_t *svc);

/* ---- btl_ofi_setup.c: choosing a provider, opening and closing the objects ----------- */

typedef struct ofi_config {
    const char *provider; /* "auto" or a libfabric provider name ("tcp", "tcp;ofi_rxm") */
    const char *iface;    /* "" or a domain / interface name ("eth0") */
    int need_remote;      /* some peer is on another host: no loopback address */
    size_t max_frag;
    int n_tx, n_rx;
} ofi_config_t;

/* fi_getinfo with our needs, filtered by provider and interface: COMPI_OK with *info_p,
   or an error already reported (naming the providers that exist) */
compi_status_t btl_ofi_pick(const btl_services_t *svc, const ofi_config_t *cfg,
                            struct fi_info **info_p);
/* opens fabric, domain, CQ, AV and endpoint for st->info, allocates and posts buffers */
compi_status_t btl_ofi_open_objects(btl_ofi_state_t *st, const ofi_config_t *cfg);
/* closes whatever is open, in order (endpoint first), and frees the buffers */
void btl_ofi_close_objects(btl_ofi_state_t *st);

/* btl_ofi.c: picks the provider, opens everything and fills btl_ofi_module; COMPI_OK or
   an error already reported */
compi_status_t btl_ofi_init(const btl_services_t *svc, const ofi_config_t *cfg, size_t eager_limit,
                            int serve_local, int dynamic);

#endif
