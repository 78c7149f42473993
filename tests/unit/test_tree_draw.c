/*
 * test_tree_draw.c -- topo_tree_draw, the text compi-tree prints: one line a rank in
 * serving order, children two spaces in, labels and marks where given, a subtree or one
 * tree of a forest from any rank, children lists that loop drawn once each, and a long
 * chain drawn without running out of C stack.
 */
#include "topologies/tree.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(binomial_text)
{
    topo_tree_t *t = topo_tree_binomial(8, 0);
    char *s = topo_tree_draw(t, t->root, NULL, NULL);
    ck_assert_str_eq(s, "0\n  4\n    6\n      7\n    5\n  2\n    3\n  1\n");
    free(s);
    topo_tree_free(t);
}
END_TEST

START_TEST(labels_and_marks)
{
    topo_tree_t *t = topo_tree_flat(3, 1);
    const char *labels[] = {"a 10.1.0.1", NULL, "c"};
    const char *marks[] = {NULL, "  [WAN]", "  [WAN]"};
    char *s = topo_tree_draw(t, 1, labels, marks);
    ck_assert_str_eq(s, "1  [WAN]\n  2 (c)  [WAN]\n  0 (a 10.1.0.1)\n");
    free(s);
    topo_tree_free(t);
}
END_TEST

START_TEST(subtrees_and_forests)
{
    topo_tree_t *t = topo_tree_chain(4, 0);
    char *s = topo_tree_draw(t, 2, NULL, NULL);
    ck_assert_str_eq(s, "2\n  3\n");
    free(s);
    topo_tree_free(t);

    /* two roots, 0 and 2 (a forest, as the exchange allreduce's local trees) */
    topo_tree_t *f = NULL;
    ck_assert_int_eq(topo_tree_from_parents(4, 0, (int[]){-1, 0, -1, 2}, NULL, &f), COMPI_OK);
    s = topo_tree_draw(f, 2, NULL, NULL);
    ck_assert_str_eq(s, "2\n  3\n");
    free(s);
    topo_tree_free(f);
}
END_TEST

START_TEST(loops_drawn_once)
{
    /* 1 and 2 each other's parent: the walk from 1 ends */
    topo_tree_t *t = NULL;
    ck_assert_int_eq(topo_tree_from_parents(3, 0, (int[]){-1, 2, 1}, NULL, &t), COMPI_OK);
    char *s = topo_tree_draw(t, 1, NULL, NULL);
    ck_assert_str_eq(s, "1\n  2\n");
    free(s);
    topo_tree_free(t);
}
END_TEST

START_TEST(long_chain)
{
    enum { N = 3000 };
    topo_tree_t *t = topo_tree_chain(N, 0);
    char *s = topo_tree_draw(t, 0, NULL, NULL);
    ck_assert_ptr_nonnull(s);
    /* the last line: 2 (N - 1) spaces, then the last rank */
    const char *last = strrchr(s, '\n');
    while (last > s && last[-1] != '\n') {
        last--;
    }
    ck_assert_int_eq((int)strspn(last, " "), 2 * (N - 1));
    ck_assert_int_eq(atoi(last + 2 * (N - 1)), N - 1);
    free(s);
    topo_tree_free(t);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {binomial_text, labels_and_marks, subtrees_and_forests,
                            loops_drawn_once, long_chain};
    const unit_case_t tc = {.suite = "tree_draw", .name = "drawing"};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
