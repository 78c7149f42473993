/*
 * bridge_facts.c -- rank facts as Scheme sees them: (call-ranks CALL) is a vector with one
 * <rank> record of (compi) per rank of the call's communicator, in communicator rank
 * order (rank-world, rank-host, rank-addresses, rank-place, rank-bound?).
 *
 * A call record made by the bridge holds its communicator's world ranks (an s32
 * bytevector, a copy: the record may outlive the communicator); call-ranks turns them
 * into records on first use and stores the vector back in the call, so a creator that
 * asks twice pays once.  Rank records are built once per world rank for the whole run
 * (facts do not change) and kept in one protected vector: a call then costs a vector of
 * references, O(size), whatever the communicator.  A call made in Scheme (make-call)
 * carries its own vector of records, or none.
 *
 * Ownership: the cache vector is protected for good (gc-protect, once); everything else
 * belongs to the collector.
 */
#include "scheme/bridge_scm.h"
#include "core/coll/coll.h"
#include "core/comm/comm.h"
#include "core/include/compi_common.h"
#include "core/runtime/rte.h"
#include "topologies/facts.h"

#include <string.h>

static struct {
    SCM make_rank; /* (compi)'s make-rank, looked up on first use */
    SCM world; /* vector [world size] of <rank> records or #f, protected */
} bf = {.make_rank = SCM_BOOL_F, .world = SCM_BOOL_F};

SCM bridge_facts_ranks_field(const struct coll_call *call)
{
    const compi_comm_t *comm = call->comm;
    if (comm->world_ranks == NULL) {
        return SCM_BOOL_F; /* a communicator faked for tests (tests/scheme/bridge_probe.c) */
    }
    /* an intercommunicator's ranks here are its local group's (call-size, call-rank) */
    int n = comm_is_inter(comm) ? comm->group->size : comm->size;
    const int *ranks = comm_is_inter(comm) ? comm->group->world_ranks : comm->world_ranks;
    SCM bv = scm_c_make_bytevector((size_t)n * sizeof(int32_t));
    int32_t *w = (int32_t *)SCM_BYTEVECTOR_CONTENTS(bv);

    for (int i = 0; i < n; i++) {
        w[i] = ranks[i];
    }
    return bv;
}

/* the <rank> record of a world rank, built from the runtime's facts on first use */
static SCM bf__world_record(int world, const char *who)
{
    size_t have = scm_is_false(bf.world) ? 0 : SCM_SIMPLE_VECTOR_LENGTH(bf.world);
    if ((size_t)world >= have) {
        /* processes of other worlds (rte.h) come after the world's ranks, as they are met */
        size_t want = (size_t)(rte_peer_count() > world ? rte_peer_count() : world + 1);
        SCM grown = scm_c_make_vector(want, SCM_BOOL_F);
        for (size_t i = 0; i < have; i++) {
            scm_c_vector_set_x(grown, i, scm_c_vector_ref(bf.world, i));
        }
        if (have > 0) {
            scm_gc_unprotect_object(bf.world);
        }
        bf.world = scm_gc_protect_object(grown);
    }
    SCM rec = scm_c_vector_ref(bf.world, (size_t)world);
    if (scm_is_true(rec)) {
        return rec;
    }
    const topo_facts_t *f = topo_facts(world);
    if (f == NULL) {
        scm_misc_error(who, "the facts of world rank ~A cannot be read (see the log)",
                       scm_list_1(scm_from_int(world)));
    }
    SCM addrs = SCM_EOL;
    for (int i = f->naddrs; i-- > 0;) {
        addrs = scm_cons(scm_from_utf8_string(f->addrs[i]), addrs);
    }
    /* (package numa core l3), l3 #f when unknown; #f when the rest is unknown */
    SCM place = SCM_BOOL_F;
    if (f->package >= 0 && f->numa >= 0 && f->core >= 0) {
        place = scm_list_4(scm_from_int(f->package), scm_from_int(f->numa), scm_from_int(f->core),
                           f->l3 >= 0 ? scm_from_int(f->l3) : SCM_BOOL_F);
    }
    SCM args[5] = {scm_from_int(world), scm_from_utf8_string(f->host), addrs, place,
                   scm_from_bool(f->bound)};
    rec = scm_call_n(bf.make_rank, args, 5);
    scm_c_vector_set_x(bf.world, (size_t)world, rec);
    return rec;
}

/* (call-ranks CALL) -> #(<rank> ...), one per rank of the call's communicator */
static SCM prim_call_ranks(SCM call)
{
    static const char who[] = "call-ranks";

    if (scm_is_false(bf.make_rank)) {
        bf.make_rank = scm_gc_protect_object(scm_c_public_ref("compi", "make-rank"));
    }
    if (!bridge_is(&bridge_call_layout, call)) {
        scm_wrong_type_arg_msg(who, SCM_ARG1, call, "call");
    }
    SCM field = bridge_ref(&bridge_call_layout, call, BRIDGE_CALL_RANKS);
    if (scm_is_vector(field)) {
        return field;
    }
    if (!scm_is_bytevector(field)) {
        scm_misc_error(who,
                       "this call has no rank facts: a call made with make-call needs its "
                       "RANKS argument (a vector of make-rank records)",
                       SCM_EOL);
    }
    size_t n = SCM_BYTEVECTOR_LENGTH(field) / sizeof(int32_t);
    const int32_t *world = (const int32_t *)SCM_BYTEVECTOR_CONTENTS(field);
    /* check every rank before building anything: a raise must leave nothing half done */
    for (size_t i = 0; i < n; i++) {
        if (world[i] < 0 || world[i] >= rte_peer_count()) {
            scm_misc_error(who, "world rank ~A is outside the job (size ~A)",
                           scm_list_2(scm_from_int(world[i]), scm_from_int(rte_peer_count())));
        }
    }
    SCM vec = scm_c_make_vector(n, SCM_BOOL_F);
    for (size_t i = 0; i < n; i++) {
        scm_c_vector_set_x(vec, i, bf__world_record(world[i], who));
    }
    bridge_set(&bridge_call_layout, call, BRIDGE_CALL_RANKS, vec);
    return vec;
}

const bridge_prim_t bridge_facts_prims[] = {
    {.name = "call-ranks", .req = 1, .fn = (scm_t_subr)prim_call_ranks},
};
const size_t bridge_facts_nprims = COMPI_ARRAY_SIZE(bridge_facts_prims);
