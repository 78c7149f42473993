/*
 * op.c -- reduction operations: the predefined table, user ops, validity and
 * coll_op_apply().
 *
 * Cost of coll_op_apply: gamma per element of the typed loop, plus one indirect call per
 * datatype block for non-contiguous layouts (a vector of n doubles costs n calls per
 * element; a contiguous buffer of any basic type costs one call in all).
 *
 * Predefined ops walk the datatype's blocks; each block carries its basic type, so a
 * derived type mixing basic types (a struct of ints and doubles) reduces correctly as
 * long as the op is defined on every one of them.  MINLOC/MAXLOC work on pairs and have
 * their own walk (op_loc.c).  MPI_REPLACE and MPI_NO_OP are here for accumulate-style
 * callers; the collective API rejects them.
 */
#include "core/op/op.h"
#include "core/op/op_loops.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

handle_table_t op_table = HANDLE_TABLE_INIT(COMPI_HKIND_OP, OP_NPREDEF);

static compi_op_t op_predef[OP_NPREDEF];
static int op_initialized;

static const char *const op_names[OP_NPREDEF] = {
    [OP_MAX] = "MPI_MAX",         [OP_MIN] = "MPI_MIN",       [OP_SUM] = "MPI_SUM",
    [OP_PROD] = "MPI_PROD",       [OP_LAND] = "MPI_LAND",     [OP_BAND] = "MPI_BAND",
    [OP_LOR] = "MPI_LOR",         [OP_BOR] = "MPI_BOR",       [OP_LXOR] = "MPI_LXOR",
    [OP_BXOR] = "MPI_BXOR",       [OP_MINLOC] = "MPI_MINLOC", [OP_MAXLOC] = "MPI_MAXLOC",
    [OP_REPLACE] = "MPI_REPLACE", [OP_NO_OP] = "MPI_NO_OP",
};

compi_status_t op_init(void)
{
    if (op_initialized) {
        return COMPI_OK;
    }
    for (int i = 1; i < OP_NPREDEF; i++) {
        op_predef[i] = (compi_op_t){
            .handle = COMPI_HANDLE(COMPI_HKIND_OP, i),
            .commutative = 1,
            .predefined = i,
            .user_fn = NULL,
            .refcount = 1,
            .name = op_names[i],
        };
        compi_status_t st = handle_set_fixed(&op_table, (unsigned)i, &op_predef[i]);
        if (st != COMPI_OK) {
            return st;
        }
    }
    op_initialized = 1;
    return COMPI_OK;
}

/* User ops the application never freed lose the user's reference; one still held by a
   closure lives until that closure lets it go. */
void op_finalize(void)
{
    for (unsigned idx = OP_NPREDEF; idx < op_table.n; idx++) {
        compi_op_t *op = op_table.objs[idx];
        if (op != NULL) {
            handle_free(&op_table, op->handle);
            op_release(op);
        }
    }
    handle_table_destroy(&op_table);
    op_initialized = 0;
}

void op_retain(compi_op_t *op)
{
    if (!op->predefined) {
        op->refcount++;
    }
}

void op_release(compi_op_t *op)
{
    if (!op->predefined && --op->refcount == 0) {
        free(op);
    }
}

int op_valid_for(const compi_op_t *op, const compi_datatype_t *dt)
{
    int idx = op->predefined;

    if (idx == 0 || idx == OP_REPLACE || idx == OP_NO_OP || dt->size == 0) {
        return 1;
    }
    if (dt->predefined) {
        /* the table: pair types take only MINLOC/MAXLOC, MPI_BYTE only the bitwise ops */
        const op_basic_t *bt = op_basic(dt->basic);
        return bt != NULL && (bt->ops & OP_BIT(idx));
    }
    if (idx == OP_MINLOC || idx == OP_MAXLOC) {
        return op_loc_valid(dt);
    }
    for (int b = 0; b < dt->nblocks; b++) {
        const op_basic_t *bt = op_basic(dt->blocks[b].basic);
        if (bt == NULL || bt->loop == NULL || !(bt->ops & OP_BIT(idx))) {
            return 0;
        }
    }
    return 1;
}

/* user functions take an int count: hand them at most INT_MAX elements at a time */
static void op_apply_user(const compi_op_t *op, compi_datatype_t *dt, const char *in, char *inout,
                          size_t count)
{
    MPI_Datatype h = dt->handle;
    if (op->user_fn_c != NULL) {
        MPI_Count len = (MPI_Count)count;
        op->user_fn_c((void *)in, inout, &len, &h);
        return;
    }
    while (count > 0) {
        int len = count > INT_MAX ? INT_MAX : (int)count;
        op->user_fn((void *)in, inout, &len, &h);
        in += (ptrdiff_t)len * dt->extent;
        inout += (ptrdiff_t)len * dt->extent;
        count -= (size_t)len;
    }
}

static void op_apply_replace(compi_datatype_t *dt, const char *in, char *inout, size_t count)
{
    if (dt->contig) {
        memmove(inout + dt->true_lb, in + dt->true_lb, count * dt->size);
        return;
    }
    for (size_t e = 0; e < count; e++) {
        ptrdiff_t shift = (ptrdiff_t)e * dt->extent;
        for (int b = 0; b < dt->nblocks; b++) {
            const dt_block_t *bk = &dt->blocks[b];
            memmove(inout + shift + bk->disp, in + shift + bk->disp, bk->len);
        }
    }
}

compi_status_t coll_op_apply(const compi_op_t *op, compi_datatype_t *dt, const void *in,
                             void *inout, size_t count)
{
    const char *src = in;
    char *dst = inout;
    int idx = op->predefined;

    if (count == 0 || dt->size == 0) {
        return COMPI_OK;
    }
    if (idx == 0) {
        op_apply_user(op, dt, src, dst, count);
        return COMPI_OK;
    }
    /* the common case first: one basic type, no holes, an elementwise op -- a single
       loop over every element */
    const op_basic_t *bt = op_basic(dt->basic);
    if (compi_likely(dt->contig && bt != NULL && bt->loop != NULL && idx < OP_MINLOC)) {
        if (compi_unlikely(!(bt->ops & OP_BIT(idx)))) {
            return COMPI_ERR_INVALID_PARAM;
        }
        bt->loop(idx, src + dt->true_lb, dst + dt->true_lb, count * dt->size / bt->size);
        return COMPI_OK;
    }
    if (compi_unlikely(!op_valid_for(op, dt))) {
        return COMPI_ERR_INVALID_PARAM;
    }
    switch (idx) {
    case OP_NO_OP:
        return COMPI_OK;
    case OP_REPLACE:
        op_apply_replace(dt, src, dst, count);
        return COMPI_OK;
    case OP_MINLOC:
    case OP_MAXLOC:
        op_loc_apply(idx, dt, src, dst, count);
        return COMPI_OK;
    default:
        break;
    }
    for (size_t e = 0; e < count; e++) {
        ptrdiff_t shift = (ptrdiff_t)e * dt->extent;
        for (int b = 0; b < dt->nblocks; b++) {
            const dt_block_t *bk = &dt->blocks[b];
            const op_basic_t *bb = op_basic(bk->basic);
            bb->loop(idx, src + shift + bk->disp, dst + shift + bk->disp, bk->len / bb->size);
        }
    }
    return COMPI_OK;
}
