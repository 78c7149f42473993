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

/* the entry points: core/mpi/gen/file_view.c; a registration's errors go to
   MPI_FILE_NULL's handler, as those of MPI_File_open */
static int register_datarep_impl(const char *datarep,
                                 MPI_Datarep_conversion_function *read_conversion_fn,
                                 MPI_Datarep_conversion_function_c *read_conversion_fn_c,
                                 MPI_Datarep_conversion_function *write_conversion_fn,
                                 MPI_Datarep_conversion_function_c *write_conversion_fn_c,
                                 MPI_Datarep_extent_function *dtype_file_extent_fn,
                                 void *extra_state, const char *fn)
{
    if (datarep_find(datarep) >= 0) {
        return file_err(NULL, MPI_ERR_DUP_DATAREP, fn, "data representation \"%s\" exists",
                        datarep);
    }
    if (ndatareps == FILE_MAX_DATAREPS) {
        return file_err(NULL, MPI_ERR_NO_MEM, fn, "no room for another representation");
    }
    datareps[ndatareps] = (file_datarep_t){.read_fn = read_conversion_fn,
                                           .write_fn = write_conversion_fn,
                                           .read_fn_c = read_conversion_fn_c,
                                           .write_fn_c = write_conversion_fn_c,
                                           .extent_fn = dtype_file_extent_fn,
                                           .extra_state = extra_state};
    snprintf(datareps[ndatareps].name, sizeof(datareps[0].name), "%s", datarep);
    ndatareps++;
    return MPI_SUCCESS;
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

static int file_set_view_impl(compi_file_t *fh, MPI_Offset disp, compi_datatype_t *etype,
                              compi_datatype_t *filetype, const char *datarep, MPI_Info info,
                              const char *fn)
{
    compi_file_t *f = fh;
    compi_datatype_t *et = etype, *ft = filetype;
    MPI_Offset esize;
    int rep;
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
        /* every rank has read the shared file pointer before rank 0 resets it (below) */
        int rc = PMPI_Barrier(f->comm->handle);
        if (rc != MPI_SUCCESS) {
            return rc;
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
        PMPI_File_set_info(f, info);
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

static int file_get_view_impl(compi_file_t *fh, MPI_Offset *disp, MPI_Datatype *etype,
                              MPI_Datatype *filetype, char *datarep, const char *fn)
{
    int rc;
    *disp = fh->view.disp;
    if ((rc = view_type_out(fh->view.etype, etype)) != MPI_SUCCESS ||
        (rc = view_type_out(fh->view.filetype, filetype)) != MPI_SUCCESS) {
        return file_err(fh, rc, fn, "out of memory");
    }
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", fh->view.rep_name);
    return MPI_SUCCESS;
}

static int file_get_type_extent_impl(compi_file_t *fh, compi_datatype_t *datatype,
                                     MPI_Count *extent, const char *fn)
{
    int rc;
    if (fh->view.rep == IO_REP_EXTERNAL32) {
        /* external32 has no padding: a type's extent there is its data's size */
        *extent = (MPI_Count)dt_external_size(datatype, 1) +
                  (datatype->extent - (ptrdiff_t)datatype->size);
    } else if (fh->view.rep >= IO_REP_USER) {
        const file_datarep_t *d = file_datarep_get(fh->view.rep);
        MPI_Aint e = 0;
        if ((rc = d->extent_fn(datatype->handle, &e, d->extra_state)) != MPI_SUCCESS) {
            return file_err(fh, rc, fn, "the representation's extent function failed");
        }
        *extent = e;
    } else {
        *extent = datatype->extent;
    }
    return MPI_SUCCESS;
}

#include "core/mpi/gen/file_view.c"
