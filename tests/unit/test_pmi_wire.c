/*
 * test_pmi_wire.c -- the PMI-1 line parser, formatter and line reader: what a launcher or
 * a rank would see go wrong if a reply were cut, merged or misread.
 */
#include "core/runtime/pmi_wire.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(parse_well_formed)
{
    pmi_wire_msg_t m;
    const char *line = "cmd=put kvsname=compi.1.ab key=btl.sm.0 value=a=b,c\n";

    ck_assert_int_eq(pmi_wire_parse(line, strlen(line), &m), COMPI_OK);
    ck_assert_int_eq(m.nfields, 4);
    ck_assert_str_eq(pmi_wire_cmd(&m), "put");
    ck_assert_str_eq(pmi_wire_get(&m, "kvsname"), "compi.1.ab");
    ck_assert_str_eq(pmi_wire_get(&m, "key"), "btl.sm.0");
    /* a value is split from its key at the first '=' only */
    ck_assert_str_eq(pmi_wire_get(&m, "value"), "a=b,c");
}
END_TEST

START_TEST(parse_empty_value_and_ints)
{
    pmi_wire_msg_t m;
    const char *line = "cmd=get_result rc=-1 value= size=12x";
    int v = 0;

    ck_assert_int_eq(pmi_wire_parse(line, strlen(line), &m), COMPI_OK);
    ck_assert_str_eq(pmi_wire_get(&m, "value"), "");
    ck_assert_int_eq(pmi_wire_get_int(&m, "rc", &v), COMPI_OK);
    ck_assert_int_eq(v, -1);
    ck_assert_int_eq(pmi_wire_get_int(&m, "size", &v), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_get_int(&m, "absent", &v), COMPI_ERR_NOT_FOUND);
}
END_TEST

START_TEST(parse_missing_keys)
{
    pmi_wire_msg_t m;
    const char *noeq = "cmd=put key";
    const char *nokey = "cmd=put =v";
    const char *nocmd = "key=a value=b";

    ck_assert_int_eq(pmi_wire_parse(noeq, strlen(noeq), &m), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_parse(nokey, strlen(nokey), &m), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_parse("\n", 1, &m), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_parse(nocmd, strlen(nocmd), &m), COMPI_OK);
    ck_assert_ptr_null(pmi_wire_cmd(&m));
    ck_assert_ptr_null(pmi_wire_get(&m, "kvsname"));
}
END_TEST

START_TEST(parse_spaces)
{
    pmi_wire_msg_t m;
    const char *line = "  cmd=barrier_in \t  rc=0   \r\n";
    const char *abrt = "cmd=abort exitcode=5 message=it broke:  rank 3 \n";

    ck_assert_int_eq(pmi_wire_parse(line, strlen(line), &m), COMPI_OK);
    ck_assert_int_eq(m.nfields, 2);
    ck_assert_str_eq(pmi_wire_cmd(&m), "barrier_in");
    ck_assert_str_eq(pmi_wire_get(&m, "rc"), "0");
    /* the free-text message keeps its inner spaces and runs to the end of the line */
    ck_assert_int_eq(pmi_wire_parse(abrt, strlen(abrt), &m), COMPI_OK);
    ck_assert_str_eq(pmi_wire_get(&m, "exitcode"), "5");
    ck_assert_str_eq(pmi_wire_get(&m, "message"), "it broke:  rank 3");
}
END_TEST

START_TEST(parse_too_long)
{
    pmi_wire_msg_t m;
    size_t n = PMI_WIRE_MAXLINE + 10;
    char *line = malloc(n);

    memcpy(line, "cmd=put value=", 14);
    memset(line + 14, 'v', n - 14);
    ck_assert_int_eq(pmi_wire_parse(line, n, &m), COMPI_ERR_TRUNCATE);
    free(line);
}
END_TEST

START_TEST(format_round_trip)
{
    char buf[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t m;
    size_t len = 0;

    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "kvsname", "k1", "key", "a.b",
                                     "value", "x=y", NULL),
                     COMPI_OK);
    ck_assert_str_eq(buf, "cmd=put kvsname=k1 key=a.b value=x=y\n");
    ck_assert_uint_eq(len, strlen(buf));
    ck_assert_int_eq(pmi_wire_parse(buf, len, &m), COMPI_OK);
    ck_assert_str_eq(pmi_wire_get(&m, "value"), "x=y");

    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "abort", "exitcode", "3", "message",
                                     "two\nlines here", NULL),
                     COMPI_OK);
    ck_assert_str_eq(buf, "cmd=abort exitcode=3 message=two lines here\n");
}
END_TEST

START_TEST(format_refuses_bad_fields)
{
    char buf[PMI_WIRE_MAXLINE];
    size_t len;

    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "key", "a b", NULL),
                     COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "k=x", "v", NULL),
                     COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "", "v", NULL),
                     COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "value", "a\n", NULL),
                     COMPI_ERR_INVALID_PARAM);
    /* free text must come last, or the parser could not tell where it ends */
    ck_assert_int_eq(
        pmi_wire_format(buf, sizeof(buf), &len, "abort", "message", "m", "exitcode", "1", NULL),
        COMPI_ERR_INVALID_PARAM);
}
END_TEST

START_TEST(format_too_long)
{
    char small[16], buf[PMI_WIRE_MAXLINE];
    char *value = malloc(PMI_WIRE_MAXLINE);
    size_t len;

    ck_assert_int_eq(
        pmi_wire_format(small, sizeof(small), &len, "put", "value", "0123456789", NULL),
        COMPI_ERR_TRUNCATE);
    memset(value, 'v', PMI_WIRE_MAXLINE - 1);
    value[PMI_WIRE_MAXLINE - 1] = '\0';
    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "value", value, NULL),
                     COMPI_ERR_TRUNCATE);
    /* exactly filling the line (newline included, NUL after) still fits */
    value[PMI_WIRE_MAXLINE - 1 - strlen("cmd=put value=") - 1] = '\0';
    ck_assert_int_eq(pmi_wire_format(buf, sizeof(buf), &len, "put", "value", value, NULL),
                     COMPI_OK);
    ck_assert_uint_eq(len, PMI_WIRE_MAXLINE - 1);
    free(value);
}
END_TEST

