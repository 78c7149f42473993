/*
 * test_facts.c -- the parts of rank facts a user writes or a peer reads: per-rank
 * parameter lists, address overrides (what is refused, and why), and the modex form
 * that carries the facts from one rank to the others.
 */
#include "topologies/facts.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

START_TEST(pick_per_rank)
{
    char buf[32];

    ck_assert_int_eq(topo_facts_pick("a,a,b,b", ',', 0, buf, sizeof(buf)), COMPI_OK);
    ck_assert_str_eq(buf, "a");
    ck_assert_int_eq(topo_facts_pick("a,a,b,b", ',', 2, buf, sizeof(buf)), COMPI_OK);
    ck_assert_str_eq(buf, "b");
    /* ranks past the end take the last entry; one entry is everybody's */
    ck_assert_int_eq(topo_facts_pick("a,b", ',', 7, buf, sizeof(buf)), COMPI_OK);
    ck_assert_str_eq(buf, "b");
    ck_assert_int_eq(topo_facts_pick("node", ',', 3, buf, sizeof(buf)), COMPI_OK);
    ck_assert_str_eq(buf, "node");
    ck_assert_int_eq(topo_facts_pick("10.0.0.1/8,::1/128;10.0.0.2/8", ';', 0, buf, sizeof(buf)),
                     COMPI_OK);
    ck_assert_str_eq(buf, "10.0.0.1/8,::1/128");
    ck_assert_int_eq(topo_facts_pick("", ',', 0, buf, sizeof(buf)), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(topo_facts_pick("averyveryverylongnamethatdoesnotfit", ',', 0, buf, 8),
                     COMPI_ERR_INVALID_PARAM);
}
END_TEST

START_TEST(parse_addresses)
{
    topo_facts_t f;
    char err[160];

    ck_assert_int_eq(topo_facts_parse_addrs("10.1.0.5/24,fd00:0:0::5/64", &f, err, sizeof(err)),
                     COMPI_OK);
    ck_assert_int_eq(f.naddrs, 2);
    ck_assert_str_eq(f.addrs[0], "10.1.0.5/24");
    ck_assert_str_eq(f.addrs[1], "fd00::5/64"); /* canonical form */
    ck_assert_int_eq(topo_facts_parse_addrs("", &f, err, sizeof(err)), COMPI_OK);
    ck_assert_int_eq(f.naddrs, 0);

    const char *bad[] = {"10.1.0.5",  "10.1.0.300/24", "10.1.0.5/33", "fd00::1/129",
                         "10.1.0.5/", "10.1.0.5/2x",   "host/24",     "10.1.0.5/24,,"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        ck_assert_msg(topo_facts_parse_addrs(bad[i], &f, err, sizeof(err)) ==
                          COMPI_ERR_INVALID_PARAM,
                      "'%s' was accepted", bad[i]);
        ck_assert_msg(strstr(err, "ADDR/PREFIX") != NULL, "message for '%s': %s", bad[i], err);
    }
}
END_TEST

START_TEST(encode_round_trip)
{
    topo_facts_t f = {.world_rank = 3,
                     .host = "node-7.cluster",
                     .naddrs = 3,
                     .package = 1,
                     .numa = 2,
                     .core = 17,
                     .l3 = 5,
                     .bound = 1};
    topo_facts_t g;
    char buf[1024];

    snprintf(f.addrs[0], sizeof(f.addrs[0]), "10.2.0.7/16");
    snprintf(f.addrs[1], sizeof(f.addrs[1]), "fe80::1/64");
    snprintf(f.addrs[2], sizeof(f.addrs[2]), "127.0.0.1/8");
    ck_assert_int_eq(topo_facts_encode(&f, buf, sizeof(buf)), COMPI_OK);
    ck_assert_ptr_null(strchr(buf, ' '));
    ck_assert_ptr_null(strchr(buf, '='));
    ck_assert_ptr_nonnull(strstr(buf, "|1,2,17,5|")); /* the place, L3 last */
    memset(&g, 0, sizeof(g));
    ck_assert_int_eq(topo_facts_decode(buf, &g), COMPI_OK);
    ck_assert_str_eq(g.host, f.host);
    ck_assert_int_eq(g.naddrs, 3);
    ck_assert_str_eq(g.addrs[2], "127.0.0.1/8");
    ck_assert_int_eq(g.package, 1);
    ck_assert_int_eq(g.numa, 2);
    ck_assert_int_eq(g.core, 17);
    ck_assert_int_eq(g.l3, 5);
    ck_assert_int_eq(g.bound, 1);

    /* an unknown place and no addresses survive too */
    topo_facts_t u = {.host = "h", .package = -1, .numa = -1, .core = -1, .l3 = -1};
    ck_assert_int_eq(topo_facts_encode(&u, buf, sizeof(buf)), COMPI_OK);
    ck_assert_int_eq(topo_facts_decode(buf, &g), COMPI_OK);
    ck_assert_int_eq(g.naddrs, 0);
    ck_assert_int_eq(g.core, -1);
    ck_assert_int_eq(g.l3, -1);

    /* a known core on a machine without L3 caches */
    topo_facts_t n = {.host = "h", .package = 0, .numa = 0, .core = 3, .l3 = -1};
    ck_assert_int_eq(topo_facts_encode(&n, buf, sizeof(buf)), COMPI_OK);
    ck_assert_int_eq(topo_facts_decode(buf, &g), COMPI_OK);
    ck_assert_int_eq(g.core, 3);
    ck_assert_int_eq(g.l3, -1);

    ck_assert_int_eq(topo_facts_decode("garbage", &g), COMPI_ERR_INVALID_PARAM);
    /* the form without L3 (another version of the library) is refused, not misread */
    ck_assert_int_eq(topo_facts_decode("1|0,0,3|h|10.0.0.1/8", &g), COMPI_ERR_INVALID_PARAM);
}
END_TEST

START_TEST(encode_drops_addresses_that_do_not_fit)
{
    topo_facts_t f = {.host = "h", .naddrs = TOPO_FACTS_MAXADDRS};
    topo_facts_t g;
    char buf[100];

    for (int i = 0; i < f.naddrs; i++) {
        snprintf(f.addrs[i], sizeof(f.addrs[i]), "10.0.0.%d/24", i);
    }
    ck_assert_int_eq(topo_facts_encode(&f, buf, sizeof(buf)), COMPI_OK);
    ck_assert_int_eq(topo_facts_decode(buf, &g), COMPI_OK);
    ck_assert_int_gt(g.naddrs, 0);
    ck_assert_int_lt(g.naddrs, TOPO_FACTS_MAXADDRS);
    ck_assert_str_eq(g.addrs[0], "10.0.0.0/24"); /* the first ones are kept */
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        pick_per_rank, parse_addresses, encode_round_trip, encode_drops_addresses_that_do_not_fit
    };
    const unit_case_t tc = {.suite = "topo_facts", .name = "facts"};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
