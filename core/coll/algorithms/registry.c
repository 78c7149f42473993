/*
 * registry.c -- the table of native algorithms, made from algorithms.def (one line per
 * algorithm).  Each algorithm file defines one const coll_algo_t.
 */
#include "core/coll/coll.h"

#include <string.h>

#define COLL_ALGO(kind, algo) extern const coll_algo_t coll_algo_##kind##_##algo;
#include "core/coll/algorithms/algorithms.def"
#undef COLL_ALGO

static const coll_algo_t *const all_algos[] = {
#define COLL_ALGO(kind, algo) &coll_algo_##kind##_##algo,
#include "core/coll/algorithms/algorithms.def"
#undef COLL_ALGO
};

const coll_algo_t *const *coll_algo_all(size_t *n_p)
{
    *n_p = COMPI_ARRAY_SIZE(all_algos);
    return all_algos;
}

const coll_algo_t *coll_algo_find(coll_kind_t kind, const char *name)
{
    for (size_t i = 0; i < COMPI_ARRAY_SIZE(all_algos); i++) {
        if (all_algos[i]->kind == kind && strcmp(all_algos[i]->name, name) == 0) {
            return all_algos[i];
        }
    }
    return NULL;
}

const char *coll_param_names(unsigned params)
{
    static const char *const names[] = {
        "",      "fanout",       "segsize",       "fanout segsize",
        "ranks", "fanout ranks", "segsize ranks", "fanout segsize ranks"};
    COMPI_STATIC_ASSERT(COLL_PARAM_FANOUT == 1 && COLL_PARAM_SEGSIZE == 2 && COLL_PARAM_RANKS == 4,
                        "names[] is indexed by the COLL_PARAM_* bits");
    return names[params & (COLL_PARAM_FANOUT | COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS)];
}
