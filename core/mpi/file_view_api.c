/*
 * file_view_api.c -- MPI-IO views and data representations: MPI_File_set_view and
 * get_view (the filetype flattened once into runs, core/io/file.c), MPI_File_get_type_extent,
 * MPI_Register_datarep(_c).  "native" and "internal" store memory's bytes, "external32"
 * goes through the datatype engine's external32 packing (core/dt/dt_external.c), a
 * registered representation through its conversion functions; every representation
 * keeps each etype's size of memory (a registered one whose extent function says
 * otherwise is refused with MPI_ERR_UNSUPPORTED_DATAREP).
 */
#include "core/mpi/file_args.h"

#include "core/mpi/args.h"

#include <string.h>

#define FILE_MAX_DATAREPS 16
static file_datarep_t datareps[FILE_MAX_DATAREPS];
static int ndatareps;

const file_datarep_t *file_datarep_get(int rep)
{
    return rep >= IO_REP_USER && rep - IO_REP_USER < ndatareps ? &datareps[rep - IO_REP_USER]
                                                               : NULL;
}

/* the representation named `name`, or -1 */
static int datarep_find(const char *name)
{
    static const char *const builtin[] = {"native", "internal", "external32"};
    for (int i = 0; i < 3; i++) {
        if (strcmp(name, builtin[i]) == 0) {
            return i;
        }
    }
    for (int i = 0; i < ndatareps; i++) {
        if (strcmp(name, datareps[i].name) == 0) {
            return IO_REP_USER + i;
        }
    }
    return -1;
}

MPI_Offset file_rep_bytes(const compi_file_t *fh, compi_datatype_t *dt, MPI_Offset count)
{
    if (fh->view.rep == IO_REP_EXTERNAL32) {
        return (MPI_Offset)dt_external_size(dt, (size_t)count);
    }
    return (MPI_Offset)dt->size * count;
}

/* errors go to MPI_FILE_NULL's handler, as those of MPI_File_open */
static int register_datarep(const char *name, const file_datarep_t *d, const char *fn)
{
    COMPI_CHECK_INIT(fn);
    if (name == NULL || strlen(name) >= MPI_MAX_DATAREP_STRING || name[0] == '\0') {
        return file_err(NULL, MPI_ERR_ARG, fn, "datarep is NULL, empty or too long");
    }
    if (d->extent_fn == NULL) {
        return file_err(NULL, MPI_ERR_ARG, fn, "dtype_file_extent_fn is NULL");
    }
    if (datarep_find(name) >= 0) {
        return file_err(NULL, MPI_ERR_DUP_DATAREP, fn, "data representation \"%s\" exists",
                        name);
    }
    if (ndatareps == FILE_MAX_DATAREPS) {
        return file_err(NULL, MPI_ERR_NO_MEM, fn, "no room for another representation");
    }
    datareps[ndatareps] = *d;
    snprintf(datareps[ndatareps].name, sizeof(datareps[0].name), "%s", name);
    ndatareps++;
    return MPI_SUCCESS;
}

#pragma weak MPI_Register_datarep = PMPI_Register_datarep
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    file_datarep_t d = {.read_fn = read_conversion_fn,
                        .write_fn = write_conversion_fn,
                        .extent_fn = dtype_file_extent_fn,
                        .extra_state = extra_state};
    return register_datarep(datarep, &d, "MPI_Register_datarep");
}

#pragma weak MPI_Register_datarep_c = PMPI_Register_datarep_c
int PMPI_Register_datarep_c(const char *datarep,
                            MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    file_datarep_t d = {.read_fn_c = read_conversion_fn,
                        .write_fn_c = write_conversion_fn,
                        .extent_fn = dtype_file_extent_fn,
                        .extra_state = extra_state};
    return register_datarep(datarep, &d, "MPI_Register_datarep_c");
}

