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
#include "core/runtime/log.h"
#include "core/runtime/params.h"

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
    const char *simd = param_register_string(
        "op_simd", "auto",
        "instruction set of the reduction loops: auto (the best the processor runs), "
        "avx512, avx2 or base (at most that one; base: the build's own, SSE2 on x86-64)");
    if (op_simd_select(simd) < 0) {
        compi_log_warn("op_simd=%s: not auto, avx512, avx2 or base; using auto", simd);
        op_simd_select("auto");
    }
    for (int i = 1; i < OP_NPREDEF; i++) {
        op_predef[i] = (compi_op_t){
            .handle = HANDLE_BUILTIN(COMPI_HKIND_OP, i),
            .commutative = 1,
            .predefined = i,
            .user_fn = NULL,
            .refcount = 1,
            .name = op_names[i],
        };
        compi_status_t st =
            handle_set_fixed(&op_table, (unsigned)i, op_predef[i].handle, &op_predef[i]);
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

const char *op_simd_in_use(void)
{
    return op_simd_name(op_simd_current());
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
        if (bt == NULL || bt->kind == OP_LOOP_NONE || !(bt->ops & OP_BIT(idx))) {
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

/* out = in for count elements of dt's layout (MPI_REPLACE, and the first half of the
   three-buffer form of the ops that only combine in place) */
static void op_copy(compi_datatype_t *dt, const char *in, char *out, size_t count)
{
    if (dt->contig) {
        memmove(out + dt->true_lb, in + dt->true_lb, count * dt->size);
        return;
    }
    for (size_t u = 0; u < count * dt->nrep; u++) {
        ptrdiff_t shift = dt_unit_shift(dt, u);
        for (int b = 0; b < dt->nblocks; b++) {
            const dt_block_t *bk = &dt->blocks[b];
            memmove(out + shift + bk->disp, in + shift + bk->disp, bk->len);
        }
    }
}

/* the elementwise ops (MAX..BXOR) on a layout of blocks, one loop call per block */
static void op_apply_blocks(int idx, compi_datatype_t *dt, const char *a, const char *b, char *out,
                            size_t count)
{
    for (size_t u = 0; u < count * dt->nrep; u++) {
        ptrdiff_t shift = dt_unit_shift(dt, u);
        for (int k = 0; k < dt->nblocks; k++) {
            const dt_block_t *bk = &dt->blocks[k];
            const op_basic_t *bb = op_basic(bk->basic);
            ptrdiff_t at = shift + bk->disp;
            op_loop(bb)(idx, a + at, b + at, out + at, bk->len / bb->size);
        }
    }
}

/* the ops that only combine in place: user ops, MINLOC/MAXLOC, REPLACE, NO_OP */
static void op_apply_inout(const compi_op_t *op, compi_datatype_t *dt, const char *in, char *inout,
                           size_t count)
{
    switch (op->predefined) {
    case 0:
        op_apply_user(op, dt, in, inout, count);
        break;
    case OP_NO_OP:
        break;
    case OP_REPLACE:
        op_copy(dt, in, inout, count);
        break;
    default: /* OP_MINLOC, OP_MAXLOC */
        op_loc_apply(op->predefined, dt, in, inout, count);
        break;
    }
}

/* 1 for the ops that run the typed loops element by element */
static int op_elementwise(int idx)
{
    return idx >= OP_MAX && idx < OP_MINLOC;
}

compi_status_t coll_op_apply(const compi_op_t *op, compi_datatype_t *dt, const void *in,
                             void *inout, size_t count)
{
    return coll_op_apply3(op, dt, in, inout, inout, count);
}

compi_status_t coll_op_apply3(const compi_op_t *op, compi_datatype_t *dt, const void *a,
                              const void *b, void *out, size_t count)
{
    const char *pa = a, *pb = b;
    char *po = out;
    int idx = op->predefined;

    if (count == 0 || dt->size == 0) {
        return COMPI_OK;
    }
    /* the common case first: one basic type, no holes, an elementwise op -- a single
       loop over every element */
    const op_basic_t *bt = op_basic(dt->basic);
    if (compi_likely(dt->contig && op_elementwise(idx) && bt != NULL &&
                     bt->kind != OP_LOOP_NONE)) {
        if (compi_unlikely(!(bt->ops & OP_BIT(idx)))) {
            return COMPI_ERR_INVALID_PARAM;
        }
        ptrdiff_t lb = dt->true_lb;
        op_loop(bt)(idx, pa + lb, pb + lb, po + lb, count * dt->size / bt->size);
        return COMPI_OK;
    }
    if (idx != 0 && compi_unlikely(!op_valid_for(op, dt))) {
        return COMPI_ERR_INVALID_PARAM;
    }
    if (op_elementwise(idx)) {
        op_apply_blocks(idx, dt, pa, pb, po, count);
        return COMPI_OK;
    }
    if (po == pb) {
        op_apply_inout(op, dt, pa, po, count);
        return COMPI_OK;
    }
    /* out = b, then out = a op out; when out is a, a goes aside first (a cold path: user
       ops and MINLOC/MAXLOC) */
    char *amem = NULL;
    if (po == pa) {
        /* the bytes count elements touch, whatever the sign of the extent */
        ptrdiff_t last = (ptrdiff_t)(count - 1) * dt->extent;
        ptrdiff_t lo = dt->true_lb + (last < 0 ? last : 0);
        ptrdiff_t hi = dt->true_lb + dt->true_extent + (last > 0 ? last : 0);
        amem = malloc((size_t)(hi - lo));
        if (amem == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        memcpy(amem, pa + lo, (size_t)(hi - lo));
        pa = amem - lo;
    }
    op_copy(dt, pb, po, count);
    op_apply_inout(op, dt, pa, po, count);
    free(amem);
    return COMPI_OK;
}
