/*
 * coll_reconfig: collectives reconfigured in the middle of a run, and the MPI_T control
 * variables that do it.
 *
 *   1. MPI_T enumeration: every variable has a unique name that MPI_T_cvar_get_index finds
 *      again, an int or char type, and reads (the unbound ones); the error classes of a
 *      bad index, name, handle, object, a read-only write, an uninitialized interface.
 *   2. phases, results checked in each: the defaults; configs/reconfig_a.scm written to the
 *      coll_config variable bound to MPI_COMM_WORLD; configs/reconfig_b.scm through
 *      MPIX_Coll_reconfigure.  Run with coll_summary, the script finds both closures of
 *      bcast and of allreduce in the file.
 *   3. a config with a syntax error (bad_syntax.scm, line 6), through the variable and
 *      through MPIX_Coll_reconfigure: every rank gets the same error, MPI_ERR_OTHER whose
 *      string names the file and the line, and reconfig_b.scm stays in force; then with
 *      only the last rank given the bad file: every rank gets the error naming that rank.
 *   4. the halves of the world reconfigured differently: a half's flush keeps WORLD's
 *      closures; once WORLD is flushed, its next bcast fails on every rank (at 3 ranks
 *      or more) with the agreement's "ranks built different closures" and "the ranks run
 *      different configurations".
 *   5. configs/reconfig_byname.scm: a duplicate named "tree-please" then renamed
 *      "flat-please" gets a binomial then a linear bcast (the summary shows both).
 *   6. coll_flush and MPIX_Coll_flush drop caches; MPI_T_finalize is reference counted.
 *
 * With the argument "fatal": MPIX_Coll_reconfigure of the broken config under
 * MPI_ERRORS_ARE_FATAL ends the job with one message.
 *
 * The configs' directory comes from MT_CONFIGS (coll_reconfig.sh sets it).  compi only.
 */
#include "tests/mpi/mpitest.h"

static char dir[1024];

static void path_of(char *buf, size_t len, const char *file)
{
    snprintf(buf, len, "%s/%s", dir, file);
}

static void check_bcast(MPI_Comm comm, int n, int seed, const char *phase)
{
    int *buf = mt_malloc(sizeof(int) * (size_t)n), rank;
    MPI_OK(MPI_Comm_rank(comm, &rank));
    for (int i = 0; i < n; i++)
        buf[i] = rank == 0 ? seed + i : -1;
    MPI_OK(MPI_Bcast(buf, n, MPI_INT, 0, comm));
    for (int i = 0; i < n; i++) {
        if (buf[i] != seed + i) {
            CHECK(0, "%s: bcast of %d ints: buf[%d] = %d, expected %d", phase, n, i, buf[i],
                  seed + i);
            break;
        }
    }
    free(buf);
}

static void check_allreduce(MPI_Comm comm, int n, const char *phase)
{
    int size;
    MPI_OK(MPI_Comm_size(comm, &size));
    int *in = mt_malloc(sizeof(int) * (size_t)n), *out = mt_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        in[i] = mt_rank * 3 + i;
    MPI_OK(MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < n; i++) {
        int want = 3 * size * (size - 1) / 2 + size * i;
        if (out[i] != want) {
            CHECK(0, "%s: allreduce of %d ints: out[%d] = %d, expected %d", phase, n, i,
                  out[i], want);
            break;
        }
    }
    free(in);
    free(out);
}

/* a few calls of each kind, two size classes */
static void phase_calls(const char *phase, int seed)
{
    for (int rep = 0; rep < 3; rep++) {
        check_bcast(MPI_COMM_WORLD, 4, seed + rep, phase);
        check_bcast(MPI_COMM_WORLD, 1000, seed + 100 + rep, phase);
        check_allreduce(MPI_COMM_WORLD, 4, phase);
        check_allreduce(MPI_COMM_WORLD, 1000, phase);
    }
}

static int cvar_index(const char *name)
{
    int i = -1;
    MPI_OK(MPI_T_cvar_get_index(name, &i));
    return i;
}

