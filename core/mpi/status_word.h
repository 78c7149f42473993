/*
 * status_word.h -- the fields of MPI_Status beside MPI_SOURCE, MPI_TAG and MPI_ERROR, laid
 * out as MPICH lays them out (include/mpi.h): the bytes received, 63 bits, in count_lo
 * (the low 32) and the low 31 bits of count_hi_and_cancelled; its top bit the cancelled
 * flag.  Counts in elements are derived from the bytes (status_api.c).
 */
#ifndef COMPI_MPI_STATUS_WORD_H
#define COMPI_MPI_STATUS_WORD_H

#include <mpi.h>

#define STATUS_CANCELLED_BIT 0x80000000u

static inline long long mpi_status_bytes(const MPI_Status *st)
{
    unsigned long long hi = (unsigned)st->count_hi_and_cancelled & ~STATUS_CANCELLED_BIT;
    return (long long)(hi << 32 | (unsigned)st->count_lo);
}

/* `bytes` (0 .. 2^63 - 1); the cancelled flag is kept */
static inline void mpi_status_set_bytes(MPI_Status *st, long long bytes)
{
    unsigned long long b = (unsigned long long)bytes;
    unsigned hi = (unsigned)(b >> 32) & ~STATUS_CANCELLED_BIT;
    st->count_lo = (int)(unsigned)b;
    st->count_hi_and_cancelled =
        (int)(((unsigned)st->count_hi_and_cancelled & STATUS_CANCELLED_BIT) | hi);
}

static inline int mpi_status_cancelled(const MPI_Status *st)
{
    return ((unsigned)st->count_hi_and_cancelled & STATUS_CANCELLED_BIT) != 0;
}

static inline void mpi_status_set_cancelled(MPI_Status *st, int flag)
{
    unsigned w = (unsigned)st->count_hi_and_cancelled & ~STATUS_CANCELLED_BIT;
    st->count_hi_and_cancelled = (int)(flag ? w | STATUS_CANCELLED_BIT : w);
}

#endif
