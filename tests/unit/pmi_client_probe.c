/*
 * pmi_client_probe.c -- helper process for tests/unit/launcher.sh: one rank of a job,
 * built from the PMI client alone (pmi.c, pmi_wire.c and the log stub below), so the
 * launcher is tested without the rest of the library.
 *
 *   pmi_client_probe [kvs]            put own key, barrier, get every rank's key, check
 *   pmi_client_probe exit CODE        init, finalize, exit CODE
 *   pmi_client_probe nofinalize CODE  init, exit CODE without finalize
 *   pmi_client_probe crash RANK SIG   rank RANK raises SIG after init; the others wait
 *   pmi_client_probe abort CODE MSG   rank 1 (or 0 when alone) aborts; the others wait
 *   pmi_client_probe sleep S          init, sleep S seconds, finalize
 *   pmi_client_probe echo-stdin       rank 0 copies stdin to stdout
 *   pmi_client_probe lines N          N lines on stdout and stderr, then a partial line
 *   pmi_client_probe env VAR          prints "rank R VAR=value" (or "unset")
 *   pmi_client_probe get KEY          prints "rank R KEY=value" from the launcher's key space
 *                                     (or "not found")
 */
#include "core/runtime/pmi.h"
#include "core/runtime/pmi_wire.h"
#include "core/runtime/log.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void vlog(const char *level, const char *fmt, va_list ap)
{
    fprintf(stderr, "probe %s: ", level);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void compi_log_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog("error", fmt, ap);
    va_end(ap);
}

void compi_log_warn(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog("warning", fmt, ap);
    va_end(ap);
}

void compi_log_info(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vlog("info", fmt, ap);
    va_end(ap);
}

void compi_log_verbose(int verbosity, int level, const char *fmt, ...)
{
    va_list ap;

    if (level > verbosity)
        return;
    va_start(ap, fmt);
    vlog("verbose", fmt, ap);
    va_end(ap);
}

static pmi_info_t info;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "probe rank %d: check failed: ", info.rank);                           \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static void finalize_and_exit(int code)
{
    CHECK(pmi_finalize() == COMPI_OK, "finalize");
    exit(code);
}

static void mode_kvs(void)
{
    char key[64], value[PMI_WIRE_VALLEN_MAX], want[PMI_WIRE_VALLEN_MAX];
    char big[4000];
    compi_status_t st;

    snprintf(key, sizeof(key), "probe.%d", info.rank);
    snprintf(value, sizeof(value), "value-of-%d-in-%s", info.rank, info.kvsname);
    CHECK(pmi_put(key, value) == COMPI_OK, "put %s", key);
    CHECK(pmi_commit() == COMPI_OK, "commit");

    /* bad keys and values fail cleanly and leave the connection usable */
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    st = pmi_put("probe.big", big);
    CHECK(st == COMPI_ERR_INVALID_PARAM, "too-long value gave %d", st);
    st = pmi_put("has space", "v");
    CHECK(st == COMPI_ERR_INVALID_PARAM, "key with a space gave %d", st);

    CHECK(pmi_barrier() == COMPI_OK, "barrier");
    for (int r = 0; r < info.size; r++) {
        snprintf(key, sizeof(key), "probe.%d", r);
        snprintf(want, sizeof(want), "value-of-%d-in-%s", r, info.kvsname);
        st = pmi_get(r, key, value, sizeof(value));
        CHECK(st == COMPI_OK, "get %s gave %d", key, st);
        CHECK(strcmp(value, want) == 0, "get %s: '%s', expected '%s'", key, value, want);
    }
    st = pmi_get(0, "probe.missing", value, sizeof(value));
    CHECK(st == COMPI_ERR_NOT_FOUND, "get of a missing key gave %d", st);
    st = pmi_get(0, "probe.0", value, 4);
    CHECK(st == COMPI_ERR_TRUNCATE, "get into a short buffer gave %d", st);
    /* a second barrier: the server must be ready for the next round */
    CHECK(pmi_barrier() == COMPI_OK, "second barrier");
    printf("ok rank %d of %d\n", info.rank, info.size);
    fflush(stdout);
    finalize_and_exit(0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "kvs";
    int arg = argc > 2 ? atoi(argv[2]) : 0;
    compi_status_t st = pmi_init(&info);

    if (st != COMPI_OK) {
        fprintf(stderr, "probe: pmi_init failed (%d)\n", st);
        return 3;
    }
    if (strcmp(mode, "kvs") == 0) {
        mode_kvs();
    } else if (strcmp(mode, "exit") == 0) {
        finalize_and_exit(arg);
    } else if (strcmp(mode, "nofinalize") == 0) {
        exit(arg);
    } else if (strcmp(mode, "crash") == 0) {
        if (info.rank == arg) {
            signal(argc > 3 ? atoi(argv[3]) : SIGSEGV, SIG_DFL);
            raise(argc > 3 ? atoi(argv[3]) : SIGSEGV);
        }
        sleep(60);
        finalize_and_exit(0);
    } else if (strcmp(mode, "abort") == 0) {
        if (info.rank == (info.size > 1 ? 1 : 0)) {
            pmi_abort(arg, argc > 3 ? argv[3] : NULL);
            exit(arg);
        }
        sleep(60);
        finalize_and_exit(0);
    } else if (strcmp(mode, "sleep") == 0) {
        sleep((unsigned)arg);
        finalize_and_exit(0);
    } else if (strcmp(mode, "echo-stdin") == 0) {
        char buf[4096];
        size_t n;

        if (info.rank == 0)
            while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
                fwrite(buf, 1, n, stdout);
        fflush(stdout);
        finalize_and_exit(0);
    } else if (strcmp(mode, "lines") == 0) {
        for (int i = 0; i < arg; i++) {
            printf("out %d from rank %d\n", i, info.rank);
            fprintf(stderr, "err %d from rank %d\n", i, info.rank);
        }
        printf("partial from rank %d", info.rank);
        fflush(stdout);
        finalize_and_exit(0);
    } else if (strcmp(mode, "env") == 0) {
        const char *v = argc > 2 ? getenv(argv[2]) : NULL;

        printf("rank %d %s=%s\n", info.rank, argc > 2 ? argv[2] : "?", v != NULL ? v : "unset");
        fflush(stdout);
        finalize_and_exit(0);
    } else if (strcmp(mode, "get") == 0 && argc > 2) {
        char value[PMI_WIRE_VALLEN_MAX];

        st = pmi_get(0, argv[2], value, sizeof(value));
        CHECK(st == COMPI_OK || st == COMPI_ERR_NOT_FOUND, "get %s gave %d", argv[2], st);
        printf("rank %d %s=%s\n", info.rank, argv[2], st == COMPI_OK ? value : "not found");
        fflush(stdout);
        finalize_and_exit(0);
    }
    fprintf(stderr, "probe: unknown mode '%s'\n", mode);
    return 4;
}