/* 1. enumeration and the error classes */
static void enumerate(void)
{
    int n = 0, seen_config = 0, seen_flush = 0;
    MPI_OK(MPI_T_cvar_get_num(&n));
    CHECK(n > 10, "MPI_T_cvar_get_num: %d variables, expected every parameter", n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int nlen = sizeof(name), dlen = sizeof(desc), verb, bind, scope, count, idx = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_OK(MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &et, desc, &dlen, &bind,
                                   &scope));
        CHECK(nlen == (int)strlen(name) + 1, "cvar %d: name_len %d for '%s'", i, nlen, name);
        CHECK(dt == MPI_INT || dt == MPI_CHAR, "cvar %s: datatype neither int nor char", name);
        /* enumerations (tests/mpi/mpit.c checks them): an int whose items name it */
        CHECK(et == MPI_T_ENUM_NULL || dt == MPI_INT, "cvar %s: an enumeration, not an int", name);
        MPI_OK(MPI_T_cvar_get_index(name, &idx));
        CHECK(idx == i, "cvar %s: index %d, MPI_T_cvar_get_index says %d", name, i, idx);
        if (strcmp(name, "coll_config") == 0 || strcmp(name, "coll_flush") == 0) {
            seen_config += strcmp(name, "coll_config") == 0;
            seen_flush += strcmp(name, "coll_flush") == 0;
            CHECK(bind == MPI_T_BIND_MPI_COMM && scope == MPI_T_SCOPE_GROUP_EQ,
                  "cvar %s: bind %d scope %d, expected a communicator, GROUP_EQ", name, bind,
                  scope);
            continue;
        }
        CHECK(bind == MPI_T_BIND_NO_OBJECT && scope == MPI_T_SCOPE_READONLY,
              "cvar %s: bind %d scope %d, expected no object, read-only", name, bind, scope);
        MPI_T_cvar_handle h;
        MPI_OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        CHECK(count >= 1, "cvar %s: count %d", name, count);
        char *buf = mt_malloc((size_t)count * (dt == MPI_INT ? sizeof(int) : 1));
        MPI_OK(MPI_T_cvar_read(h, buf));
        if (dt == MPI_CHAR)
            CHECK(memchr(buf, '\0', (size_t)count) != NULL, "cvar %s: unterminated", name);
        mt_expect_class(MPI_T_cvar_write(h, buf), MPI_T_ERR_CVAR_SET_NEVER, name);
        free(buf);
        MPI_OK(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar %s: handle not nulled by free", name);
    }
    CHECK(seen_config == 1 && seen_flush == 1, "coll_config seen %d times, coll_flush %d",
          seen_config, seen_flush);

    /* a known integer: coll_cache_size (no --mca here) reads its default */
    MPI_T_cvar_handle h, stale;
    int count, v = -1, k;
    MPI_OK(MPI_T_cvar_handle_alloc(cvar_index("coll_cache_size"), NULL, &h, &count));
    MPI_OK(MPI_T_cvar_read(h, &v));
    CHECK(v == 256 && count == 1, "coll_cache_size reads %d (count %d), expected 256", v, count);
    stale = h;
    MPI_OK(MPI_T_cvar_handle_free(&h));
    mt_expect_class(MPI_T_cvar_read(stale, &v), MPI_T_ERR_INVALID_HANDLE, "read of a freed handle");
    mt_expect_class(MPI_T_cvar_handle_free(&stale), MPI_T_ERR_INVALID_HANDLE,
                 "free of a freed handle");

    mt_expect_class(MPI_T_cvar_get_index("no_such_variable", &k), MPI_T_ERR_INVALID_NAME,
                 "get_index of an unknown name");
    mt_expect_class(MPI_T_cvar_get_info(n + 5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                     NULL),
                 MPI_T_ERR_INVALID_INDEX, "get_info past the end");
    mt_expect_class(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX, "get_info(-1)");
    mt_expect_class(MPI_T_cvar_handle_alloc(n + 5, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX,
                 "handle_alloc past the end");
    MPI_Comm null = MPI_COMM_NULL;
    mt_expect_class(MPI_T_cvar_handle_alloc(cvar_index("coll_config"), NULL, &h, &count),
                 MPI_T_ERR_INVALID_HANDLE, "coll_config bound to nothing");
    mt_expect_class(MPI_T_cvar_handle_alloc(cvar_index("coll_config"), &null, &h, &count),
                 MPI_T_ERR_INVALID_HANDLE, "coll_config bound to MPI_COMM_NULL");

    /* a short name buffer: cut, terminated, the length written */
    char shortname[4];
    int slen = sizeof(shortname);
    MPI_OK(MPI_T_cvar_get_info(cvar_index("coll_config"), shortname, &slen, NULL, NULL, NULL,
                               NULL, NULL, NULL, NULL));
    CHECK(slen == 4 && strcmp(shortname, "col") == 0, "cut name '%s', length %d", shortname,
          slen);
    slen = 0;
    MPI_OK(MPI_T_cvar_get_info(cvar_index("coll_config"), NULL, &slen, NULL, NULL, NULL, NULL,
                               NULL, NULL, NULL));
    CHECK(slen == (int)sizeof("coll_config"), "length of 'coll_config': %d", slen);

    /* performance variables and categories: tests/mpi/mpit.c */
    int np = -1, nc = -1;
    MPI_OK(MPI_T_pvar_get_num(&np));
    MPI_OK(MPI_T_category_get_num(&nc));
    CHECK(np > 0 && nc > 0, "%d performance variables, %d categories", np, nc);
}

/* rc: the failed load of bad_syntax.scm, on every rank the same */
static void expect_bad_config(int rc, const char *what, int failing_rank)
{
    char text[MPI_MAX_ERROR_STRING], want[32];
    int len, cls;
    CHECK(rc != MPI_SUCCESS, "%s: succeeded with a broken config", what);
    if (rc == MPI_SUCCESS)
        return;
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_OTHER, "%s: class %d, expected MPI_ERR_OTHER", what, cls);
    MPI_OK(MPI_Error_string(rc, text, &len));
    snprintf(want, sizeof(want), "rank %d", failing_rank);
    CHECK(strstr(text, "bad_syntax.scm:6") != NULL && strstr(text, want) != NULL,
          "%s: the message '%s' names neither bad_syntax.scm:6 nor %s", what, text, want);
}

