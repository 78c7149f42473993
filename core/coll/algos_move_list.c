/*
 * algos_move_list.c -- the native algorithms of this family, NULL-terminated (see
 * algo_table.c).
 */
#include "coll.h"

const coll_algo_t *const coll_algos_move[] = {
    NULL,
};
