/*
 * file.c -- a file's POSIX side: open and free, hints, the view's runs and their map,
 * reads and writes of a list of ranges, and the byte-range locks of atomic mode.
 */
#include "core/io/file.h"

#include "core/coll/phases/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *compi_file_hint(const compi_file_t *fh, const char *key)
{
    for (size_t i = 0; i < fh->nhints; i++) {
        if (strcmp(fh->hint_keys[i], key) == 0) {
            return fh->hint_vals[i];
        }
    }
    return NULL;
}

int io_file_hint_set(compi_file_t *fh, const char *key, const char *val)
{
    char *v = strdup(val);
    if (v == NULL) {
        return -ENOMEM;
    }
    for (size_t i = 0; i < fh->nhints; i++) {
        if (strcmp(fh->hint_keys[i], key) == 0) {
            free(fh->hint_vals[i]);
            fh->hint_vals[i] = v;
            return 0;
        }
    }
    char **k = realloc(fh->hint_keys, (fh->nhints + 1) * sizeof(*k));
    if (k != NULL) {
        fh->hint_keys = k;
    }
    char **vs = k != NULL ? realloc(fh->hint_vals, (fh->nhints + 1) * sizeof(*vs)) : NULL;
    if (vs != NULL) {
        fh->hint_vals = vs;
    }
    if (k == NULL || vs == NULL || (k[fh->nhints] = strdup(key)) == NULL) {
        free(v);
        return -ENOMEM;
    }
    vs[fh->nhints++] = v;
    return 0;
}

int io_file_open(const char *path, int amode, compi_file_t **fh_p)
{
    int flags = (amode & MPI_MODE_RDWR) ? O_RDWR : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDONLY;
    compi_file_t *fh = calloc(1, sizeof(*fh));

    if (fh == NULL || (fh->path = strdup(path)) == NULL) {
        free(fh);
        return -ENOMEM;
    }
    if (amode & MPI_MODE_CREATE) {
        flags |= O_CREAT;
    }
    if (amode & MPI_MODE_EXCL) {
        flags |= O_EXCL;
    }
    /* a write-only file is opened for reading too where the permissions allow it, as
       ROMIO does: collective writes read the holes of an aggregator's window back
       (read-modify-write); the access mode the program gave still rules its own calls */
    fh->fd = -1;
    if ((flags & O_ACCMODE) == O_WRONLY) {
        fh->fd = open(path, (flags & ~O_ACCMODE) | O_RDWR | O_CLOEXEC, 0666);
    }
    if (fh->fd < 0) {
        fh->fd = open(path, flags | O_CLOEXEC, 0666);
    }
    if (fh->fd < 0) {
        int err = errno;
        free(fh->path);
        free(fh);
        return -err;
    }
    fh->amode = amode;
    fh->side_fd = -1;
    *fh_p = fh;
    return 0;
}

void io_file_free(compi_file_t *fh)
{
    if (fh->fd >= 0) {
        close(fh->fd);
    }
    io_view_clear(&fh->view);
    for (size_t i = 0; i < fh->nhints; i++) {
        free(fh->hint_keys[i]);
        free(fh->hint_vals[i]);
    }
    free(fh->hint_keys);
    free(fh->hint_vals);
    free(fh->side_path);
    free(fh->path);
    free(fh);
}

/* ---- views ------------------------------------------------------------------------ */

void io_view_clear(io_view_t *v)
{
    if (v->etype != NULL) {
        dt_release(v->etype);
    }
    if (v->filetype != NULL) {
        dt_release(v->filetype);
    }
    free(v->runs);
    free(v->runpos);
    v->etype = v->filetype = NULL;
    v->runs = NULL;
    v->runpos = NULL;
    v->nruns = 0;
}

/* The runs of one element of the filetype, in type-map order, adjacent ones merged: the
   blocks of each of its units (dt.h), unit r shifted by r * rep_stride. */
int io_view_set(io_view_t *v, MPI_Offset disp, compi_datatype_t *etype, compi_datatype_t *filetype,
                MPI_Offset esize)
{
    size_t cap = (size_t)filetype->nblocks * filetype->nrep, n = 0;
    io_run_t *runs = malloc((cap > 0 ? cap : 1) * sizeof(*runs));
    MPI_Offset *pos = malloc((cap > 0 ? cap : 1) * sizeof(*pos));
    MPI_Offset total = 0;

    if (runs == NULL || pos == NULL) {
        free(runs);
        free(pos);
        return -ENOMEM;
    }
    for (size_t r = 0; r < filetype->nrep; r++) {
        for (int b = 0; b < filetype->nblocks; b++) {
            const dt_block_t *blk = &filetype->blocks[b];
            MPI_Offset off = (MPI_Offset)blk->disp + (MPI_Offset)r * filetype->rep_stride;
            if (blk->len == 0) {
                continue;
            }
            if (n > 0 && runs[n - 1].off + runs[n - 1].len == off) {
                runs[n - 1].len += (MPI_Offset)blk->len;
            } else {
                runs[n] = (io_run_t){off, (MPI_Offset)blk->len};
                pos[n++] = total;
            }
            total += (MPI_Offset)blk->len;
        }
    }
    dt_retain(etype);
    dt_retain(filetype);
    io_view_clear(v);
    v->disp = disp;
    v->etype = etype;
    v->filetype = filetype;
    v->esize = esize;
    v->tsize = total;
    v->extent = filetype->extent;
    v->runs = runs;
    v->runpos = pos;
    v->nruns = n;
    return 0;
}

