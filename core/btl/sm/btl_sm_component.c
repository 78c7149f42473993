/*
 * btl_sm_component.c -- the shared-memory component: parameters and open().
 */
#include "core/btl/sm/btl_sm.h"

#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>

#define SM_RING_DEFAULT (256u * 1024) /* per pair, up to SM_RING_FULL_PEERS local ranks */
#define SM_RING_FULL_PEERS 16
#define SM_RING_TOTAL (4u * 1024 * 1024) /* per segment, beyond that many ranks */
#define SM_RING_MIN (16u * 1024)
#define SM_RING_MAX (64u * 1024 * 1024)

static uint32_t pow2_floor(uint64_t x)
{
    uint32_t p = 1;
    while ((uint64_t)p * 2 <= x && p < (1u << 31))
        p *= 2;
    return p;
}

static uint32_t pick_ring_size(long requested, int local_size)
{
    uint64_t want;

    if (requested > 0)
        want = (uint64_t)requested;
    else if (local_size <= SM_RING_FULL_PEERS)
        want = SM_RING_DEFAULT;
    else
        want = SM_RING_TOTAL / (uint64_t)local_size;
    if (want < SM_RING_MIN)
        want = SM_RING_MIN;
    if (want > SM_RING_MAX)
        want = SM_RING_MAX;
    /* the ring index is a mask: round up to a power of two */
    uint32_t p = pow2_floor(want);
    return p < want ? p * 2 : p;
}

static int parse_single_copy(const btl_services_t *svc, const char *s)
{
    if (strcmp(s, "auto") == 0)
        return SM_COPY_AUTO;
    if (strcmp(s, "cma") == 0)
        return SM_COPY_CMA;
    if (strcmp(s, "none") == 0)
        return SM_COPY_NONE;
    svc->log_error("btl_sm_single_copy=%s: expected auto, cma or none", s);
    return -1;
}

static btl_module_t *btl_sm_open(const btl_services_t *svc)
{
    if (svc->size < sizeof(btl_services_t)) {
        svc->log_error("btl sm: services table too old (%zu bytes)", svc->size);
        return NULL;
    }
    int dynamic = svc->size >= offsetof(btl_services_t, universe) + sizeof(svc->universe) &&
                  svc->universe != NULL;
    if (svc->local_size < 2 && !dynamic) {
        svc->log_verbose(1, "btl sm: no other rank on this host, not used");
        return NULL;
    }

    long ring = btl_param_int(svc, "btl_sm_ring_size", 0, 0, 1L << 30,
                              "bytes of each shared-memory ring (one per pair of local "
                              "ranks; 0: 256 KiB up to 16 local ranks, less beyond)");
    /* 0: 8 KiB, or 16 KiB when ranks share cores or single copy is off.  An eager
       message is copied into the ring and out of it, and every line of it changes
       cores twice (the sender's write takes it from the receiver, which read it a lap
       before, and the receiver's read takes it back): about 0.17 us per KiB at 2 ranks,
       against a rendezvous' fixed ~1.2 us (RNDV, one process_vm_readv of the sender's
       buffer, FIN).  Measured with OSU at 2 ranks on 2 cores, 8 KiB: latency 1.86 us
       eager against 1.24, scatter 1.84 against 1.13, bandwidth 8.9 GB/s against 9.8;
       4 KiB stays eager, where a rendezvous per message halves osu_bw.  A rendezvous
       waits for the receiver to run, which costs more when ranks share cores (OSU
       alltoall of 8 KiB at 4 ranks on 2 cores: 17-18 us against 13-15 eager), and
       without single copy it goes through the ring as well. */
    long eager = btl_param_int(svc, "btl_sm_eager_limit", 0, 0, 1L << 30,
                               "largest message (with its headers) the PML sends eagerly over "
                               "shared memory; larger ones go by rendezvous and single copy "
                               "(0: 8 KiB; 16 KiB when ranks share cores or without single copy)");
    long eager_no_single = eager != 0 ? eager : 16384;
    if (eager == 0)
        eager = svc->oversubscribed ? 16384 : 8192;
    long max_frag = btl_param_int(svc, "btl_sm_max_frag", 32 * 1024, 64, 1L << 30,
                                  "largest fragment of the copy-in/copy-out pipeline");
    const char *copy = svc->param_string("btl_sm_single_copy", "auto",
                                         "single copy for large messages: auto (use "
                                         "process_vm_readv if it works), cma (require it), none");
    const char *backing = svc->param_string("btl_sm_backing", "memfd",
                                            "segments: memfd (never named in /dev/shm, shared "
                                            "through /proc/PID/fd) or shm (named files in "
                                            "/dev/shm, unlinked once every local rank has "
                                            "mapped them)");
    long cma_chunk = btl_param_int(svc, "btl_sm_cma_chunk", 0, 0, 1L << 40,
                                   "most bytes one process_vm_readv/writev call copies "
                                   "(0: a whole transfer in one call)");
    long doorbell = btl_param_int(svc, "btl_sm_doorbell", 1, 0, 1,
                                  "on an oversubscribed host, an idle rank sleeps until a local "
                                  "peer's message (or a flag of a shared-memory collective) "
                                  "rings its doorbell, a futex in its segment; 0: idle ranks "
                                  "poll and yield");
    int single_copy = parse_single_copy(svc, copy);
    if (single_copy < 0)
        return NULL;
    if (single_copy == SM_COPY_NONE)
        eager = eager_no_single;
    if (strcmp(backing, "memfd") != 0 && strcmp(backing, "shm") != 0) {
        svc->log_error("btl_sm_backing=%s: expected memfd or shm", backing);
        return NULL;
    }
    if (eager < 64 || eager_no_single < 64 || max_frag < 64) {
        svc->log_error("btl sm: eager_limit=%ld and max_frag=%ld must be at least 64", eager,
                       max_frag);
        return NULL;
    }

    uint32_t ring_size = pick_ring_size(ring, svc->local_size);
    /* a fragment, the padding before it at the end of the ring and the free slot after it
       must fit, with room to spare for pipelining */
    size_t frag_cap = ring_size / 4 - 2 * SM_REC_ALIGN;
    if ((size_t)max_frag > frag_cap)
        max_frag = (long)frag_cap;
    if (eager > max_frag)
        eager = max_frag;
    if (eager_no_single > max_frag)
        eager_no_single = max_frag;

    if (single_copy != SM_COPY_NONE) {
        /* under Yama ptrace_scope=1 a sibling may read us only if we say so; harmless
           (EINVAL) where Yama is absent */
        (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    }

    if (btl_sm_init(svc, ring_size, (size_t)eager, (size_t)max_frag, single_copy, (size_t)cma_chunk,
                    strcmp(backing, "memfd") == 0, doorbell && svc->oversubscribed) != COMPI_OK)
        return NULL;
    btl_sm_state.eager_no_single = (size_t)eager_no_single;
    return &btl_sm_module;
}

__attribute__((visibility("default"))) const btl_component_t compi_btl_sm_component = {
    .size = sizeof(btl_component_t),
    .abi_version = BTL_ABI_VERSION,
    .name = "sm",
    .description = "shared memory between ranks of one host: SPSC rings, single copy by CMA",
    .open = btl_sm_open,
};
