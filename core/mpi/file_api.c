/*
 * file_api.c -- MPI-IO: opening, closing and deleting files, their size, group, access
 * mode, hints, atomicity and error handlers (core/io/file.h; docs/architecture.md,
 * "MPI-IO").  Views are in file_view_api.c, data access in file_rw_api.c.
 */
#include "core/mpi/file_args.h"

#include "core/comm/comm_coll.h"
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

/* exactly one of RDONLY, WRONLY, RDWR; no CREATE or EXCL with RDONLY; no SEQUENTIAL
   with RDWR */
static const char *amode_problem(int amode)
{
    int rw = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_WRONLY ? 1 : 0) +
             (amode & MPI_MODE_RDWR ? 1 : 0);
    const int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |
                      MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL |
                      MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
    if (amode & ~known) {
        return "has bits that are no MPI_MODE_*";
    }
    if (rw != 1) {
        return "needs exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR";
    }
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) {
        return "has MPI_MODE_CREATE or MPI_MODE_EXCL with MPI_MODE_RDONLY";
    }
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL)) {
        return "has MPI_MODE_SEQUENTIAL with MPI_MODE_RDWR";
    }
    return NULL;
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

#pragma weak MPI_File_open = PMPI_File_open
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    static const char fn[] = "MPI_File_open";
    COMPI_CHECK_INIT(fn);
    compi_comm_t *c = comm_from_handle(comm), *dc = NULL;
    compi_file_t *f = NULL;
    MPI_Comm dup = MPI_COMM_NULL;
    const char *why;
    int cls;

    if (c == NULL || comm_is_inter(c)) {
        return file_err(NULL, MPI_ERR_COMM, fn, "invalid communicator (handle 0x%x)%s",
                        (unsigned)comm, c != NULL ? ": an intercommunicator" : "");
    }
    if (filename == NULL || fh == NULL) {
        return file_err(NULL, MPI_ERR_ARG, fn, "%s is NULL", fh == NULL ? "fh" : "filename");
    }
    *fh = MPI_FILE_NULL;
    if ((why = amode_problem(amode)) != NULL) {
        return file_err(NULL, MPI_ERR_AMODE, fn, "amode 0x%x %s", (unsigned)amode, why);
    }
    if (info != MPI_INFO_NULL && !mpi_info_valid(info)) {
        return file_err(NULL, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    }
    /* "ufs:name" and the like name the file system first (ROMIO's habit) */
    if (strchr(filename, ':') != NULL && strchr(filename, ':') - filename > 1 &&
        strchr(filename, '/') > strchr(filename, ':')) {
        filename = strchr(filename, ':') + 1;
    }
    if (PMPI_Comm_dup(comm, &dup) != MPI_SUCCESS || (dc = comm_from_handle(dup)) == NULL) {
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

#pragma weak MPI_File_close = PMPI_File_close
int PMPI_File_close(MPI_File *fh)
{
    static const char fn[] = "MPI_File_close";
    COMPI_CHECK_INIT(fn);
    int rc;
    if (fh == NULL) {
        return file_err(NULL, MPI_ERR_ARG, fn, "fh is NULL");
    }
    compi_file_t *f = file_arg(*fh, fn, &rc);
    if (f == NULL) {
        return rc;
    }
    MPI_Comm h = f->comm->handle;
    int rank = f->comm->rank;
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

#pragma weak MPI_File_delete = PMPI_File_delete
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    static const char fn[] = "MPI_File_delete";
    COMPI_CHECK_INIT(fn);
    (void)info;
    if (filename == NULL) {
        return file_err(NULL, MPI_ERR_ARG, fn, "filename is NULL");
    }
    if (unlink(filename) != 0) {
        int err = errno;
        return file_err(NULL, file_errno_class(err), fn, "cannot delete %s: %s", filename,
                        strerror(err));
    }
    return MPI_SUCCESS;
}

/* size changes: every rank has called before any returns */
static int file_resize(MPI_File fh, MPI_Offset size, int grow_only, const char *fn)
{
    int rc, cls = MPI_SUCCESS;
    compi_file_t *f = file_arg(fh, fn, &rc);
    struct stat sb;
    if (f == NULL) {
        return rc;
    }
    if (size < 0) {
        return file_err(f, MPI_ERR_ARG, fn, "size=%lld is negative", (long long)size);
    }
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

#pragma weak MPI_File_set_size = PMPI_File_set_size
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    COMPI_CHECK_INIT("MPI_File_set_size");
    return file_resize(fh, size, 0, "MPI_File_set_size");
}

#pragma weak MPI_File_preallocate = PMPI_File_preallocate
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    COMPI_CHECK_INIT("MPI_File_preallocate");
    return file_resize(fh, size, 1, "MPI_File_preallocate");
}

#pragma weak MPI_File_get_size = PMPI_File_get_size
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    static const char fn[] = "MPI_File_get_size";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg_out(fh, size, "size", fn, &rc);
    struct stat sb;
    if (f == NULL) {
        return rc;
    }
    if (fstat(f->fd, &sb) != 0) {
        return file_err(f, file_errno_class(errno), fn, "fstat of %s failed", f->path);
    }
    *size = (MPI_Offset)sb.st_size;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_group = PMPI_File_get_group
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    static const char fn[] = "MPI_File_get_group";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg_out(fh, group, "group", fn, &rc);
    if (f == NULL) {
        return rc;
    }
    return PMPI_Comm_group(f->comm->handle, group);
}

