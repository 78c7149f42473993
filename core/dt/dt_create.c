/*
 * dt_create.c -- derived datatype constructors and flattening.
 *
 * Every constructor reduces to a list of entries (displacement, blocklength, type): a
 * contiguous type is one entry of `count` copies, a vector `count` entries `stride`
 * apart, a struct one entry per member.  A builder takes the entries one by one and
 *   - appends the old type's blocks, shifted, merging a block into the previous one
 *     when it continues it in memory with the same basic type;
 *   - keeps the bounds: explicit ones (MPI_LB/MPI_UB markers, resized types) are sticky
 *     and win over the bounds of the data, as MPI defines them;
 *   - sums size, basic elements and the largest alignment.
 * A struct's extent is then padded to that alignment unless an upper bound was set
 * explicitly, so an array of structs in C and `count` elements of the type agree.
 *
 * An old type whose copies are adjacent (one block as long as its extent) contributes
 * one block per entry whatever the blocklength, so contiguous(10^9, MPI_INT) is one block.
 *
 * A regular type of many pieces (a vector or contiguous of `count` copies of a unit, with
 * more than DT_FLAT_MAX blocks when flattened) keeps the unit's blocks once, with nrep =
 * count and the stride: vector(10^9, 1, 2, MPI_INT) costs one block, not 10^9.  Such a
 * type used inside another constructor is flattened there (an array of huge vectors is
 * enumerated); a resized, duplicated or single-copy use keeps the short form.
 */
#include "core/dt/dt.h"
#include "core/dt/dt_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct dt__builder {
    dt_block_t *blocks;
    size_t n, cap;
    size_t size, nbasic, align;
    ptrdiff_t lb, ub;   /* bounds of the data (entries without markers) */
    ptrdiff_t mlb, mub; /* explicit bounds */
    size_t nrep;        /* the blocks are a unit repeated nrep times, rep_stride apart */
    ptrdiff_t rep_stride;
    int has_lb, has_ub, lb_marked, ub_marked;
    compi_status_t st; /* first error; later calls do nothing */
} dt__builder_t;

static void dt__builder_init(dt__builder_t *b)
{
    memset(b, 0, sizeof(*b));
    b->align = 1;
    b->nrep = 1;
}

/* a flattened type of at most this many blocks is kept flat */
#define DT_FLAT_MAX 4096

static void dt__append(dt__builder_t *b, ptrdiff_t disp, size_t len, int basic)
{
    dt_block_t *last = b->n ? &b->blocks[b->n - 1] : NULL;

    if (len == 0) {
        return;
    }
    if (last != NULL && last->basic == basic && last->disp + (ptrdiff_t)last->len == disp) {
        last->len += len;
        return;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        dt_block_t *nb = realloc(b->blocks, cap * sizeof(*nb));
        if (nb == NULL) {
            b->st = COMPI_ERR_NO_MEMORY;
            return;
        }
        b->blocks = nb;
        b->cap = cap;
    }
    b->blocks[b->n++] = (dt_block_t){.disp = disp, .len = len, .basic = basic};
}

static void dt__bound(ptrdiff_t *v, int *has, ptrdiff_t x, int is_min)
{
    if (!*has || (is_min ? x < *v : x > *v)) {
        *v = x;
    }
    *has = 1;
}

/* sizes and bounds of `bl` copies of `t`, the first at `disp`, each `t->extent` after the
   previous one; returns 0 on overflow (b->st says so) */
static int dt__account(dt__builder_t *b, ptrdiff_t disp, size_t bl, const compi_datatype_t *t)
{
    ptrdiff_t span, elb, eub;
    size_t bytes, nbasic;

    if (__builtin_mul_overflow(bl, t->size, &bytes) ||
        __builtin_mul_overflow(bl, t->nbasic, &nbasic) ||
        __builtin_mul_overflow((ptrdiff_t)(bl - 1), t->extent, &span) ||
        __builtin_add_overflow(b->size, bytes, &b->size)) {
        b->st = COMPI_ERR_INVALID_PARAM;
        return 0;
    }
    elb = disp + t->lb + (span < 0 ? span : 0);
    eub = disp + t->lb + t->extent + (span > 0 ? span : 0);
    if (t->lb_marked) {
        dt__bound(&b->mlb, &b->lb_marked, elb, 1);
    } else if (t->size > 0) {
        dt__bound(&b->lb, &b->has_lb, elb, 1);
    }
    if (t->ub_marked) {
        dt__bound(&b->mub, &b->ub_marked, eub, 0);
    } else if (t->size > 0) {
        dt__bound(&b->ub, &b->has_ub, eub, 0);
    }
    b->nbasic += nbasic;
    if (t->align > b->align) {
        b->align = t->align;
    }
    return 1;
}

