/*
 * dynproc.c -- intercommunicators between two worlds: the parents and children of
 * MPI_Comm_spawn, the two sides of MPI_Comm_accept / MPI_Comm_connect and of
 * MPI_Comm_join.
 *
 * The two groups share no communicator, so their roots meet in mpirun's key-value space
 * (rte_kvs_put / rte_kvs_wait): each root publishes one record under its own key and
 * waits for the other's under the other key (the callers name the keys: dynproc_api.c),
 * then broadcasts what it read in its group:
 *
 *   KEY      "ctx,size,nchunks"      the group's largest next free context id, its size
 *   KEY.i    "g0-g3,g7,..."          the members' global ids in group order, as ranges,
 *                                    in chunks that fit a value (written before KEY)
 *
 * Every member then adds the other group's processes as peers (rte_peer_add: indices
 * after the world's ranks) and connects to them (pml_add_peers; the other side does the
 * same at about the same time, and a message that comes first waits in the transport).
 * The context id is the larger of the two groups' maxima, so it (and the next, for the
 * local_comm) is free on every member of both groups, as for MPI_Intercomm_create.
 */
#include "core/comm/comm.h"

#include "core/comm/comm_coll.h"
#include "core/comm/dynproc.h"
#include "core/dt/dt.h"
#include "core/pml/pml.h"
#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* characters of one chunk of ranges: below RTE_MODEX_VALMAX with room for one range */
#define DYN_CHUNK 800

/* appends the ranges of ids[0..n) to the chunks under key.0, key.1, ...; *nchunks_p */
static compi_status_t dyn__put_ids(const char *key, const int *ids, int n, int *nchunks_p)
{
    char val[RTE_MODEX_VALMAX + 1], k[256];
    size_t len = 0;
    int nchunks = 0;
    compi_status_t st;

    for (int i = 0; i < n;) {
        int j = i;
        char one[32];

        while (j + 1 < n && ids[j + 1] == ids[j] + 1) {
            j++;
        }
        int w = j > i ? snprintf(one, sizeof(one), "%d-%d", ids[i], ids[j])
                      : snprintf(one, sizeof(one), "%d", ids[i]);
        if (len + (size_t)w + 1 > DYN_CHUNK) {
            snprintf(k, sizeof(k), "%s.%d", key, nchunks++);
            if ((st = rte_kvs_put(k, val)) != COMPI_OK) {
                return st;
            }
            len = 0;
        }
        len += (size_t)snprintf(val + len, sizeof(val) - len, "%s%s", len ? "," : "", one);
        i = j + 1;
    }
    snprintf(k, sizeof(k), "%s.%d", key, nchunks++);
    if ((st = rte_kvs_put(k, len ? val : "")) != COMPI_OK) {
        return st;
    }
    *nchunks_p = nchunks;
    return COMPI_OK;
}

/* reads `n` ids from the chunks of `key` into ids */
static compi_status_t dyn__get_ids(const char *key, int nchunks, int *ids, int n)
{
    char val[RTE_MODEX_VALMAX + 1], k[256];
    int got = 0;
    compi_status_t st;

    for (int c = 0; c < nchunks; c++) {
        snprintf(k, sizeof(k), "%s.%d", key, c);
        if ((st = rte_kvs_get(k, val, sizeof(val))) != COMPI_OK) {
            return st;
        }
        for (char *p = val; *p != '\0';) {
            char *end;
            long a = strtol(p, &end, 10), b = a;

            if (end == p) {
                return COMPI_ERR_PMI;
            }
            if (*end == '-') {
                p = end + 1;
                b = strtol(p, &end, 10);
            }
            for (long g = a; g <= b; g++) {
                if (got == n) {
                    return COMPI_ERR_PMI;
                }
                ids[got++] = (int)g;
            }
            p = *end == ',' ? end + 1 : end;
        }
    }
    return got == n ? COMPI_OK : COMPI_ERR_PMI;
}

/*
 * The root's part: publish our record, run `between`, read theirs.  hdr gets {status,
 * ctx, size}; *ids_p the other side's global ids (heap).
 */
static compi_status_t dyn__root(compi_comm_t *local, uint32_t ctx, const comm_dyn_ops_t *ops,
                                void *arg, int hdr[3], int **ids_p)
{
    char val[RTE_MODEX_VALMAX + 1], mine[200], theirs[200];
    int *gids = malloc((size_t)local->size * sizeof(int)), nchunks = 0, n = 0;
    unsigned c = 0;
    compi_status_t st = gids == NULL ? COMPI_ERR_NO_MEMORY : COMPI_OK;

    if (st == COMPI_OK) {
        st = ops->prepare(arg, mine, theirs, sizeof(mine));
    }
    for (int i = 0; st == COMPI_OK && i < local->size; i++) {
        gids[i] = rte_peer_gid(local->world_ranks[i]);
    }
    if (st == COMPI_OK) {
        st = dyn__put_ids(mine, gids, local->size, &nchunks);
    }
    free(gids);
    if (st == COMPI_OK) {
        snprintf(val, sizeof(val), "%u,%d,%d", ctx, local->size, nchunks);
        st = rte_kvs_put(mine, val);
    }
    if (st == COMPI_OK && ops->between != NULL) {
        st = ops->between(arg);
    }
    if (st == COMPI_OK) {
        st = rte_kvs_wait(theirs, val, sizeof(val));
    }
    if (st == COMPI_OK && (sscanf(val, "%u,%d,%d", &c, &n, &nchunks) != 3 || n < 1)) {
        st = COMPI_ERR_PMI;
    }
    if (st == COMPI_OK && (*ids_p = malloc((size_t)n * sizeof(int))) == NULL) {
        st = COMPI_ERR_NO_MEMORY;
    }
    if (st == COMPI_OK && (st = dyn__get_ids(theirs, nchunks, *ids_p, n)) != COMPI_OK) {
        free(*ids_p);
        *ids_p = NULL;
    }
    hdr[0] = (int)st;
    hdr[1] = (int)c;
    hdr[2] = n;
    return st;
}

