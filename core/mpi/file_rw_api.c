/*
 * file_rw_api.c -- MPI-IO data access: one engine (file_access) behind every read and
 * write, whose generated entry points (core/mpi/gen/file_rw.c) share three
 * implementations (file_at_impl, file_ptr_impl, file_end_impl), and the file pointers
 * (seek, get_position, get_byte_offset and their shared forms).
 *
 * An access packs the user's data in the file's representation, maps [position, +bytes)
 * of the view to byte ranges of the file (io_view_map) and moves them with pread/pwrite,
 * through collective I/O (core/io/io_coll.h) for the collective forms.  In atomic mode an
 * independent access holds an fcntl lock over the bytes it spans; a collective one in
 * atomic mode is done the same way, then the ranks agree on the error.  The independent
 * nonblocking forms do all of it when called and return a request already complete; the
 * collective ones start a nonblocking collective (file_istart) whose end, in the
 * progress engine, unpacks a read and fills the request (xfer_done); a split
 * collective's _begin starts one and its _end waits for it (an ordered one is done at
 * its _begin).
 */
#include "core/mpi/file_args.h"

#include "core/io/io_coll.h"
#include "core/mpi/req_handle.h"
#include "core/mpi/status_word.h"
#include "trampolines/tramp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { FA_EXPLICIT, FA_INDIV, FA_SHARED, FA_ORDERED };

/* one access as the engine sees it */
typedef struct file_op {
    int write, where, coll;
    MPI_Offset offset; /* FA_EXPLICIT: in etypes */
    void *buf;
    MPI_Count count;
    MPI_Datatype type;
    const char *fn;
} file_op_t;

/* the view position (bytes) where an access of n bytes starts, the pointers moved */
static int op_start(compi_file_t *f, const file_op_t *op, MPI_Offset n, MPI_Offset *pos_p)
{
    MPI_Offset et = n / f->view.esize, old = 0;
    switch (op->where) {
    case FA_EXPLICIT:
        *pos_p = op->offset * f->view.esize;
        return MPI_SUCCESS;
    case FA_INDIV:
        *pos_p = f->ifp * f->view.esize;
        return MPI_SUCCESS;
    case FA_SHARED:
        if (io_shfp_fetch_add(f, et, &old) != 0) {
            return MPI_ERR_IO;
        }
        *pos_p = old * f->view.esize;
        return MPI_SUCCESS;
    default: { /* ordered: rank order by an exclusive scan, one update by the last rank */
        MPI_Offset before = 0, base = 0;
        MPI_Comm c = f->comm->handle;
        int last = f->comm->size - 1, cls = MPI_SUCCESS;
        PMPI_Exscan(&et, &before, 1, MPI_LONG_LONG, MPI_SUM, c);
        if (f->comm->rank == 0) {
            before = 0;
        }
        if (f->comm->rank == last && io_shfp_fetch_add(f, before + et, &base) != 0) {
            cls = MPI_ERR_IO;
        }
        MPI_Offset msg[2] = {base, cls};
        PMPI_Bcast(msg, 2, MPI_LONG_LONG, last, c);
        *pos_p = (msg[0] + before) * f->view.esize;
        return (int)msg[1];
    }
    }
}

/* user data -> file bytes (nbytes of them) in *out_p: the user's buffer itself when it
   already is, else a buffer the caller frees (*tmp_p) */
