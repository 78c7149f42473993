/*
 * group.c -- groups as arrays of world ranks, and MPI's set algebra on them.
 *
 * Membership questions ("is world rank w in g2, and where?") are answered through a
 * temporary map indexed by world rank, so every operation is linear in the sizes of the
 * groups and in the largest world rank involved, never quadratic.
 */
#include "core/comm/group.h"

#include "core/runtime/rte.h"

#include <stdlib.h>
#include <string.h>

handle_table_t group_table = HANDLE_TABLE_INIT(COMPI_HKIND_GROUP, 2);

/* MPI_GROUP_EMPTY: static, its refcount is never looked at */
static compi_group_t group_empty_obj = {.size = 0,
                                        .rank = MPI_UNDEFINED,
                                        .world_ranks = NULL,
                                        .handle = MPI_GROUP_EMPTY,
                                        .refcount = 1};

compi_group_t *group_empty(void)
{
    return &group_empty_obj;
}

compi_status_t group_create(int size, const int *world_ranks, compi_group_t **group_p)
{
    compi_group_t *g;

    if (size < 0) {
        return COMPI_ERR_INVALID_PARAM;
    }
    if (size == 0) {
        *group_p = &group_empty_obj;
        return COMPI_OK;
    }
    g = calloc(1, sizeof(*g));
    if (g == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    g->world_ranks = malloc((size_t)size * sizeof(int));
    if (g->world_ranks == NULL) {
        free(g);
        return COMPI_ERR_NO_MEMORY;
    }
    memcpy(g->world_ranks, world_ranks, (size_t)size * sizeof(int));
    g->size = size;
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < size; i++) {
        if (world_ranks[i] == rte_proc.world_rank) {
            g->rank = i;
            break;
        }
    }
    g->handle = MPI_GROUP_NULL;
    g->refcount = 1;
    *group_p = g;
    return COMPI_OK;
}

void group_retain(compi_group_t *g)
{
    if (g != &group_empty_obj) {
        g->refcount++;
    }
}

void group_release(compi_group_t *g)
{
    if (g == NULL || g == &group_empty_obj || --g->refcount > 0) {
        return;
    }
    if (g->handle != MPI_GROUP_NULL) {
        handle_free(&group_table, g->handle);
    }
    free(g->world_ranks);
    free(g);
}

compi_status_t group_to_handle(compi_group_t *g, MPI_Group *h_p)
{
    if (g == &group_empty_obj) {
        /* predefined: its handle is fixed and needs no reference */
        *h_p = MPI_GROUP_EMPTY;
        return COMPI_OK;
    }
    if (g->handle == MPI_GROUP_NULL) {
        compi_status_t st = handle_alloc(&group_table, g, &g->handle);
        if (st != COMPI_OK) {
            return st;
        }
    }
    group_retain(g);
    *h_p = g->handle;
    return COMPI_OK;
}

int group_rank_of_world(const compi_group_t *g, int world_rank)
{
    for (int i = 0; i < g->size; i++) {
        if (g->world_ranks[i] == world_rank) {
            return i;
        }
    }
    return MPI_UNDEFINED;
}

/* map[w] = rank of world rank w in g, or -1; the map covers world ranks [0, *len_p) */
static int *group_world_map(const compi_group_t *g, int min_len, int *len_p)
{
    int len = min_len;
    int *map;

    for (int i = 0; i < g->size; i++) {
        if (g->world_ranks[i] >= len) {
            len = g->world_ranks[i] + 1;
        }
    }
    map = malloc((size_t)(len > 0 ? len : 1) * sizeof(int));
    if (map == NULL) {
        return NULL;
    }
    for (int w = 0; w < len; w++) {
        map[w] = -1;
    }
    for (int i = 0; i < g->size; i++) {
        map[g->world_ranks[i]] = i;
    }
    *len_p = len;
    return map;
}

static int group_max_world(const compi_group_t *g)
{
    int max = -1;
    for (int i = 0; i < g->size; i++) {
        if (g->world_ranks[i] > max) {
            max = g->world_ranks[i];
        }
    }
    return max;
}

static inline int map_has(const int *map, int len, int w)
{
    return w < len && map[w] >= 0;
}

/* a group from a scratch array (which this consumes either way) */
static compi_status_t group_from_scratch(int n, int *ranks, compi_group_t **g_p)
{
    compi_status_t st = group_create(n, ranks, g_p);
    free(ranks);
    return st;
}

