/*
 * dt_copy.c -- copies and combinations between two typed buffers, without packing one
 * into a temporary first.
 *
 * Both sides are walked together over the same range of their packed streams: each side
 * is a cursor (an element, a block in it, an offset in the block), and every step takes
 * the longest stretch that is contiguous on both sides (adjacent blocks merge, and a
 * contiguous side is one long stretch), calls the step function on it, and moves both
 * cursors on.  The state is two cursors on the stack, whatever the datatypes: nothing is
 * allocated.  A side without a datatype is packed bytes, starting at the range's offset,
 * so a caller can move a large range through a fixed buffer one chunk at a time.
 *
 * Cost: one step per stretch, so a vector-to-vector copy costs one memcpy per block of
 * the finer of the two layouts; contiguous on both sides is one memcpy.
 */
#include "core/dt/dt.h"
#include "core/dt/dt_internal.h"

#include <string.h>

typedef struct dt__cur {
    const compi_datatype_t *dt; /* NULL: contiguous bytes at p, all of basic type pbasic */
    char *p;
    int pbasic;
    dt__pos_t pos; /* the current unit */
    int b;         /* the current block */
    size_t inoff;
    char *run_at; /* the stretch found last, and the bytes of it not yet taken */
    size_t run;
    int run_basic;
} dt__cur_t;

/* by_block: walk the blocks of a contiguous type too when it mixes basic types (the step
   needs each stretch's basic type) */
static void dt__cur_init(dt__cur_t *c, const compi_datatype_t *dt, char *buf, size_t offset,
                         int by_block)
{
    c->pbasic = -1;
    if (dt == NULL) {
        c->dt = NULL;
        c->p = buf;
        return;
    }
    /* contiguous, and of one basic type when that is asked for: one long stretch */
    if ((dt->contig && (!by_block || dt->basic >= 0)) || dt->nblocks == 0) {
        c->dt = NULL;
        c->p = buf + dt->true_lb + offset;
        c->pbasic = dt->basic;
        return;
    }
    size_t within = offset % dt->unit_size;
    c->dt = dt;
    c->run = 0;
    c->b = dt__find_block(dt, within);
    c->inoff = within - dt->block_off[c->b];
    dt__pos_at(dt, buf, offset / dt->unit_size, &c->pos);
}

/*
 * The next byte, and in *n the bytes contiguous from it (at most max); *basic its type.
 * A stretch is measured once (up to max) and kept until it is used up, so the walk costs
 * one visit per block however the other side cuts it.
 */
static char *dt__cur_run(dt__cur_t *c, size_t max, size_t *n, int *basic)
{
    if (c->dt == NULL) {
        *n = max;
        *basic = c->pbasic;
        return c->p;
    }
    if (c->run == 0) {
        const compi_datatype_t *dt = c->dt;
        const dt_block_t *blk = &dt->blocks[c->b];
        char *at = c->pos.base + blk->disp + c->inoff;
        dt__pos_t pos = c->pos;
        size_t len = blk->len - c->inoff;
        int b = c->b;
        /* blocks that meet (across units too) and hold the same basic type */
        while (len < max) {
            if (++b == dt->nblocks) {
                b = 0;
                dt__pos_next(dt, &pos);
            }
            const dt_block_t *nb = &dt->blocks[b];
            if (pos.base + nb->disp != at + len || nb->basic != blk->basic) {
                break;
            }
            len += nb->len;
        }
        c->run_at = at;
        c->run = len;
        c->run_basic = blk->basic;
    }
    *basic = c->run_basic;
    *n = c->run < max ? c->run : max;
    return c->run_at;
}

static void dt__cur_skip(dt__cur_t *c, size_t n)
{
    if (c->dt == NULL) {
        c->p += n;
        return;
    }
    const compi_datatype_t *dt = c->dt;
    c->run_at += n;
    c->run -= n;
    c->inoff += n;
    while (c->inoff >= dt->blocks[c->b].len && c->inoff > 0) {
        c->inoff -= dt->blocks[c->b].len;
        if (++c->b == dt->nblocks) {
            c->b = 0;
            dt__pos_next(dt, &c->pos);
        }
    }
}

compi_status_t dt_zip(const compi_datatype_t *ddt, void *dbuf, const compi_datatype_t *sdt,
                      const void *sbuf, size_t offset, size_t len, int by_basic, dt_zip_fn fn,
                      void *ctx)
{
    dt__cur_t d, s;
    if (len == 0) {
        return COMPI_OK;
    }
    dt__cur_init(&d, ddt, dbuf, offset, by_basic);
    dt__cur_init(&s, sdt, (char *)sbuf, offset, by_basic && d.dt == NULL);
    while (len > 0) {
        size_t dn, sn;
        int db, sb;
        char *dp = dt__cur_run(&d, len, &dn, &db);
        char *sp = dt__cur_run(&s, dn, &sn, &sb);
        if (sn == 0) {
            return COMPI_ERR_INTERNAL; /* an empty block: no layout makes one */
        }
        compi_status_t st = fn(ctx, dp, sp, sn, db >= 0 ? db : sb);
        if (st != COMPI_OK) {
            return st;
        }
        dt__cur_skip(&d, sn);
        dt__cur_skip(&s, sn);
        len -= sn;
    }
    return COMPI_OK;
}

static compi_status_t dt__copy_step(void *ctx, char *dst, const char *src, size_t n, int basic)
{
    (void)ctx, (void)basic;
    memcpy(dst, src, n);
    return COMPI_OK;
}

void dt_copy(const compi_datatype_t *ddt, void *dbuf, const compi_datatype_t *sdt, const void *sbuf,
             size_t offset, size_t len)
{
    if (len == 0) {
        return;
    }
    /* one side packed or contiguous: the pack engine's own loops; both: one memcpy (a
       one-sided transfer of a predefined type takes this path) */
    if (sdt == NULL || sdt->contig) {
        const char *src = sdt == NULL ? sbuf : (const char *)sbuf + sdt->true_lb + offset;
        if (ddt == NULL || ddt->contig) {
            memcpy(ddt == NULL ? dbuf : (char *)dbuf + ddt->true_lb + offset, src, len);
        } else {
            dt_unpack(ddt, dbuf, (offset + len + ddt->size - 1) / ddt->size, offset, src, len);
        }
        return;
    }
    if (ddt == NULL || ddt->contig) {
        char *dst = ddt == NULL ? dbuf : (char *)dbuf + ddt->true_lb + offset;
        dt_pack(sdt, sbuf, (offset + len + sdt->size - 1) / sdt->size, offset, dst, len);
        return;
    }
    (void)dt_zip(ddt, dbuf, sdt, sbuf, offset, len, 0, dt__copy_step, NULL);
}

const compi_datatype_t *dt_basic_type(int basic)
{
    return dt_from_handle(dt_basic_handle(basic));
}