static int op_pack(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt, MPI_Offset nbytes,
                   void **out_p, void **tmp_p)
{
    void *tmp;
    *tmp_p = NULL;
    if (f->view.rep != IO_REP_EXTERNAL32 && f->view.rep < IO_REP_USER &&
        (*out_p = dt_contig_ptr(dt, op->buf, (size_t)op->count)) != NULL) {
        return MPI_SUCCESS;
    }
    if ((tmp = malloc(nbytes > 0 ? (size_t)nbytes : 1)) == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (f->view.rep == IO_REP_EXTERNAL32) {
        dt_pack_external(dt, op->buf, (size_t)op->count, tmp);
    } else if (f->view.rep >= IO_REP_USER && (file_datarep_get(f->view.rep)->write_fn != NULL ||
                                              file_datarep_get(f->view.rep)->write_fn_c != NULL)) {
        const file_datarep_t *d = file_datarep_get(f->view.rep);
        int rc = d->write_fn_c != NULL
                     ? d->write_fn_c(op->buf, op->type, op->count, tmp, 0, d->extra_state)
                     : d->write_fn(op->buf, op->type, (int)op->count, tmp, 0, d->extra_state);
        if (rc != MPI_SUCCESS) {
            free(tmp);
            return MPI_ERR_CONVERSION;
        }
    } else {
        dt_pack(dt, op->buf, (size_t)op->count, 0, tmp, (size_t)nbytes);
    }
    *out_p = *tmp_p = tmp;
    return MPI_SUCCESS;
}

/* file bytes read (moved of them) -> the user's buffer; returns memory's bytes */
static MPI_Offset op_unpack(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt,
                            MPI_Offset nbytes, MPI_Offset moved, const void *tmp)
{
    MPI_Offset per = op->count > 0 ? nbytes / op->count : 0; /* file bytes of an element */
    if (f->view.rep == IO_REP_EXTERNAL32) {
        MPI_Offset whole = per > 0 ? moved / per : 0;
        dt_unpack_external(dt, op->buf, (size_t)whole, tmp);
        return whole * (MPI_Offset)dt->size;
    }
    if (f->view.rep >= IO_REP_USER && (file_datarep_get(f->view.rep)->read_fn != NULL ||
                                       file_datarep_get(f->view.rep)->read_fn_c != NULL)) {
        const file_datarep_t *d = file_datarep_get(f->view.rep);
        MPI_Offset whole = per > 0 ? moved / per : 0;
        if (d->read_fn_c != NULL) {
            d->read_fn_c(op->buf, op->type, whole, (void *)tmp, 0, d->extra_state);
        } else {
            d->read_fn(op->buf, op->type, (int)whole, (void *)tmp, 0, d->extra_state);
        }
        return whole * (MPI_Offset)dt->size;
    }
    dt_unpack(dt, op->buf, (size_t)op->count, 0, tmp, (size_t)moved);
    return moved;
}

/* the class of a read or write's -errno (a write to a file on a full device) */
static int rw_class(int rc)
{
    return rc == 0 ? MPI_SUCCESS : file_errno_class(-rc);
}

/* one access's state from its ranges to its end (a nonblocking one's lives until its
   collective ends: xfer_done) */
typedef struct file_xfer {
    compi_file_t *f;
    file_op_t op;
    compi_datatype_t *dt;
    MPI_Offset nbytes, pos, lo, hi;
    io_run_t *segs;
    size_t ns;
    void *data, *tmp;
    /* nonblocking: */
    int cls;              /* a failure of this rank's before the collective */
    compi_request_t *req; /* NULL while the start runs */
    int ended;            /* xfer_done ran before the request was known */
    int split;            /* a split collective's _begin */
    MPI_Offset moved;
} file_xfer_t;

/* the access's place and ranges; nothing is kept on failure */
static int xfer_map(file_xfer_t *x, char *why, size_t whylen)
{
    compi_file_t *f = x->f;
    x->nbytes = file_rep_bytes(f, x->dt, x->op.count);
    if (x->nbytes % f->view.esize != 0) {
        snprintf(why, whylen, "the data (%lld bytes) is not a whole number of etypes",
                 (long long)x->nbytes);
        return MPI_ERR_TYPE;
    }
    int cls = op_start(f, &x->op, x->nbytes, &x->pos);
    if (cls != MPI_SUCCESS) {
        snprintf(why, whylen, "the shared file pointer cannot be updated");
        return cls;
    }
    if (io_view_map(&f->view, x->pos, x->nbytes, &x->segs, &x->ns) != 0) {
        return MPI_ERR_NO_MEM;
    }
    x->lo = x->ns > 0 ? x->segs[0].off : 0;
    x->hi = x->lo;
    for (size_t i = 0; i < x->ns; i++) {
        x->lo = x->segs[i].off < x->lo ? x->segs[i].off : x->lo;
        x->hi = x->segs[i].off + x->segs[i].len > x->hi ? x->segs[i].off + x->segs[i].len : x->hi;
    }
    return MPI_SUCCESS;
}

/* the file's bytes: packed for a write, room for a read (the user's buffer when it is
   already the file's layout) */
static int xfer_data(file_xfer_t *x)
{
    const file_op_t *op = &x->op;
    compi_file_t *f = x->f;
    if (op->write) {
        return op_pack(f, op, x->dt, x->nbytes, &x->data, &x->tmp);
    }
    if (f->view.rep < IO_REP_EXTERNAL32 &&
        (x->data = dt_contig_ptr(x->dt, op->buf, (size_t)op->count)) != NULL) {
        return MPI_SUCCESS;
    }
    x->data = x->tmp = malloc(x->nbytes > 0 ? (size_t)x->nbytes : 1);
    return x->data != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* the end of an access that moved `moved` file bytes: a read's bytes unpacked, the
   buffers freed; returns memory's bytes */
static MPI_Offset xfer_finish(file_xfer_t *x, int cls, MPI_Offset moved)
{
    compi_file_t *f = x->f;
    if (!x->op.write && cls == MPI_SUCCESS && x->data == x->tmp) {
        moved = op_unpack(f, &x->op, x->dt, x->nbytes, moved, x->tmp);
    } else if (x->nbytes > 0 && (f->view.rep == IO_REP_EXTERNAL32 || f->view.rep >= IO_REP_USER)) {
        moved = moved * (MPI_Offset)x->dt->size * x->op.count / x->nbytes;
    }
    free(x->tmp);
    free(x->segs);
    x->tmp = x->data = NULL;
    x->segs = NULL;
    return moved;
}

/* The access itself; *moved_p gets memory's bytes moved.  Returns MPI_SUCCESS or a class
   (raised by the caller). */
static int file_access(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt,
                       MPI_Offset *moved_p, char *why, size_t whylen)
{
    file_xfer_t x = {.f = f, .op = *op, .dt = dt};
    MPI_Offset moved = 0;
    int cls, locked = 0;

    *moved_p = 0;
    if ((cls = xfer_map(&x, why, whylen)) != MPI_SUCCESS) {
        return cls;
    }
    cls = xfer_data(&x);
    if (cls == MPI_SUCCESS && f->atomic && x.ns > 0) {
        cls = rw_class(io_lock(f, x.lo, x.hi - x.lo, op->write));
        locked = cls == MPI_SUCCESS;
    }
    if (op->coll && !f->atomic && op->where != FA_ORDERED) {
        /* every rank takes part, one that failed above with nothing to move */
        size_t n = cls == MPI_SUCCESS ? x.ns : 0;
        const compi_io_seg_t *segs = (const compi_io_seg_t *)x.segs;
        int c = op->write ? compi_io_coll_write(f, segs, n, x.data, &moved)
                          : compi_io_coll_read(f, segs, n, x.data, &moved);
        cls = cls != MPI_SUCCESS ? cls : c;
    } else if (cls == MPI_SUCCESS) {
        cls = rw_class(op->write ? io_pwrite_runs(f->fd, x.segs, x.ns, x.data, &moved)
                                 : io_pread_runs(f->fd, x.segs, x.ns, x.data, &moved));
    }
    if (locked) {
        /* before the agreement: ranks whose ranges interleave wait for each other's lock */
        io_unlock(f, x.lo, x.hi - x.lo);
    }
    if (op->coll && (f->atomic || op->where == FA_ORDERED)) {
        cls = file_agree(f->comm, cls);
    }
    MPI_Offset nbytes = x.nbytes;
    moved = xfer_finish(&x, cls, moved);
    if (op->where == FA_INDIV && dt->size > 0 && op->count > 0) {
        /* the pointer moves past what was read or written, in etypes */
        f->ifp += (moved * nbytes / ((MPI_Offset)dt->size * op->count)) / f->view.esize;
    }
    *moved_p = moved;
    if (cls != MPI_SUCCESS) {
        /* a collective whose closure could not be chosen says why (its creators' error,
           the same on every rank) */
        const char *miss = op->coll ? tramp_error_take(NULL) : NULL;
        snprintf(why, whylen, "%s %s failed%s%s", op->write ? "writing" : "reading", f->path,
                 miss != NULL ? ": " : "", miss != NULL ? miss : "");
    }
    return cls;
}

/* the individual pointer and explicit offsets do not exist under MPI_MODE_SEQUENTIAL */
static int not_sequential(compi_file_t *f, const char *fn)
{
    if (f->amode & MPI_MODE_SEQUENTIAL) {
        return file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                        "%s was opened MPI_MODE_SEQUENTIAL: only the shared file pointer", f->path);
    }
    return MPI_SUCCESS;
}

/* an access's arguments that the file's state judges (the generated entry points checked
   the rest); raises on the file's handler */
static int file_check(compi_file_t *f, const file_op_t *op)
{
    int rc;
    if (op->write && (f->amode & MPI_MODE_RDONLY)) {
        return file_err(f, MPI_ERR_READ_ONLY, op->fn, "%s was opened MPI_MODE_RDONLY", f->path);
    }
    if (!op->write && (f->amode & MPI_MODE_WRONLY)) {
        return file_err(f, MPI_ERR_ACCESS, op->fn, "%s was opened MPI_MODE_WRONLY", f->path);
    }
    if ((op->where == FA_EXPLICIT || op->where == FA_INDIV) &&
        (rc = not_sequential(f, op->fn)) != MPI_SUCCESS) {
        return rc;
    }
    if ((op->where == FA_SHARED || op->where == FA_ORDERED) && f->side_fd < 0) {
        return file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, op->fn,
                        "no shared file pointer: its file beside %s could not be made", f->path);
    }
    return MPI_SUCCESS;
}