/* a committed (or predefined) datatype, or NULL with MPI_ERR_TYPE raised into *rc */
static compi_datatype_t *file_type_arg(compi_file_t *f, MPI_Datatype h, const char *what,
                                       const char *fn, int *rc)
{
    compi_datatype_t *dt = dt_from_handle(h);
    *rc = MPI_SUCCESS;
    if (dt == NULL) {
        *rc = file_err(f, MPI_ERR_TYPE, fn, "invalid %s (handle 0x%x)", what, (unsigned)h);
    } else if (!dt->committed && !dt->predefined) {
        *rc = file_err(f, MPI_ERR_TYPE, fn, "%s %s is not committed", what, dt_name(dt));
        dt = NULL;
    }
    return dt;
}

/* bytes of one etype in the file under representation rep; -1 when not memory's size */
static MPI_Offset rep_esize(int rep, compi_datatype_t *etype)
{
    if (rep == IO_REP_EXTERNAL32) {
        return (MPI_Offset)dt_external_size(etype, 1);
    }
    if (rep >= IO_REP_USER) {
        const file_datarep_t *d = file_datarep_get(rep);
        MPI_Aint ext = 0;
        if (d->extent_fn(etype->handle, &ext, d->extra_state) != MPI_SUCCESS ||
            (MPI_Offset)ext != (MPI_Offset)etype->size) {
            return -1;
        }
    }
    return (MPI_Offset)etype->size;
}

#pragma weak MPI_File_set_view = PMPI_File_set_view
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    static const char fn[] = "MPI_File_set_view";
    COMPI_CHECK_INIT(fn);
    int rc, rep;
    compi_file_t *f = file_arg(fh, fn, &rc);
    compi_datatype_t *et, *ft;
    MPI_Offset esize;
    if (f == NULL) {
        return rc;
    }
    if ((et = file_type_arg(f, etype, "etype", fn, &rc)) == NULL ||
        (ft = file_type_arg(f, filetype, "filetype", fn, &rc)) == NULL) {
        return rc;
    }
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        MPI_Offset sh = 0;
        if (!(f->amode & MPI_MODE_SEQUENTIAL)) {
            return file_err(f, MPI_ERR_ARG, fn,
                            "MPI_DISPLACEMENT_CURRENT needs a file opened with "
                            "MPI_MODE_SEQUENTIAL");
        }
        if (f->side_fd >= 0 && io_shfp_get(f, &sh) == 0) {
            disp = io_view_offset(&f->view, sh * f->view.esize);
        } else {
            disp = 0;
        }
    } else if (disp < 0) {
        return file_err(f, MPI_ERR_ARG, fn, "disp=%lld is negative", (long long)disp);
    }
    if (datarep == NULL || (rep = datarep_find(datarep)) < 0) {
        return file_err(f, MPI_ERR_UNSUPPORTED_DATAREP, fn, "unknown data representation %s",
                        datarep != NULL ? datarep : "(NULL)");
    }
    if ((esize = rep_esize(rep, et)) < 0) {
        return file_err(f, MPI_ERR_UNSUPPORTED_DATAREP, fn,
                        "data representation %s changes the size of etype %s", datarep,
                        dt_name(et));
    }
    if (et->size == 0 || ft->size % et->size != 0) {
        return file_err(f, MPI_ERR_TYPE, fn,
                        "filetype %s (%zu bytes) is not made of whole etypes %s (%zu bytes)",
                        dt_name(ft), ft->size, dt_name(et), et->size);
    }
    if (ft->true_lb < 0) {
        return file_err(f, MPI_ERR_TYPE, fn, "filetype %s has a negative displacement",
                        dt_name(ft));
    }
    io_view_t nv = {0};
    if (io_view_set(&nv, disp, et, ft, esize) != 0) {
        return file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    for (size_t i = 0; i < nv.nruns; i++) {
        /* runs of a predefined etype hold whole ones; displacements never go back */
        int split = et->predefined && nv.runs[i].len % (MPI_Offset)et->size != 0;
        if (split || (i > 0 && nv.runs[i].off < nv.runs[i - 1].off + nv.runs[i - 1].len)) {
            io_view_clear(&nv);
            return file_err(f, MPI_ERR_TYPE, fn, "filetype %s %s", dt_name(ft),
                            split ? "splits an etype"
                                  : "has displacements that decrease or overlap");
        }
    }
    if (rep == IO_REP_EXTERNAL32 && (ft == et || ft->contig)) {
        /* external32 has no padding: a filetype that is its etype, or contiguous, is one
           run of its external32 bytes.  Other filetypes keep memory's displacements. */
        nv.runs[0] = (io_run_t){0, (MPI_Offset)dt_external_size(ft, 1)};
        nv.runpos[0] = 0;
        nv.nruns = nv.runs[0].len > 0 ? 1 : 0;
        nv.tsize = nv.extent = nv.runs[0].len;
    }
    nv.rep = rep;
    snprintf(nv.rep_name, sizeof(nv.rep_name), "%s", datarep);
    io_view_clear(&f->view);
    f->view = nv;
    f->ifp = 0;
    if (info != MPI_INFO_NULL) {
        PMPI_File_set_info(fh, info);
    }
    if (f->comm->rank == 0 && f->side_fd >= 0) {
        io_shfp_set(f, 0);
    }
    return PMPI_Barrier(f->comm->handle);
}