/* the builder's repeated unit written out as plain blocks */
static void dt__expand(dt__builder_t *b)
{
    size_t n = b->n, reps = b->nrep;
    dt_block_t *unit;

    if (reps == 1) {
        return;
    }
    b->nrep = 1;
    unit = malloc(n * sizeof(*unit));
    if (unit == NULL) {
        b->st = COMPI_ERR_NO_MEMORY;
        return;
    }
    memcpy(unit, b->blocks, n * sizeof(*unit));
    b->n = 0;
    for (size_t r = 0; r < reps && b->st == COMPI_OK; r++) {
        for (size_t i = 0; i < n; i++) {
            dt__append(b, unit[i].disp + (ptrdiff_t)r * b->rep_stride, unit[i].len, unit[i].basic);
        }
    }
    free(unit);
}

/* `bl` copies of `t`, the first at `disp`, each `t->extent` after the previous one */
static void dt__add(dt__builder_t *b, ptrdiff_t disp, size_t bl, const compi_datatype_t *t)
{
    if (b->st != COMPI_OK || bl == 0) {
        return;
    }
    dt__expand(b);
    if (b->st != COMPI_OK || !dt__account(b, disp, bl, t)) {
        return;
    }
    if (t->nrep == 1 && t->nblocks == 1 && (ptrdiff_t)t->blocks[0].len == t->extent) {
        dt__append(b, disp + t->blocks[0].disp, bl * t->size, t->blocks[0].basic);
        return;
    }
    if (t->nrep > 1 && bl == 1 && b->n == 0) {
        /* the only piece so far: keep t's short form */
        for (int i = 0; i < t->nblocks; i++) {
            dt__append(b, disp + t->blocks[i].disp, t->blocks[i].len, t->blocks[i].basic);
        }
        b->nrep = t->nrep;
        b->rep_stride = t->rep_stride;
        return;
    }
    for (size_t k = 0; k < bl && b->st == COMPI_OK; k++) {
        for (size_t r = 0; r < t->nrep; r++) {
            ptrdiff_t base = disp + (ptrdiff_t)k * t->extent + (ptrdiff_t)r * t->rep_stride;
            for (int i = 0; i < t->nblocks; i++) {
                dt__append(b, base + t->blocks[i].disp, t->blocks[i].len, t->blocks[i].basic);
            }
        }
    }
}

/*
 * `count` entries `stride` bytes apart, each `bl` copies of `t` (a vector; a contiguous
 * type is one with the stride of t's extent).  The entries' bounds are linear in their
 * displacement, so the first and the last give the type's; the blocks are the first
 * entry's, repeated (see the top of this file).
 */
static void dt__add_repeated(dt__builder_t *b, size_t count, size_t bl, ptrdiff_t stride,
                             const compi_datatype_t *t)
{
    size_t unit_size, unit_nbasic;
    ptrdiff_t last;

    if (count <= 1 || b->n != 0 || b->nrep != 1 || t->nrep != 1 || b->st != COMPI_OK) {
        for (size_t i = 0; i < count; i++) {
            dt__add(b, (ptrdiff_t)i * stride, bl, t);
        }
        return;
    }
    dt__add(b, 0, bl, t);
    unit_size = b->size;
    unit_nbasic = b->nbasic;
    if (b->st != COMPI_OK || bl == 0) {
        return;
    }
    if (__builtin_mul_overflow((ptrdiff_t)(count - 1), stride, &last) ||
        !dt__account(b, last, bl, t) || __builtin_mul_overflow(unit_size, count, &b->size) ||
        __builtin_mul_overflow(unit_nbasic, count, &b->nbasic)) {
        b->st = COMPI_ERR_INVALID_PARAM;
        return;
    }
    if (b->n == 0) {
        return;
    }
    if (b->n == 1 && (ptrdiff_t)b->blocks[0].len == stride) {
        b->blocks[0].len = b->size; /* the copies meet: one block */
        return;
    }
    b->nrep = count;
    b->rep_stride = stride;
    if (count <= DT_FLAT_MAX / b->n) {
        dt__expand(b);
    }
}

