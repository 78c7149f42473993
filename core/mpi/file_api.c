/*
 * file_api.c -- MPI-IO: opening, closing and deleting files, their size, group, access
 * mode, hints, atomicity and error handlers (core/io/file.h; docs/architecture.md,
 * "MPI-IO").  Views are in file_view_api.c, data access in file_rw_api.c.
 */
#include "core/mpi/file_args.h"

#include "core/comm/comm_coll.h"
#include "core/mpi/args.h"
#include "core/io/io_coll.h"
#include "core/mpi/info.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

handle_table_t file_table = HANDLE_TABLE_INIT(COMPI_HKIND_FILE, 1);
static compi_errhandler_t *null_errh;

compi_errhandler_t *file_null_errh(void)
{
    if (null_errh == NULL) {
        null_errh = errh_predefined(ERRH_RETURN);
    }
    return null_errh;
}

void file_null_errh_set(compi_errhandler_t *e)
{
    errh_retain(e);
    if (null_errh != NULL) {
        errh_release(null_errh);
    }
    null_errh = e;
}

void mpi_file_finalize(void)
{
    handle_table_destroy(&file_table);
    if (null_errh != NULL) {
        errh_release(null_errh);
        null_errh = NULL;
    }
}

int file_invoke(compi_file_t *fh, int errclass, const char *fn, const char *what)
{
    compi_errhandler_t *e = fh != NULL ? fh->errh : file_null_errh();
    if (e->kind == ERRH_USER) {
        /* a file handler takes the file (a pointer), not an int handle */
        MPI_File h = fh;
        int code = errclass;
        if (e->fn != NULL) {
            ((MPI_File_errhandler_function *)(void (*)(void))e->fn)(&h, &code);
        }
        return errclass;
    }
    return mpi_err_invoke_errh(e, 0, errclass, fn, what);
}

int file_errno_class(int err)
{
    switch (err) {
    case 0:
        return MPI_SUCCESS;
    case ENOENT:
        return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
        return MPI_ERR_BAD_FILE;
    case ETXTBSY:
        return MPI_ERR_FILE_IN_USE;
    case ENOMEM:
        return MPI_ERR_NO_MEM;
    default:
        return MPI_ERR_IO;
    }
}

int file_agree(compi_comm_t *c, int cls)
{
    comm_coll_set_t set = comm_coll_whole(c);
    uint32_t any = 0;
    if (comm_coll_allreduce_max_u32(&set, (uint32_t)cls, &any) != COMPI_OK) {
        return MPI_ERR_INTERN;
    }
    return (int)any;
}

/* the info's keys as the file's hints */
static int file_hints_from(compi_file_t *fh, MPI_Info info)
{
    int n = 0;
    if (info == MPI_INFO_NULL) {
        return MPI_SUCCESS;
    }
    if (PMPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) {
        return MPI_ERR_INFO;
    }
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS ||
            PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS) {
            return MPI_ERR_INFO;
        }
        if (flag && io_file_hint_set(fh, key, val) != 0) {
            return MPI_ERR_NO_MEM;
        }
    }
    return MPI_SUCCESS;
}

/* one rank's part of an open; the class of its failure, or MPI_SUCCESS.  Rank 0 opens (and
   creates) first, so MPI_MODE_EXCL holds for the job and the others open what it made;
   then it makes the shared file pointer's sidecar. */
static int open_here(compi_comm_t *c, const char *path, int amode, compi_file_t **fh_p)
{
    comm_coll_set_t set = comm_coll_whole(c);
    int first[3] = {0, 0, 0}; /* rank 0's errno, the sidecar's id, whether it exists */
    int rc = 0;

    *fh_p = NULL;
    if (c->rank == 0) {
        rc = io_file_open(path, amode, fh_p);
        if (rc == 0) {
            first[1] = (int)(((unsigned)getpid() << 8) ^ (unsigned)time(NULL)) & 0x7fffffff;
            first[2] = io_shfp_open(*fh_p, (unsigned long)first[1], 1) == 0;
        }
        first[0] = -rc;
    }
    if (comm_coll_bcast_int(&set, first, 3) != COMPI_OK) {
        return MPI_ERR_INTERN;
    }
    if (first[0] != 0) {
        return file_errno_class(first[0]);
    }
    if (c->rank != 0) {
        rc = io_file_open(path, amode & ~(MPI_MODE_CREATE | MPI_MODE_EXCL), fh_p);
        if (rc == 0) {
            (*fh_p)->amode = amode;
            if (first[2]) {
                io_shfp_open(*fh_p, (unsigned long)first[1], 0);
            }
        }
    }
    return file_errno_class(-rc);
}

