/*
 * allgatherv/ring.c -- allgatherv around a ring; the engine is allgather/ring.c's, which
 * reads counts and displacements through coll_rblock().
 *
 *        0 --> 1 --> 2 --> 3 --+      in step s rank r forwards block (r - s) mod p
 *        ^                     |
 *        +---------------------+
 *
 * Cost (p ranks, N bytes in all): T = (p - 1) alpha + N beta (less the own block), with
 * the largest block setting the pace of each step.
 */
#include "core/coll/phases/blocks.h"

const coll_algo_t coll_algo_allgatherv_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHERV,
    .fn = coll_allgather_ring,
    .usable = NULL,
    .params = "",
    .help = "p - 1 steps around a ring",
};
