/*
 * btl_sm.h -- shared-memory BTL, internal to the module (btl_sm_component.c, btl_sm.c).
 *
 * Each rank creates one segment, "/<jobid>.sm.<world_rank>", holding one inbound ring per
 * local peer (slot = the sender's local rank):
 *
 *   +----------+---------------------+---------------------+-----
 *   | seg hdr  | ctrl 0 | ring 0     | ctrl 1 | ring 1     | ...
 *   +----------+---------------------+---------------------+-----
 *
 * By default (btl_sm_backing=memfd) a segment is a memfd: it never has a name in
 * /dev/shm, so no death of any process (mpirun's SIGKILL during MPI_Init included) can
 * leave a file behind.  The owner keeps the descriptor open and publishes
 * "/proc/PID/fd/FD", which the other local ranks open (same user, so /proc lets them).
 * With btl_sm_backing=shm the segment is "/<jobid>.sm.<world_rank>" in /dev/shm, and the
 * rank whose mapping brings the segment's `attached` count to local_size unlinks the
 * name; a job killed before then leaves it for mpirun to remove, if mpirun lives.
 * Large messages go by single copy
 * (process_vm_readv / process_vm_writev, "CMA") when the kernel lets us reach the peer.
 *
 * Ownership: the module owns both its segment and the peers' mappings, the endpoints
 * (one per local peer) and the inbound ring table; btl_sm_finalize() releases them all.
 */
#ifndef COMPI_BTL_SM_H
#define COMPI_BTL_SM_H

#include "core/btl/btl.h"
#include "core/btl/sm/btl_sm_ring.h"

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define SM_SEG_MAGIC 0x636f6d7069736d32ull /* "compism2" */
#define SM_SEG_HDR_SIZE 128u

/*
 * The doorbell (btl_sm_doorbell, on an oversubscribed host): an idle owner sets
 * `sleeping`, looks at its rings once more and sleeps on the futex word `bell`; a sender
 * that has just committed a record reads `sleeping` and, when it is set, clears it, adds
 * one to `bell` and wakes the owner.  Both sides put a sequentially consistent fence
 * between their store (the flag; the record) and their load (the rings; the flag), so at
 * least one of them sees the other's store: the owner finds the record, or the sender
 * finds the flag.  The owner reads `bell` before it sets the flag, so a ring between
 * that read and the sleep makes the sleep return at once.  The second line is written
 * only while the owner sleeps; senders read it after each commit.
 */
typedef struct sm_seg_hdr {
    uint64_t magic;
    uint32_t nslots;    /* local_size of the job on this host */
    uint32_t ring_size; /* bytes of each ring's data */
    int32_t attached;   /* ranks that have mapped this segment (atomic) */
    int32_t owner_pid;
    int32_t may_sleep; /* the owner uses the doorbell: its senders must ring it */
    uint32_t sleeping __attribute__((aligned(64))); /* the owner may sleep on `bell` */
    uint32_t bell;                                  /* futex word: bumped by each wake-up */
} sm_seg_hdr_t;

COMPI_STATIC_ASSERT(sizeof(sm_seg_hdr_t) <= SM_SEG_HDR_SIZE, "segment header too big");

enum { SM_COPY_NONE, SM_COPY_AUTO, SM_COPY_CMA };

struct btl_endpoint {
    sm_ring_tx_t tx;    /* hot: first */
    sm_seg_hdr_t *bell; /* the peer's header when it may sleep (ring after a commit), or NULL */
    pid_t pid;
    int world_rank;
    int local_rank;
    void *seg; /* the peer's segment, mapped */
    size_t seg_len;
    /* a peer of another world: the pair of segments of one ring each (btl_sm.c), and
       the next such endpoint */
    void *dyn_rx_seg;
    struct btl_endpoint *dyn_next;
};

/* one ring each way between processes of two worlds: large enough for any fragment the
   component allows with a ring of 256 KiB or less (its default up to 16 local ranks) */
#define SM_DYN_RING_SIZE (256u * 1024u)

/* the whole state of the module (one per process) */
typedef struct btl_sm_state {
    const btl_services_t *svc;
    void (*recv_cb)(int src_world_rank, const void *frag, size_t len);
    sm_ring_rx_t *in; /* inbound rings of the peers added so far */
    int n_in, cap_in;
    const char *universe;    /* svc's, when it is long enough to have it; else NULL */
    btl_endpoint_t *dyn_eps; /* peers of other worlds (heap, each its own) */

    btl_endpoint_t *eps; /* by peer local rank; world_rank < 0 when not connected */
    int local_size;
    uint32_t ring_size;
    int single_copy;  /* SM_COPY_* */
    size_t cma_chunk; /* most bytes per process_vm_readv/writev call; 0: no limit */
    int doorbell;     /* idle waits sleep on our segment's bell (btl_sm_wait) */
    int tx_full;      /* a reserve() found a ring full since the last wait */
    /* the eager limit once single copy turns out to fail (btl_sm_component.c) */
    size_t eager_no_single;
    int (*wait_ready)(void); /* svc's, when it is long enough to have it; else NULL */

    void *seg; /* own segment */
    size_t seg_len;
    int memfd;      /* backing: 1 memfd (seg_fd stays open for the peers), 0 /dev/shm */
    int seg_fd;     /* the memfd, -1 when none */
    int seg_linked; /* our name may still be in /dev/shm */
    char seg_name[NAME_MAX]; /* what the peers open: /dev/shm name or /proc/PID/fd/FD */
} btl_sm_state_t;

extern btl_sm_state_t btl_sm_state;
extern btl_module_t btl_sm_module;

/* btl_sm.c: set up from the parameters the component read; COMPI_OK or an error */
compi_status_t btl_sm_init(const btl_services_t *svc, uint32_t ring_size, size_t eager_limit,
                           size_t max_frag, int single_copy, size_t cma_chunk, int memfd,
                           int doorbell);

#endif
