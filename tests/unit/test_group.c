/*
 * test_group.c -- group algebra without MPI_Init: union, intersection, difference,
 * incl/excl, range incl/excl with their checks, translate_ranks and compare.
 *
 * Groups are built straight from world-rank arrays; the calling process pretends to be
 * world rank 3 (rte_proc.world_rank) so each result's own rank can be checked too.
 */
#include "core/comm/group.h"

#include "core/runtime/rte.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdlib.h>

#define ME 3

static compi_group_t *mk(int n, const int *ranks)
{
    compi_group_t *g = NULL;
    ck_assert_int_eq(group_create(n, ranks, &g), COMPI_OK);
    ck_assert_ptr_nonnull(g);
    return g;
}

/* g holds exactly the world ranks want[0..n), in that order */
static void expect(compi_group_t *g, int n, const int *want)
{
    ck_assert_int_eq(g->size, n);
    int my = MPI_UNDEFINED;
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(g->world_ranks[i], want[i]);
        if (want[i] == ME) {
            my = i;
        }
    }
    ck_assert_int_eq(g->rank, my);
}

static void setup(void)
{
    rte_proc.world_rank = ME;
    rte_proc.world_size = 16;
}

static const int A[] = {0, 3, 5, 7, 9};
static const int B[] = {9, 1, 3, 11};

START_TEST(set_operations)
{
    compi_group_t *a = mk(5, A), *b = mk(4, B), *r;

    ck_assert_int_eq(group_union(a, b, &r), COMPI_OK);
    expect(r, 7, (int[]){0, 3, 5, 7, 9, 1, 11});
    group_release(r);

    ck_assert_int_eq(group_union(b, a, &r), COMPI_OK);
    expect(r, 7, (int[]){9, 1, 3, 11, 0, 5, 7});
    group_release(r);

    ck_assert_int_eq(group_intersection(a, b, &r), COMPI_OK);
    expect(r, 2, (int[]){3, 9});
    group_release(r);

    ck_assert_int_eq(group_intersection(b, a, &r), COMPI_OK);
    expect(r, 2, (int[]){9, 3});
    group_release(r);

    ck_assert_int_eq(group_difference(a, b, &r), COMPI_OK);
    expect(r, 3, (int[]){0, 5, 7});
    group_release(r);

    ck_assert_int_eq(group_difference(a, a, &r), COMPI_OK);
    ck_assert_ptr_eq(r, group_empty());
    ck_assert_int_eq(r->rank, MPI_UNDEFINED);
    group_release(r);

    group_release(a);
    group_release(b);
}
END_TEST

START_TEST(with_empty)
{
    compi_group_t *a = mk(5, A), *r;

    ck_assert_int_eq(group_union(group_empty(), a, &r), COMPI_OK);
    expect(r, 5, A);
    group_release(r);
    ck_assert_int_eq(group_intersection(a, group_empty(), &r), COMPI_OK);
    ck_assert_int_eq(r->size, 0);
    group_release(r);
    ck_assert_int_eq(group_compare(group_empty(), group_empty()), MPI_IDENT);
    group_release(a);
}
END_TEST

START_TEST(incl_excl)
{
    compi_group_t *a = mk(5, A), *r;
    int bad;

    ck_assert_int_eq(group_check_ranks(a, 3, (int[]){4, 0, 1}, &bad), GROUP_CHECK_OK);
    ck_assert_int_eq(group_incl(a, 3, (int[]){4, 0, 1}, &r), COMPI_OK);
    expect(r, 3, (int[]){9, 0, 3});
    group_release(r);

    ck_assert_int_eq(group_excl(a, 2, (int[]){1, 3}, &r), COMPI_OK);
    expect(r, 3, (int[]){0, 5, 9});
    group_release(r);

    ck_assert_int_eq(group_incl(a, 0, NULL, &r), COMPI_OK);
    ck_assert_int_eq(r->size, 0);
    group_release(r);

    /* out of range, repeated, negative count */
    ck_assert_int_eq(group_check_ranks(a, 2, (int[]){0, 5}, &bad), GROUP_CHECK_BAD_RANK);
    ck_assert_int_eq(bad, 1);
    ck_assert_int_eq(group_check_ranks(a, 3, (int[]){2, 1, 2}, &bad), GROUP_CHECK_BAD_RANK);
    ck_assert_int_eq(bad, 2);
    ck_assert_int_eq(group_check_ranks(a, 1, (int[]){-1}, &bad), GROUP_CHECK_BAD_RANK);
    ck_assert_int_eq(group_check_ranks(a, -1, NULL, &bad), GROUP_CHECK_BAD_ARG);
    group_release(a);
}
END_TEST

