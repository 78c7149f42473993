/*
 * file_io.c -- the POSIX side of the collective file algorithms (file_io.h).
 */
#include "core/coll/phases/file_io.h"

#include "core/coll/sched/sched.h"
#include "core/comm/comm_coll.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int coll_file_pwrite(int fd, const void *buf, int64_t len, int64_t off, int64_t *done_p)
{
    const char *p = buf;
    int64_t done = 0;
    int err = 0;
    while (done < len) {
        ssize_t n = pwrite(fd, p + done, (size_t)(len - done), (off_t)(off + done));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            err = errno;
            break;
        }
        if (n == 0) {
            err = ENOSPC; /* nothing more fits */
            break;
        }
        done += n;
    }
    if (done_p != NULL) {
        *done_p = done;
    }
    return err;
}

int coll_file_pread(int fd, void *buf, int64_t len, int64_t off, int64_t *got_p)
{
    char *p = buf;
    int64_t got = 0;
    int err = 0;
    while (got < len) {
        ssize_t n = pread(fd, p + got, (size_t)(len - got), (off_t)(off + got));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            err = errno;
            break;
        }
        if (n == 0) {
            break; /* the end of the file */
        }
        got += n;
    }
    if (got_p != NULL) {
        *got_p = got;
    }
    return err;
}

static int file__setlk(int fd, short type, int64_t off, int64_t len)
{
    struct flock fl = {
        .l_type = type, .l_whence = SEEK_SET, .l_start = (off_t)off, .l_len = (off_t)len};
    while (fcntl(fd, F_SETLKW, &fl) < 0) {
        if (errno == EINTR) {
            continue;
        }
        return errno == ENOLCK || errno == EOPNOTSUPP ? 0 : errno;
    }
    return 0;
}

int coll_file_lock(int fd, int type, int64_t off, int64_t len)
{
    return len > 0 ? file__setlk(fd, (short)type, off, len) : 0;
}

void coll_file_unlock(int fd, int64_t off, int64_t len)
{
    if (len > 0) {
        (void)file__setlk(fd, F_UNLCK, off, len);
    }
}

void coll_file_packed(const coll_io_seg_t *segs, size_t n, int64_t *packed)
{
    packed[0] = 0;
    for (size_t i = 0; i < n; i++) {
        packed[i + 1] = packed[i] + segs[i].len;
    }
}

int64_t coll_file_span(const coll_io_seg_t *segs, size_t n, const int64_t *packed, int64_t lo,
                       int64_t hi, int64_t *start_p, size_t *first_p, size_t *end_p)
{
    /* the first segment that ends after lo, then every one that starts before hi */
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (segs[m].off + segs[m].len <= lo) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    size_t first = a, end = a;
    b = n;
    while (end < b) {
        size_t m = end + (b - end) / 2;
        if (segs[m].off < hi) {
            end = m + 1;
        } else {
            b = m;
        }
    }
    *first_p = first;
    *end_p = end;
    if (first == end) {
        *start_p = first < n ? packed[first] : packed[n];
        return 0;
    }
    int64_t s0 = segs[first].off < lo ? lo - segs[first].off : 0;
    const coll_io_seg_t *last = &segs[end - 1];
    int64_t e1 = last->off + last->len > hi ? hi - last->off : last->len;
    *start_p = packed[first] + s0;
    return packed[end - 1] + e1 - *start_p;
}

int coll_file_own(coll_io_t *io, int write)
{
    int64_t lo = 0, hi = 0, moved = 0, pos = 0;
    int err = 0;

    if (io->nsegs > 0) {
        lo = io->segs[0].off;
        hi = io->segs[io->nsegs - 1].off + io->segs[io->nsegs - 1].len;
    }
    /* atomic mode: this rank's whole range at once, so no other access sees half of it */
    if (io->atomic) {
        err = coll_file_lock(io->fd, write ? F_WRLCK : F_RDLCK, lo, hi - lo);
    }
    for (size_t i = 0; i < io->nsegs && err == 0; i++) {
        const coll_io_seg_t *s = &io->segs[i];
        char *p = (char *)io->buf + pos;
        if (write) {
            err = coll_file_pwrite(io->fd, p, s->len, s->off, NULL);
            moved += err == 0 ? s->len : 0;
        } else {
            int64_t got = 0;
            err = coll_file_pread(io->fd, p, s->len, s->off, &got);
            moved += got;
        }
        pos += s->len;
    }
    if (io->atomic) {
        coll_file_unlock(io->fd, lo, hi - lo);
    }
    io->moved = moved;
    return err;
}

/* ---- the schedule: the I/O at its start, the agreement as rounds ---------------------- */

typedef struct file_nb {
    coll_io_t *io;
    int write;
    uint32_t err;  /* this rank's, then (rank 0 first) the largest */
    uint32_t *all; /* rank 0: every other rank's */
    int p;
} file_nb_t;

static compi_status_t file__nb_io(void *arg, coll_sched_note_t *note)
{
    file_nb_t *nb = arg;
    (void)note;
    int err = coll_file_own(nb->io, nb->write);
    nb->err = (uint32_t)(err > 0 ? err : 0);
    return COMPI_OK;
}

static compi_status_t file__nb_max(void *arg, coll_sched_note_t *note)
{
    file_nb_t *nb = arg;
    (void)note;
    for (int q = 1; q < nb->p; q++) {
        nb->err = nb->all[q] > nb->err ? nb->all[q] : nb->err;
    }
    return COMPI_OK;
}

static compi_status_t file__nb_done(void *arg, coll_sched_note_t *note)
{
    file_nb_t *nb = arg;
    (void)note;
    nb->io->err = (int)nb->err;
    return COMPI_OK;
}

static void file__nb_release(void *arg)
{
    coll_io_t *io = arg;
    if (io->release != NULL) {
        io->release(io);
    }
}

void coll_file_direct_sched(const coll_call_t *call, coll_sched_t *s)
{
    coll_io_t *io = call->io;
    int p = call->comm->size, me = call->comm->rank;
    compi_datatype_t *byte = dt_from_handle(MPI_BYTE);
    if (io->describe) { /* compi_io_coll_in_effect: no aggregator, nothing done */
        io->aggregators = 0;
        return;
    }
    io->err = -1;
    coll_sched_hold(s, file__nb_release, io);
    file_nb_t *nb = coll_sched_alloc(s, sizeof(*nb) + (size_t)p * sizeof(uint32_t));
    if (nb == NULL) {
        return;
    }
    *nb = (file_nb_t){
        .io = io, .write = call->kind == COLL_FILE_WRITE, .all = (uint32_t *)(nb + 1), .p = p};
    /* round 0: the I/O, at the start; 1: the errnos to rank 0, its maximum; 2: back */
    coll_sched_check(s, file__nb_io, nb);
    coll_sched_round(s);
    for (int q = 1; q < p; q++) {
        if (me == 0) {
            coll_sched_recv(s, &nb->all[q], sizeof(uint32_t), byte, q);
        }
    }
    if (me != 0) {
        coll_sched_send(s, &nb->err, sizeof(uint32_t), byte, 0);
    } else {
        coll_sched_check(s, file__nb_max, nb);
    }
    coll_sched_round(s);
    for (int q = 1; q < p && me == 0; q++) {
        coll_sched_send(s, &nb->err, sizeof(uint32_t), byte, q);
    }
    if (me != 0) {
        coll_sched_recv(s, &nb->err, sizeof(uint32_t), byte, 0);
    }
    coll_sched_check(s, file__nb_done, nb);
}
