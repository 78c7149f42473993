/*
 * btl_sm.c -- shared-memory BTL: segments, endpoints, the hot path and single copy.
 *
 * The ring protocol itself is in btl_sm_ring.h; this file wires rings to peers.
 */
#include "core/btl/sm/btl_sm.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define SM_MODEX_KEY "btl.sm"
#define SM_BATCH 16      /* records per peer per progress call: bounds one call's work */
#define SM_IOV_CHUNK 128 /* local iovecs per process_vm_readv (well under IOV_MAX) */
#define SM_PROBE_MAGIC 0x5eedc0de5eedc0deull

btl_sm_state_t btl_sm_state;

/* peers read this word through process_vm_readv to see whether single copy works */
static volatile uint64_t sm_probe_word;

static size_t slot_stride(uint32_t ring_size)
{
    return SM_CTRL_SIZE + ring_size;
}

static size_t seg_bytes(int nslots, uint32_t ring_size)
{
    return SM_SEG_HDR_SIZE + (size_t)nslots * slot_stride(ring_size);
}

static sm_ring_ctrl_t *slot_ctrl(void *seg, uint32_t ring_size, int slot)
{
    return (sm_ring_ctrl_t *)((char *)seg + SM_SEG_HDR_SIZE +
                              (size_t)slot * slot_stride(ring_size));
}

/* a name in /dev/shm, as opposed to a memfd reached through /proc */
static int seg_is_named(const char *name)
{
    return strncmp(name, "/proc/", 6) != 0;
}

/* one more rank has mapped `seg`: the last one removes the name (a memfd has none) */
static void seg_attached(void *seg, const char *name, int local_size)
{
    sm_seg_hdr_t *hdr = seg;
    /* acq_rel: every rank's mapping happened before the name goes away */
    int n = __atomic_add_fetch(&hdr->attached, 1, __ATOMIC_ACQ_REL);
    if (n == local_size && seg_is_named(name))
        (void)shm_unlink(name);
}

/* ---- hot path ---------------------------------------------------------------------- */

static void *btl_sm_reserve(btl_endpoint_t *ep, size_t len)
{
    if (compi_unlikely(len > btl_sm_module.max_frag))
        return NULL;
    void *frag = sm_ring_reserve(&ep->tx, len);
    /* the peer frees room without ringing us: our next wait must not sleep */
    if (compi_unlikely(frag == NULL))
        btl_sm_state.tx_full = 1;
    return frag;
}

/* cross-process futex (no FUTEX_PRIVATE_FLAG: the word is in a shared mapping) */
static long sm_futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

/* after a commit to a peer that may sleep: wake it if it sleeps (btl_sm.h, the doorbell) */
static void sm_bell_ring(sm_seg_hdr_t *hdr)
{
    /* the record is visible before we read the flag (pairs with the fence in wait) */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (compi_likely(__atomic_load_n(&hdr->sleeping, __ATOMIC_RELAXED) == 0))
        return;
    /* one waker per sleep: the sender that clears the flag rings */
    if (__atomic_exchange_n(&hdr->sleeping, 0, __ATOMIC_RELAXED) == 0)
        return;
    __atomic_fetch_add(&hdr->bell, 1, __ATOMIC_SEQ_CST);
    (void)sm_futex(&hdr->bell, FUTEX_WAKE, 1, NULL);
}

static void btl_sm_wake(btl_endpoint_t *ep)
{
    if (ep == NULL) {
        /* our own wait, from another thread of ours */
        if (btl_sm_state.doorbell && btl_sm_state.seg != NULL)
            sm_bell_ring(btl_sm_state.seg);
    } else if (ep->bell != NULL) {
        sm_bell_ring(ep->bell);
    }
}

static compi_status_t btl_sm_commit(btl_endpoint_t *ep, void *frag, size_t len)
{
    sm_ring_commit(&ep->tx, frag, len);
    if (compi_unlikely(ep->bell != NULL))
        sm_bell_ring(ep->bell);
    return COMPI_OK;
}

