/*
 * pml_hdr.h -- the PML's wire headers, written at the start of every BTL fragment.
 *
 *   MATCH  sender -> receiver   eager message: header + all the data
 *   RNDV   sender -> receiver   large or synchronous message: header only; carries the
 *                               sender's request and, when its buffer is contiguous and
 *                               the BTL can get(), the buffer's address and key
 *   ACK    receiver -> sender   matched, no get(): send me `len` bytes from `offset` as FRAGs
 *   FRAG   sender -> receiver   `offset` of the packed stream for request `rreq`
 *   FIN    receiver -> sender   matched and read through get(): your send is complete
 *   PUT    receiver -> sender   split rendezvous: put() bytes [offset, offset+len) of your
 *                               data at my `addr` while I get() the bytes before them
 *   PUT_DONE sender -> receiver the put() asked for is over (`ok` 0: it failed)
 *
 * Request "ids" on the wire are the addresses of PML requests, which never move (pool).
 * Both ends run the same binary on the same host family, so the layout is native.
 *
 * Ownership: headers live inside BTL fragments; nothing here is allocated.
 */
#ifndef COMPI_PML_HDR_H
#define COMPI_PML_HDR_H

#include "core/include/compi_common.h"

#include <stdint.h>

enum {
    PML_HDR_MATCH = 1,
    PML_HDR_RNDV,
    PML_HDR_ACK,
    PML_HDR_FRAG,
    PML_HDR_FIN,
    PML_HDR_PUT,
    PML_HDR_PUT_DONE
};

enum {
    PML_HFLAG_ADDR = 1u << 0, /* RNDV: addr/key describe the sender's contiguous data */
    PML_HFLAG_SYNC = 1u << 1, /* RNDV: from MPI_Ssend (informational) */
    PML_HFLAG_PART = 1u << 2, /* a partitioned send's message: matches only partitioned
                                 receives, of the same number (pseq) */
};

typedef struct pml_hdr_match {
    uint8_t type;
    uint8_t flags;
    uint16_t pseq; /* PML_HFLAG_PART: the partitioned operation's number, else 0 */
    uint32_t ctx;  /* communicator's context id */
    int32_t src;  /* sender's rank in that communicator */
    int32_t tag;
    uint64_t len; /* bytes of the whole message */
} pml_hdr_match_t;

/* the eager fast path: BTL record header (~16) + MATCH + 8 bytes of data in one line */
COMPI_STATIC_ASSERT(sizeof(pml_hdr_match_t) + 16 + 8 <= COMPI_CACHELINE,
                    "MATCH header too large for one cache line");

typedef struct pml_hdr_rndv {
    pml_hdr_match_t m;
    uint64_t sreq; /* sender's request */
    uint64_t addr; /* PML_HFLAG_ADDR: sender's data, for btl->get */
    uint64_t key;  /* remote key from register_mem (0 when none) */
} pml_hdr_rndv_t;

typedef struct pml_hdr_ack {
    uint8_t type;
    uint8_t pad[7];
    uint64_t sreq;
    uint64_t rreq;
    uint64_t len;    /* bytes the receiver takes (less than the message on truncation) */
    uint64_t offset; /* first of them in the packed stream (those before came otherwise) */
} pml_hdr_ack_t;

typedef struct pml_hdr_frag {
    uint8_t type;
    uint8_t pad[7];
    uint64_t rreq;
    uint64_t offset; /* in the packed stream; data follows the header */
} pml_hdr_frag_t;

typedef struct pml_hdr_fin {
    uint8_t type;
    uint8_t pad[7];
    uint64_t sreq;
} pml_hdr_fin_t;

typedef struct pml_hdr_put {
    uint8_t type;
    uint8_t pad[7];
    uint64_t sreq;
    uint64_t rreq;
    uint64_t addr;   /* where byte `offset` of the message goes in the receiver */
    uint64_t key;    /* remote key from the receiver's register_mem (0 when none) */
    uint64_t offset; /* in the sender's contiguous data */
    uint64_t len;
} pml_hdr_put_t;

typedef struct pml_hdr_put_done {
    uint8_t type;
    uint8_t ok; /* 0: the put failed, nothing can be assumed written */
    uint8_t pad[6];
    uint64_t rreq;
} pml_hdr_put_done_t;

/* control messages that may wait in the PML's queue when a BTL is full */
typedef union pml_hdr_ctl {
    uint8_t type;
    pml_hdr_ack_t ack;
    pml_hdr_fin_t fin;
    pml_hdr_put_t put;
    pml_hdr_put_done_t put_done;
} pml_hdr_ctl_t;

#endif
