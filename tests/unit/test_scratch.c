/*
 * test_scratch.c -- the scratch stack of blocking collectives (core/coll/scratch.c)
 * alone: buffers are aligned, disjoint and whole; giving one back gives back what came
 * after it; once the stack has been as deep as a sequence of requests needs, the same
 * sequence gets the same memory again (it no longer allocates); a deep request past the
 * first chunk is served and merged into one chunk afterwards; requests that grow one by
 * one never run out of chunks.
 */
#include "core/coll/coll.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

/* scratch.c asks the PML whether each thread has a stack (MPI_THREAD_MULTIPLE); linked
   alone, it gets this NULL: one stack for the process */
void (*pml__thread_yield)(void);

/* the requests of one (nested) collective: outer temporaries, then an inner one's */
static const size_t seq[] = {24, 4096, 100, 300000, 8, 70000};
#define NSEQ (sizeof(seq) / sizeof(seq[0]))

static void take_all(void *p[NSEQ])
{
    for (size_t i = 0; i < NSEQ; i++) {
        p[i] = coll_scratch_get(seq[i]);
        ck_assert_ptr_nonnull(p[i]);
        ck_assert_uint_eq((uintptr_t)p[i] % 64, 0);
        memset(p[i], (int)i + 1, seq[i]); /* whole: the sanitized build checks the bounds */
    }
}

START_TEST(buffers_are_aligned_disjoint_and_kept)
{
    void *p[NSEQ];
    take_all(p);
    for (size_t i = 0; i < NSEQ; i++) {
        const unsigned char *b = p[i];
        ck_assert_int_eq(b[0], (int)i + 1);
        ck_assert_int_eq(b[seq[i] - 1], (int)i + 1);
    }
    coll_scratch_put(p[0]);
}
END_TEST

START_TEST(put_gives_back_what_came_after)
{
    void *a = coll_scratch_get(100);
    void *b = coll_scratch_get(200);
    coll_scratch_put(a); /* b goes too */
    coll_scratch_put(b); /* given back already: nothing */
    coll_scratch_put(NULL);
    void *c = coll_scratch_get(100);
    ck_assert_ptr_eq(c, a);
    void *d = coll_scratch_get(200);
    ck_assert_ptr_eq(d, b);
    coll_scratch_put(c);
}
END_TEST

START_TEST(steady_sequence_reuses_the_same_memory)
{
    void *first[NSEQ], *second[NSEQ], *third[NSEQ];
    take_all(first); /* may open several chunks; merged when emptied */
    coll_scratch_put(first[0]);
    take_all(second);
    coll_scratch_put(second[0]);
    take_all(third);
    coll_scratch_put(third[0]);
    for (size_t i = 0; i < NSEQ; i++) {
        ck_assert_ptr_eq(second[i], third[i]);
    }
    /* one chunk: the sequence lies in one range */
    for (size_t i = 1; i < NSEQ; i++) {
        ck_assert((char *)second[i - 1] < (char *)second[i]);
    }
}
END_TEST

START_TEST(tmp_get_accounts_for_the_lower_bound)
{
    compi_datatype_t dt;
    memset(&dt, 0, sizeof(dt));
    dt.size = 8;
    dt.extent = 16;
    dt.true_lb = 4;
    dt.true_extent = 8;
    void *mem;
    char *buf = coll_tmp_get(&dt, 10, &mem);
    ck_assert_ptr_nonnull(buf);
    ck_assert_ptr_eq(buf + 4, mem);
    /* the data spans true_extent + 9 extents from the lower bound */
    memset(buf + 4, 0, 8 + 9 * 16);
    coll_scratch_put(mem);
}
END_TEST

/* one request at a time, each a little larger than the last (a blocking collective
   called with a growing count): every one is served, and the stack stays one chunk */
START_TEST(growing_requests_never_run_out_of_chunks)
{
    /* from below the first chunk's size (64 KiB) to well past it: a new size class
       every 64 bytes, 100 of them past the first chunk */
    for (size_t bytes = 60000; bytes < 72000; bytes += 60) {
        void *p = coll_scratch_get(bytes);
        ck_assert_msg(p != NULL, "no scratch for %zu bytes", bytes);
        memset(p, 1, bytes);
        coll_scratch_put(p);
    }
    void *a = coll_scratch_get(100);
    void *b = coll_scratch_get(72000);
    ck_assert((char *)a < (char *)b && (char *)b - (char *)a < 4096);
    coll_scratch_put(a);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {buffers_are_aligned_disjoint_and_kept, put_gives_back_what_came_after,
                            steady_sequence_reuses_the_same_memory,
                            tmp_get_accounts_for_the_lower_bound,
                            growing_requests_never_run_out_of_chunks};
    const unit_case_t tc = {.suite = "coll_scratch", .name = "stack"};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
