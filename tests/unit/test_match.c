/*
 * test_match.c -- the PML's matching queues alone (core/pml/pml_match.c): the order
 * MPI promises (non-overtaking), wildcards, library tags hidden from PML_ANY_TAG, and
 * both arrival orders (message first, receive first).  No BTL, no MPI_Init.
 */
#include "core/pml/pml_internal.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static pml_comm_t *pc;
static uint32_t next_ctx = 1000;

static void setup(void)
{
    pc = pml_match_comm(next_ctx++, 1);
    ck_assert_ptr_nonnull(pc);
}

static void teardown(void)
{
    pml_match_comm_remove(pc);
}

static pml_unexp_t *msg(int src, int tag, size_t id)
{
    pml_unexp_t *u = calloc(1, sizeof(*u));
    u->src = src;
    u->tag = tag;
    u->len = id; /* the test uses len as an identity */
    u->type = PML_HDR_MATCH;
    return u;
}

static pml_request_t *rcv(int src, int tag)
{
    pml_request_t *r = calloc(1, sizeof(*r));
    r->peer = src;
    r->tag = tag;
    return r;
}

/* take the unexpected message a receive (src, tag) matches; returns its id or -1 */
static long take(int src, int tag)
{
    pml_unexp_t *u = pml_match_unexp(pc, src, tag, 0, 1);
    if (u == NULL) {
        return -1;
    }
    long id = (long)u->len;
    free(u);
    return id;
}

START_TEST(unexpected_keeps_arrival_order)
{
    pml_match_add_unexp(pc, msg(1, 5, 1));
    pml_match_add_unexp(pc, msg(1, 5, 2));
    pml_match_add_unexp(pc, msg(1, 5, 3));
    ck_assert_int_eq(take(1, 5), 1);
    ck_assert_int_eq(take(1, 5), 2);
    ck_assert_int_eq(take(1, 5), 3);
    ck_assert_int_eq(take(1, 5), -1);
    ck_assert_ptr_null(pc->unexp_head);
    ck_assert_ptr_null(pc->unexp_tail);
}
END_TEST

START_TEST(any_source_takes_the_earliest)
{
    pml_match_add_unexp(pc, msg(2, 5, 1));
    pml_match_add_unexp(pc, msg(1, 5, 2));
    pml_match_add_unexp(pc, msg(2, 6, 3));
    ck_assert_int_eq(take(PML_ANY_SOURCE, 5), 1);
    ck_assert_int_eq(take(PML_ANY_SOURCE, 5), 2);
    ck_assert_int_eq(take(PML_ANY_SOURCE, 5), -1);
    ck_assert_int_eq(take(PML_ANY_SOURCE, PML_ANY_TAG), 3);
}
END_TEST

START_TEST(selective_receive_skips_others)
{
    pml_match_add_unexp(pc, msg(0, 1, 1));
    pml_match_add_unexp(pc, msg(3, 2, 2));
    pml_match_add_unexp(pc, msg(0, 2, 3));
    ck_assert_int_eq(take(0, 2), 3);
    ck_assert_int_eq(take(3, PML_ANY_TAG), 2);
    ck_assert_int_eq(take(0, 1), 1);
    /* the tail follows removals in the middle and at the end */
    pml_match_add_unexp(pc, msg(0, 9, 4));
    ck_assert_int_eq(take(0, 9), 4);
}
END_TEST

START_TEST(any_tag_never_matches_negative_tags)
{
    pml_match_add_unexp(pc, msg(1, COMPI_TAG_COMM_CREATE, 1));
    pml_match_add_unexp(pc, msg(1, 4, 2));
    ck_assert_int_eq(take(PML_ANY_SOURCE, PML_ANY_TAG), 2);
    ck_assert_int_eq(take(1, PML_ANY_TAG), -1);
    ck_assert_int_eq(take(1, COMPI_TAG_COMM_CREATE), 1);

    /* the same from the posted side */
    pml_request_t *any = rcv(PML_ANY_SOURCE, PML_ANY_TAG);
    pml_match_post(pc, any);
    ck_assert_ptr_null(pml_match_posted(pc, 1, COMPI_TAG_COLL_BASE, 0));
    ck_assert_ptr_eq(pml_match_posted(pc, 1, 0, 0), any);
    free(any);
}
END_TEST

START_TEST(posted_first_match_in_posting_order)
{
    pml_request_t *a = rcv(1, 1), *b = rcv(PML_ANY_SOURCE, PML_ANY_TAG), *c = rcv(1, 1);
    pml_match_post(pc, a);
    pml_match_post(pc, b);
    pml_match_post(pc, c);
    /* (2, 7) skips a, takes the wildcard b */
    ck_assert_ptr_eq(pml_match_posted(pc, 2, 7, 0), b);
    ck_assert_ptr_eq(pml_match_posted(pc, 1, 1, 0), a);
    ck_assert_ptr_eq(pml_match_posted(pc, 1, 1, 0), c);
    ck_assert_ptr_null(pml_match_posted(pc, 1, 1, 0));
    ck_assert_ptr_null(pc->posted_head);
    ck_assert_ptr_null(pc->posted_tail);
    free(a);
    free(b);
    free(c);
}
END_TEST