static void read_list(MPI_T_cvar_handle h, int count, const char *want, const char *what)
{
    char *buf = mt_malloc((size_t)count);
    MPI_OK(MPI_T_cvar_read(h, buf));
    CHECK(strcmp(buf, want) == 0, "%s: coll_config reads '%s', expected '%s'", what, buf, want);
    free(buf);
}

static int flush_count(void)
{
    int n = -1, count;
    MPI_T_cvar_handle h;
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_OK(MPI_T_cvar_handle_alloc(cvar_index("coll_flush"), &world, &h, &count));
    MPI_OK(MPI_T_cvar_read(h, &n));
    MPI_OK(MPI_T_cvar_handle_free(&h));
    return n;
}

/*
 * The two halves of the world load different configs (a: binomial bcast, b: linear).
 * Flushing a half drops its own cache only: MPI_COMM_WORLD reaches the other half, keeps
 * its closures and still works.  Once WORLD is flushed too, its next bcast misses on
 * every rank, the halves build different closures (at 3 ranks or more, where binomial and
 * linear differ) and the agreement fails the call on every rank, naming both and saying
 * the ranks run different configurations; then WORLD
 * goes back to b everywhere.
 */
static void halves(const char *a, const char *b)
{
    MPI_Comm half;
    int upper = mt_rank >= mt_size / 2;
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, upper, mt_rank, &half));
    check_bcast(half, 4, 500, "half");
    check_bcast(MPI_COMM_WORLD, 4, 510, "world before the halves' reconfiguration");
    int before = flush_count();
    MPI_OK(MPIX_Coll_flush(half));
    CHECK(flush_count() == before + 1, "MPIX_Coll_flush(half) dropped %d caches, expected "
          "the half's alone", flush_count() - before);
    MPI_OK(MPIX_Coll_reconfigure(half, upper ? b : a));
    check_bcast(half, 4, 520, "half after its reconfiguration");
    /* WORLD kept its closure on every rank */
    check_bcast(MPI_COMM_WORLD, 4, 530, "world after the halves' reconfiguration");
    MPI_OK(MPIX_Coll_flush(MPI_COMM_WORLD));
    int buf[4] = {1, 2, 3, 4};
    int rc = MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    if (mt_size >= 3) {
        char text[MPI_MAX_ERROR_STRING];
        int len, cls;
        CHECK(rc != MPI_SUCCESS, "world bcast with the halves configured differently worked");
        if (rc != MPI_SUCCESS) {
            MPI_OK(MPI_Error_class(rc, &cls));
            MPI_OK(MPI_Error_string(rc, text, &len));
            CHECK(cls == MPI_ERR_OTHER && strstr(text, "ranks built different closures") &&
                      strstr(text, "bcast:binomial") && strstr(text, "bcast:linear") &&
                      strstr(text, "the ranks run different configurations") &&
                      !strstr(text, "deterministic"),
                  "world bcast: class %d, '%s'", cls, text);
        }
    } else {
        CHECK(rc == MPI_SUCCESS, "world bcast at 2 ranks (binomial is linear) failed");
    }
    MPI_OK(MPIX_Coll_reconfigure(MPI_COMM_WORLD, b));
    check_bcast(MPI_COMM_WORLD, 4, 540, "world after reconfiguring it");
    MPI_OK(MPI_Comm_free(&half));
}

