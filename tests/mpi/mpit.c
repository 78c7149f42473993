/*
 * mpit: the MPI tool information interface beyond the control variables (coll_reconfig.c
 * tests those): performance variables, their sessions and handles, categories and
 * enumerations.
 *
 *   1. before MPI_Init: nothing answers before MPI_T_init_thread; afterwards the counts
 *   2. every performance variable: info, index by name and class, a handle, and what
 *      start/stop/read/write/reset/readreset give for its class (counter or level)
 *   3. the closure cache: N allreduces on a fresh communicator are 1 miss and N-1 hits
 *      there and nothing on MPI_COMM_WORLD; stopped handles keep their value, started
 *      ones count again; reset, write, readreset; MPI_T_PVAR_ALL_HANDLES; coll_calls per
 *      kind; a freed communicator makes its handles invalid
 *   4. the PML's queues: K messages unexpected at rank 0, then K receives posted there;
 *      the high watermark of the unexpected ones keeps their peak, one started later
 *      starts at the number waiting then, and a reset starts over
 *   5. bytes per BTL: an eager ring message counts on both sides, a large one at least its
 *      size on each rank; with an argument naming a BTL (ofi, sm), the neighbours' eager
 *      message counts on that one's two variables (at np 1: self's)
 *   6. categories: every variable in exactly one, the tree of btl, names and indices
 *   7. enumerations: their items, and cvars that read as one of them
 *   8. error classes, and MPI_T_finalize freeing the sessions
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned long long ull;

static int pvar_index(const char *name, int cls)
{
    int i = -1;
    MPI_OK(MPI_T_pvar_get_index(name, cls, &i));
    return i;
}

static MPI_T_pvar_handle alloc(MPI_T_pvar_session s, const char *name, int cls, MPI_Comm *comm,
                               int want_count)
{
    MPI_T_pvar_handle h;
    int count = -1;
    MPI_OK(MPI_T_pvar_handle_alloc(s, pvar_index(name, cls), comm, &h, &count));
    CHECK(count == want_count, "%s: count %d, expected %d", name, count, want_count);
    return h;
}

static ull read1(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    ull v = 0;
    MPI_OK(MPI_T_pvar_read(s, h, &v));
    return v;
}

/* 1. */
static void before_init(void)
{
    int n, provided;
    /* compi returns the class itself: MPI_Error_class needs no MPI_Init for that */
    CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "pvar_get_num before init");
    CHECK(MPI_T_category_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "category_get_num");
    /* the state comes first: a NULL output is not looked at yet */
    CHECK(MPI_T_cvar_get_num(NULL) == MPI_T_ERR_NOT_INITIALIZED, "cvar_get_num(NULL)");
    CHECK(MPI_T_pvar_session_create(NULL) == MPI_T_ERR_NOT_INITIALIZED,
          "pvar_session_create(NULL)");
    CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED, "MPI_T_finalize before init");
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, NULL) == MPI_T_ERR_INVALID,
          "MPI_T_init_thread with no provided");
    MPI_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_OK(MPI_T_pvar_get_num(&n));
    CHECK(n >= 11, "%d performance variables before MPI_Init", n);
    MPI_OK(MPI_T_category_get_num(&n));
    CHECK(n >= 7, "%d categories before MPI_Init", n);
}

