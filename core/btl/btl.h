/*
 * btl.h -- byte transfer layer: moves fragments between processes.
 *
 * A BTL knows nothing of MPI: no communicators, tags or requests.  It moves opaque
 * fragments (the PML writes its header and payload into them) to a peer identified by
 * an endpoint, in FIFO order per (sender, receiver) pair, and may offer a single-copy
 * get() (read the peer's memory) and put() (write it) for large transfers.
 *
 * Sending is two steps, so the PML can pack data straight into transport memory:
 *
 *     void *frag = btl->reserve(ep, len);        NULL: no room now, progress and retry
 *     ... write header and payload into frag ...
 *     btl->commit(ep, frag, len);                visible to the peer from now on
 *
 * At most one reservation per endpoint is outstanding: a reserve() not followed by
 * commit() is dropped by the next reserve() on that endpoint (nothing was sent).
 *
 * Receiving: btl->progress() hands every arrived fragment to services->recv_cb(); the
 * fragment's memory is valid only during that call.  recv_cb may reserve and commit (a
 * reply) but must not call progress() again.
 *
 * A component is one const struct (btl_component_t) named compi_btl_<name>_component in
 * btl_<name>_component.c, built as a libltdl module (lib/btl_<name>.la) and also
 * linkable into libmpi (--disable-dlopen).  Modules do not link against libmpi: all they
 * need from the layers above comes through btl_services_t.
 *
 * Ownership: a module owns its endpoints and transport memory; fragments handed to
 * recv_cb are lent, not given.
 */
#ifndef COMPI_BTL_H
#define COMPI_BTL_H

#include "core/include/compi_status.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#define BTL_ABI_VERSION 1

typedef struct btl_endpoint btl_endpoint_t; /* opaque, defined by each BTL */