/* deliver what the rings from `first` on hold (those before it were empty) */
static __attribute__((noinline)) int sm_drain(int first)
{
    sm_ring_rx_t *in = btl_sm_state.in;
    int n_in = btl_sm_state.n_in;
    int done = 0;

    for (int i = first; i < n_in; i++) {
        sm_ring_rx_t *rx = &in[i];
        for (int k = 0; k < SM_BATCH; k++) {
            const sm_rec_t *rec = sm_ring_peek(rx);
            if (rec == NULL)
                break;
            btl_sm_state.recv_cb(rx->src, rec + 1, rec->len);
            sm_ring_consume(rx, rec);
            done++;
        }
    }
    return done;
}

/* an idle poll is a look at each ring, without saving a register */
static int btl_sm_progress(void)
{
    const sm_ring_rx_t *in = btl_sm_state.in;
    int n_in = btl_sm_state.n_in;

    for (int i = 0; i < n_in; i++) {
        if (sm_ring_ready(&in[i]))
            return sm_drain(i);
    }
    return 0;
}

/*
 * Progress, or sleep on our segment's bell until a peer commits a record or wakes us
 * (wake(): the PML's wait_ready has something to see) or `timeout_ms` passes.  Not when
 * something would not ring: room freed in a full ring of ours (the receiver never rings
 * its senders), or a peer of another world (its ring is in a segment of its own, whose
 * header we do not sleep on); then we only yield.
 */
static int btl_sm_wait(int timeout_ms)
{
    btl_sm_state_t *st = &btl_sm_state;
    sm_seg_hdr_t *hdr = st->seg;
    int n;

    if (compi_unlikely(st->tx_full || st->dyn_eps != NULL)) {
        st->tx_full = 0;
        n = btl_sm_progress();
        if (n == 0)
            sched_yield();
        return n;
    }
    uint32_t bell = __atomic_load_n(&hdr->bell, __ATOMIC_SEQ_CST);
    __atomic_store_n(&hdr->sleeping, 1, __ATOMIC_RELAXED);
    /* the flag is visible before we look at the rings (pairs with sm_bell_ring) */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    n = btl_sm_progress();
    if (n == 0 && (st->wait_ready == NULL || !st->wait_ready())) {
        struct timespec ts = {.tv_sec = timeout_ms / 1000,
                              .tv_nsec = (long)(timeout_ms % 1000) * 1000000L};
        /* returns at once when a sender rang since we read `bell` */
        (void)sm_futex(&hdr->bell, FUTEX_WAIT, bell, &ts);
    }
    __atomic_store_n(&hdr->sleeping, 0, __ATOMIC_RELAXED);
    return n > 0 ? n : btl_sm_progress();
}

/* ---- single copy ------------------------------------------------------------------- */

/*
 * Copy `len` bytes between the local iovecs and the peer's memory at `remote_addr`:
 * process_vm_readv when `write` is 0 (get), process_vm_writev otherwise (put).  Each
 * system call takes at most SM_IOV_CHUNK local pieces and btl_sm_state.cma_chunk bytes
 * (0: no byte limit).
 */
