/*
 * coll_util.c -- small helpers shared by the collective algorithms.
 */
#include "core/coll/coll.h"

#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void *coll_tmp_alloc(compi_datatype_t *dt, size_t count, void **mem_p)
{
    /* the data of `count` elements spans true_extent + (count - 1) * extent bytes,
       starting true_lb bytes after the buffer pointer the algorithms pass around */
    size_t span = count == 0 ? 1
                             : (size_t)dt->true_extent + (count - 1) * (size_t)dt->extent;
    char *mem = malloc(span > 0 ? span : 1);
    *mem_p = mem;
    if (mem == NULL) {
        return NULL;
    }
    return mem - dt->true_lb;
}

compi_status_t coll_copy(const void *sbuf, size_t scount, compi_datatype_t *sdt, void *rbuf,
                         size_t rcount, compi_datatype_t *rdt)
{
    size_t sbytes = scount * sdt->size, rbytes = rcount * rdt->size;
    size_t n = sbytes < rbytes ? sbytes : rbytes;
    if (n == 0) {
        return sbytes > rbytes ? COMPI_ERR_TRUNCATE : COMPI_OK;
    }
    const void *s = dt_contig_ptr(sdt, sbuf, scount);
    void *d = dt_contig_ptr(rdt, rbuf, rcount);
    if (s != NULL && d != NULL) {
        memmove(d, s, n);
    } else if (s != NULL) {
        dt_unpack(rdt, rbuf, rcount, 0, s, n);
    } else if (d != NULL) {
        dt_pack(sdt, sbuf, scount, 0, d, n);
    } else {
        char tmp[4096];
        for (size_t off = 0; off < n; off += sizeof(tmp)) {
            size_t chunk = n - off < sizeof(tmp) ? n - off : sizeof(tmp);
            dt_pack(sdt, sbuf, scount, off, tmp, chunk);
            dt_unpack(rdt, rbuf, rcount, off, tmp, chunk);
        }
    }
    return sbytes > rbytes ? COMPI_ERR_TRUNCATE : COMPI_OK;
}

static __thread struct {
    char text[1024];
    int pending;
} run_error;

void coll_run_error_set(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run_error.text, sizeof(run_error.text), fmt, ap);
    va_end(ap);
    run_error.pending = 1;
}

const char *coll_run_error_take(void)
{
    if (!run_error.pending) {
        return NULL;
    }
    run_error.pending = 0;
    return run_error.text;
}

static __thread coll_run_agree_t *run_agree;

coll_run_agree_t *coll_run_agree_current(void)
{
    return run_agree;
}

coll_run_agree_t *coll_run_agree_set(coll_run_agree_t *a)
{
    coll_run_agree_t *old = run_agree;
    run_agree = a;
    return old;
}