/* what the layers above give a BTL (libfabric style: size first) */
typedef struct btl_services {
    size_t size;
    int world_rank;
    int world_size;
    int local_rank;
    int local_size;
    int oversubscribed;
    pid_t pid;
    const char *hostname;
    const char *jobid;
    /* a fragment arrived from `src_world_rank`; `frag` is valid only during the call */
    void (*recv_cb)(int src_world_rank, const void *frag, size_t len);
    compi_status_t (*modex_put)(const char *key, const char *value);
    compi_status_t (*modex_get)(int world_rank, const char *key, char *value, size_t len);
    int (*rank_is_local)(int world_rank);
    long (*param_int)(const char *name, long defval, const char *help);
    const char *(*param_string)(const char *name, const char *defval, const char *help);
    void (*log_error)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
    void (*log_verbose)(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    /*
     * Peers of other worlds (spawned, connected) have indices from world_size up, given to
     * add_procs as they are met; modex_get and rank_is_local take them too.  `universe`
     * names what the worlds that may meet share (NULL: no other world will come); a BTL
     * that cannot reach them leaves their endpoints NULL.  Services made before this field
     * existed are shorter: check `size`.
     */
    const char *universe;
    /* param_int with the range a value must lie in: outside lo..hi it is warned about,
       naming the range, and the default is used (the run-time parameters' rule).  Read
       it through btl_param_int, which checks the range itself on older services. */
    long (*param_int_range)(const char *name, long defval, long lo, long hi, const char *help);
    /* the PML's last look before a module's wait() sleeps, made after the module has said
       it sleeps (so that whoever changes what it looks at afterwards finds it asleep and
       calls wake()): non-zero when the event waited for came otherwise than as a fragment
       (a flag in shared memory), and wait() must return without sleeping.  NULL, or
       services shorter than the field: nothing to look at */
    int (*wait_ready)(void);
    /*
     * Non-zero in the services of a component opened after MPI_Init by
     * btl_base_open_late: the PML wants it for peers of another world that no open
     * module reaches (processes of another mpirun job on another host, met through a
     * port), and it has published nothing before the modex fence.  It opens when it can
     * serve such peers (its add_procs sees only them and later ones), and when it cannot
     * it says why with log_error.  Services shorter than the field: never.
     */
    int late_open;
} btl_services_t;

/* a BTL's integer parameter, lo..hi (else the default, after a message) */
static inline long btl_param_int(const btl_services_t *svc, const char *name, long defval, long lo,
                                 long hi, const char *help)
{
    if (svc->size >= offsetof(btl_services_t, param_int_range) + sizeof(svc->param_int_range) &&
        svc->param_int_range != NULL) {
        return svc->param_int_range(name, defval, lo, hi, help);
    }
    long v = svc->param_int(name, defval, help);
    if (v < lo || v > hi) {
        svc->log_error("parameter %s: %ld is out of range (%ld to %ld); using the default %ld",
                       name, v, lo, hi, defval);
        return defval;
    }
    return v;
}

enum {
    BTL_FLAG_GET = 1u << 0, /* get() reads a peer's memory in one copy */
    BTL_FLAG_PUT = 1u << 1, /* put() writes a peer's memory in one copy */
};

typedef struct btl_module {
    size_t size;            /* sizeof(btl_module_t) */
    const char *name;
    size_t eager_limit;     /* largest fragment the PML should use for eager messages */
    size_t max_frag;        /* largest fragment reserve() gives */
    unsigned flags;         /* BTL_FLAG_* */
    int exclusivity;        /* when several BTLs reach a peer, the highest wins */

    /*
     * Phase 1, before the modex fence: publish this process's business card.
     * Phase 2, after the fence: eps[i] = endpoint for world rank ranks[i], or NULL when
     * this BTL cannot reach it.
     */
    compi_status_t (*publish)(void);
    compi_status_t (*add_procs)(int n, const int *world_ranks, btl_endpoint_t **eps);

    void *(*reserve)(btl_endpoint_t *ep, size_t len);
    compi_status_t (*commit)(btl_endpoint_t *ep, void *frag, size_t len);

    /* deliver arrived fragments through recv_cb; returns how many */
    int (*progress)(void);

    /*
     * Single copy (BTL_FLAG_GET): read `len` bytes that the peer exposed at
     * `remote_addr` (with `remote_key` from its register_mem; 0 when none is needed)
     * into the local iovecs.  Blocking; COMPI_OK when all bytes arrived.
     */
    compi_status_t (*get)(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                          uint64_t remote_addr, uint64_t remote_key, size_t len);
    /* optional (NULL for sm): make local memory readable by peers' get() */
    compi_status_t (*register_mem)(void *addr, size_t len, uint64_t *key_p, void **reg_p);
    void (*deregister_mem)(void *reg);

    /* after a fence at MPI_Finalize: release everything */
    compi_status_t (*finalize)(void);

    /* optional: when set, progress() has nothing to do while *progress_work is 0, so the
       PML's polling loop can skip the call (btl/self: fragments queued to oneself) */
    const size_t *progress_work;

    /*
     * optional, single copy (BTL_FLAG_PUT): write `len` bytes from the local iovecs into
     * the peer's memory at `remote_addr` (with `remote_key` from the peer's register_mem;
     * 0 when none is needed).  Blocking; COMPI_OK when all bytes are written.  Modules
     * built before this field existed are shorter: check `size` before reading it.
     */
    compi_status_t (*put)(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                          uint64_t remote_addr, uint64_t remote_key, size_t len);

    /*
     * optional (NULL: the module cannot block): progress() that, when nothing is there,
     * sleeps in the transport (a file descriptor, a wait object) until something arrives
     * or `timeout_ms` passes; returns how many events it handled, as progress() does, or
     * a negative status when it finds it cannot sleep after all (the PML stops asking).
     * The PML calls it in blocking calls (never in MPI_Test) instead of sched_yield()
     * when the host is oversubscribed and no other module has work, so that a waiting
     * rank gives its core to the others.
     * Shorter (older) modules lack it: check `size` before reading it.
     */
    int (*wait)(int timeout_ms);

    /*
     * optional (with a wait() that asks svc->wait_ready before it sleeps; the PML sleeps
     * for a flag only in a module that has it): wake the peer of `ep` if it sleeps in its
     * wait(), after the caller changed what the peer's wait_ready looks at.  A
     * sequentially consistent fence comes first, inside.  `ep` NULL: this process's own
     * wait(), from another of its threads (any thread may call it, without the PML's
     * state).  Shorter modules lack it: check `size`.
     */
    void (*wake)(btl_endpoint_t *ep);
} btl_module_t;

typedef struct btl_component {
    size_t size;
    int abi_version;        /* BTL_ABI_VERSION */
    const char *name;
    const char *description;
    /* NULL when the component cannot run here (the reason goes to log_verbose) */
    btl_module_t *(*open)(const btl_services_t *svc);
} btl_component_t;

/* ---- btl_base.c: loading and selection (used by the PML) ------------------------- */

/* Opens the components named by the "btl" parameter (default "self,sm,ofi", or "self,sm"
   when built without libfabric), as modules found next to libmpi (or in
   $COMPI_MCA_module_path), or built in.  A component that declines to run here (open()
   gives NULL) is skipped; a name that cannot be loaded is an error.  The module array belongs to btl_base until btl_base_close(), which unloads the
   modules and must come after each module's finalize(). */
compi_status_t btl_base_open(const btl_services_t *svc, btl_module_t ***modules_p, int *n_p);
/* After btl_base_open: opens component `name` (not open yet, named by the "btl"
   parameter) with `svc` (late_open set) and adds it to the module array, whose count
   *n_p gets.  COMPI_OK, or an error with the reason in why[0..len) (also when the
   component declined: what it said with svc->log_error, which the caller's services
   should capture). */
compi_status_t btl_base_open_late(const char *name, const btl_services_t *svc, int *n_p, char *why,
                                  size_t len);
void btl_base_close(void);

#endif
