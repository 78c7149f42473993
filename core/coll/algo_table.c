/*
 * algo_table.c -- the one list of native algorithms (libuv's habit: everything
 * registered in one place).  Each algorithm file defines one const coll_algo_t; the two
 * families list theirs in algos_reduce_list.c and algos_move_list.c, NULL-terminated.
 */
#include "coll.h"

#include <string.h>

extern const coll_algo_t *const coll_algos_reduce[]; /* barrier, bcast, reductions, scans */
extern const coll_algo_t *const coll_algos_move[];   /* gather, scatter, all*, alltoall* */

#define COLL_MAX_ALGOS 128
static const coll_algo_t *all_algos[COLL_MAX_ALGOS];
static size_t n_algos;

static void collect(void)
{
    const coll_algo_t *const *lists[] = {coll_algos_reduce, coll_algos_move};
    n_algos = 0;
    for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
        for (const coll_algo_t *const *a = lists[l]; *a != NULL && n_algos < COLL_MAX_ALGOS;
             a++) {
            all_algos[n_algos++] = *a;
        }
    }
}

const coll_algo_t *const *coll_algo_all(size_t *n_p)
{
    if (n_algos == 0) {
        collect();
    }
    *n_p = n_algos;
    return all_algos;
}

const coll_algo_t *coll_algo_find(coll_kind_t kind, const char *name)
{
    size_t n;
    const coll_algo_t *const *all = coll_algo_all(&n);
    for (size_t i = 0; i < n; i++) {
        if (all[i]->kind == kind && strcmp(all[i]->name, name) == 0) {
            return all[i];
        }
    }
    return NULL;
}