START_TEST(wildcard_posted_before_specific_wins)
{
    pml_request_t *w = rcv(PML_ANY_SOURCE, 3), *s = rcv(2, 3);
    pml_match_post(pc, w);
    pml_match_post(pc, s);
    ck_assert_ptr_eq(pml_match_posted(pc, 2, 3, 0), w);
    ck_assert_ptr_eq(pml_match_posted(pc, 2, 3, 0), s);
    free(w);
    free(s);
}
END_TEST

START_TEST(unexpected_then_posted_and_reverse)
{
    /* message first: a receive finds it in the unexpected queue and nothing is posted */
    pml_match_add_unexp(pc, msg(4, 8, 1));
    ck_assert_ptr_null(pml_match_posted(pc, 4, 8, 0));
    ck_assert_int_eq(take(4, 8), 1);
    /* receive first: the message finds it in the posted queue */
    pml_request_t *r = rcv(4, 8);
    ck_assert_int_eq(take(4, 8), -1);
    pml_match_post(pc, r);
    ck_assert_ptr_eq(pml_match_posted(pc, 4, 8, 0), r);
    ck_assert_ptr_null(pc->unexp_head);
    free(r);
}
END_TEST

START_TEST(probe_leaves_the_message)
{
    pml_match_add_unexp(pc, msg(1, 1, 1));
    pml_unexp_t *u = pml_match_unexp(pc, PML_ANY_SOURCE, PML_ANY_TAG, 0, 0);
    ck_assert_ptr_nonnull(u);
    ck_assert_ptr_eq(pml_match_unexp(pc, 1, 1, 0, 0), u);
    ck_assert_int_eq(take(1, 1), 1);
}
END_TEST

START_TEST(unpost_removes_only_that_receive)
{
    pml_request_t *a = rcv(0, 0), *b = rcv(0, 0), *c = rcv(0, 0);
    pml_match_post(pc, a);
    pml_match_post(pc, b);
    pml_match_post(pc, c);
    ck_assert_int_eq(pml_match_unpost(pc, b), 1);
    ck_assert_int_eq(pml_match_unpost(pc, b), 0);
    ck_assert_ptr_eq(pml_match_posted(pc, 0, 0, 0), a);
    ck_assert_int_eq(pml_match_unpost(pc, c), 1);
    ck_assert_ptr_null(pc->posted_head);
    ck_assert_ptr_null(pc->posted_tail);
    free(a);
    free(b);
    free(c);
}
END_TEST

START_TEST(ctx_map_creates_lazily)
{
    ck_assert_ptr_null(pml_match_comm(7, 0));
    pml_comm_t *p7 = pml_match_comm(7, 1);
    ck_assert_ptr_nonnull(p7);
    ck_assert_ptr_null(p7->comm); /* no communicator yet: messages wait */
    /* 7 + 256 lands in the same bucket */
    pml_comm_t *p263 = pml_match_comm(7 + 256, 1);
    ck_assert_ptr_ne(p7, p263);
    ck_assert_ptr_eq(pml_match_comm(7, 0), p7);
    ck_assert_ptr_eq(pml_match_comm(7 + 256, 0), p263);
    pml_match_comm_remove(p7);
    ck_assert_ptr_null(pml_match_comm(7, 0));
    ck_assert_ptr_eq(pml_match_comm(7 + 256, 0), p263);
    pml_match_comm_remove(p263);
    ck_assert_ptr_null(pml_match_comm(7 + 256, 0));
}
END_TEST

START_TEST(queues_are_per_context)
{
    pml_comm_t *other = pml_match_comm(next_ctx++, 1);
    pml_match_add_unexp(other, msg(0, 0, 1));
    ck_assert_int_eq(take(0, 0), -1);
    pml_unexp_t *u = pml_match_unexp(other, 0, 0, 0, 1);
    ck_assert_ptr_nonnull(u);
    free(u);
    pml_match_comm_remove(other);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        unexpected_keeps_arrival_order, any_source_takes_the_earliest,
        selective_receive_skips_others, any_tag_never_matches_negative_tags,
        posted_first_match_in_posting_order, wildcard_posted_before_specific_wins,
        unexpected_then_posted_and_reverse, probe_leaves_the_message,
        unpost_removes_only_that_receive, ctx_map_creates_lazily, queues_are_per_context
    };
    const unit_case_t tc = {.suite = "pml_match", .name = "queues",
                            .setup = setup, .teardown = teardown};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