/*
 * Union, intersection and difference share one walk: keep each member of g1 whose
 * presence in g2 is `keep_if_in_g2` (or all of g1 for the union), then for the union
 * append the members of g2 not in g1.
 */
enum { SETOP_UNION, SETOP_INTERSECTION, SETOP_DIFFERENCE };

static compi_status_t group_setop(compi_group_t *g1, compi_group_t *g2, int op, compi_group_t **g_p)
{
    int len2, len1;
    int *map2 = NULL, *map1 = NULL, *out = NULL;
    int n = 0;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    map2 = group_world_map(g2, 0, &len2);
    out = malloc((size_t)(g1->size + g2->size + 1) * sizeof(int));
    if (map2 == NULL || out == NULL) {
        goto err;
    }
    for (int i = 0; i < g1->size; i++) {
        int w = g1->world_ranks[i];
        int in2 = map_has(map2, len2, w);
        if (op == SETOP_UNION || (op == SETOP_INTERSECTION && in2) ||
            (op == SETOP_DIFFERENCE && !in2)) {
            out[n++] = w;
        }
    }
    if (op == SETOP_UNION) {
        map1 = group_world_map(g1, 0, &len1);
        if (map1 == NULL) {
            goto err;
        }
        for (int i = 0; i < g2->size; i++) {
            if (!map_has(map1, len1, g2->world_ranks[i])) {
                out[n++] = g2->world_ranks[i];
            }
        }
    }
    free(map1);
    free(map2);
    return group_from_scratch(n, out, g_p);

err:
    free(map1);
    free(map2);
    free(out);
    return st;
}

compi_status_t group_union(compi_group_t *g1, compi_group_t *g2, compi_group_t **g_p)
{
    return group_setop(g1, g2, SETOP_UNION, g_p);
}

compi_status_t group_intersection(compi_group_t *g1, compi_group_t *g2, compi_group_t **g_p)
{
    return group_setop(g1, g2, SETOP_INTERSECTION, g_p);
}

compi_status_t group_difference(compi_group_t *g1, compi_group_t *g2, compi_group_t **g_p)
{
    return group_setop(g1, g2, SETOP_DIFFERENCE, g_p);
}

group_check_t group_check_ranks(const compi_group_t *g, int n, const int *ranks, int *bad_idx_p)
{
    unsigned char *seen;
    group_check_t res = GROUP_CHECK_OK;

    *bad_idx_p = -1;
    if (n < 0 || (n > 0 && ranks == NULL)) {
        return GROUP_CHECK_BAD_ARG;
    }
    seen = calloc((size_t)g->size + 1, 1);
    if (seen == NULL) {
        return GROUP_CHECK_BAD_ARG;
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size || seen[ranks[i]]) {
            *bad_idx_p = i;
            res = GROUP_CHECK_BAD_RANK;
            break;
        }
        seen[ranks[i]] = 1;
    }
    free(seen);
    return res;
}

/* number of ranks a valid triplet names */
static int range_count(const int *r)
{
    return (r[1] - r[0]) / r[2] + 1;
}

group_check_t group_check_ranges(const compi_group_t *g, int n, int ranges[][3], int *bad_idx_p)
{
    unsigned char *seen;
    group_check_t res = GROUP_CHECK_OK;

    *bad_idx_p = -1;
    if (n < 0 || (n > 0 && ranges == NULL)) {
        return GROUP_CHECK_BAD_ARG;
    }
    for (int i = 0; i < n; i++) {
        const int *r = ranges[i];
        if (r[0] < 0 || r[0] >= g->size || r[1] < 0 || r[1] >= g->size) {
            *bad_idx_p = i;
            return GROUP_CHECK_BAD_RANK;
        }
        /* MPI names first + k*stride for 0 <= k <= floor((last-first)/stride): the
         * stride must point from first towards last */
        if (r[2] == 0 || (r[1] != r[0] && (r[1] > r[0]) != (r[2] > 0))) {
            *bad_idx_p = i;
            return GROUP_CHECK_BAD_ARG;
        }
    }
    /* every rank named at most once, across all triplets */
    seen = calloc((size_t)g->size + 1, 1);
    if (seen == NULL) {
        return GROUP_CHECK_BAD_ARG;
    }
    for (int i = 0; i < n && res == GROUP_CHECK_OK; i++) {
        int cnt = range_count(ranges[i]);
        for (int k = 0; k < cnt; k++) {
            int rank = ranges[i][0] + k * ranges[i][2];
            if (seen[rank]) {
                *bad_idx_p = i;
                res = GROUP_CHECK_BAD_RANK;
                break;
            }
            seen[rank] = 1;
        }
    }
    free(seen);
    return res;
}