/* a spawned program's arguments travel as hex: any byte but NUL, blanks included */
START_TEST(hex_round_trip)
{
    char hex[64], back[32];
    const char *kv[] = {"maxprocs", "2", "arg0", "6120"};
    char line[PMI_WIRE_MAXLINE];
    size_t len;

    ck_assert_int_eq(pmi_wire_hex_encode("a b=\n\xff", hex, sizeof(hex)), COMPI_OK);
    ck_assert_str_eq(hex, "6120623d0aff");
    ck_assert_int_eq(pmi_wire_hex_decode(hex, back, sizeof(back)), COMPI_OK);
    ck_assert_str_eq(back, "a b=\n\xff");
    ck_assert_int_eq(pmi_wire_hex_encode("", hex, sizeof(hex)), COMPI_OK);
    ck_assert_str_eq(hex, "");
    ck_assert_int_eq(pmi_wire_hex_encode("abcd", hex, 8), COMPI_ERR_TRUNCATE);
    ck_assert_int_eq(pmi_wire_hex_decode("616", back, sizeof(back)), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_hex_decode("6g", back, sizeof(back)), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_hex_decode("6100", back, sizeof(back)), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(pmi_wire_hex_decode("616263", back, 3), COMPI_ERR_TRUNCATE);
    /* the array form of format, as the spawn request uses it */
    ck_assert_int_eq(pmi_wire_format_list(line, sizeof(line), &len, "spawn_cmd", kv, 4), COMPI_OK);
    ck_assert_str_eq(line, "cmd=spawn_cmd maxprocs=2 arg0=6120\n");
    ck_assert_int_eq(pmi_wire_format_list(line, sizeof(line), &len, "spawn_cmd", kv, 3),
                     COMPI_ERR_INVALID_PARAM);
}
END_TEST

START_TEST(reader_partial_reads)
{
    const char *stream = "cmd=init pmi_version=1\ncmd=get_maxes\ncmd=barr";
    pmi_wire_reader_t r;
    char line[PMI_WIRE_MAXLINE];
    int trunc;

    pmi_wire_reader_init(&r);
    /* one byte at a time: no line comes out before its newline */
    for (size_t i = 0; i < 10; i++) {
        ck_assert_uint_eq(pmi_wire_reader_feed(&r, stream + i, 1), 1);
        ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), -1);
    }
    pmi_wire_reader_feed(&r, stream + 10, strlen(stream) - 10);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), 22);
    ck_assert_str_eq(line, "cmd=init pmi_version=1");
    ck_assert_int_eq(trunc, 0);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), 13);
    ck_assert_str_eq(line, "cmd=get_maxes");
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), -1);
    ck_assert_uint_eq(pmi_wire_reader_pending(&r), 8);
    pmi_wire_reader_feed(&r, "ier_in\n", 7);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), 14);
    ck_assert_str_eq(line, "cmd=barrier_in");
}
END_TEST

START_TEST(reader_over_long_line)
{
    pmi_wire_reader_t r;
    char line[PMI_WIRE_MAXLINE], chunk[1000];
    int trunc;
    size_t fed = 0;

    pmi_wire_reader_init(&r);
    memset(chunk, 'x', sizeof(chunk));
    /* 5000 bytes of one line, then a good line: the first comes out cut, once */
    while (fed < 5000) {
        size_t took = pmi_wire_reader_feed(&r, chunk, sizeof(chunk));

        fed += took;
        if (took < sizeof(chunk)) {
            ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), PMI_WIRE_MAXLINE - 1);
            ck_assert_int_eq(trunc, 1);
            fed += pmi_wire_reader_feed(&r, chunk + took, sizeof(chunk) - took);
        }
    }
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), -1);
    pmi_wire_reader_feed(&r, "\ncmd=finalize\n", 14);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), 12);
    ck_assert_str_eq(line, "cmd=finalize");
    ck_assert_int_eq(trunc, 0);
}
END_TEST

START_TEST(reader_fill_from_fd)
{
    pmi_wire_reader_t r;
    char line[PMI_WIRE_MAXLINE];
    int fds[2], trunc;

    ck_assert_int_eq(pipe(fds), 0);
    pmi_wire_reader_init(&r);
    ck_assert_int_eq(write(fds[1], "cmd=a\ncmd=", 10), 10);
    ck_assert_int_eq(pmi_wire_reader_fill(&r, fds[0]), 10);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), 5);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), -1);
    ck_assert_int_eq(write(fds[1], "b\n", 2), 2);
    close(fds[1]);
    ck_assert_int_eq(pmi_wire_reader_fill(&r, fds[0]), 2);
    ck_assert_int_eq(pmi_wire_reader_next(&r, line, &trunc), 5);
    ck_assert_str_eq(line, "cmd=b");
    ck_assert_int_eq(pmi_wire_reader_fill(&r, fds[0]), 0);
    close(fds[0]);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        parse_well_formed, parse_empty_value_and_ints, parse_missing_keys, parse_spaces,
        parse_too_long, format_round_trip, format_refuses_bad_fields, format_too_long,
        reader_partial_reads, reader_over_long_line, reader_fill_from_fd, hex_round_trip
    };
    const unit_case_t tc = {.suite = "pmi_wire", .name = "wire"};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