/* ---- the procedures (their entry points: core/mpi/gen/file.c) --------------------- */

static int file_open_impl(compi_comm_t *comm, const char *filename, int amode, MPI_Info info,
                          MPI_File *fh, const char *fn)
{
    compi_comm_t *dc = NULL;
    compi_file_t *f = NULL;
    MPI_Comm dup = MPI_COMM_NULL;
    int cls;

    *fh = MPI_FILE_NULL;
    /* "ufs:name" and the like name the file system first (ROMIO's habit) */
    if (strchr(filename, ':') != NULL && strchr(filename, ':') - filename > 1 &&
        strchr(filename, '/') > strchr(filename, ':')) {
        filename = strchr(filename, ':') + 1;
    }
    if (PMPI_Comm_dup(comm->handle, &dup) != MPI_SUCCESS || (dc = comm_from_handle(dup)) == NULL) {
        return file_err(NULL, MPI_ERR_INTERN, fn, "duplicating the communicator failed");
    }
    /* the file's nonblocking collectives fail on its private communicator, at MPI_Wait:
       they return their error there, as a file's accesses do by default */
    compi_errhandler_t *inherited = dc->errh;
    dc->errh = errh_predefined(ERRH_RETURN);
    errh_retain(dc->errh);
    if (inherited != NULL) {
        errh_release(inherited);
    }
    cls = open_here(dc, filename, amode, &f);
    if (cls == MPI_SUCCESS) {
        f->comm = dc;
        f->errh = file_null_errh();
        errh_retain(f->errh);
        if (io_view_set(&f->view, 0, dt_byte(), dt_byte(), 1) != 0) {
            cls = MPI_ERR_NO_MEM;
        } else {
            snprintf(f->view.rep_name, sizeof(f->view.rep_name), "native");
            cls = file_hints_from(f, info);
        }
        if (cls == MPI_SUCCESS && (amode & MPI_MODE_APPEND)) {
            struct stat sb;
            f->ifp = fstat(f->fd, &sb) == 0 ? (MPI_Offset)sb.st_size : 0;
        }
        if (cls == MPI_SUCCESS && handle_alloc(&file_table, f, &f->handle) != COMPI_OK) {
            cls = MPI_ERR_NO_MEM;
        }
    }
    cls = file_agree(dc, cls);
    if (cls != MPI_SUCCESS) {
        if (f != NULL) {
            if (f->handle != 0) {
                handle_free(&file_table, f->handle);
            }
            io_shfp_close(f, dc->rank == 0);
            if (f->errh != NULL) {
                errh_release(f->errh);
            }
            io_file_free(f);
        }
        PMPI_Comm_free(&dup);
        return file_err(NULL, cls, fn, "cannot open %s with amode 0x%x", filename, (unsigned)amode);
    }
    if ((amode & MPI_MODE_APPEND) && dc->rank == 0 && f->side_fd >= 0) {
        io_shfp_set(f, f->ifp);
    }
    /* the sidecar's pointer is set before anyone uses it */
    PMPI_Barrier(dup);
    *fh = f;
    return MPI_SUCCESS;
}