/* the run of a tile that holds data byte r of it (runpos[k] <= r < runpos[k] + len) */
static size_t view_run_of(const io_view_t *v, MPI_Offset r)
{
    size_t lo = 0, hi = v->nruns - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (v->runpos[mid] <= r) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

MPI_Offset io_view_offset(const io_view_t *v, MPI_Offset pos)
{
    if (v->tsize == 0) {
        return v->disp;
    }
    MPI_Offset tile = pos / v->tsize, r = pos % v->tsize;
    size_t k = view_run_of(v, r);
    return v->disp + tile * v->extent + v->runs[k].off + (r - v->runpos[k]);
}

int io_view_map(const io_view_t *v, MPI_Offset pos, MPI_Offset n, io_run_t **segs_p,
                size_t *nsegs_p)
{
    size_t cap = 8, ns = 0;
    io_run_t *segs = NULL;

    *segs_p = NULL;
    *nsegs_p = 0;
    if (n <= 0 || v->tsize == 0) {
        return 0;
    }
    if ((segs = malloc(cap * sizeof(*segs))) == NULL) {
        return -ENOMEM;
    }
    /* one run filling the whole tile (a view of bytes, of any contiguous type): every
       tile touches the next, and the access is one range however many tiles it spans */
    if (v->nruns == 1 && v->runs[0].len == v->extent) {
        segs[0] = (io_run_t){io_view_offset(v, pos), n};
        *segs_p = segs;
        *nsegs_p = 1;
        return 0;
    }
    MPI_Offset tile = pos / v->tsize, r = pos % v->tsize;
    size_t k = view_run_of(v, r);
    while (n > 0) {
        MPI_Offset in = r - v->runpos[k];
        MPI_Offset len = v->runs[k].len - in;
        MPI_Offset off = v->disp + tile * v->extent + v->runs[k].off + in;
        if (len > n) {
            len = n;
        }
        if (ns > 0 && segs[ns - 1].off + segs[ns - 1].len == off) {
            segs[ns - 1].len += len;
        } else {
            if (ns == cap) {
                io_run_t *more = realloc(segs, 2 * cap * sizeof(*segs));
                if (more == NULL) {
                    free(segs);
                    return -ENOMEM;
                }
                segs = more;
                cap *= 2;
            }
            segs[ns++] = (io_run_t){off, len};
        }
        n -= len;
        r += len;
        if (++k == v->nruns) {
            k = 0;
            r = 0;
            tile++;
        }
    }
    *segs_p = segs;
    *nsegs_p = ns;
    return 0;
}

/* ---- reads and writes -------------------------------------------------------------- */

/* the runs one after the other through the collective algorithms' whole transfers
   (core/coll/phases/file_io.c); a read stops at the end of the file */
int io_pwrite_runs(int fd, const io_run_t *segs, size_t n, const void *buf, MPI_Offset *moved_p)
{
    const char *p = buf;
    MPI_Offset moved = 0;
    int err = 0;
    for (size_t i = 0; i < n && err == 0; i++) {
        int64_t done = 0;
        err = coll_file_pwrite(fd, p + moved, segs[i].len, segs[i].off, &done);
        moved += done;
    }
    *moved_p = moved;
    return -err;
}

int io_pread_runs(int fd, const io_run_t *segs, size_t n, void *buf, MPI_Offset *moved_p)
{
    char *p = buf;
    MPI_Offset moved = 0;
    int err = 0;
    for (size_t i = 0; i < n && err == 0; i++) {
        int64_t got = 0;
        err = coll_file_pread(fd, p + moved, segs[i].len, segs[i].off, &got);
        moved += got;
        if (got < segs[i].len) {
            break; /* the end of the file (or an error) */
        }
    }
    *moved_p = moved;
    return -err;
}

/* ---- atomic mode ------------------------------------------------------------------- */

static int lock_op(int fd, int type, MPI_Offset off, MPI_Offset len)
{
    struct flock fl = {.l_type = (short)type, .l_whence = SEEK_SET, .l_start = off, .l_len = len};
    while (fcntl(fd, F_SETLKW, &fl) < 0) {
        if (errno != EINTR) {
            return -errno;
        }
    }
    return 0;
}

int io_lock(compi_file_t *fh, MPI_Offset off, MPI_Offset len, int write)
{
    /* a read lock needs a descriptor open for reading, a write lock one for writing */
    if (write && (fh->amode & MPI_MODE_RDONLY)) {
        write = 0;
    }
    if (!write && (fh->amode & MPI_MODE_WRONLY)) {
        write = 1;
    }
    return lock_op(fh->fd, write ? F_WRLCK : F_RDLCK, off, len > 0 ? len : 1);
}

int io_unlock(compi_file_t *fh, MPI_Offset off, MPI_Offset len)
{
    return lock_op(fh->fd, F_UNLCK, off, len > 0 ? len : 1);
}
