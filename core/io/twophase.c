/*
 * twophase.c -- collective file access (core/io/io_coll.h) as a collective of the file's
 * communicator: MPI_File_write_all, read_all, the _at_all, split and nonblocking forms
 * reach compi_io_coll_write / _read, which describe the access as a call of kind
 * file-write or file-read (coll_io_t: the rank's segments, its packed buffer, the
 * descriptor, the atomic flag and the collective-buffering hints) and run it through
 * the trampolines of fh->comm, like every collective:
 *
 *   MPI_File_write_all -> file layer: segments of the view, packed buffer
 *     -> compi_io_coll_write -> tramp_run(call: kind file-write, comm fh->comm)
 *          hit: the cached closure; miss: the creators ((compi defaults):
 *          default-file-write reads the hints, picks the aggregators, answers
 *          (native 'file-write 'two-phase ...) or 'direct; a config may choose)
 *     -> core/coll/algorithms/file_write/two_phase.c: the exchange and the I/O
 *
 * The key is the kind alone (bytes 0: each rank moves its own bytes), so one closure
 * per kind serves every access of a file while its hints stay the same.  The hints are
 * read at each access and kept in fh->coll_state; when they change (MPI_File_set_info,
 * set_view: collective, so every rank sees the change at the same access) the
 * communicator's cache is dropped and the next access asks the creators again.  They
 * must be the same on every rank (as MPI_File_open's info normally is): ranks whose
 * hints differ choose different closures, and the access fails on every rank with the
 * agreement's message.
 *
 * The nonblocking forms (compi_io_coll_start) take the same road through tramp_start
 * with the mode nonblocking: the closure's schedule ends in the progress engine, and the
 * access's record (io_nb_t: the coll_io_t and whom to tell) lives until the schedule is
 * freed.  compi_io_coll_in_effect asks the creators for the closure of the current hints
 * without running an access (MPI_File_get_info).
 *
 * Errors: the algorithm agrees on an errno over fh->comm, mapped here to one MPI error
 * class, so every rank returns the same.  A failure of the trampolines (a creator's
 * error) is MPI_ERR_OTHER on every rank (the agreement at the miss makes it so).
 *
 * Ownership: fh->coll_state (the hints last seen) belongs to this file; freed by
 * compi_io_coll_close.
 */
#include "core/io/io_coll.h"

#include "core/coll/coll.h"
#include "core/coll/phases/file_io.h"
#include "core/include/compi_common.h"
#include "scheme/bridge.h"
#include "trampolines/tramp.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* the hints creators read (creators/compi/defaults.scm): ROMIO's collective buffering */
static const char *const io_coll_hint_keys[] = {
    "cb_nodes", "cb_buffer_size", "cb_config_list", "romio_cb_write", "romio_cb_read",
};
#define IO_COLL_NHINTS (sizeof(io_coll_hint_keys) / sizeof(io_coll_hint_keys[0]))

/* fh->coll_state: the hints as the creators last saw them */
typedef struct io_coll_state {
    char *value[IO_COLL_NHINTS]; /* NULL: not set */
    int seen;                    /* an access has run */
} io_coll_state_t;