/* the checks, then the access; raises on the file's handler */
static int file_go(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt, MPI_Offset *moved_p)
{
    char why[1024] = ""; /* room for a creator's message (file_access) */
    *moved_p = 0;
    int rc = file_check(f, op);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = file_access(f, op, dt, moved_p, why, sizeof(why));
    return rc == MPI_SUCCESS ? rc : file_err(f, rc, op->fn, "%s", why);
}

/* ---- nonblocking collective access: started here, ended by the progress engine ----- */

/* the access's outcome on its request: the bytes for the status; a failure as the
   request's error with a message (a collective's: the same class on every rank) */
static void xfer_report(file_xfer_t *x, compi_request_t *r)
{
    r->result.count = (size_t)x->moved;
    if (x->cls != MPI_SUCCESS && r->result.error == COMPI_OK) {
        char text[512], cls[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        PMPI_Error_string(x->cls, cls, &len);
        snprintf(text, sizeof(text), "%s: %s %s failed: %s", x->op.fn,
                 x->op.write ? "writing" : "reading", x->f->path, cls);
        r->result.error = x->cls == MPI_ERR_NO_MEM ? COMPI_ERR_NO_MEMORY : COMPI_ERR_IO;
        free(r->errtext);
        r->errtext = strdup(text);
        r->errclass = r->errtext != NULL ? x->cls : 0; /* MPI_ERR_IO, _NO_SPACE, ... */
        r->err_report = 1;
    }
}

static void xfer_free(file_xfer_t *x)
{
    dt_release(x->dt);
    free(x);
}

/* compi_io_coll_start's done: the collective ended on this rank (or failed) */
static void xfer_done(void *arg, int cls, MPI_Offset moved)
{
    file_xfer_t *x = arg;
    x->cls = x->cls != MPI_SUCCESS ? x->cls : cls;
    x->moved = xfer_finish(x, x->cls, moved);
    if (x->split) {
        x->f->split_err = x->cls; /* its _end reports it */
    }
    if (x->req != NULL) {
        xfer_report(x, x->req);
        xfer_free(x);
    } else {
        x->ended = 1;
    }
}

/* start a nonblocking collective access (MPI_File_iwrite_all, iread_at_all, a split
   collective's _begin): its request in *r_p, or a class raised on the file's handler */
static int file_istart(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt, int split,
                       compi_request_t **r_p)
{
    char why[256] = "";
    *r_p = NULL;
    int rc = file_check(f, op);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    file_xfer_t *x = calloc(1, sizeof(*x));
    if (x == NULL) {
        return file_err(f, MPI_ERR_NO_MEM, op->fn, "out of memory");
    }
    *x = (file_xfer_t){.f = f, .op = *op, .dt = dt, .split = split};
    dt_retain(dt); /* the program may free its type before the access ends */
    if ((rc = xfer_map(x, why, sizeof(why))) != MPI_SUCCESS) {
        xfer_free(x);
        return file_err(f, rc, op->fn, "%s", why);
    }
    /* one that cannot take its buffers still takes part, with nothing */
    x->cls = xfer_data(x);
    if (op->where == FA_INDIV) {
        /* a nonblocking access moves the pointer by what it asks for (MPI 4.1, 14.4.3) */
        f->ifp += x->nbytes / f->view.esize;
    }
    size_t n = x->cls == MPI_SUCCESS ? x->ns : 0;
    rc = compi_io_coll_start(f, op->write, (const compi_io_seg_t *)x->segs, n, x->data, xfer_done,
                             x, r_p);
    /* xfer_done has run when the start failed, and may have when it ended at once */
    if (rc != MPI_SUCCESS) {
        const char *miss = tramp_error_take(NULL);
        xfer_free(x);
        return file_err(f, rc, op->fn, "%s %s failed%s%s", op->write ? "writing" : "reading",
                        f->path, miss != NULL ? ": " : "", miss != NULL ? miss : "");
    }
    if (x->ended) {
        xfer_report(x, *r_p);
        xfer_free(x);
    } else {
        x->req = *r_p;
    }
    return MPI_SUCCESS;
}

static void file_status(MPI_Status *status, MPI_Offset moved)
{
    if (status != NULL && status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = MPI_ANY_SOURCE;
        status->MPI_TAG = MPI_ANY_TAG;
        status->count_hi_and_cancelled = 0;
        mpi_status_set_bytes(status, moved);
    }
}

static int file_blocking(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt,
                         MPI_Status *status)
{
    MPI_Offset moved = 0;
    int rc = file_go(f, op, dt, &moved);
    file_status(status, moved);
    return rc;
}

/* a collective one started (file_istart); an independent one now, and a request already
   complete that reports it */
static int file_nonblocking(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt,
                            MPI_Request *request)
{
    MPI_Offset moved = 0;
    int rc;
    *request = MPI_REQUEST_NULL;
    if (op->coll) {
        compi_request_t *r;
        if ((rc = file_istart(f, op, dt, 0, &r)) != MPI_SUCCESS) {
            return rc;
        }
        return mpi_req_expose(NULL, r, request, op->fn);
    }
    if ((rc = file_go(f, op, dt, &moved)) != MPI_SUCCESS) {
        return rc;
    }
    compi_request_t *r = pml_request_new(REQ_COLL, NULL);
    if (r == NULL) {
        return file_err(f, MPI_ERR_NO_MEM, op->fn, "out of requests");
    }
    r->result.count = (size_t)moved;
    pml_request_complete(r);
    return mpi_req_expose(NULL, r, request, op->fn);
}

/* a split collective's kinds: the _begin's table index + 1 (FA_SPLIT) */
static int split_kind(const file_op_t *op)
{
    return 1 + op->write + 2 * op->where;
}

static int file_begin(compi_file_t *f, const file_op_t *op, compi_datatype_t *dt)
{
    MPI_Offset moved = 0;
    int rc;
    if (f->split != 0) {
        return file_err(f, MPI_ERR_IO, op->fn,
                        "a split collective access on this file has not ended");
    }
    if (op->where == FA_ORDERED) {
        /* the ordered position is itself a collective (a scan): done here, whole */
        rc = file_go(f, op, dt, &moved);
        f->split_req = NULL;
    } else {
        f->split_err = MPI_SUCCESS; /* until the access's end says otherwise */
        rc = file_istart(f, op, dt, 1, &f->split_req);
    }
    f->split = split_kind(op);
    f->split_moved = moved;
    f->split_err = rc != MPI_SUCCESS ? rc : f->split_err;
    return rc;
}

/* ---- the data access procedures (their entry points: core/mpi/gen/file_rw.c) --------- */

/* how an access is made: the entry points' `how`, or'ed (tools/mpigen/cgen.py, FILE_ACCESS) */
enum { FILE_WRITE = 1, FILE_COLL = 2, FILE_NB = 4, FILE_SPLIT = 8 };

/* every read and write but a split collective's end: blocking, nonblocking (a request) or
   a split collective's _begin */
static int file_at_impl(compi_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
                        compi_datatype_t *datatype, MPI_Status *status, MPI_Request *request,
                        int where, int how, const char *fn)
{
    file_op_t op = {.write = (how & FILE_WRITE) != 0,
                    .where = where,
                    .coll = (how & FILE_COLL) != 0,
                    .offset = offset,
                    .buf = buf,
                    .count = count,
                    .type = datatype->handle,
                    .fn = fn};
    if (how & FILE_SPLIT) {
        return file_begin(fh, &op, datatype);
    }
    if (how & FILE_NB) {
        return file_nonblocking(fh, &op, datatype, request);
    }
    return file_blocking(fh, &op, datatype, status);
}

/* the accesses through a file pointer (individual, shared, ordered) */
static int file_ptr_impl(compi_file_t *fh, void *buf, MPI_Count count, compi_datatype_t *datatype,
                         MPI_Status *status, MPI_Request *request, int where, int how,
                         const char *fn)
{
    return file_at_impl(fh, 0, buf, count, datatype, status, request, where, how, fn);
}

/* a split collective's _end: the access its _begin started, of the same kind */
static int file_end_impl(compi_file_t *fh, void *buf, MPI_Status *status, int where, int how,
                         const char *fn)
{
    file_op_t op = {.write = (how & FILE_WRITE) != 0, .where = where};
    (void)buf;
    if (fh->split != split_kind(&op)) {
        return file_err(fh, MPI_ERR_IO, fn, "no matching split collective access began");
    }
    fh->split = 0;
    compi_request_t *r = fh->split_req;
    fh->split_req = NULL;
    if (r == NULL) {
        file_status(status, fh->split_moved);
        return MPI_SUCCESS;
    }
    /* the access began as a nonblocking collective: its end is its completion */
    (void)pml_wait(r, NULL);
    file_status(status, (MPI_Offset)r->result.count);
    int cls = fh->split_err != MPI_SUCCESS ? fh->split_err : MPI_ERR_OTHER;
    int rc = r->result.error == COMPI_OK ? MPI_SUCCESS : cls;
    char why[512];
    snprintf(why, sizeof(why), "%s", r->errtext != NULL ? r->errtext : "the access failed");
    pml_request_free(r);
    return rc == MPI_SUCCESS ? rc : file_err(fh, rc, fn, "%s", why);
}

/* ---- file pointers ----------------------------------------------------------------- */

/* the new position of a seek from `cur`, in etypes (whence checked); negative when
   before the start */
static MPI_Offset seek_target(compi_file_t *f, MPI_Offset offset, int whence, MPI_Offset cur)
{
    switch (whence) {
    case MPI_SEEK_SET:
        return offset;
    case MPI_SEEK_CUR:
        return cur + offset;
    default: {
        /* MPI_SEEK_END: the etypes of the view before the file's end */
        MPI_Offset size = 0, n = 0;
        PMPI_File_get_size(f, &size);
        /* count view bytes that lie below `size`: whole tiles, then runs */
        if (f->view.tsize > 0 && size > f->view.disp) {
            MPI_Offset rel = size - f->view.disp, tiles = rel / f->view.extent;
            MPI_Offset rest = rel % f->view.extent;
            n = tiles * f->view.tsize;
            for (size_t i = 0; i < f->view.nruns; i++) {
                const io_run_t *r = &f->view.runs[i];
                if (rest > r->off) {
                    n += rest - r->off < r->len ? rest - r->off : r->len;
                }
            }
        }
        return (n + f->view.esize - 1) / f->view.esize + offset;
    }
    }
}

static int file_seek_impl(compi_file_t *fh, MPI_Offset offset, int whence, const char *fn)
{
    int rc;
    if ((rc = not_sequential(fh, fn)) != MPI_SUCCESS) {
        return rc;
    }
    MPI_Offset to = seek_target(fh, offset, whence, fh->ifp);
    if (to < 0) {
        return file_err(fh, MPI_ERR_ARG, fn, "whence=%d, offset=%lld: a negative position", whence,
                        (long long)offset);
    }
    fh->ifp = to;
    return MPI_SUCCESS;
}

static int file_get_position_impl(compi_file_t *fh, MPI_Offset *offset, const char *fn)
{
    int rc;
    if ((rc = not_sequential(fh, fn)) != MPI_SUCCESS) {
        return rc;
    }
    *offset = fh->ifp;
    return MPI_SUCCESS;
}

static int file_get_byte_offset_impl(compi_file_t *fh, MPI_Offset offset, MPI_Offset *disp,
                                     const char *fn)
{
    int rc;
    if ((rc = not_sequential(fh, fn)) != MPI_SUCCESS) {
        return rc;
    }
    *disp = io_view_offset(&fh->view, offset * fh->view.esize);
    return MPI_SUCCESS;
}

/* collective: every rank gives the same arguments; rank 0 moves the pointer */
static int file_seek_shared_impl(compi_file_t *fh, MPI_Offset offset, int whence, const char *fn)
{
    int cls = MPI_SUCCESS;
    MPI_Offset cur = 0, to = 0;
    if (fh->side_fd < 0) {
        return file_err(fh, MPI_ERR_UNSUPPORTED_OPERATION, fn, "no shared file pointer");
    }
    /* every rank is done with the pointer where it was before rank 0 moves it */
    PMPI_Barrier(fh->comm->handle);
    if (fh->comm->rank == 0) {
        if (io_shfp_get(fh, &cur) != 0) {
            cls = MPI_ERR_IO;
        } else {
            to = seek_target(fh, offset, whence, cur);
            cls = to < 0 ? MPI_ERR_ARG : rw_class(io_shfp_set(fh, to));
        }
    }
    PMPI_Bcast(&cls, 1, MPI_INT, 0, fh->comm->handle);
    if (cls != MPI_SUCCESS) {
        return file_err(fh, cls, fn, "cannot move the shared file pointer (offset %lld, whence %d)",
                        (long long)offset, whence);
    }
    return MPI_SUCCESS;
}

static int file_get_position_shared_impl(compi_file_t *fh, MPI_Offset *offset, const char *fn)
{
    if (fh->side_fd < 0 || io_shfp_get(fh, offset) != 0) {
        return file_err(fh, MPI_ERR_UNSUPPORTED_OPERATION, fn, "no shared file pointer");
    }
    return MPI_SUCCESS;
}

#include "core/mpi/gen/file_rw.c"