/* bounds, true bounds and offsets of the built type; consumes the builder's blocks */
static compi_status_t dt__finish(dt__builder_t *b, int pad, int combiner, compi_datatype_t *old,
                                 compi_datatype_t **new_p)
{
    compi_datatype_t *dt = NULL;
    ptrdiff_t lb, ub, tlb = 0, tub = 0;
    compi_status_t st = b->st;

    if (st != COMPI_OK) {
        goto err;
    }
    st = dt_alloc(&dt);
    if (st != COMPI_OK) {
        goto err;
    }
    if (b->n > (size_t)(int)0x7fffffff) {
        st = COMPI_ERR_INVALID_PARAM;
        goto err;
    }
    dt->nblocks = (int)b->n;
    if (b->n > 0) {
        dt_block_t *nb = realloc(b->blocks, b->n * sizeof(*nb));
        dt->blocks = nb ? nb : b->blocks;
        b->blocks = NULL;
    }
    dt->block_off = malloc((b->n + 1) * sizeof(*dt->block_off));
    if (dt->block_off == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    dt->block_off[0] = 0;
    dt->nrep = b->nrep;
    dt->rep_stride = b->rep_stride;
    dt->basic = b->n ? dt->blocks[0].basic : -1;
    for (size_t i = 0; i < b->n; i++) {
        const dt_block_t *bk = &dt->blocks[i];
        dt->block_off[i + 1] = dt->block_off[i] + bk->len;
        if (i == 0 || bk->disp < tlb) {
            tlb = bk->disp;
        }
        if (i == 0 || bk->disp + (ptrdiff_t)bk->len > tub) {
            tub = bk->disp + (ptrdiff_t)bk->len;
        }
        if (bk->basic != dt->basic) {
            dt->basic = -1;
        }
    }

    if (b->nrep > 1) {
        ptrdiff_t shift = (ptrdiff_t)(b->nrep - 1) * b->rep_stride;
        tlb += shift < 0 ? shift : 0;
        tub += shift > 0 ? shift : 0;
    }
    dt->unit_size = dt->block_off[b->n];

    /* With no bound of one kind, the other one stands for both (an empty extent). */
    lb = b->lb_marked ? b->mlb : b->has_lb ? b->lb : b->ub_marked ? b->mub : 0;
    ub = b->ub_marked ? b->mub : b->has_ub ? b->ub : lb;
    if (pad && !b->ub_marked && ub > lb && b->align > 1) {
        ub = lb + (ptrdiff_t)COMPI_ALIGN_UP((size_t)(ub - lb), b->align);
    }
    dt->size = b->size;
    dt->nbasic = b->nbasic;
    dt->align = b->align;
    dt->lb = lb;
    dt->extent = ub - lb;
    dt->lb_marked = b->lb_marked;
    dt->ub_marked = b->ub_marked;
    dt->true_lb = tlb;
    dt->true_extent = tub - tlb;
    dt->combiner = combiner;
    dt_compute_contig(dt);
    if (old != NULL) {
        st = dt_set_envelope(
            dt, &(dt_env_t){.combiner = combiner, .n_types = 1, .types = &old->handle});
        if (st != COMPI_OK) {
            goto err;
        }
    }
    *new_p = dt;
    return COMPI_OK;
err:
    free(b->blocks);
    b->blocks = NULL;
    if (dt != NULL) {
        dt_release(dt);
    }
    return st;
}

compi_status_t dt_create_contiguous(size_t count, compi_datatype_t *old, compi_datatype_t **new_p)
{
    dt__builder_t b;

    dt__builder_init(&b);
    if (old->nrep == 1 && old->nblocks == 1 && (ptrdiff_t)old->blocks[0].len == old->extent) {
        dt__add(&b, 0, count, old);
    } else {
        dt__add_repeated(&b, count, 1, old->extent, old);
    }
    return dt__finish(&b, 0, MPI_COMBINER_CONTIGUOUS, old, new_p);
}

compi_status_t dt_create_hvector(size_t count, size_t blocklen, ptrdiff_t stride_bytes,
                                 compi_datatype_t *old, compi_datatype_t **new_p)
{
    dt__builder_t b;

    dt__builder_init(&b);
    dt__add_repeated(&b, count, blocklen, stride_bytes, old);
    return dt__finish(&b, 0, MPI_COMBINER_HVECTOR, old, new_p);
}

compi_status_t dt_create_hindexed(size_t count, const size_t *blocklens,
                                  const ptrdiff_t *disps_bytes, compi_datatype_t *old,
                                  compi_datatype_t **new_p)
{
    dt__builder_t b;

    dt__builder_init(&b);
    for (size_t i = 0; i < count; i++) {
        dt__add(&b, disps_bytes[i], blocklens[i], old);
    }
    return dt__finish(&b, 0, MPI_COMBINER_HINDEXED, old, new_p);
}

compi_status_t dt_create_struct(size_t count, const size_t *blocklens, const ptrdiff_t *disps_bytes,
                                compi_datatype_t *const *types, compi_datatype_t **new_p)
{
    dt__builder_t b;

    dt__builder_init(&b);
    for (size_t i = 0; i < count; i++) {
        dt__add(&b, disps_bytes[i], blocklens[i], types[i]);
    }
    return dt__finish(&b, 1, MPI_COMBINER_STRUCT, NULL, new_p);
}

compi_status_t dt_create_resized(compi_datatype_t *old, ptrdiff_t lb, ptrdiff_t extent,
                                 compi_datatype_t **new_p)
{
    dt__builder_t b;

    dt__builder_init(&b);
    dt__add(&b, 0, 1, old);
    /* resized bounds behave as MPI_LB/MPI_UB markers: they survive further nesting */
    b.lb_marked = b.ub_marked = 1;
    b.mlb = lb;
    b.mub = lb + extent;
    return dt__finish(&b, 0, MPI_COMBINER_RESIZED, old, new_p);
}

/* a copy of old's layout with a handle of its own; the caller sets the envelope */
static compi_status_t dt__copy(compi_datatype_t *old, compi_datatype_t **new_p)
{
    compi_datatype_t *dt = NULL;
    compi_status_t st = dt_alloc(&dt);
    int h;

    if (st != COMPI_OK) {
        return st;
    }
    h = dt->handle;
    memcpy(dt, old, offsetof(compi_datatype_t, handle));
    dt->handle = h;
    dt->blocks = NULL;
    dt->block_off = NULL;
    dt->committed = old->committed;
    dt->basic = old->basic;
    dt->nbasic = old->nbasic;
    dt->align = old->align;
    dt->lb_marked = old->lb_marked;
    dt->ub_marked = old->ub_marked;
    if (old->nblocks > 0) {
        dt->blocks = malloc((size_t)old->nblocks * sizeof(*dt->blocks));
        if (dt->blocks == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
        memcpy(dt->blocks, old->blocks, (size_t)old->nblocks * sizeof(*dt->blocks));
    }
    dt->block_off = malloc(((size_t)old->nblocks + 1) * sizeof(*dt->block_off));
    if (dt->block_off == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    memcpy(dt->block_off, old->block_off, ((size_t)old->nblocks + 1) * sizeof(*dt->block_off));
    *new_p = dt;
    return COMPI_OK;
err:
    dt->nblocks = 0;
    dt_release(dt);
    return st;
}

compi_status_t dt_dup(compi_datatype_t *old, compi_datatype_t **new_p)
{
    compi_datatype_t *dt;
    compi_status_t st = dt__copy(old, &dt);

    if (st == COMPI_OK) {
        st = dt_set_envelope(
            dt, &(dt_env_t){.combiner = MPI_COMBINER_DUP, .n_types = 1, .types = &old->handle});
        if (st != COMPI_OK) {
            dt_release(dt);
            return st;
        }
        *new_p = dt;
    }
    return st;
}

compi_status_t dt_clone(compi_datatype_t *old, compi_datatype_t **new_p)
{
    compi_datatype_t *dt;
    compi_status_t st = dt__copy(old, &dt);

    if (st != COMPI_OK) {
        return st;
    }
    st = dt_set_envelope(dt, &(dt_env_t){.combiner = old->combiner,
                                         .n_ints = old->n_ints,
                                         .ints = old->env_ints,
                                         .n_addrs = old->n_addrs,
                                         .addrs = old->env_addrs,
                                         .n_counts = old->n_counts,
                                         .counts = old->env_counts});
    /* the constituents are retained objects whose handles may be gone: copied by hand */
    if (st == COMPI_OK && old->n_types > 0) {
        dt->env_types = malloc((size_t)old->n_types * sizeof(*dt->env_types));
        if (dt->env_types == NULL) {
            st = COMPI_ERR_NO_MEMORY;
        }
    }
    if (st != COMPI_OK) {
        dt_release(dt);
        return st;
    }
    for (int i = 0; i < old->n_types; i++) {
        dt->env_types[i] = old->env_types[i];
        dt_retain(dt->env_types[i]);
    }
    dt->n_types = old->n_types;
    *new_p = dt;
    return COMPI_OK;
}