static int io__same(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* the file's hints into kv (key, value, ..., NULL), and the cache dropped when they
   changed since the last access */
static int io__hints(compi_file_t *fh, const char **kv)
{
    io_coll_state_t *s = fh->coll_state;
    if (s == NULL) {
        if ((s = calloc(1, sizeof(*s))) == NULL) {
            return MPI_ERR_NO_MEM;
        }
        fh->coll_state = s;
    }
    int changed = 0, n = 0;
    for (size_t i = 0; i < IO_COLL_NHINTS; i++) {
        const char *v = compi_file_hint(fh, io_coll_hint_keys[i]);
        if (!io__same(v, s->value[i])) {
            char *copy = v != NULL ? strdup(v) : NULL;
            if (v != NULL && copy == NULL) {
                return MPI_ERR_NO_MEM;
            }
            free(s->value[i]);
            s->value[i] = copy;
            changed = 1;
        }
        if (s->value[i] != NULL) {
            kv[n++] = io_coll_hint_keys[i];
            kv[n++] = s->value[i];
        }
    }
    kv[n] = NULL;
    if (changed && s->seen) {
        tramp_flush_comm(fh->comm);
    }
    s->seen = 1;
    return MPI_SUCCESS;
}

/* the agreed errno as an MPI error class */
static int io__class(int err)
{
    switch (err) {
    case 0:
        return MPI_SUCCESS;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case EFBIG:
        return MPI_ERR_IO;
    case EACCES:
    case EPERM:
    case EROFS:
    case EBADF:
        return MPI_ERR_ACCESS;
    case ENOMEM:
        return MPI_ERR_NO_MEM;
    default:
        return MPI_ERR_IO;
    }
}

static int io__run(compi_file_t *fh, coll_kind_t kind, const compi_io_seg_t *segs, size_t nsegs,
                   void *buf, MPI_Offset *moved)
{
    COMPI_STATIC_ASSERT(sizeof(compi_io_seg_t) == sizeof(coll_io_seg_t) &&
                            offsetof(compi_io_seg_t, len) == offsetof(coll_io_seg_t, len),
                        "the file layer's segments are the algorithm's");
    const char *kv[2 * IO_COLL_NHINTS + 1];
    int rc = io__hints(fh, kv);
    /* a rank that cannot even keep its hints still takes part, with none: the
       agreement at the miss, or the algorithm's, then fails the access everywhere */
    if (rc != MPI_SUCCESS) {
        kv[0] = NULL;
    }
    coll_io_t io = {.fd = fh->fd,
                    .atomic = fh->atomic,
                    .segs = (const coll_io_seg_t *)segs,
                    .nsegs = nsegs,
                    .buf = buf,
                    .hints = kv};
    coll_call_t call = {.kind = kind, .comm = fh->comm, .root = -1, .io = &io};
    compi_status_t st = tramp_run(&call);
    if (moved != NULL) {
        *moved = st == COMPI_OK ? (MPI_Offset)io.moved : 0;
    }
    if (st != COMPI_OK) {
        /* a failed miss: its message (the same on every rank) stays for the API layer
           to take (tramp_error_take) with the class */
        return st == COMPI_ERR_NO_MEMORY ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
    }
    return rc != MPI_SUCCESS ? rc : io__class(io.err);
}

int compi_io_coll_write(compi_file_t *fh, const compi_io_seg_t *segs, size_t nsegs, const void *buf,
                        MPI_Offset *moved)
{
    return io__run(fh, COLL_FILE_WRITE, segs, nsegs, (void *)buf, moved);
}

int compi_io_coll_read(compi_file_t *fh, const compi_io_seg_t *segs, size_t nsegs, void *buf,
                       MPI_Offset *moved)
{
    return io__run(fh, COLL_FILE_READ, segs, nsegs, buf, moved);
}

/* a nonblocking access: the call's io, which the schedule holds, and whom to tell */
typedef struct io_nb {
    coll_io_t io; /* first: the schedule's release hands back &io */
    compi_io_done_fn_t done;
    void *arg;
    int *held_p; /* compi_io_coll_start's, while it runs */
} io_nb_t;

static void io__nb_release(coll_io_t *io)
{
    io_nb_t *nb = (io_nb_t *)io;
    if (nb->held_p != NULL) {
        *nb->held_p = 0;
    }
    int cls = io->err == 0 ? MPI_SUCCESS : io->err > 0 ? io__class(io->err) : MPI_ERR_OTHER;
    nb->done(nb->arg, cls, cls == MPI_SUCCESS ? (MPI_Offset)io->moved : 0);
    free(nb);
}

int compi_io_coll_start(compi_file_t *fh, int write, const compi_io_seg_t *segs, size_t nsegs,
                        void *buf, compi_io_done_fn_t done, void *arg, struct compi_request **req_p)
{
    const char *kv[2 * IO_COLL_NHINTS + 1];
    io_nb_t *nb = malloc(sizeof(*nb));
    *req_p = NULL;
    if (nb == NULL) {
        done(arg, MPI_ERR_NO_MEM, 0);
        return MPI_ERR_NO_MEM;
    }
    int rc = io__hints(fh, kv);
    if (rc != MPI_SUCCESS) {
        kv[0] = NULL; /* as io__run: take part, and fail everywhere */
    }
    *nb = (io_nb_t){.io = {.fd = fh->fd,
                           .atomic = fh->atomic,
                           .segs = (const coll_io_seg_t *)segs,
                           .nsegs = nsegs,
                           .buf = buf,
                           .hints = kv,
                           .err = -1,
                           .release = NULL},
                    .done = done,
                    .arg = arg,
                    .held_p = NULL};
    coll_call_t call = {.kind = write ? COLL_FILE_WRITE : COLL_FILE_READ,
                        .mode = COLL_MODE_NONBLOCKING,
                        .comm = fh->comm,
                        .root = -1,
                        .io = &nb->io};
    /* from here a schedule, once built, holds nb and releases it (io__nb_release, which
       clears `held` while this call still runs) */
    int held = 1;
    nb->held_p = &held;
    nb->io.release = io__nb_release;
    compi_status_t st = tramp_start(&call, req_p);
    if (held) {
        nb->held_p = NULL;
        nb->io.hints = NULL; /* kv ends with this call; only the creators read it */
    }
    if (st != COMPI_OK) {
        int cls = st == COMPI_ERR_NO_MEMORY ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
        if (held) {
            /* no schedule was built (a failed miss, out of memory): nobody else will */
            done(arg, cls, 0);
            free(nb);
        }
        return cls;
    }
    return MPI_SUCCESS;
}

int compi_io_coll_in_effect(compi_file_t *fh, int write, int *aggregators, MPI_Offset *cb_bytes,
                            int *automatic)
{
    const char *kv[2 * IO_COLL_NHINTS + 1];
    int n = 0;
    for (size_t i = 0; i < IO_COLL_NHINTS; i++) {
        const char *v = compi_file_hint(fh, io_coll_hint_keys[i]);
        if (v != NULL) {
            kv[n++] = io_coll_hint_keys[i];
            kv[n++] = v;
        }
    }
    kv[n] = NULL;
    coll_io_t io = {.fd = fh->fd, .atomic = fh->atomic, .hints = kv, .describe = 1};
    coll_call_t call = {
        .kind = write ? COLL_FILE_WRITE : COLL_FILE_READ, .comm = fh->comm, .root = -1, .io = &io};
    coll_closure_t *c = NULL;
    char err[256];
    if (bridge_build_closure(&call, &c, err, sizeof(err)) != COMPI_OK) {
        return -1;
    }
    /* only a native file algorithm ("file-write:two-phase(...)") is asked: a wrapper
       (a check, a profile) may communicate */
    const char *kind = write ? "file-write:" : "file-read:";
    int ok = !c->is_scheme && strncmp(c->name, kind, strlen(kind)) == 0 &&
             c->fn(c, &call) == COMPI_OK;
    coll_closure_release(c);
    if (!ok) {
        return -1;
    }
    *aggregators = io.aggregators;
    *cb_bytes = io.aggregators > 0 ? io.cb_bytes : COLL_FILE_CB_DEFAULT;
    *automatic = io.automatic;
    return 0;
}

void compi_io_coll_close(compi_file_t *fh)
{
    io_coll_state_t *s = fh->coll_state;
    if (s == NULL) {
        return;
    }
    for (size_t i = 0; i < IO_COLL_NHINTS; i++) {
        free(s->value[i]);
    }
    free(s);
    fh->coll_state = NULL;
}