/* 2. */
static void every_pvar(void)
{
    static const char *const must[] = {
        "coll_cache_hits",     "coll_cache_misses",   "coll_calls",          "pml_posted_recvs",
        "pml_unexpected_msgs", "pml_unexpected_peak", "btl_self_bytes_sent", "btl_self_bytes_recvd",
        "btl_sm_bytes_sent",   "btl_sm_bytes_recvd",  "btl_ofi_bytes_sent",  "btl_ofi_bytes_recvd",
    };
    int n = 0, seen = 0;
    MPI_T_pvar_session s;
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_OK(MPI_T_pvar_get_num(&n));
    MPI_OK(MPI_T_pvar_session_create(&s));
    for (int i = 0; i < n; i++) {
        char name[128], desc[1024];
        int nlen = sizeof(name), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic, idx;
        int count;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_OK(MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &et, desc, &dlen, &bind, &ro,
                                   &cont, &atomic));
        CHECK(nlen == (int)strlen(name) + 1, "pvar %d: name_len %d for '%s'", i, nlen, name);
        CHECK(dlen > 1 && dlen == (int)strlen(desc) + 1, "pvar %s: desc_len %d", name, dlen);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG, "pvar %s: not unsigned long long", name);
        CHECK(et == MPI_T_ENUM_NULL, "pvar %s: an enumeration", name);
        CHECK(verb >= MPI_T_VERBOSITY_USER_BASIC && verb <= MPI_T_VERBOSITY_MPIDEV_ALL,
              "pvar %s: verbosity %d", name, verb);
        CHECK(cls == MPI_T_PVAR_CLASS_COUNTER || cls == MPI_T_PVAR_CLASS_LEVEL ||
                  cls == MPI_T_PVAR_CLASS_HIGHWATERMARK,
              "pvar %s: class %d", name, cls);
        CHECK(bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM, "pvar %s: bind %d", name,
              bind);
        CHECK(cls != MPI_T_PVAR_CLASS_LEVEL || (ro && cont),
              "pvar %s: a level, readonly %d continuous %d", name, ro, cont);
        CHECK(ro || atomic, "pvar %s: writable but not atomic", name);
        MPI_OK(MPI_T_pvar_get_index(name, cls, &idx));
        CHECK(idx == i, "pvar %s: index %d, MPI_T_pvar_get_index says %d", name, i, idx);
        for (size_t m = 0; m < sizeof(must) / sizeof(must[0]); m++)
            seen += strcmp(must[m], name) == 0;

        MPI_T_pvar_handle h;
        MPI_OK(MPI_T_pvar_handle_alloc(s, i, &world, &h, &count));
        CHECK(count >= 1 && count <= 64, "pvar %s: count %d", name, count);
        ull buf[64], zero[64];
        memset(zero, 0, sizeof(zero));
        MPI_OK(MPI_T_pvar_read(s, h, buf));
        if (cls == MPI_T_PVAR_CLASS_COUNTER && !cont)
            CHECK(memcmp(buf, zero, sizeof(ull) * (size_t)count) == 0,
                  "pvar %s: a counter not started reads %llu", name, buf[0]);
        mt_expect_class(MPI_T_pvar_start(s, h), cont ? MPI_T_ERR_PVAR_NO_STARTSTOP : MPI_SUCCESS,
                     name);
        mt_expect_class(MPI_T_pvar_stop(s, h), cont ? MPI_T_ERR_PVAR_NO_STARTSTOP : MPI_SUCCESS, name);
        buf[0] = 12345;
        mt_expect_class(MPI_T_pvar_write(s, h, buf), ro ? MPI_T_ERR_PVAR_NO_WRITE : MPI_SUCCESS, name);
        if (!ro && !cont) {
            ull got[64];
            MPI_OK(MPI_T_pvar_read(s, h, got));
            CHECK(got[0] == 12345, "pvar %s: wrote 12345 to a stopped handle, read %llu", name,
                  got[0]);
        }
        mt_expect_class(MPI_T_pvar_reset(s, h), ro ? MPI_T_ERR_PVAR_NO_WRITE : MPI_SUCCESS, name);
        mt_expect_class(MPI_T_pvar_readreset(s, h, buf), ro ? MPI_T_ERR_PVAR_NO_WRITE : MPI_SUCCESS,
                     name);
        MPI_OK(MPI_T_pvar_handle_free(s, &h));
        CHECK(h == MPI_T_PVAR_HANDLE_NULL, "pvar %s: handle not nulled by free", name);
    }
    CHECK(seen == (int)(sizeof(must) / sizeof(must[0])), "%d of the %d expected pvars", seen,
          (int)(sizeof(must) / sizeof(must[0])));
    MPI_OK(MPI_T_pvar_session_free(&s));
    CHECK(s == MPI_T_PVAR_SESSION_NULL, "session not nulled by free");
}

static void allreduces(MPI_Comm comm, int n)
{
    for (int i = 0; i < n; i++) {
        int in = mt_rank + i, out = -1, size;
        MPI_OK(MPI_Comm_size(comm, &size));
        MPI_OK(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, comm));
        CHECK(out == size * (size - 1) / 2 + size * i, "allreduce %d: %d", i, out);
    }
}

/* the element of coll_calls for `kind' ("allreduce"), from its description */
static int kind_element(const char *kind)
{
    char desc[2048], pat[64];
    int dlen = sizeof(desc);
    MPI_OK(MPI_T_pvar_get_info(pvar_index("coll_calls", MPI_T_PVAR_CLASS_COUNTER), NULL, NULL, NULL,
                               NULL, NULL, NULL, desc, &dlen, NULL, NULL, NULL, NULL));
    for (int k = 0; k < 64; k++) {
        snprintf(pat, sizeof(pat), " %d %s,", k, kind);
        if (strstr(desc, pat) != NULL)
            return k;
    }
    CHECK(0, "coll_calls: no element for %s in '%s'", kind, desc);
    return 0;
}

