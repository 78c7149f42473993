/*
 * comm_coll.c -- allreduce-max and allgather for communicator creation.
 *
 * Both use the binomial tree rooted at index 0 over the set's indices: the parent of
 * i > 0 is i with its lowest set bit cleared, and the subtree of i covers the indices
 * [i, i + lowbit(i)), so a gather moves contiguous blocks.  For 8 members:
 *
 *        0
 *      / | \
 *     1  2  4
 *        |  | \
 *        3  5  6
 *              |
 *              7
 *
 * Cost: 2 * ceil(log2 n) steps of latency alpha; the allgather moves n*blk ints through
 * the root, fine for the small (color, key) records it carries.
 *
 * Messages go up the tree only during the gather/reduce phase and down only during the
 * broadcast, and every member runs the same sequence of operations, so consecutive
 * operations on the same tag cannot take each other's messages (MPI's non-overtaking
 * order per sender, tag and context does the rest).
 *
 * Also the shared segment that the shared-memory collectives (core/coll/shm.c) and
 * one-sided windows (core/osc/osc_win.c) map: made by index 0, agreed on by all.
 */
#include "config.h"

#include "core/comm/comm_coll.h"

#include "core/dt/dt.h"
#include "core/pml/pml.h"
#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

comm_coll_set_t comm_coll_whole(compi_comm_t *comm)
{
    if (comm->local_comm != NULL) {
        comm = comm->local_comm; /* an intercommunicator: its local group */
    }
    comm_coll_set_t set = {.comm = comm,
                           .members = NULL,
                           .n = comm->size,
                           .me = comm->rank,
                           .tag = COMPI_TAG_COMM_CREATE};
    return set;
}

compi_status_t comm_coll_rooted(compi_comm_t *comm, int root, comm_coll_set_t *set, int **members_p)
{
    int *m = malloc((size_t)comm->size * sizeof(int));
    int n = 0;

    if (m == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    m[n++] = root;
    for (int r = 0; r < comm->size; r++) {
        if (r != root) {
            m[n++] = r;
        }
    }
    *set = comm_coll_whole(comm);
    set->members = m;
    for (int i = 0; i < n; i++) {
        if (m[i] == comm->rank) {
            set->me = i;
        }
    }
    *members_p = m;
    return COMPI_OK;
}

static inline int set_rank(const comm_coll_set_t *set, int idx)
{
    return set->members != NULL ? set->members[idx] : idx;
}

/* lowest set bit of i > 0; for the root, a power of two covering all indices */
static int subtree_span(const comm_coll_set_t *set, int i)
{
    int span = 1;

    if (i > 0) {
        return i & -i;
    }
    while (span < set->n) {
        span <<= 1;
    }
    return span;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static compi_status_t send_ints(const comm_coll_set_t *set, const int *buf, int count, int to)
{
    return pml_send(buf, (size_t)count, dt_from_handle(MPI_INT), set_rank(set, to), set->tag,
                    set->comm, PML_SEND_STANDARD);
}

static compi_status_t recv_ints(const comm_coll_set_t *set, int *buf, int count, int from)
{
    return pml_recv(buf, (size_t)count, dt_from_handle(MPI_INT), set_rank(set, from), set->tag,
                    set->comm, NULL);
}

/* broadcast recv[0 .. count) from index 0 down the tree */
compi_status_t comm_coll_bcast_int(const comm_coll_set_t *set, int *buf, int count)
{
    int me = set->me;
    int span = subtree_span(set, me);
    compi_status_t st;

    if (me > 0) {
        st = recv_ints(set, buf, count, me & (me - 1));
        if (st != COMPI_OK) {
            return st;
        }
    }
    /* largest subtree first: it has the longest way to go */
    for (int m = span >> 1; m >= 1; m >>= 1) {
        if (me + m < set->n) {
            st = send_ints(set, buf, count, me + m);
            if (st != COMPI_OK) {
                return st;
            }
        }
    }
    return COMPI_OK;
}

compi_status_t comm_coll_allreduce_max_u32(const comm_coll_set_t *set, uint32_t in, uint32_t *out)
{
    int me = set->me;
    int span = subtree_span(set, me);
    uint32_t acc = in, v;
    compi_status_t st;

    if (set->n == 1) {
        *out = in;
        return COMPI_OK;
    }
    for (int m = 1; m < span && me + m < set->n; m <<= 1) {
        st = recv_ints(set, (int *)&v, 1, me + m);
        if (st != COMPI_OK) {
            return st;
        }
        if (v > acc) {
            acc = v;
        }
    }
    if (me > 0) {
        st = send_ints(set, (const int *)&acc, 1, me & (me - 1));
        if (st != COMPI_OK) {
            return st;
        }
    }
    st = comm_coll_bcast_int(set, (int *)&acc, 1);
    if (st == COMPI_OK) {
        *out = acc;
    }
    return st;
}

compi_status_t comm_coll_allgather_int(const comm_coll_set_t *set, const int *send, int blk,
                                       int *recv)
{
    int me = set->me;
    int span = subtree_span(set, me);
    compi_status_t st;

    memcpy(recv + (size_t)me * blk, send, (size_t)blk * sizeof(int));
    if (set->n == 1) {
        return COMPI_OK;
    }
    for (int m = 1; m < span && me + m < set->n; m <<= 1) {
        int child = me + m;
        int nblk = min_int(child + m, set->n) - child;
        st = recv_ints(set, recv + (size_t)child * blk, nblk * blk, child);
        if (st != COMPI_OK) {
            return st;
        }
    }
    if (me > 0) {
        int nblk = min_int(me + span, set->n) - me;
        st = send_ints(set, recv + (size_t)me * blk, nblk * blk, me & (me - 1));
        if (st != COMPI_OK) {
            return st;
        }
    }
    return comm_coll_bcast_int(set, recv, set->n * blk);
}

compi_status_t comm_coll_shared_map(const comm_coll_set_t *set, size_t len, const char *what,
                                    int populate, int fail_here, void **base_p)
{
    int fd = -1, info[2] = {-1, -1}; /* index 0's pid and descriptor */
    uint32_t any = 0;
    void *base = MAP_FAILED;
    compi_status_t st;

    *base_p = NULL;
    if (set->me == 0) {
        fd = memfd_create(what, MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
            compi_log_error("%s: memfd of %zu bytes: %s", what, len, strerror(errno));
        } else {
            info[0] = (int)rte_proc.pid;
            info[1] = fd;
        }
    }
    if ((st = comm_coll_bcast_int(set, info, 2)) != COMPI_OK) {
        goto out;
    }
    if (info[1] < 0) {
        st = COMPI_ERR_IO;
        goto out;
    }
    if (set->me != 0) {
        char path[64];
        snprintf(path, sizeof(path), "/proc/%d/fd/%d", info[0], info[1]);
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            compi_log_error("%s: open(%s): %s", what, path, strerror(errno));
        }
    }
    if (fd >= 0) {
        base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | (populate ? MAP_POPULATE : 0),
                    fd, 0);
        if (base == MAP_FAILED) {
            compi_log_error("%s: mmap of %zu bytes: %s", what, len, strerror(errno));
        }
    }
    st = comm_coll_allreduce_max_u32(set, base == MAP_FAILED || fail_here, &any);
    if (st == COMPI_OK && any) {
        st = COMPI_ERR_IO;
    }
out:
    if (fd >= 0) {
        close(fd);
    }
    if (st != COMPI_OK) {
        if (base != MAP_FAILED) {
            munmap(base, len);
        }
        return st;
    }
    *base_p = base;
    return COMPI_OK;
}
