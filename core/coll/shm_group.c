/*
 * shm_group.c -- segments over groups of a communicator's ranks (shm_group.h): made
 * collectively, looked up by grouping, freed with the communicator.
 *
 * Making them takes two allreduces over the communicator around the groups' own
 * mappings: the first says whether every rank has its group's description and every
 * group lives on one host (else nobody maps), the second whether every group mapped its
 * segment (else all unmap).  Every rank leaves with the same answer, and no rank waits
 * for a peer that is not coming.
 */
#include "config.h"

#include "core/coll/shm_group.h"
#include "core/comm/comm_coll.h"
#include "core/runtime/rte.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void group_free(coll_shm_group_t *g)
{
    if (g->view.size > 1 && g->shm.ctl != NULL) {
        munmap(g->shm.ctl, g->shm.len);
    }
    free(g->group_of);
    free(g->members);
    free(g->world);
    free(g);
}

/* this rank's group of the grouping, its members and their world ranks; NULL when out
   of memory */
static coll_shm_group_t *group_new(const compi_comm_t *comm, const int *group_of)
{
    int n = comm->size, me = comm->rank, k = 0;
    coll_shm_group_t *g = calloc(1, sizeof(*g));
    if (g == NULL) {
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        k += group_of[r] == group_of[me];
    }
    g->n = n;
    g->group_of = malloc((size_t)n * sizeof(int));
    g->members = malloc((size_t)k * sizeof(int));
    g->world = malloc((size_t)k * sizeof(int));
    if (g->group_of == NULL || g->members == NULL || g->world == NULL) {
        group_free(g);
        return NULL;
    }
    memcpy(g->group_of, group_of, (size_t)n * sizeof(int));
    k = 0;
    for (int r = 0; r < n; r++) {
        if (group_of[r] == group_of[me]) {
            if (r == me) {
                g->pos = k;
            }
            g->world[k] = comm->world_ranks[r];
            g->members[k++] = r;
        }
    }
    g->view.ctx = comm->ctx;
    g->view.rank = g->pos;
    g->view.size = k;
    g->view.world_ranks = g->world;
    g->view.coll_shm = k > 1 ? &g->shm : NULL;
    g->view.handle = -1;
    return g;
}

/* 1 when every member of this rank's group lives on this host (the runtime's facts) */
static int group_local(const coll_shm_group_t *g)
{
    if (rte_local_ranks() == NULL) {
        return 1; /* no runtime: one process stands for the job */
    }
    for (int i = 0; i < g->view.size; i++) {
        if (!rte_world_rank_is_local(g->world[i])) {
            return 0;
        }
    }
    return 1;
}

coll_shm_group_t *coll_shm_group_find(compi_comm_t *comm, const int *group_of)
{
    for (coll_shm_group_t *g = comm->coll_shm_groups; g != NULL; g = g->next) {
        if (g->n == comm->size && memcmp(g->group_of, group_of, (size_t)g->n * sizeof(int)) == 0) {
            return g;
        }
    }
    return NULL;
}

coll_shm_group_t *coll_shm_group_get(compi_comm_t *comm, const int *group_of, compi_status_t *st_p)
{
    coll_shm_group_t *g = coll_shm_group_find(comm, group_of);
    if (g != NULL) {
        return g;
    }
    g = group_new(comm, group_of);
    comm_coll_set_t whole = comm_coll_whole(comm);
    uint32_t any = 0;
    whole.tag = COMPI_TAG_COLL_SHM;
    /* a rank without its group's description cannot take part in its group's mapping,
       and a group whose members are not all on this host must not try (a member
       elsewhere would open /proc/PID/fd/N of another process): every rank learns either
       first, and then none maps */
    compi_status_t st = comm_coll_allreduce_max_u32(&whole, g == NULL || !group_local(g), &any);
    if (st != COMPI_OK || any != 0) {
        if (g != NULL) {
            group_free(g);
        }
        *st_p = st != COMPI_OK ? st : COMPI_ERR_UNSUPPORTED;
        return NULL;
    }
    int failed = 0;

    /* each group maps its segment among its members: the group's own failure is known
       to all of them (comm_coll_shared_map fails alike on every member) */
    if (g->view.size > 1) {
        size_t slot = coll_shm_slot_size();
        size_t len = coll_shm_len(g->view.size, slot);
        comm_coll_set_t set = {.comm = comm,
                               .members = g->members,
                               .n = g->view.size,
                               .me = g->pos,
                               .tag = COMPI_TAG_COLL_SHM};
        void *base = NULL;
        st = comm_coll_shared_map(&set, len, "coll shm group", 1, 0, &base);
        if (st == COMPI_OK) {
            coll_shm_init(&g->shm, base, len, slot, g->view.size, g->pos, g->world);
        } else {
            failed = 1;
        }
    }
    /* then every rank learns whether all groups have theirs: all or none keep them */
    compi_status_t ast = comm_coll_allreduce_max_u32(&whole, (uint32_t)failed, &any);
    if (ast != COMPI_OK || any != 0) {
        group_free(g);
        *st_p = ast != COMPI_OK ? ast : st != COMPI_OK ? st : COMPI_ERR_UNSUPPORTED;
        return NULL;
    }
    g->next = comm->coll_shm_groups;
    comm->coll_shm_groups = g;
    return g;
}

void coll_shm_groups_release(compi_comm_t *comm)
{
    coll_shm_group_t *g = comm->coll_shm_groups;
    while (g != NULL) {
        coll_shm_group_t *next = g->next;
        group_free(g);
        g = next;
    }
    comm->coll_shm_groups = NULL;
}