compi_status_t group_incl(compi_group_t *g, int n, const int *ranks, compi_group_t **g_p)
{
    int *out = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));

    if (out == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size) {
            free(out);
            return COMPI_ERR_INVALID_PARAM;
        }
        out[i] = g->world_ranks[ranks[i]];
    }
    return group_from_scratch(n, out, g_p);
}

/* the members of g whose flag in `drop` is 0, in g's order */
static compi_status_t group_keep_unflagged(compi_group_t *g, unsigned char *drop,
                                           compi_group_t **g_p)
{
    int *out = malloc((size_t)(g->size > 0 ? g->size : 1) * sizeof(int));
    int n = 0;

    if (out == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < g->size; i++) {
        if (!drop[i]) {
            out[n++] = g->world_ranks[i];
        }
    }
    return group_from_scratch(n, out, g_p);
}

compi_status_t group_excl(compi_group_t *g, int n, const int *ranks, compi_group_t **g_p)
{
    unsigned char *drop = calloc((size_t)g->size + 1, 1);
    compi_status_t st;

    if (drop == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size) {
            free(drop);
            return COMPI_ERR_INVALID_PARAM;
        }
        drop[ranks[i]] = 1;
    }
    st = group_keep_unflagged(g, drop, g_p);
    free(drop);
    return st;
}

compi_status_t group_range_incl(compi_group_t *g, int n, int ranges[][3], compi_group_t **g_p)
{
    int total = 0, k = 0;
    int *ranks;
    compi_status_t st;

    for (int i = 0; i < n; i++) {
        total += range_count(ranges[i]);
    }
    ranks = malloc((size_t)(total > 0 ? total : 1) * sizeof(int));
    if (ranks == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        int cnt = range_count(ranges[i]);
        for (int j = 0; j < cnt; j++) {
            ranks[k++] = ranges[i][0] + j * ranges[i][2];
        }
    }
    st = group_incl(g, total, ranks, g_p);
    free(ranks);
    return st;
}

compi_status_t group_range_excl(compi_group_t *g, int n, int ranges[][3], compi_group_t **g_p)
{
    unsigned char *drop = calloc((size_t)g->size + 1, 1);
    compi_status_t st;

    if (drop == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        int cnt = range_count(ranges[i]);
        for (int j = 0; j < cnt; j++) {
            int rank = ranges[i][0] + j * ranges[i][2];
            if (rank < 0 || rank >= g->size) {
                free(drop);
                return COMPI_ERR_INVALID_PARAM;
            }
            drop[rank] = 1;
        }
    }
    st = group_keep_unflagged(g, drop, g_p);
    free(drop);
    return st;
}

compi_status_t group_translate_ranks(const compi_group_t *g1, int n, const int *ranks1,
                                     const compi_group_t *g2, int *ranks2)
{
    int len;
    int *map2 = group_world_map(g2, 0, &len);

    if (map2 == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
        } else if (r < 0 || r >= g1->size) {
            free(map2);
            return COMPI_ERR_INVALID_PARAM;
        } else {
            int w = g1->world_ranks[r];
            ranks2[i] = map_has(map2, len, w) ? map2[w] : MPI_UNDEFINED;
        }
    }
    free(map2);
    return COMPI_OK;
}

int group_compare(const compi_group_t *g1, const compi_group_t *g2)
{
    int len, same_order = 1, res = MPI_SIMILAR;
    int *map2;

    if (g1 == g2) {
        return MPI_IDENT;
    }
    if (g1->size != g2->size) {
        return MPI_UNEQUAL;
    }
    for (int i = 0; i < g1->size; i++) {
        if (g1->world_ranks[i] != g2->world_ranks[i]) {
            same_order = 0;
            break;
        }
    }
    if (same_order) {
        return MPI_IDENT;
    }
    /* same size and no duplicates inside a group: similar iff every member of g1 is in g2 */
    map2 = group_world_map(g2, group_max_world(g1) + 1, &len);
    if (map2 == NULL) {
        return MPI_UNEQUAL;
    }
    for (int i = 0; i < g1->size; i++) {
        if (!map_has(map2, len, g1->world_ranks[i])) {
            res = MPI_UNEQUAL;
            break;
        }
    }
    free(map2);
    return res;
}