compi_status_t comm_dyn_join(compi_comm_t *local, int root, const comm_dyn_ops_t *ops, void *arg,
                             compi_comm_t **inter_p)
{
    comm_coll_set_t set;
    int *members = NULL, *ids = NULL, *peers = NULL;
    int hdr[3] = {COMPI_OK, 0, 0};
    uint32_t max_ctx;
    compi_group_t *rg = NULL;
    compi_comm_t *c = NULL;
    compi_status_t st;

    *inter_p = NULL;
    if (!rte_dynamic()) {
        return COMPI_ERR_UNSUPPORTED;
    }
    st = comm_coll_rooted(local, root, &set, &members);
    if (st != COMPI_OK) {
        return st;
    }
    st = comm_coll_allreduce_max_u32(&set, comm_ctx_dyn_next(), &max_ctx);
    if (st != COMPI_OK || max_ctx >= COMM_CTX_NB_BASE - 2) {
        st = st != COMPI_OK ? st : COMPI_ERR_NO_RESOURCE;
        goto out;
    }
    /* claimed now: at MPI_THREAD_MULTIPLE another thread may spawn or connect while the
       root waits for the other group (an id above ours that the other group brings may
       still be taken meanwhile by such a join: not made safe).  Other agreements take
       ids of their own spaces (COMM_CTX_DYN_BASE, comm.h). */
    comm_ctx_dyn_taken(max_ctx + 1);
    if (local->rank == root) {
        dyn__root(local, max_ctx, ops, arg, hdr, &ids);
    }
    /* the others wait here whatever the root found: it always broadcasts */
    st = comm_coll_bcast_int(&set, hdr, 3);
    if (st == COMPI_OK && hdr[0] != COMPI_OK) {
        st = (compi_status_t)hdr[0];
    }
    if (st != COMPI_OK) {
        goto out;
    }
    if (ids == NULL && (ids = malloc((size_t)hdr[2] * sizeof(int))) == NULL) {
        st = COMPI_ERR_NO_MEMORY; /* the root has sent: the job cannot go on consistently */
        goto out;
    }
    st = comm_coll_bcast_int(&set, ids, hdr[2]);
    if (st != COMPI_OK) {
        goto out;
    }
    peers = malloc((size_t)hdr[2] * sizeof(int));
    if (peers == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    for (int i = 0; st == COMPI_OK && i < hdr[2]; i++) {
        st = rte_peer_add(ids[i], &peers[i]);
    }
    if (st == COMPI_OK) {
        st = pml_add_peers(hdr[2], peers);
    }
    if (st != COMPI_OK) {
        goto out;
    }
    uint32_t ctx = (uint32_t)hdr[1] > max_ctx ? (uint32_t)hdr[1] : max_ctx;
    if (ctx >= COMM_CTX_NB_BASE - 2 - COMM_CTX_POOL) {
        st = COMPI_ERR_NO_RESOURCE;
        goto out;
    }
    comm_ctx_dyn_taken(ctx + COMM_CTX_POOL);
    st = group_create(hdr[2], peers, &rg);
    if (st == COMPI_OK) {
        st = comm_create_inter(local->group, rg, ctx, &c);
    }
    if (st == COMPI_OK) {
        comm_set_errhandler(c, local->errh);
        comm_set_errhandler(c->local_comm, local->errh);
        comm_pool_reserved(c);
        *inter_p = c;
    }
out:
    if (rg != NULL) {
        group_release(rg);
    }
    free(peers);
    free(ids);
    free(members);
    return st;
}

compi_status_t comm_dyn_sync(compi_comm_t *inter)
{
    comm_coll_set_t set = comm_coll_whole(inter);
    uint32_t dummy;
    compi_status_t st = comm_coll_allreduce_max_u32(&set, 0, &dummy);
    int mine = 0, theirs = 0;

    if (st != COMPI_OK) {
        return st;
    }
    /* the leaders meet over the intercommunicator, then tell their groups */
    if (inter->rank == 0) {
        compi_request_t *sreq = NULL;
        compi_datatype_t *dt = dt_from_handle(MPI_INT);

        st = pml_isend(&mine, 1, dt, 0, COMPI_TAG_COMM_CREATE, inter, PML_SEND_STANDARD, &sreq);
        if (st == COMPI_OK) {
            st = pml_recv(&theirs, 1, dt, 0, COMPI_TAG_COMM_CREATE, inter, NULL);
            compi_status_t wst = pml_wait(sreq, NULL);
            pml_request_free(sreq);
            st = st != COMPI_OK ? st : wst;
        }
    }
    compi_status_t bst = comm_coll_bcast_int(&set, &theirs, 1);
    return st != COMPI_OK ? st : bst;
}
