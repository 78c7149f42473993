/*
 * dt_pack.c -- pack, unpack and iovec descriptions of typed buffers, from any offset.
 *
 * The packed stream of `count` elements is unit 0's blocks in type-map order, then
 * unit 1's (dt_unit_shift: the next unit of the element, or the next element), and so on.
 * A stream offset maps to
 *     unit = offset / unit_size,   block = last b with block_off[b] <= offset % unit_size
 * (binary search over the prefix sums kept in the datatype), so a fragment costs
 * O(log nblocks) to locate plus its copies, however deep into the message it starts.
 *
 * Cost: contiguous types are one memcpy.  Otherwise one copy per block touched; blocks
 * of 1, 2, 4, 8 or 16 bytes use fixed-size copies (a load and a store), longer ones
 * memcpy, which is near memcpy speed from 64-byte blocks up.
 */
#include "core/dt/dt.h"
#include "core/dt/dt_internal.h"

#include <string.h>

static inline void dt__copy(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 1:
        memcpy(dst, src, 1);
        break;
    case 2:
        memcpy(dst, src, 2);
        break;
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, n);
        break;
    }
}

/* clamps `max` to the data left after `offset`; 0 when there is nothing to do */
static inline size_t dt__clamp(const compi_datatype_t *dt, size_t count, size_t offset, size_t max)
{
    size_t total = dt->size * count;

    if (offset >= total) {
        return 0;
    }
    return max < total - offset ? max : total - offset;
}

/*
 * The one walk behind pack and unpack; `unpack` is a constant at each call site, so the
 * compiler emits two loops without a branch on the direction inside.
 */
static inline size_t dt__walk(const compi_datatype_t *dt, char *buf, size_t count, size_t offset,
                              char *packed, size_t max, int unpack)
{
    size_t todo = dt__clamp(dt, count, offset, max), left = todo, within, inoff;
    const dt_block_t *blk, *end;
    dt__pos_t pos;

    if (todo == 0) {
        return 0;
    }
    if (dt->contig) {
        char *mem = buf + dt->true_lb + offset;
        if (unpack) {
            memcpy(mem, packed, todo);
        } else {
            memcpy(packed, mem, todo);
        }
        return todo;
    }
    within = offset % dt->unit_size;
    blk = &dt->blocks[dt__find_block(dt, within)];
    end = dt->blocks + dt->nblocks;
    inoff = within - dt->block_off[blk - dt->blocks];
    dt__pos_at(dt, buf, offset / dt->unit_size, &pos);

    while (left > 0) {
        size_t n;
        char *mem;
        /* whole units: a tight loop over the blocks, no clamping, no wrap test */
        if (blk == dt->blocks && inoff == 0 && left >= dt->unit_size) {
            for (; blk < end; blk++) {
                if (unpack) {
                    dt__copy(pos.base + blk->disp, packed, blk->len);
                } else {
                    dt__copy(packed, pos.base + blk->disp, blk->len);
                }
                packed += blk->len;
            }
            blk = dt->blocks;
            dt__pos_next(dt, &pos);
            left -= dt->unit_size;
            continue;
        }
        n = blk->len - inoff;
        mem = pos.base + blk->disp + inoff;
        if (n > left) {
            n = left;
        }
        if (unpack) {
            dt__copy(mem, packed, n);
        } else {
            dt__copy(packed, mem, n);
        }
        packed += n;
        left -= n;
        inoff = 0;
        if (++blk == end) {
            blk = dt->blocks;
            dt__pos_next(dt, &pos);
        }
    }
    return todo;
}

size_t dt_pack(const compi_datatype_t *dt, const void *buf, size_t count, size_t offset, void *dst,
               size_t max)
{
    return dt__walk(dt, (char *)buf, count, offset, dst, max, 0);
}

size_t dt_unpack(const compi_datatype_t *dt, void *buf, size_t count, size_t offset,
                 const void *src, size_t len)
{
    return dt__walk(dt, buf, count, offset, (char *)src, len, 1);
}

int dt_to_iov(const compi_datatype_t *dt, const void *buf, size_t count, size_t offset,
              size_t max_bytes, struct iovec *iov, int max_iov, size_t *bytes_p)
{
    size_t left = dt__clamp(dt, count, offset, max_bytes), within, inoff, done = 0;
    const dt_block_t *blk, *end;
    dt__pos_t pos;
    int n = 0;

    *bytes_p = 0;
    if (left == 0 || max_iov <= 0) {
        return 0;
    }
    if (dt->contig) {
        iov[0].iov_base = (char *)buf + dt->true_lb + offset;
        iov[0].iov_len = left;
        *bytes_p = left;
        return 1;
    }
    within = offset % dt->unit_size;
    blk = &dt->blocks[dt__find_block(dt, within)];
    end = dt->blocks + dt->nblocks;
    inoff = within - dt->block_off[blk - dt->blocks];
    dt__pos_at(dt, (char *)buf, offset / dt->unit_size, &pos);

    while (left > 0) {
        size_t len = blk->len - inoff;
        char *mem = pos.base + blk->disp + inoff;
        if (len > left) {
            len = left;
        }
        /* blocks that meet across elements (or basic types) become one iovec */
        if (n > 0 && (char *)iov[n - 1].iov_base + iov[n - 1].iov_len == mem) {
            iov[n - 1].iov_len += len;
        } else if (n == max_iov) {
            break;
        } else {
            iov[n].iov_base = mem;
            iov[n].iov_len = len;
            n++;
        }
        done += len;
        left -= len;
        inoff = 0;
        if (++blk == end) {
            blk = dt->blocks;
            dt__pos_next(dt, &pos);
        }
    }
    *bytes_p = done;
    return n;
}

long long dt_count_basic(const compi_datatype_t *dt, size_t bytes)
{
    size_t rem;
    long long n;

    if (dt->size == 0) {
        return bytes == 0 ? 0 : -1;
    }
    /* whole units, then the blocks of the last one */
    n = (long long)(bytes / dt->unit_size * (dt->nbasic / dt->nrep));
    rem = bytes % dt->unit_size;
    for (int i = 0; i < dt->nblocks && rem > 0; i++) {
        size_t bsize = dt_basic_size(dt->blocks[i].basic);
        size_t len = dt->blocks[i].len < rem ? dt->blocks[i].len : rem;
        if (len % bsize != 0) {
            return -1;
        }
        n += (long long)(len / bsize);
        rem -= len;
    }
    return n;
}

size_t dt_bytes_of_basic(const compi_datatype_t *dt, size_t nbasic)
{
    size_t bytes, rem;

    if (dt->nbasic == 0) {
        return 0;
    }
    bytes = nbasic / (dt->nbasic / dt->nrep) * dt->unit_size;
    rem = nbasic % (dt->nbasic / dt->nrep);
    for (int i = 0; i < dt->nblocks && rem > 0; i++) {
        size_t bsize = dt_basic_size(dt->blocks[i].basic);
        size_t k = dt->blocks[i].len / bsize;
        if (rem < k) {
            return bytes + rem * bsize;
        }
        bytes += dt->blocks[i].len;
        rem -= k;
    }
    return bytes;
}