/* 3. */
static void cache_counters(void)
{
    const int N = 10;
    MPI_Comm dup, world = MPI_COMM_WORLD;
    MPI_T_pvar_session s;
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_OK(MPI_T_pvar_session_create(&s));
    int C = MPI_T_PVAR_CLASS_COUNTER;
    MPI_T_pvar_handle hits = alloc(s, "coll_cache_hits", C, &dup, 1);
    MPI_T_pvar_handle misses = alloc(s, "coll_cache_misses", C, &dup, 1);
    MPI_T_pvar_handle whits = alloc(s, "coll_cache_hits", C, &world, 1);
    int count = 0;
    MPI_T_pvar_handle calls;
    MPI_OK(MPI_T_pvar_handle_alloc(s, pvar_index("coll_calls", C), &dup, &calls, &count));
    CHECK(count >= 17, "coll_calls: count %d, expected one per kind", count);
    ull *v = calloc((size_t)count, sizeof(ull));

    /* started: counts; the handle on WORLD is started too and must not move */
    MPI_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    allreduces(dup, N);
    CHECK(read1(s, hits) == (ull)N - 1, "%d allreduces on a new communicator: %llu hits", N,
          read1(s, hits));
    CHECK(read1(s, misses) == 1, "%d allreduces: %llu misses", N, read1(s, misses));
    CHECK(read1(s, whits) == 0, "WORLD's hits moved with the dup's calls: %llu", read1(s, whits));
    MPI_OK(MPI_T_pvar_read(s, calls, v));
    int ar = kind_element("allreduce");
    ull sum = 0;
    for (int k = 0; k < count; k++)
        sum += v[k];
    CHECK(v[ar] == (ull)N && sum == (ull)N, "coll_calls: allreduce %llu, all kinds %llu", v[ar],
          sum);

    /* stopped: keeps its value */
    MPI_OK(MPI_T_pvar_stop(s, hits));
    allreduces(dup, 5);
    CHECK(read1(s, hits) == (ull)N - 1, "a stopped handle moved: %llu", read1(s, hits));
    MPI_OK(MPI_T_pvar_start(s, hits));
    allreduces(dup, 5);
    CHECK(read1(s, hits) == (ull)N - 1 + 5, "restarted: %llu hits, expected %d", read1(s, hits),
          N - 1 + 5);
    /* reset, write, readreset: this handle only */
    MPI_OK(MPI_T_pvar_reset(s, hits));
    CHECK(read1(s, hits) == 0, "after reset: %llu", read1(s, hits));
    ull w = 100, got = 0;
    MPI_OK(MPI_T_pvar_write(s, hits, &w));
    allreduces(dup, 2);
    CHECK(read1(s, hits) == 102, "wrote 100, 2 hits more: %llu", read1(s, hits));
    MPI_OK(MPI_T_pvar_readreset(s, hits, &got));
    CHECK(got == 102 && read1(s, hits) == 0, "readreset: %llu, then %llu", got, read1(s, hits));
    CHECK(read1(s, misses) == 1, "misses after the others' resets: %llu", read1(s, misses));
    MPI_OK(MPI_T_pvar_read(s, calls, v));
    CHECK(v[ar] == (ull)N + 12, "coll_calls of allreduce: %llu, expected %d (continuous)", v[ar],
          N + 12);
    /* a flush: the next call misses again */
    MPI_T_cvar_handle fh;
    int fi, fc, any = 1;
    MPI_OK(MPI_T_cvar_get_index("coll_flush", &fi));
    MPI_OK(MPI_T_cvar_handle_alloc(fi, &dup, &fh, &fc));
    MPI_OK(MPI_T_cvar_write(fh, &any));
    MPI_OK(MPI_T_cvar_handle_free(&fh));
    allreduces(dup, 3);
    CHECK(read1(s, misses) == 2 && read1(s, hits) == 2, "after a flush: %llu misses %llu hits",
          read1(s, misses), read1(s, hits));
    MPI_OK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK(read1(s, misses) == 0, "reset of all handles: %llu", read1(s, misses));

    /* the communicator goes: its handles are invalid, and still freed */
    MPI_OK(MPI_Comm_free(&dup));
    mt_expect_class(MPI_T_pvar_read(s, hits, &got), MPI_T_ERR_INVALID_HANDLE,
                 "read of a handle whose communicator was freed");
    MPI_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES)); /* skips them */
    MPI_OK(MPI_T_pvar_handle_free(s, &hits));
    free(v);
    MPI_OK(MPI_T_pvar_session_free(&s)); /* frees the other handles */
}