static compi_status_t cma_copy(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                               uint64_t remote_addr, size_t len, int write)
{
    const char *what = write ? "put" : "get";
    size_t max_chunk = btl_sm_state.cma_chunk ? btl_sm_state.cma_chunk : len;
    struct iovec iov[SM_IOV_CHUNK];
    size_t done = 0, loff = 0, room = 0;
    int li = 0;

    /* refuse before copying anything: no half-written peer memory on a bad call */
    for (int j = 0; j < nlocal && room < len; j++)
        room += local[j].iov_len;
    if (room < len) {
        btl_sm_state.svc->log_error("btl sm %s: local buffers hold %zu of %zu bytes", what, room,
                                    len);
        return COMPI_ERR_INVALID_PARAM;
    }
    while (done < len) {
        size_t want = len - done < max_chunk ? len - done : max_chunk;
        size_t chunk = 0;
        int n = 0;
        for (int j = li; j < nlocal && n < SM_IOV_CHUNK && chunk < want; j++) {
            size_t off = j == li ? loff : 0;
            size_t l = local[j].iov_len - off;
            if (l > want - chunk)
                l = want - chunk;
            if (l == 0)
                continue;
            iov[n].iov_base = (char *)local[j].iov_base + off;
            iov[n].iov_len = l;
            chunk += l;
            n++;
        }
        if (chunk == 0) {
            btl_sm_state.svc->log_error("btl sm %s: local buffers hold %zu of %zu bytes", what,
                                        done, len);
            return COMPI_ERR_INVALID_PARAM;
        }
        struct iovec rem = {.iov_base = (void *)(uintptr_t)(remote_addr + done), .iov_len = chunk};
        ssize_t got = write ? process_vm_writev(ep->pid, iov, (unsigned long)n, &rem, 1, 0)
                            : process_vm_readv(ep->pid, iov, (unsigned long)n, &rem, 1, 0);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            btl_sm_state.svc->log_error("btl sm %s: %s rank %d (pid %d) at 0x%" PRIx64 ": %s", what,
                                        write ? "process_vm_writev to" : "process_vm_readv from",
                                        ep->world_rank, (int)ep->pid, remote_addr + done,
                                        got < 0 ? strerror(errno) : "no progress");
            return COMPI_ERR_IO;
        }
        /* the kernel may stop early (page fault, large requests): advance the cursor */
        done += (size_t)got;
        size_t adv = (size_t)got;
        while (adv > 0) {
            size_t l = local[li].iov_len - loff;
            if (adv < l) {
                loff += adv;
                adv = 0;
            } else {
                adv -= l;
                li++;
                loff = 0;
            }
        }
    }
    return COMPI_OK;
}

static compi_status_t btl_sm_get(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                                 uint64_t remote_addr, uint64_t remote_key, size_t len)
{
    (void)remote_key;
    return cma_copy(ep, local, nlocal, remote_addr, len, 0);
}

static compi_status_t btl_sm_put(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                                 uint64_t remote_addr, uint64_t remote_key, size_t len)
{
    (void)remote_key;
    return cma_copy(ep, local, nlocal, remote_addr, len, 1);
}

/* read the peer's probe word; 0 when single copy works with it */
static int cma_probe(const btl_endpoint_t *ep, uint64_t addr)
{
    uint64_t word = 0;
    struct iovec l = {.iov_base = &word, .iov_len = sizeof(word)};
    struct iovec r = {.iov_base = (void *)(uintptr_t)addr, .iov_len = sizeof(word)};
    ssize_t got = process_vm_readv(ep->pid, &l, 1, &r, 1, 0);

    if (got == (ssize_t)sizeof(word) && word == (SM_PROBE_MAGIC ^ (uint64_t)ep->pid))
        return 0;
    return got < 0 ? errno : EIO;
}

/* ---- setup ------------------------------------------------------------------------- */