int main(int argc, char **argv)
{
    char a[1200], b[1200], bad[1200], byname[1200];
    MPI_Comm world = MPI_COMM_WORLD, dup;
    MPI_T_cvar_handle cfg, flush;
    int provided, count, fcount, before, after;

    /* the tool interface may start before MPI */
    MPI_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    mt_init(&argc, &argv, "coll_reconfig");
    const char *d = getenv("MT_CONFIGS");
    snprintf(dir, sizeof(dir), "%s", d != NULL ? d : "configs");
    path_of(a, sizeof(a), "reconfig_a.scm");
    path_of(b, sizeof(b), "reconfig_b.scm");
    path_of(bad, sizeof(bad), "bad_syntax.scm");
    path_of(byname, sizeof(byname), "reconfig_byname.scm");
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        /* under MPI_ERRORS_ARE_FATAL: one message, from rank 0, and the job ends */
        MPIX_Coll_reconfigure(world, bad);
        CHECK(0, "MPIX_Coll_reconfigure returned under MPI_ERRORS_ARE_FATAL");
        return mt_finish();
    }
    MPI_OK(MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN));

    enumerate();

    MPI_OK(MPI_T_cvar_handle_alloc(cvar_index("coll_config"), &world, &cfg, &count));
    CHECK(count >= 1024, "coll_config: count %d, too short for a list of files", count);
    read_list(cfg, count, "", "before any reconfiguration");

    /* 2. the defaults, then config a through the variable, then b through MPIX_ */
    phase_calls("defaults", 10);
    MPI_OK(MPI_T_cvar_write(cfg, a));
    read_list(cfg, count, a, "after writing reconfig_a.scm");
    phase_calls("reconfig_a.scm", 20);
    MPI_OK(MPIX_Coll_reconfigure(world, b));
    read_list(cfg, count, b, "after MPIX_Coll_reconfigure");
    phase_calls("reconfig_b.scm", 30);

    /* 3. a broken config: every rank gets the error, b stays */
    expect_bad_config(MPI_T_cvar_write(cfg, bad), "MPI_T_cvar_write(bad_syntax.scm)", 0);
    read_list(cfg, count, b, "after a failed write");
    phase_calls("reconfig_b.scm after a failed write", 40);
    expect_bad_config(MPIX_Coll_reconfigure(world, bad), "MPIX_Coll_reconfigure(bad)", 0);
    /* only the last rank is given the broken file */
    expect_bad_config(MPI_T_cvar_write(cfg, mt_rank == mt_size - 1 ? bad : a),
                      "the last rank's write of bad_syntax.scm", mt_size - 1);
    read_list(cfg, count, b, "after one rank failed");
    phase_calls("reconfig_b.scm after one rank failed", 50);
    /* a missing file: an error too, and the program goes on */
    int rc = MPIX_Coll_reconfigure(world, "/nonexistent/compi-no-such-config.scm");
    CHECK(rc != MPI_SUCCESS, "a missing config file was loaded");

    /* 4. over a part of the world: only the communicators inside it are flushed */
    if (mt_size >= 2)
        halves(a, b);

    /* 5. a creator that chooses by name: renaming re-selects */
    MPI_OK(MPI_T_cvar_write(cfg, byname));
    MPI_OK(MPI_Comm_dup(world, &dup));
    MPI_OK(MPI_Comm_set_name(dup, "tree-please"));
    for (int rep = 0; rep < 3; rep++)
        check_bcast(dup, 16, 60 + rep, "tree-please");
    MPI_OK(MPI_Comm_set_name(dup, "flat-please"));
    for (int rep = 0; rep < 3; rep++)
        check_bcast(dup, 16, 70 + rep, "flat-please");

    /* 6. flushes: the count of dropped caches grows */
    MPI_OK(MPI_T_cvar_handle_alloc(cvar_index("coll_flush"), &world, &flush, &fcount));
    CHECK(fcount == 1, "coll_flush: count %d", fcount);
    MPI_OK(MPI_T_cvar_read(flush, &before));
    int one = 1;
    MPI_OK(MPI_T_cvar_write(flush, &one));
    MPI_OK(MPI_T_cvar_read(flush, &after));
    CHECK(after >= before + 2, "coll_flush: %d caches dropped before, %d after: WORLD's and the "
          "duplicate's should have gone", before, after);
    check_bcast(dup, 16, 80, "flat-please after a flush");
    MPI_OK(MPIX_Coll_flush(world));
    MPI_OK(MPI_T_cvar_read(flush, &before));
    CHECK(before > after, "MPIX_Coll_flush dropped nothing");
    phase_calls("reconfig_byname.scm", 90);
    MPI_OK(MPI_T_cvar_handle_free(&flush));
    MPI_OK(MPI_Comm_free(&dup));

    /* reference counted: a second init needs a second finalize */
    MPI_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_OK(MPI_T_finalize());
    int n;
    MPI_OK(MPI_T_cvar_get_num(&n));
    MPI_OK(MPI_T_finalize());
    mt_expect_class(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED, "get_num after finalize");
    mt_expect_class(MPI_T_cvar_read(cfg, a), MPI_T_ERR_NOT_INITIALIZED, "read after finalize");
    mt_expect_class(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED, "a finalize too many");
    return mt_finish();
}