/* 4. rank 0 against `peer' (1, or itself at np 1); the others wait in a receive */
static void queues(void)
{
    enum { K = 5 };
    int peer = mt_size > 1 ? 1 : 0, L = MPI_T_PVAR_CLASS_LEVEL, msg[4] = {1, 2, 3, 4};
    MPI_T_pvar_session s;
    MPI_OK(MPI_T_pvar_session_create(&s));
    MPI_T_pvar_handle hu = alloc(s, "pml_unexpected_msgs", L, NULL, 1);
    MPI_T_pvar_handle hp = alloc(s, "pml_posted_recvs", L, NULL, 1);
    int H = MPI_T_PVAR_CLASS_HIGHWATERMARK;
    MPI_T_pvar_handle hk = alloc(s, "pml_unexpected_peak", H, NULL, 1), hk2;
    MPI_Request sreq[K + 1], rreq[K];
    mt_barrier(mt_sync_comm);
    if (mt_rank == 0) {
        ull u0 = read1(s, hu), p0 = read1(s, hp);
        int flag = 0;
        /* allocated before the barrier, whose tokens may have waited here: reset to now */
        MPI_OK(MPI_T_pvar_start(s, hk));
        MPI_OK(MPI_T_pvar_reset(s, hk));
        CHECK(read1(s, hk) == u0, "the high watermark starts at %llu, the level is %llu",
              read1(s, hk), u0);
        if (peer == 0) {
            for (int i = 0; i < K + 1; i++)
                MPI_OK(MPI_Isend(msg, 4, MPI_INT, 0, i < K ? 7 : 8, MPI_COMM_WORLD, &sreq[i]));
        }
        while (!flag)
            MPI_OK(MPI_Iprobe(peer, 8, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(read1(s, hu) == u0 + K + 1, "%d messages unexpected: the level is %llu, was %llu",
              K + 1, read1(s, hu), u0);
        for (int i = 0; i < K; i++)
            MPI_OK(MPI_Irecv(msg, 4, MPI_INT, peer, 9, MPI_COMM_WORLD, &rreq[i]));
        CHECK(read1(s, hp) == p0 + K, "%d receives posted: the level is %llu, was %llu", K,
              read1(s, hp), p0);
        for (int i = 0; i < K + 1; i++)
            MPI_OK(
                MPI_Recv(msg, 4, MPI_INT, peer, i < K ? 7 : 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(read1(s, hu) == u0, "unexpected messages received: the level is %llu, was %llu",
              read1(s, hu), u0);
        CHECK(read1(s, hk) == u0 + K + 1, "the high watermark is %llu, expected %llu", read1(s, hk),
              u0 + K + 1);
        /* a second one starts at the level now; the first keeps its peak through that */
        hk2 = alloc(s, "pml_unexpected_peak", H, NULL, 1);
        MPI_OK(MPI_T_pvar_start(s, hk2));
        CHECK(read1(s, hk2) == u0 && read1(s, hk) == u0 + K + 1,
              "high watermarks: a new one reads %llu (level %llu), the first %llu", read1(s, hk2),
              u0, read1(s, hk));
        MPI_OK(MPI_T_pvar_stop(s, hk));
        MPI_OK(MPI_T_pvar_reset(s, hk));
        CHECK(read1(s, hk) == u0, "a reset high watermark reads %llu, the level is %llu",
              read1(s, hk), u0);
        if (peer == 0) {
            MPI_OK(MPI_Waitall(K + 1, sreq, MPI_STATUSES_IGNORE));
            for (int i = 0; i < K; i++)
                MPI_OK(MPI_Isend(msg, 4, MPI_INT, 0, 9, MPI_COMM_WORLD, &sreq[i]));
            MPI_OK(MPI_Waitall(K, sreq, MPI_STATUSES_IGNORE));
        }
        for (int r = 1; r < mt_size; r++)
            MPI_OK(MPI_Send(msg, 1, MPI_INT, r, 99, MPI_COMM_WORLD));
        MPI_OK(MPI_Waitall(K, rreq, MPI_STATUSES_IGNORE));
        CHECK(read1(s, hp) == p0, "posted receives matched: the level is %llu, was %llu",
              read1(s, hp), p0);
    } else {
        if (mt_rank == peer) {
            for (int i = 0; i < K + 1; i++)
                MPI_OK(MPI_Send(msg, 4, MPI_INT, 0, i < K ? 7 : 8, MPI_COMM_WORLD));
        }
        MPI_OK(MPI_Recv(msg, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (mt_rank == peer) {
            for (int i = 0; i < K; i++)
                MPI_OK(MPI_Send(msg, 4, MPI_INT, 0, 9, MPI_COMM_WORLD));
        }
    }
    MPI_OK(MPI_T_pvar_session_free(&s));
    mt_barrier(mt_sync_comm);
}

/* the bytes every BTL moved, as handles of session s read them */
static void btl_bytes(MPI_T_pvar_session s, MPI_T_pvar_handle *h, ull *sent, ull *recvd)
{
    *sent = *recvd = 0;
    for (int b = 0; b < 3; b++) {
        *sent += read1(s, h[2 * b]);
        *recvd += read1(s, h[2 * b + 1]);
    }
}

/* 5. `via': the BTL the neighbours' messages must go through, or NULL */
static void bytes(const char *via)
{
    static const char *const names[] = {"btl_self_bytes_sent", "btl_self_bytes_recvd",
                                        "btl_sm_bytes_sent",   "btl_sm_bytes_recvd",
                                        "btl_ofi_bytes_sent",  "btl_ofi_bytes_recvd"};
    const int small = 1000, large = 1 << 20;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[6];
    ull sent, recvd;
    MPI_OK(MPI_T_pvar_session_create(&s));
    for (int i = 0; i < 6; i++) {
        h[i] = alloc(s, names[i], MPI_T_PVAR_CLASS_COUNTER, NULL, 1);
    }
    char *out = mt_malloc(large), *in = mt_malloc(large);
    memset(out, mt_rank, large);
    int to = (mt_rank + 1) % mt_size, from = (mt_rank + mt_size - 1) % mt_size;
    /* eager (under every BTL's eager limit): each side copies it.  Started before the
       barrier: a neighbour's message may arrive while this rank waits in it */
    MPI_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    mt_barrier(mt_sync_comm);
    MPI_OK(MPI_Sendrecv(out, small, MPI_BYTE, to, 5, in, small, MPI_BYTE, from, 5, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    btl_bytes(s, h, &sent, &recvd);
    CHECK(sent >= (ull)small && recvd >= (ull)small,
          "an eager message of %d bytes each way: %llu bytes sent, %llu received", small, sent,
          recvd);
    int b = mt_size == 1 ? 0 : via == NULL ? -1 : strcmp(via, "sm") == 0 ? 1 : 2;
    if (b >= 0)
        CHECK(read1(s, h[2 * b]) >= (ull)small && read1(s, h[2 * b + 1]) >= (ull)small,
              "an eager message of %d bytes each way: %s %llu, %s %llu", small, names[2 * b],
              read1(s, h[2 * b]), names[2 * b + 1], read1(s, h[2 * b + 1]));

    /* large: one side or the other copies each part (get: received, put: sent), and
       whether a receive is split depends on timing (an exchange whose own send is out
       first is not), so only the sum over the ranks is known: every message once */
    mt_barrier(mt_sync_comm);
    MPI_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_OK(MPI_Sendrecv(out, large, MPI_BYTE, to, 6, in, large, MPI_BYTE, from, 6, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    mt_barrier(mt_sync_comm); /* the sender's side of a split copy is over */
    btl_bytes(s, h, &sent, &recvd);
    ull mine = sent + recvd, all = 0;
    MPI_OK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, mt_sync_comm));
    CHECK(all >= (ull)large * (ull)mt_size,
          "%d bytes each way: %llu sent + %llu received here, %llu over the %d ranks", large,
          sent, recvd, all, mt_size);
    CHECK(in[0] == (char)from && in[large - 1] == (char)from, "the large message's content");
    free(out);
    free(in);
    MPI_OK(MPI_T_pvar_session_free(&s));
}

/* 6. */
static void categories(void)
{
    int nc = 0, ncv = 0, npv = 0;
    MPI_OK(MPI_T_category_get_num(&nc));
    MPI_OK(MPI_T_cvar_get_num(&ncv));
    MPI_OK(MPI_T_pvar_get_num(&npv));
    int *cv_seen = calloc((size_t)ncv, sizeof(int)), *pv_seen = calloc((size_t)npv, sizeof(int));
    int *cat_seen = calloc((size_t)nc, sizeof(int));
    int *idx = calloc((size_t)(ncv + npv + nc + 1), sizeof(int));
    int stamp0, stamp1, btl = -1, btl_sm = -1, coll = -1;
    MPI_OK(MPI_T_category_changed(&stamp0));
    for (int c = 0; c < nc; c++) {
        char name[64], desc[512];
        int nlen = sizeof(name), dlen = sizeof(desc), ncvars, npvars, ncats, back = -1;
        MPI_OK(MPI_T_category_get_info(c, name, &nlen, desc, &dlen, &ncvars, &npvars, &ncats));
        CHECK(nlen == (int)strlen(name) + 1 && dlen > 1, "category %d: lengths", c);
        MPI_OK(MPI_T_category_get_index(name, &back));
        CHECK(back == c, "category %s: index %d, get_index says %d", name, c, back);
        btl = strcmp(name, "btl") == 0 ? c : btl;
        btl_sm = strcmp(name, "btl_sm") == 0 ? c : btl_sm;
        coll = strcmp(name, "collectives") == 0 ? c : coll;
        MPI_OK(MPI_T_category_get_cvars(c, ncvars, idx));
        for (int i = 0; i < ncvars; i++) {
            CHECK(idx[i] >= 0 && idx[i] < ncv, "category %s: cvar %d", name, idx[i]);
            if (idx[i] >= 0 && idx[i] < ncv)
                cv_seen[idx[i]]++;
        }
        MPI_OK(MPI_T_category_get_pvars(c, npvars, idx));
        for (int i = 0; i < npvars; i++) {
            CHECK(idx[i] >= 0 && idx[i] < npv, "category %s: pvar %d", name, idx[i]);
            if (idx[i] >= 0 && idx[i] < npv)
                pv_seen[idx[i]]++;
        }
        MPI_OK(MPI_T_category_get_categories(c, ncats, idx));
        for (int i = 0; i < ncats; i++) {
            CHECK(idx[i] >= 0 && idx[i] < nc && idx[i] != c, "category %s: sub %d", name, idx[i]);
            if (idx[i] >= 0 && idx[i] < nc)
                cat_seen[idx[i]]++;
        }
    }
    for (int i = 0; i < ncv; i++)
        CHECK(cv_seen[i] == 1, "cvar %d is in %d categories", i, cv_seen[i]);
    for (int i = 0; i < npv; i++)
        CHECK(pv_seen[i] == 1, "pvar %d is in %d categories", i, pv_seen[i]);
    for (int c = 0; c < nc; c++)
        CHECK(cat_seen[c] <= 1, "category %d is in %d categories", c, cat_seen[c]);
    CHECK(btl >= 0 && btl_sm >= 0 && coll >= 0, "categories btl %d, btl_sm %d, collectives %d", btl,
          btl_sm, coll);
    if (btl >= 0 && btl_sm >= 0 && coll >= 0) {
        int n = 0, found = 0;
        MPI_OK(MPI_T_category_get_info(btl, NULL, NULL, NULL, NULL, NULL, NULL, &n));
        MPI_OK(MPI_T_category_get_categories(btl, n, idx));
        for (int i = 0; i < n; i++)
            found += idx[i] == btl_sm;
        CHECK(found == 1, "btl_sm is not a subcategory of btl");
        /* coll_flush and coll_cache_hits are collectives' */
        int fi, hi;
        MPI_OK(MPI_T_cvar_get_index("coll_flush", &fi));
        hi = pvar_index("coll_cache_hits", MPI_T_PVAR_CLASS_COUNTER);
        MPI_OK(MPI_T_category_get_info(coll, NULL, NULL, NULL, NULL, &n, NULL, NULL));
        MPI_OK(MPI_T_category_get_cvars(coll, n, idx));
        for (found = 0; n > 0; n--)
            found += idx[n - 1] == fi;
        CHECK(found == 1, "coll_flush is not in collectives");
        MPI_OK(MPI_T_category_get_info(coll, NULL, NULL, NULL, NULL, NULL, &n, NULL));
        MPI_OK(MPI_T_category_get_pvars(coll, n, idx));
        for (found = 0; n > 0; n--)
            found += idx[n - 1] == hi;
        CHECK(found == 1, "coll_cache_hits is not in collectives");
        /* a shorter list than the members: only the first ones */
        idx[1] = -7;
        MPI_OK(MPI_T_category_get_pvars(coll, 1, idx));
        CHECK(idx[1] == -7, "get_pvars wrote past len");
    }
    MPI_OK(MPI_T_category_changed(&stamp1));
    CHECK(stamp0 == stamp1, "category stamp changed from %d to %d with nothing registered", stamp0,
          stamp1);
    free(cv_seen);
    free(pv_seen);
    free(cat_seen);
    free(idx);
}

/* 7. */
static void enumerations(void)
{
    int ncv = 0, nenum = 0, saw_determinism = 0;
    MPI_OK(MPI_T_cvar_get_num(&ncv));
    for (int i = 0; i < ncv; i++) {
        char name[128], ename[128], iname[64];
        int nlen = sizeof(name), elen = sizeof(ename), num = 0, bind, scope, count, value;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_OK(MPI_T_cvar_get_info(i, name, &nlen, NULL, &dt, &et, NULL, NULL, &bind, &scope));
        if (et == MPI_T_ENUM_NULL)
            continue;
        nenum++;
        CHECK(dt == MPI_INT, "cvar %s: an enumeration but not MPI_INT", name);
        MPI_OK(MPI_T_enum_get_info(et, &num, ename, &elen));
        CHECK(num >= 2 && elen == (int)strlen(ename) + 1, "enum of %s: %d items, name %s", name,
              num, ename);
        MPI_T_cvar_handle h;
        MPI_OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        CHECK(count == 1, "cvar %s: count %d", name, count);
        MPI_OK(MPI_T_cvar_read(h, &value));
        MPI_OK(MPI_T_cvar_handle_free(&h));
        int match = 0, prev = 0;
        char value_name[64] = "";
        for (int k = 0; k < num; k++) {
            int v, ilen = sizeof(iname);
            MPI_OK(MPI_T_enum_get_item(et, k, &v, iname, &ilen));
            CHECK(ilen == (int)strlen(iname) + 1 && ilen > 1, "enum %s item %d: name", ename, k);
            CHECK(k == 0 || v > prev, "enum %s: item values not ascending", ename);
            prev = v;
            if (v == value) {
                match++;
                snprintf(value_name, sizeof(value_name), "%s", iname);
            }
        }
        CHECK(match == 1, "cvar %s reads %d, no item of %s", name, value, ename);
        int v;
        mt_expect_class(MPI_T_enum_get_item(et, num, &v, NULL, NULL), MPI_T_ERR_INVALID_ITEM,
                     "enum_get_item past the end");
        mt_expect_class(MPI_T_enum_get_item(et, -1, &v, NULL, NULL), MPI_T_ERR_INVALID_ITEM,
                     "enum_get_item(-1)");
        if (strcmp(name, "coll_check_determinism") == 0) {
            /* tests run it at its default, 1: every miss agrees */
            saw_determinism = 1;
            CHECK(value == 1 && strcmp(value_name, "on") == 0,
                  "coll_check_determinism reads %d (%s)", value, value_name);
        }
    }
    CHECK(nenum >= 2 && saw_determinism, "%d enumerated cvars; coll_check_determinism %s", nenum,
          saw_determinism ? "among them" : "not one");
    int num;
    mt_expect_class(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE,
                 "enum_get_info(MPI_T_ENUM_NULL)");
}

/* 8. */
static void errors(void)
{
    int n, i, count, C = MPI_T_PVAR_CLASS_COUNTER, L = MPI_T_PVAR_CLASS_LEVEL;
    ull v = 0;
    MPI_Comm world = MPI_COMM_WORLD, null = MPI_COMM_NULL;
    MPI_T_pvar_session s, s2, dead;
    MPI_T_pvar_handle h, hl, hc, stale;
    MPI_OK(MPI_T_pvar_get_num(&n));
    mt_expect_class(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                     NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX, "pvar_get_info(-1)");
    mt_expect_class(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                     NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX, "pvar_get_info past the end");
    mt_expect_class(MPI_T_pvar_get_index("no_such_pvar", C, &i), MPI_T_ERR_INVALID_NAME,
                 "pvar_get_index of an unknown name");
    mt_expect_class(MPI_T_pvar_get_index("coll_cache_hits", L, &i), MPI_T_ERR_INVALID_NAME,
                 "pvar_get_index with the wrong class");
    MPI_OK(MPI_T_pvar_session_create(&s));
    MPI_OK(MPI_T_pvar_session_create(&s2));
    MPI_OK(MPI_T_pvar_session_create(&dead));
    MPI_T_pvar_session kept = dead;
    MPI_OK(MPI_T_pvar_session_free(&dead));
    mt_expect_class(MPI_T_pvar_handle_alloc(s, n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX,
                 "pvar_handle_alloc past the end");
    mt_expect_class(MPI_T_pvar_handle_alloc(s, pvar_index("coll_cache_hits", C), NULL, &h, &count),
                 MPI_T_ERR_INVALID_HANDLE, "coll_cache_hits bound to nothing");
    mt_expect_class(MPI_T_pvar_handle_alloc(s, pvar_index("coll_cache_hits", C), &null, &h, &count),
                 MPI_T_ERR_INVALID_HANDLE, "coll_cache_hits bound to MPI_COMM_NULL");
    mt_expect_class(MPI_T_pvar_handle_alloc(kept, 0, &world, &h, &count), MPI_T_ERR_INVALID_SESSION,
                 "pvar_handle_alloc in a freed session");
    mt_expect_class(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, &world, &h, &count),
                 MPI_T_ERR_INVALID_SESSION, "pvar_handle_alloc in MPI_T_PVAR_SESSION_NULL");
    mt_expect_class(MPI_T_pvar_session_free(&kept), MPI_T_ERR_INVALID_SESSION,
                 "session_free of a freed session");
    h = alloc(s, "coll_cache_hits", C, &world, 1);
    hl = alloc(s, "pml_unexpected_msgs", L, NULL, 1);
    MPI_OK(MPI_T_pvar_handle_alloc(s, pvar_index("coll_calls", C), &world, &hc, &count));
    mt_expect_class(MPI_T_pvar_read(s2, h, &v), MPI_T_ERR_INVALID_HANDLE,
                 "read of a handle through another session");
    mt_expect_class(MPI_T_pvar_start(kept, h), MPI_T_ERR_INVALID_SESSION,
                 "start through a freed session");
    mt_expect_class(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE,
                 "read of MPI_T_PVAR_ALL_HANDLES");
    mt_expect_class(MPI_T_pvar_readreset(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE,
                 "readreset of MPI_T_PVAR_ALL_HANDLES");
    mt_expect_class(MPI_T_pvar_write(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE,
                 "write of MPI_T_PVAR_ALL_HANDLES");
    mt_expect_class(MPI_T_pvar_read(s, MPI_T_PVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE,
                 "read of MPI_T_PVAR_HANDLE_NULL");
    mt_expect_class(MPI_T_pvar_start(s, hc), MPI_T_ERR_PVAR_NO_STARTSTOP,
                 "start of the continuous coll_calls");
    mt_expect_class(MPI_T_pvar_stop(s, hl), MPI_T_ERR_PVAR_NO_STARTSTOP,
                 "stop of the continuous pml_unexpected_msgs");
    mt_expect_class(MPI_T_pvar_write(s, hl, &v), MPI_T_ERR_PVAR_NO_WRITE, "write of a level");
    mt_expect_class(MPI_T_pvar_reset(s, hl), MPI_T_ERR_PVAR_NO_WRITE, "reset of a level");
    mt_expect_class(MPI_T_pvar_readreset(s, hl, &v), MPI_T_ERR_PVAR_NO_WRITE, "readreset of a level");
    mt_expect_class(MPI_T_pvar_read(s, h, NULL), MPI_T_ERR_INVALID, "read into NULL");
    /* ALL_HANDLES skips what does not apply: the level and the continuous counter */
    MPI_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_OK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    stale = h;
    MPI_OK(MPI_T_pvar_handle_free(s, &h));
    mt_expect_class(MPI_T_pvar_read(s, stale, &v), MPI_T_ERR_INVALID_HANDLE, "read of a freed handle");
    mt_expect_class(MPI_T_pvar_handle_free(s, &stale), MPI_T_ERR_INVALID_HANDLE,
                 "free of a freed handle");

    int ci;
    mt_expect_class(MPI_T_category_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                 MPI_T_ERR_INVALID_INDEX, "category_get_info(-1)");
    MPI_OK(MPI_T_category_get_num(&n));
    mt_expect_class(MPI_T_category_get_cvars(n, 0, NULL), MPI_T_ERR_INVALID_INDEX,
                 "category_get_cvars past the end");
    mt_expect_class(MPI_T_category_get_pvars(0, -1, NULL), MPI_T_ERR_INVALID,
                 "category_get_pvars with a negative length");
    mt_expect_class(MPI_T_category_get_index("no_such_category", &ci), MPI_T_ERR_INVALID_NAME,
                 "category_get_index of an unknown name");

    /* the outputs of the counts and lookups, the names looked up, the handles freed */
    MPI_T_cvar_handle *no_cvar = NULL;
    mt_expect_class(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID, "cvar_get_num(NULL)");
    mt_expect_class(MPI_T_pvar_get_num(NULL), MPI_T_ERR_INVALID, "pvar_get_num(NULL)");
    mt_expect_class(MPI_T_category_get_num(NULL), MPI_T_ERR_INVALID, "category_get_num(NULL)");
    mt_expect_class(MPI_T_category_changed(NULL), MPI_T_ERR_INVALID, "category_changed(NULL)");
    mt_expect_class(MPI_T_cvar_get_index(NULL, &i), MPI_T_ERR_INVALID, "cvar_get_index(NULL)");
    mt_expect_class(MPI_T_cvar_get_index("coll_flush", NULL), MPI_T_ERR_INVALID,
                 "cvar_get_index into NULL");
    mt_expect_class(MPI_T_pvar_get_index(NULL, C, &i), MPI_T_ERR_INVALID, "pvar_get_index(NULL)");
    mt_expect_class(MPI_T_pvar_get_index("coll_cache_hits", C, NULL), MPI_T_ERR_INVALID,
                 "pvar_get_index into NULL");
    mt_expect_class(MPI_T_category_get_index(NULL, &ci), MPI_T_ERR_INVALID,
                 "category_get_index(NULL)");
    mt_expect_class(MPI_T_category_get_index("pml", NULL), MPI_T_ERR_INVALID,
                 "category_get_index into NULL");
    mt_expect_class(MPI_T_pvar_session_create(NULL), MPI_T_ERR_INVALID, "pvar_session_create(NULL)");
    mt_expect_class(MPI_T_pvar_session_free(NULL), MPI_T_ERR_INVALID, "pvar_session_free(NULL)");
    mt_expect_class(MPI_T_pvar_handle_free(s, NULL), MPI_T_ERR_INVALID, "pvar_handle_free(NULL)");
    mt_expect_class(MPI_T_cvar_handle_free(no_cvar), MPI_T_ERR_INVALID, "cvar_handle_free(NULL)");

    /* the session s2 and s's handles are left for MPI_T_finalize; another MPI_T_init_thread
       is outstanding, so this one frees nothing yet */
    int provided;
    MPI_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_OK(MPI_T_finalize());
    MPI_OK(MPI_T_pvar_read(s, hl, &v));
    MPI_OK(MPI_T_finalize());
    mt_expect_class(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED, "pvar_get_num after the end");
    mt_expect_class(MPI_T_pvar_read(s, hl, &v), MPI_T_ERR_NOT_INITIALIZED, "read after the end");
    MPI_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    mt_expect_class(MPI_T_pvar_read(s, hl, &v), MPI_T_ERR_INVALID_SESSION,
                 "a session of the interface's previous life");
    MPI_OK(MPI_T_finalize());
}

int main(int argc, char **argv)
{
    before_init();
    mt_init(&argc, &argv, "mpit");
    every_pvar();
    cache_counters();
    queues();
    bytes(argc > 1 ? argv[1] : NULL);
    categories();
    enumerations();
    errors();
    return mt_finish();
}