#pragma weak MPI_File_get_amode = PMPI_File_get_amode
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    static const char fn[] = "MPI_File_get_amode";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg_out(fh, amode, "amode", fn, &rc);
    if (f == NULL) {
        return rc;
    }
    *amode = f->amode;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_info = PMPI_File_set_info
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    static const char fn[] = "MPI_File_set_info";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg(fh, fn, &rc);
    if (f == NULL) {
        return rc;
    }
    if (info != MPI_INFO_NULL && !mpi_info_valid(info)) {
        return file_err(f, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    }
    rc = file_hints_from(f, info);
    return rc == MPI_SUCCESS ? rc : file_err(f, rc, fn, "cannot keep the hints");
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

#pragma weak MPI_File_get_info = PMPI_File_get_info
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    static const char fn[] = "MPI_File_get_info";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg_out(fh, info_used, "info_used", fn, &rc);
    if (f == NULL) {
        return rc;
    }
    rc = PMPI_Info_create(info_used);
    for (size_t i = 0; rc == MPI_SUCCESS && i < f->nhints; i++) {
        rc = PMPI_Info_set(*info_used, f->hint_keys[i], f->hint_vals[i]);
    }
    return rc == MPI_SUCCESS ? info_in_effect(f, *info_used) : rc;
}

#pragma weak MPI_File_set_atomicity = PMPI_File_set_atomicity
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    static const char fn[] = "MPI_File_set_atomicity";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg(fh, fn, &rc);
    if (f == NULL) {
        return rc;
    }
    f->atomic = flag != 0;
    return PMPI_Barrier(f->comm->handle);
}

#pragma weak MPI_File_get_atomicity = PMPI_File_get_atomicity
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    static const char fn[] = "MPI_File_get_atomicity";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg_out(fh, flag, "flag", fn, &rc);
    if (f == NULL) {
        return rc;
    }
    *flag = f->atomic;
    return MPI_SUCCESS;
}

/* fsync, then a barrier: what one rank wrote before it is seen by every rank after */
#pragma weak MPI_File_sync = PMPI_File_sync
int PMPI_File_sync(MPI_File fh)
{
    static const char fn[] = "MPI_File_sync";
    COMPI_CHECK_INIT(fn);
    int rc, cls = MPI_SUCCESS;
    compi_file_t *f = file_arg(fh, fn, &rc);
    if (f == NULL) {
        return rc;
    }
    if (!(f->amode & MPI_MODE_RDONLY) && fsync(f->fd) != 0 && errno != EINVAL) {
        cls = file_errno_class(errno);
    }
    cls = file_agree(f->comm, cls);
    return cls == MPI_SUCCESS ? MPI_SUCCESS : file_err(f, cls, fn, "fsync of %s failed", f->path);
}

/* ---- error handlers --------------------------------------------------------------- */

#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler
int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_File_create_errhandler";
    COMPI_CHECK_INIT(fn);
    compi_errhandler_t *e;
    if (file_errhandler_fn == NULL || errhandler == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL",
                             errhandler == NULL ? "errhandler" : "function");
    }
    if (errh_create((MPI_Comm_errhandler_function *)(void (*)(void))file_errhandler_fn, &e) !=
        COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_File_set_errhandler";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = NULL;
    compi_errhandler_t *e = errh_from_handle(errhandler);
    if (file != MPI_FILE_NULL && (f = file_arg(file, fn, &rc)) == NULL) {
        return rc;
    }
    if (e == NULL) {
        return file_err(f, MPI_ERR_ARG, fn, "invalid error handler handle 0x%x",
                        (unsigned)errhandler);
    }
    if (f == NULL) {
        file_null_errh_set(e);
    } else {
        errh_retain(e);
        errh_release(f->errh);
        f->errh = e;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_File_get_errhandler";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = NULL;
    if (file != MPI_FILE_NULL && (f = file_arg(file, fn, &rc)) == NULL) {
        return rc;
    }
    if (errhandler == NULL) {
        return file_err(f, MPI_ERR_ARG, fn, "errhandler is NULL");
    }
    compi_errhandler_t *e = f != NULL ? f->errh : file_null_errh();
    errh_retain(e);
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    static const char fn[] = "MPI_File_call_errhandler";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = NULL;
    char what[96];
    if (fh != MPI_FILE_NULL && (f = file_arg(fh, fn, &rc)) == NULL) {
        return rc;
    }
    snprintf(what, sizeof(what), "error code %d raised by the application", errorcode);
    file_invoke(f, errorcode, fn, what);
    return MPI_SUCCESS;
}