static int file_close_impl(MPI_File *fh, compi_file_t *fh_obj, const char *fn)
{
    compi_file_t *f = fh_obj;
    MPI_Comm h = f->comm->handle;
    int rank = f->comm->rank;
    (void)fn;
    compi_io_coll_close(f);
    /* nobody touches the sidecar or the file after the barrier */
    PMPI_Barrier(h);
    io_shfp_close(f, rank == 0);
    if (f->fd >= 0) {
        close(f->fd);
        f->fd = -1;
    }
    if (f->amode & MPI_MODE_DELETE_ON_CLOSE) {
        if (rank == 0) {
            unlink(f->path);
        }
        PMPI_Barrier(h); /* gone for every rank when close returns */
    }
    handle_free(&file_table, f->handle);
    errh_release(f->errh);
    io_file_free(f);
    PMPI_Comm_free(&h);
    *fh = MPI_FILE_NULL;
    return MPI_SUCCESS;
}

static int file_delete_impl(const char *filename, MPI_Info info, const char *fn)
{
    (void)info; /* no hint is read */
    if (unlink(filename) != 0) {
        int err = errno;
        return file_err(NULL, file_errno_class(err), fn, "cannot delete %s: %s", filename,
                        strerror(err));
    }
    return MPI_SUCCESS;
}

/* size changes (size checked): every rank has called before any returns */
static int file_resize(compi_file_t *f, MPI_Offset size, int grow_only, const char *fn)
{
    int cls = MPI_SUCCESS;
    struct stat sb;
    if (f->amode & MPI_MODE_SEQUENTIAL) {
        return file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                        "the file was opened with MPI_MODE_SEQUENTIAL");
    }
    /* every rank is here (done with what it did before) before the size changes */
    cls = file_agree(f->comm, f->amode & MPI_MODE_RDONLY ? MPI_ERR_READ_ONLY : MPI_SUCCESS);
    if (cls == MPI_SUCCESS && f->comm->rank == 0) {
        if (fstat(f->fd, &sb) != 0) {
            cls = file_errno_class(errno);
        } else if (grow_only && size > sb.st_size) {
            int e = posix_fallocate(f->fd, 0, size);
            cls = e == 0 ? MPI_SUCCESS : file_errno_class(e);
        } else if (!grow_only && ftruncate(f->fd, size) != 0) {
            cls = file_errno_class(errno);
        }
    }
    cls = file_agree(f->comm, cls);
    if (cls != MPI_SUCCESS) {
        return file_err(f, cls, fn, "cannot set the size of %s to %lld", f->path, (long long)size);
    }
    return MPI_SUCCESS;
}

static int file_set_size_impl(compi_file_t *fh, MPI_Offset size, const char *fn)
{
    return file_resize(fh, size, 0, fn);
}

static int file_preallocate_impl(compi_file_t *fh, MPI_Offset size, const char *fn)
{
    return file_resize(fh, size, 1, fn);
}

static int file_get_size_impl(compi_file_t *fh, MPI_Offset *size, const char *fn)
{
    struct stat sb;
    if (fstat(fh->fd, &sb) != 0) {
        return file_err(fh, file_errno_class(errno), fn, "fstat of %s failed", fh->path);
    }
    *size = (MPI_Offset)sb.st_size;
    return MPI_SUCCESS;
}

static int file_get_group_impl(compi_file_t *fh, MPI_Group *group, const char *fn)
{
    (void)fn;
    return PMPI_Comm_group(fh->comm->handle, group);
}

static int file_get_amode_impl(compi_file_t *fh, int *amode, const char *fn)
{
    (void)fn;
    *amode = fh->amode;
    return MPI_SUCCESS;
}

static int file_set_info_impl(compi_file_t *fh, MPI_Info info, const char *fn)
{
    int rc = file_hints_from(fh, info);
    return rc == MPI_SUCCESS ? rc : file_err(fh, rc, fn, "cannot keep the hints");
}

/* ROMIO's hints as collective access would use them now (the closures the creators
   choose for the file's hints: compi_io_coll_in_effect), over what the program gave:
   romio_cb_write and romio_cb_read (enable, disable or automatic), cb_nodes (the
   aggregators; every rank when neither kind buffers), cb_buffer_size, and
   romio_no_indep_rw "false" (independent access is always allowed).  A kind whose
   closure cannot tell (a Scheme procedure) keeps what the program gave. */