START_TEST(ranges)
{
    int w[10];
    compi_group_t *g, *r;
    int bad;

    for (int i = 0; i < 10; i++) {
        w[i] = 20 + i;
    }
    g = mk(10, w);

    /* ranks 0,3,6,9, then 8,7 counting down */
    int ok[][3] = {{0, 9, 3}, {8, 7, -1}};
    ck_assert_int_eq(group_check_ranges(g, 2, ok, &bad), GROUP_CHECK_OK);
    ck_assert_int_eq(group_range_incl(g, 2, ok, &r), COMPI_OK);
    expect(r, 6, (int[]){20, 23, 26, 29, 28, 27});
    group_release(r);

    ck_assert_int_eq(group_range_excl(g, 2, ok, &r), COMPI_OK);
    expect(r, 4, (int[]){21, 22, 24, 25});
    group_release(r);

    /* a stride that overshoots last stops before it */
    int over[][3] = {{1, 8, 4}};
    ck_assert_int_eq(group_range_incl(g, 1, over, &r), COMPI_OK);
    expect(r, 2, (int[]){21, 25});
    group_release(r);

    int single[][3] = {{4, 4, -7}};
    ck_assert_int_eq(group_check_ranges(g, 1, single, &bad), GROUP_CHECK_OK);

    int zero_stride[][3] = {{0, 4, 0}};
    ck_assert_int_eq(group_check_ranges(g, 1, zero_stride, &bad), GROUP_CHECK_BAD_ARG);
    int wrong_way[][3] = {{1, 1, 1}, {5, 2, 1}};
    ck_assert_int_eq(group_check_ranges(g, 2, wrong_way, &bad), GROUP_CHECK_BAD_ARG);
    ck_assert_int_eq(bad, 1);
    int out[][3] = {{0, 10, 1}};
    ck_assert_int_eq(group_check_ranges(g, 1, out, &bad), GROUP_CHECK_BAD_RANK);
    int overlap[][3] = {{0, 4, 2}, {3, 4, 1}};
    ck_assert_int_eq(group_check_ranges(g, 2, overlap, &bad), GROUP_CHECK_BAD_RANK);
    ck_assert_int_eq(bad, 1);
    group_release(g);
}
END_TEST

START_TEST(translate)
{
    compi_group_t *a = mk(5, A), *b = mk(4, B);
    int in[] = {0, 1, 4, MPI_PROC_NULL, 2};
    int out[5];

    ck_assert_int_eq(group_translate_ranks(a, 5, in, b, out), COMPI_OK);
    ck_assert_int_eq(out[0], MPI_UNDEFINED); /* world 0 is not in B */
    ck_assert_int_eq(out[1], 2);             /* world 3 */
    ck_assert_int_eq(out[2], 0);             /* world 9 */
    ck_assert_int_eq(out[3], MPI_PROC_NULL);
    ck_assert_int_eq(out[4], MPI_UNDEFINED); /* world 5 */

    ck_assert_int_eq(group_translate_ranks(a, 1, (int[]){5}, b, out), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(group_translate_ranks(b, 1, (int[]){3}, group_empty(), out), COMPI_OK);
    ck_assert_int_eq(out[0], MPI_UNDEFINED);
    group_release(a);
    group_release(b);
}
END_TEST

START_TEST(compare)
{
    compi_group_t *a = mk(5, A);
    compi_group_t *same = mk(5, A);
    compi_group_t *perm = mk(5, (int[]){9, 7, 5, 3, 0});
    compi_group_t *other = mk(5, (int[]){0, 3, 5, 7, 8});
    compi_group_t *b = mk(4, B);

    ck_assert_int_eq(group_compare(a, a), MPI_IDENT);
    ck_assert_int_eq(group_compare(a, same), MPI_IDENT);
    ck_assert_int_eq(group_compare(a, perm), MPI_SIMILAR);
    ck_assert_int_eq(group_compare(perm, a), MPI_SIMILAR);
    ck_assert_int_eq(group_compare(a, other), MPI_UNEQUAL);
    ck_assert_int_eq(group_compare(a, b), MPI_UNEQUAL);
    ck_assert_int_eq(group_compare(a, group_empty()), MPI_UNEQUAL);
    group_release(a);
    group_release(same);
    group_release(perm);
    group_release(other);
    group_release(b);
}
END_TEST

START_TEST(refcount_and_handles)
{
    compi_group_t *a = mk(5, A);
    MPI_Group h1, h2;

    /* a communicator's reference plus two user handles: all the same object */
    ck_assert_int_eq(group_to_handle(a, &h1), COMPI_OK);
    ck_assert_int_eq(group_to_handle(a, &h2), COMPI_OK);
    ck_assert_int_eq(h1, h2);
    ck_assert_ptr_eq(group_from_handle(h1), a);
    ck_assert_int_eq(a->refcount, 3);
    group_release(a); /* MPI_Group_free of one handle */
    group_release(a); /* and of the other */
    ck_assert_ptr_eq(group_from_handle(h1), a);
    ck_assert_int_eq(a->refcount, 1);
    group_release(a); /* the communicator goes */
    ck_assert_ptr_null(group_from_handle(h1));

    ck_assert_int_eq(group_to_handle(group_empty(), &h1), COMPI_OK);
    ck_assert_int_eq(h1, MPI_GROUP_EMPTY);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        set_operations, with_empty, incl_excl, ranges, translate, compare, refcount_and_handles
    };
    const unit_case_t tc = {.suite = "group", .name = "algebra", .setup = setup};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