/* a handle of dt the user may free: predefined ones as they are, a copy of a derived one */
static int view_type_out(compi_datatype_t *dt, MPI_Datatype *out)
{
    compi_datatype_t *c;
    if (dt->predefined) {
        *out = dt->handle;
        return MPI_SUCCESS;
    }
    if (dt_clone(dt, &c) != COMPI_OK) {
        return MPI_ERR_NO_MEM;
    }
    c->committed = 1;
    *out = c->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_view = PMPI_File_get_view
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                       char *datarep)
{
    static const char fn[] = "MPI_File_get_view";
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg(fh, fn, &rc);
    if (f == NULL) {
        return rc;
    }
    if (disp == NULL || etype == NULL || filetype == NULL || datarep == NULL) {
        return file_err(f, MPI_ERR_ARG, fn, "an argument is NULL");
    }
    *disp = f->view.disp;
    if ((rc = view_type_out(f->view.etype, etype)) != MPI_SUCCESS ||
        (rc = view_type_out(f->view.filetype, filetype)) != MPI_SUCCESS) {
        return file_err(f, rc, fn, "out of memory");
    }
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", f->view.rep_name);
    return MPI_SUCCESS;
}

static int type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Offset *extent, const char *fn)
{
    COMPI_CHECK_INIT(fn);
    int rc;
    compi_file_t *f = file_arg(fh, fn, &rc);
    compi_datatype_t *dt;
    if (f == NULL) {
        return rc;
    }
    if ((dt = file_type_arg(f, datatype, "datatype", fn, &rc)) == NULL) {
        return rc;
    }
    if (extent == NULL) {
        return file_err(f, MPI_ERR_ARG, fn, "extent is NULL");
    }
    if (f->view.rep == IO_REP_EXTERNAL32) {
        /* external32 has no padding: a type's extent there is its data's size */
        *extent = (MPI_Offset)dt_external_size(dt, 1) + (dt->extent - (ptrdiff_t)dt->size);
    } else if (f->view.rep >= IO_REP_USER) {
        const file_datarep_t *d = file_datarep_get(f->view.rep);
        MPI_Aint e = 0;
        if ((rc = d->extent_fn(datatype, &e, d->extra_state)) != MPI_SUCCESS) {
            return file_err(f, rc, fn, "the representation's extent function failed");
        }
        *extent = e;
    } else {
        *extent = dt->extent;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_type_extent = PMPI_File_get_type_extent
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Offset e = 0;
    int rc = type_extent(fh, datatype, extent != NULL ? &e : NULL, "MPI_File_get_type_extent");
    if (rc == MPI_SUCCESS) {
        *extent = (MPI_Aint)e;
    }
    return rc;
}

#pragma weak MPI_File_get_type_extent_c = PMPI_File_get_type_extent_c
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    MPI_Offset e = 0;
    int rc = type_extent(fh, datatype, extent != NULL ? &e : NULL, "MPI_File_get_type_extent_c");
    if (rc == MPI_SUCCESS) {
        *extent = e;
    }
    return rc;
}