static int info_in_effect(compi_file_t *f, MPI_Info info)
{
    int agg[2] = {0, 0}, automatic[2] = {0, 0}, known[2], rc = MPI_SUCCESS;
    MPI_Offset cb[2] = {0, 0};
    char v[32];
    static const char *const mode_key[2] = {"romio_cb_read", "romio_cb_write"};
    for (int w = 0; w < 2; w++) {
        known[w] = compi_io_coll_in_effect(f, w, &agg[w], &cb[w], &automatic[w]) == 0;
        if (known[w] && rc == MPI_SUCCESS) {
            rc = PMPI_Info_set(info, mode_key[w],
                               agg[w] == 0 ? "disable" : automatic[w] ? "automatic" : "enable");
        }
    }
    if (known[0] || known[1]) {
        int w = known[1] && agg[1] > 0 ? 1 : 0; /* the write's closure first */
        snprintf(v, sizeof(v), "%d", agg[w] > 0 ? agg[w] : f->comm->size);
        rc = rc == MPI_SUCCESS ? PMPI_Info_set(info, "cb_nodes", v) : rc;
        snprintf(v, sizeof(v), "%lld", (long long)cb[w]);
        rc = rc == MPI_SUCCESS ? PMPI_Info_set(info, "cb_buffer_size", v) : rc;
    }
    return rc == MPI_SUCCESS ? PMPI_Info_set(info, "romio_no_indep_rw", "false") : rc;
}

static int file_get_info_impl(compi_file_t *fh, MPI_Info *info_used, const char *fn)
{
    (void)fn;
    int rc = PMPI_Info_create(info_used);
    for (size_t i = 0; rc == MPI_SUCCESS && i < fh->nhints; i++) {
        rc = PMPI_Info_set(*info_used, fh->hint_keys[i], fh->hint_vals[i]);
    }
    return rc == MPI_SUCCESS ? info_in_effect(fh, *info_used) : rc;
}

static int file_set_atomicity_impl(compi_file_t *fh, int flag, const char *fn)
{
    (void)fn;
    fh->atomic = flag != 0;
    return PMPI_Barrier(fh->comm->handle);
}

static int file_get_atomicity_impl(compi_file_t *fh, int *flag, const char *fn)
{
    (void)fn;
    *flag = fh->atomic;
    return MPI_SUCCESS;
}

/* fsync, then a barrier: what one rank wrote before it is seen by every rank after */
static int file_sync_impl(compi_file_t *fh, const char *fn)
{
    int cls = MPI_SUCCESS;
    if (!(fh->amode & MPI_MODE_RDONLY) && fsync(fh->fd) != 0 && errno != EINVAL) {
        cls = file_errno_class(errno);
    }
    cls = file_agree(fh->comm, cls);
    return cls == MPI_SUCCESS ? MPI_SUCCESS : file_err(fh, cls, fn, "fsync of %s failed", fh->path);
}

/* ---- error handlers --------------------------------------------------------------- */

static int file_create_errhandler_impl(MPI_File_errhandler_function *file_errhandler_fn,
                                       MPI_Errhandler *errhandler, const char *fn)
{
    compi_errhandler_t *e;
    if (errh_create((MPI_Comm_errhandler_function *)(void (*)(void))file_errhandler_fn, &e) !=
        COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

/* file NULL: MPI_FILE_NULL's handler, the default of the files opened after */
static int file_set_errhandler_impl(compi_file_t *file, compi_errhandler_t *errhandler,
                                    const char *fn)
{
    (void)fn;
    if (file == NULL) {
        file_null_errh_set(errhandler);
    } else {
        errh_retain(errhandler);
        errh_release(file->errh);
        file->errh = errhandler;
    }
    return MPI_SUCCESS;
}

static int file_get_errhandler_impl(compi_file_t *file, MPI_Errhandler *errhandler, const char *fn)
{
    (void)fn;
    compi_errhandler_t *e = file != NULL ? file->errh : file_null_errh();
    errh_retain(e);
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

static int file_call_errhandler_impl(compi_file_t *fh, int errorcode, const char *fn)
{
    char what[96];
    snprintf(what, sizeof(what), "error code %d raised by the application", errorcode);
    file_invoke(fh, errorcode, fn, what);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/file.c"