static compi_status_t btl_sm_publish(void)
{
    btl_sm_state_t *st = &btl_sm_state;
    const btl_services_t *svc = st->svc;
    char val[64 + NAME_MAX];
    int fd = -1;

    if (st->seg != NULL)
        return COMPI_OK;
    st->seg_len = seg_bytes(st->local_size, st->ring_size);
    if (st->memfd) {
        fd = memfd_create("compi.sm", MFD_CLOEXEC);
        if (fd < 0) {
            svc->log_error("btl sm: memfd_create: %s (btl_sm_backing=shm uses /dev/shm instead)",
                           strerror(errno));
            return COMPI_ERR_IO;
        }
        snprintf(st->seg_name, sizeof(st->seg_name), "/proc/%d/fd/%d", (int)svc->pid, fd);
    } else {
        int w = snprintf(st->seg_name, sizeof(st->seg_name), "/%s.sm.%d", svc->jobid,
                         svc->world_rank);
        if (w < 0 || (size_t)w >= sizeof(st->seg_name) || strchr(svc->jobid, '/') != NULL) {
            svc->log_error("btl sm: job id '%s' does not make a shared-memory name", svc->jobid);
            return COMPI_ERR_INVALID_PARAM;
        }
        fd = shm_open(st->seg_name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0) {
            svc->log_error("btl sm: shm_open(%s): %s", st->seg_name, strerror(errno));
            return COMPI_ERR_IO;
        }
        st->seg_linked = 1;
    }
    if (ftruncate(fd, (off_t)st->seg_len) != 0) {
        svc->log_error("btl sm: sizing %s to %zu bytes: %s", st->seg_name, st->seg_len,
                       strerror(errno));
        goto err;
    }
    /* populate: take the page faults now, not on the first messages */
    void *seg = mmap(NULL, st->seg_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (seg == MAP_FAILED) {
        svc->log_error("btl sm: mapping %s (%zu bytes): %s", st->seg_name, st->seg_len,
                       strerror(errno));
        goto err;
    }
    if (st->memfd)
        st->seg_fd = fd; /* the peers open it through /proc until finalize */
    else
        close(fd);
    fd = -1;
    st->seg = seg;

    /* the file starts zeroed: every ring is empty and its first slot reads "nothing yet" */
    sm_seg_hdr_t *hdr = seg;
    hdr->magic = SM_SEG_MAGIC;
    hdr->nslots = (uint32_t)st->local_size;
    hdr->ring_size = st->ring_size;
    hdr->owner_pid = (int32_t)svc->pid;
    hdr->may_sleep = st->doorbell;
    seg_attached(seg, st->seg_name, st->local_size);

    sm_probe_word = SM_PROBE_MAGIC ^ (uint64_t)svc->pid;
    snprintf(val, sizeof(val), "%d,%d,%" PRIx64 ",%s", (int)svc->pid, svc->local_rank,
             (uint64_t)(uintptr_t)&sm_probe_word, st->seg_name);
    compi_status_t rc = svc->modex_put(SM_MODEX_KEY, val);
    if (rc != COMPI_OK) {
        svc->log_error("btl sm: publishing the segment name failed (%d)", rc);
        return rc;
    }
    return COMPI_OK;

err:
    if (fd >= 0)
        close(fd);
    if (st->seg_linked)
        shm_unlink(st->seg_name);
    st->seg_linked = 0;
    return COMPI_ERR_IO;
}

/* map the segment of `world_rank` and set up both directions with it */
static compi_status_t connect_peer(int world_rank, btl_endpoint_t **ep_p)
{
    btl_sm_state_t *st = &btl_sm_state;
    const btl_services_t *svc = st->svc;
    char val[64 + NAME_MAX];
    int pid, lrank, off = 0, fd = -1;
    uint64_t probe_addr;
    struct stat sb;

    compi_status_t rc = svc->modex_get(world_rank, SM_MODEX_KEY, val, sizeof(val));
    if (rc != COMPI_OK) {
        svc->log_error("btl sm: no business card from local rank %d (%d)", world_rank, rc);
        return COMPI_ERR_UNREACHABLE;
    }
    if (sscanf(val, "%d,%d,%" SCNx64 ",%n", &pid, &lrank, &probe_addr, &off) != 3 || off == 0 ||
        lrank < 0 || lrank >= st->local_size || lrank == svc->local_rank) {
        svc->log_error("btl sm: bad business card from rank %d: '%s'", world_rank, val);
        return COMPI_ERR_UNREACHABLE;
    }
    btl_endpoint_t *ep = &st->eps[lrank];
    if (ep->world_rank == world_rank) {
        *ep_p = ep;
        return COMPI_OK;
    }
    if (ep->world_rank >= 0) {
        svc->log_error("btl sm: ranks %d and %d both claim local rank %d", ep->world_rank,
                       world_rank, lrank);
        return COMPI_ERR_UNREACHABLE;
    }
    const char *name = val + off;

    fd = seg_is_named(name) ? shm_open(name, O_RDWR, 0) : open(name, O_RDWR | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &sb) != 0) {
        svc->log_error("btl sm: opening %s of rank %d: %s%s", name, world_rank, strerror(errno),
                       seg_is_named(name) ? ""
                                          : " (btl_sm_backing=shm uses named files in /dev/shm "
                                            "instead)");
        goto err;
    }
    if ((size_t)sb.st_size != st->seg_len) {
        svc->log_error("btl sm: %s of rank %d has %lld bytes, expected %zu (same parameters on "
                       "every rank?)",
                       name, world_rank, (long long)sb.st_size, st->seg_len);
        goto err;
    }
    void *seg = mmap(NULL, st->seg_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (seg == MAP_FAILED) {
        svc->log_error("btl sm: mapping %s of rank %d: %s", name, world_rank, strerror(errno));
        goto err;
    }
    close(fd);
    fd = -1;
    sm_seg_hdr_t *hdr = seg;
    if (hdr->magic != SM_SEG_MAGIC || hdr->ring_size != st->ring_size ||
        hdr->nslots != (uint32_t)st->local_size) {
        svc->log_error("btl sm: %s of rank %d does not match ours (ring %u, %u slots)", name,
                       world_rank, hdr->ring_size, hdr->nslots);
        munmap(seg, st->seg_len);
        goto err;
    }

    /* outbound: our slot in the peer's segment */
    sm_ring_ctrl_t *octrl = slot_ctrl(seg, st->ring_size, svc->local_rank);
    ep->tx = (sm_ring_tx_t){.data = (char *)(octrl + 1), .ctrl = octrl, .mask = st->ring_size - 1};
    ep->bell = hdr->may_sleep ? hdr : NULL;
    ep->pid = pid;
    ep->world_rank = world_rank;
    ep->local_rank = lrank;
    ep->seg = seg;
    ep->seg_len = st->seg_len;

    /* inbound: the peer's slot in our segment */
    sm_ring_ctrl_t *ictrl = slot_ctrl(st->seg, st->ring_size, lrank);
    st->in[st->n_in++] = (sm_ring_rx_t){.data = (const char *)(ictrl + 1),
                                        .ctrl = ictrl,
                                        .mask = st->ring_size - 1,
                                        .src = world_rank};

    seg_attached(seg, name, st->local_size);

    if ((btl_sm_module.flags & BTL_FLAG_GET) != 0) {
        int e = cma_probe(ep, probe_addr);
        if (e != 0) {
            /* writing needs the same permission as reading: both go, and a rendezvous
               then costs more than copying through the ring (the component's limit) */
            btl_sm_module.flags &= ~(unsigned)(BTL_FLAG_GET | BTL_FLAG_PUT);
            btl_sm_module.eager_limit = st->eager_no_single;
            if (st->single_copy == SM_COPY_CMA) {
                svc->log_error("btl sm: single copy (process_vm_readv) from rank %d fails: %s "
                               "(btl_sm_single_copy=cma)",
                               world_rank, strerror(e));
                return COMPI_ERR_UNSUPPORTED;
            }
            svc->log_verbose(1,
                             "btl sm: single copy from rank %d fails (%s): large messages "
                             "will be copied through the rings",
                             world_rank, strerror(e));
        }
    }
    *ep_p = ep;
    return COMPI_OK;

err:
    if (fd >= 0)
        close(fd);
    return COMPI_ERR_UNREACHABLE;
}

/*
 * Peers of other worlds have no slot in our segment (it was sized for our world's local
 * ranks), so each direction gets a segment of one ring of its own, named after the
 * receiver's universe and both pids: "/<universe>.smd.<receiver pid>.<sender pid>".
 * Whichever side comes first creates it (zeroed: an empty ring), both size it alike, and
 * the second to map it removes the name; mpirun removes what a process that died first
 * left behind.
 * The sender may write before the receiver maps: the records wait in the file.
 */
static void *dyn_map(const char *name, size_t len)
{
    const btl_services_t *svc = btl_sm_state.svc;
    int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
    void *seg = MAP_FAILED;

    if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
        svc->log_error("btl sm: shared memory %s for another world: %s", name, strerror(errno));
    else if ((seg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
        svc->log_error("btl sm: mapping %s: %s", name, strerror(errno));
    if (fd >= 0)
        close(fd);
    if (seg == MAP_FAILED)
        return NULL;
    seg_attached(seg, name, 2);
    return seg;
}

static compi_status_t connect_dyn(int peer, btl_endpoint_t **ep_p)
{
    btl_sm_state_t *st = &btl_sm_state;
    const btl_services_t *svc = st->svc;
    char val[64 + NAME_MAX], rx_name[NAME_MAX], tx_name[NAME_MAX];
    size_t len = seg_bytes(1, SM_DYN_RING_SIZE);
    int pid, lrank, off = 0;
    uint64_t probe_addr;

    *ep_p = NULL;
    if (btl_sm_module.max_frag > SM_DYN_RING_SIZE / 4 - 2 * SM_REC_ALIGN) {
        svc->log_verbose(1,
                         "btl sm: fragments of %zu bytes do not fit the rings to other "
                         "worlds",
                         btl_sm_module.max_frag);
        return COMPI_OK;
    }
    if (svc->modex_get(peer, SM_MODEX_KEY, val, sizeof(val)) != COMPI_OK ||
        sscanf(val, "%d,%d,%" SCNx64 ",%n", &pid, &lrank, &probe_addr, &off) != 3 || off == 0) {
        svc->log_error("btl sm: no usable business card from process %d of another world", peer);
        return COMPI_ERR_UNREACHABLE;
    }
    /* a ring is named after its receiver's universe: a process of another mpirun job
       (met through a port) has its own, which that job's mpirun cleans up after */
    char peer_uni[64];
    if (svc->modex_get(peer, "rte.universe", peer_uni, sizeof(peer_uni)) != COMPI_OK) {
        snprintf(peer_uni, sizeof(peer_uni), "%s", st->universe);
    }
    snprintf(rx_name, sizeof(rx_name), "/%s.smd.%d.%d", st->universe, (int)svc->pid, pid);
    snprintf(tx_name, sizeof(tx_name), "/%s.smd.%d.%d", peer_uni, pid, (int)svc->pid);
    if (st->n_in == st->cap_in) {
        int cap = st->cap_in * 2 + 4;
        sm_ring_rx_t *in = realloc(st->in, (size_t)cap * sizeof(*in));
        if (in == NULL)
            return COMPI_ERR_NO_MEMORY;
        st->in = in;
        st->cap_in = cap;
    }
    btl_endpoint_t *ep = calloc(1, sizeof(*ep));
    void *rx = ep != NULL ? dyn_map(rx_name, len) : NULL;
    void *tx = rx != NULL ? dyn_map(tx_name, len) : NULL;
    if (tx == NULL) {
        if (rx != NULL)
            munmap(rx, len);
        free(ep);
        return COMPI_ERR_UNREACHABLE;
    }
    sm_ring_ctrl_t *octrl = slot_ctrl(tx, SM_DYN_RING_SIZE, 0);
    ep->tx =
        (sm_ring_tx_t){.data = (char *)(octrl + 1), .ctrl = octrl, .mask = SM_DYN_RING_SIZE - 1};
    ep->pid = pid;
    ep->world_rank = peer;
    ep->local_rank = -1;
    ep->seg = tx;
    ep->seg_len = len;
    ep->dyn_rx_seg = rx;
    ep->dyn_next = st->dyn_eps;
    st->dyn_eps = ep;
    sm_ring_ctrl_t *ictrl = slot_ctrl(rx, SM_DYN_RING_SIZE, 0);
    st->in[st->n_in++] = (sm_ring_rx_t){.data = (const char *)(ictrl + 1),
                                        .ctrl = ictrl,
                                        .mask = SM_DYN_RING_SIZE - 1,
                                        .src = peer};
    if ((btl_sm_module.flags & BTL_FLAG_GET) != 0 && cma_probe(ep, probe_addr) != 0) {
        /* single copy with every peer or none: the PML asks the module, not the endpoint */
        btl_sm_module.flags &= ~(unsigned)(BTL_FLAG_GET | BTL_FLAG_PUT);
        svc->log_verbose(1, "btl sm: single copy from process %d of another world fails", peer);
    }
    *ep_p = ep;
    return COMPI_OK;
}

static compi_status_t btl_sm_add_procs(int n, const int *world_ranks, btl_endpoint_t **eps)
{
    btl_sm_state_t *st = &btl_sm_state;
    const btl_services_t *svc = st->svc;

    if (st->seg == NULL) {
        svc->log_error("btl sm: add_procs before publish");
        return COMPI_ERR_INTERNAL;
    }
    for (int i = 0; i < n; i++) {
        eps[i] = NULL;
        int r = world_ranks[i];
        if (r == svc->world_rank || !svc->rank_is_local(r))
            continue;
        if (r >= svc->world_size && st->universe == NULL)
            continue;
        compi_status_t rc =
            r >= svc->world_size ? connect_dyn(r, &eps[i]) : connect_peer(r, &eps[i]);
        if (rc != COMPI_OK)
            return rc;
    }
    return COMPI_OK;
}

static compi_status_t btl_sm_finalize(void)
{
    btl_sm_state_t *st = &btl_sm_state;

    for (int i = 0; st->eps != NULL && i < st->local_size; i++) {
        if (st->eps[i].seg != NULL)
            munmap(st->eps[i].seg, st->eps[i].seg_len);
    }
    while (st->dyn_eps != NULL) {
        btl_endpoint_t *ep = st->dyn_eps;
        st->dyn_eps = ep->dyn_next;
        munmap(ep->seg, ep->seg_len);
        munmap(ep->dyn_rx_seg, ep->seg_len);
        free(ep);
    }
    if (st->seg != NULL)
        munmap(st->seg, st->seg_len);
    /* normally gone already (the last rank to attach removed it); not when some local
       rank never connected to us */
    if (st->seg_linked)
        (void)shm_unlink(st->seg_name);
    if (st->memfd && st->seg_fd >= 0)
        close(st->seg_fd);
    free(st->eps);
    free(st->in);
    memset(st, 0, sizeof(*st));
    st->seg_fd = -1;
    return COMPI_OK;
}

compi_status_t btl_sm_init(const btl_services_t *svc, uint32_t ring_size, size_t eager_limit,
                           size_t max_frag, int single_copy, size_t cma_chunk, int memfd,
                           int doorbell)
{
    btl_sm_state_t *st = &btl_sm_state;

    if (st->svc != NULL)
        btl_sm_finalize();
    st->svc = svc;
    st->recv_cb = svc->recv_cb;
    st->local_size = svc->local_size;
    st->ring_size = ring_size;
    st->single_copy = single_copy;
    st->cma_chunk = cma_chunk;
    st->memfd = memfd;
    st->doorbell = doorbell;
    st->seg_fd = -1;
    st->eps = calloc((size_t)svc->local_size, sizeof(*st->eps));
    st->in = calloc((size_t)svc->local_size, sizeof(*st->in));
    st->cap_in = svc->local_size;
    st->universe = svc->size >= offsetof(btl_services_t, universe) + sizeof(svc->universe)
                       ? svc->universe
                       : NULL;
    st->wait_ready = svc->size >= offsetof(btl_services_t, wait_ready) + sizeof(svc->wait_ready)
                         ? svc->wait_ready
                         : NULL;
    if (st->eps == NULL || st->in == NULL) {
        svc->log_error("btl sm: out of memory for %d local peers", svc->local_size);
        goto err;
    }
    for (int i = 0; i < svc->local_size; i++)
        st->eps[i].world_rank = -1;

    btl_sm_module.eager_limit = eager_limit;
    btl_sm_module.max_frag = max_frag;
    btl_sm_module.flags = single_copy == SM_COPY_NONE ? 0 : BTL_FLAG_GET | BTL_FLAG_PUT;
    btl_sm_module.wait = doorbell ? btl_sm_wait : NULL;
    svc->log_verbose(1, "btl sm: %d local ranks, rings of %u bytes, eager %zu, frag %zu, %s%s",
                     svc->local_size, ring_size, eager_limit, max_frag,
                     single_copy == SM_COPY_NONE ? "no single copy" : "single copy by CMA",
                     doorbell ? ", idle ranks sleep on a doorbell" : "");
    return COMPI_OK;

err:
    free(st->eps);
    free(st->in);
    memset(st, 0, sizeof(*st));
    st->seg_fd = -1;
    return COMPI_ERR_NO_MEMORY;
}

btl_module_t btl_sm_module = {
    .size = sizeof(btl_module_t),
    .name = "sm",
    .exclusivity = 100,
    .publish = btl_sm_publish,
    .add_procs = btl_sm_add_procs,
    .reserve = btl_sm_reserve,
    .commit = btl_sm_commit,
    .progress = btl_sm_progress,
    .get = btl_sm_get,
    .register_mem = NULL,
    .deregister_mem = NULL,
    .finalize = btl_sm_finalize,
    .progress_work = NULL,
    .put = btl_sm_put,
    .wait = NULL, /* btl_sm_wait when the doorbell is on (btl_sm_init) */
    .wake = btl_sm_wake,
};
