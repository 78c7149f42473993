/*
 * bridge_warm.c -- the miss path run once at MPI_Init, so that the program's first cache
 * miss costs about what its later ones do.
 *
 * The first time Guile runs a procedure it does work it does not repeat: it resolves the
 * module variables the procedure refers to, faults in the pages of its compiled code,
 * makes the first objects of each kind.  Measured on a 2-core machine (singleton,
 * bench/results/miss_cost.txt), the first miss of a process took 130-190 us where the
 * later ones took 8, nearly all of it in Scheme.  bridge_warm_up builds (and drops) the
 * closures of three calls on a communicator, through the whole miss path but the cache
 * and the agreement: call record, build-lowered-for, C lowering, native and tree
 * closures.  MPI_Init calls it after bridge_init and before any config file is loaded,
 * so only the default creators answer: nothing a config installs (a creator that counts
 * or prints) ever sees these calls.
 *
 * Ownership: the closures built are released here; nothing is kept.
 */
#include "scheme/bridge.h"
#include "core/coll/coll.h"
#include "core/dt/dt.h"
#include "core/op/op.h"

#include <string.h>

void bridge_warm_up(compi_comm_t *comm)
{
    static const coll_kind_t kinds[] = {COLL_ALLREDUCE, COLL_BCAST, COLL_BARRIER};
    double in = 0.0, out = 0.0;
    char err[256];

    if (!bridge_is_initialized() || comm == NULL) {
        return;
    }
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        coll_call_t call;
        coll_closure_t *c = NULL;
        memset(&call, 0, sizeof(call));
        call.kind = kinds[i];
        call.comm = comm;
        call.root = kinds[i] == COLL_BCAST ? 0 : -1;
        if (kinds[i] != COLL_BARRIER) {
            call.sbuf = &in;
            call.rbuf = &out;
            call.scount = call.rcount = 1;
            call.sdt = call.rdt = dt_from_handle(MPI_DOUBLE);
            call.bytes = sizeof(double);
            call.op = kinds[i] == COLL_ALLREDUCE ? op_from_handle(MPI_SUM) : NULL;
        }
        /* a failure here is the first miss's to report, with its own call */
        if (bridge_build_closure(&call, &c, err, sizeof(err)) == COMPI_OK) {
            coll_closure_release(c);
        }
    }
}
