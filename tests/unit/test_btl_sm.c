/*
 * test_btl_sm.c -- drives btl/sm and btl/self directly: forked "ranks", a fake services
 * table (modex and fence in an anonymous shared mapping), no PML, no MPI.
 *
 * `test_btl_sm --bench` runs ping-pongs instead of the tests (latency with 8-byte
 * fragments, bandwidth of 1-4 MiB by single copy and by the fragment pipeline).
 */
#include "core/btl/btl.h"
#include "core/btl/self/btl_self.h"
#include "core/btl/sm/btl_sm.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const btl_component_t compi_btl_sm_component;
extern const btl_component_t compi_btl_self_component;

#define MAX_RANKS 8
#define RANK_DEADLINE_S 60

/* what the forked ranks share: the modex, a barrier, a word to pass addresses */
typedef struct shared {
    char modex[MAX_RANKS][256];
    int barrier_count;
    int barrier_gen;
    uint64_t word[MAX_RANKS];
} shared_t;

static shared_t *shm;
static int my_rank, n_ranks;
static char jobid[64];
static btl_services_t svc;
static void (*on_recv)(int src, const void *frag, size_t len);

/* ---- fake services ----------------------------------------------------------------- */

static void fence(void)
{
    int gen = __atomic_load_n(&shm->barrier_gen, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&shm->barrier_count, 1, __ATOMIC_ACQ_REL) == n_ranks) {
        __atomic_store_n(&shm->barrier_count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&shm->barrier_gen, gen + 1, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&shm->barrier_gen, __ATOMIC_ACQUIRE) == gen)
        sched_yield();
}

static void fake_recv_cb(int src, const void *frag, size_t len)
{
    on_recv(src, frag, len);
}

static compi_status_t fake_modex_put(const char *key, const char *value)
{
    snprintf(shm->modex[my_rank], sizeof(shm->modex[0]), "%s=%s", key, value);
    return COMPI_OK;
}

static compi_status_t fake_modex_get(int rank, const char *key, char *value, size_t len)
{
    size_t kl = strlen(key);
    if (strncmp(shm->modex[rank], key, kl) != 0 || shm->modex[rank][kl] != '=')
        return COMPI_ERR_NOT_FOUND;
    snprintf(value, len, "%s", shm->modex[rank] + kl + 1);
    return COMPI_OK;
}

static int fake_rank_is_local(int rank)
{
    return rank >= 0 && rank < n_ranks;
}

static long fake_param_int(const char *name, long defval, const char *help)
{
    char var[128];
    snprintf(var, sizeof(var), "COMPI_MCA_%s", name);
    const char *v = getenv(var);
    return v != NULL ? strtol(v, NULL, 0) : defval;
}

static const char *fake_param_string(const char *name, const char *defval, const char *help)
{
    char var[128];
    snprintf(var, sizeof(var), "COMPI_MCA_%s", name);
    const char *v = getenv(var);
    return v != NULL ? v : defval;
}

static void fake_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "# [rank %d] ", my_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void fake_log_verbose(int level, const char *fmt, ...)
{
    va_list ap;
    if (getenv("TEST_BTL_VERBOSE") == NULL)
        return;
    va_start(ap, fmt);
    fprintf(stderr, "# [rank %d] ", my_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void setup_svc(int rank, int size)
{
    my_rank = rank;
    n_ranks = size;
    svc = (btl_services_t){
        .size = sizeof(btl_services_t),
        .world_rank = rank,
        .world_size = size,
        .local_rank = rank,
        .local_size = size,
        .pid = getpid(),
        .hostname = "localhost",
        .jobid = jobid,
        .recv_cb = fake_recv_cb,
        .modex_put = fake_modex_put,
        .modex_get = fake_modex_get,
        .rank_is_local = fake_rank_is_local,
        .param_int = fake_param_int,
        .param_string = fake_param_string,
        .log_error = fake_log_error,
        .log_verbose = fake_log_verbose,
    };
}

/*
 * Forks `n` helper ranks running fn(rank, n), each exiting 0 on success; returns how many
 * failed (crash, non-zero exit, or still running at the deadline).
 */
static int run_ranks(int n, int (*fn)(int rank, int n))
{
    static int job_seq;
    pid_t pids[MAX_RANKS];
    int failed = 0;

    shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shm == MAP_FAILED)
        return n;
    snprintf(jobid, sizeof(jobid), "compi-test-%d-%d", (int)getpid(), job_seq++);
    fflush(stdout);
    fflush(stderr);
    for (int r = 0; r < n; r++) {
        pids[r] = fork();
        if (pids[r] == 0) {
            setup_svc(r, n);
            _exit(fn(r, n));
        }
    }
    time_t deadline = time(NULL) + RANK_DEADLINE_S;
    for (int left = n; left > 0;) {
        int status;
        pid_t p = waitpid(-1, &status, WNOHANG);
        if (p > 0) {
            left--;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                failed++;
        } else if (time(NULL) > deadline) {
            for (int r = 0; r < n; r++)
                kill(pids[r], SIGKILL);
            while (waitpid(-1, &status, 0) > 0)
                failed++;
            break;
        } else {
            usleep(1000);
        }
    }
    munmap(shm, sizeof(*shm));
    return failed;
}

/* helper rank: open sm, publish, connect to every rank */
static btl_module_t *sm_up(btl_endpoint_t **eps)
{
    int ranks[MAX_RANKS];
    btl_module_t *m = compi_btl_sm_component.open(&svc);

    if (m == NULL || m->publish() != COMPI_OK)
        return NULL;
    fence();
    for (int r = 0; r < n_ranks; r++)
        ranks[r] = r;
    if (m->add_procs(n_ranks, ranks, eps) != COMPI_OK)
        return NULL;
    fence();
    return m;
}

static int shm_name_exists(int rank)
{
    char path[128];
    snprintf(path, sizeof(path), "/dev/shm/%s.sm.%d", jobid, rank);
    return access(path, F_OK) == 0;
}

#define RANK_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "# [rank %d] %s:%d: failed: %s\n", my_rank, __FILE__, __LINE__,        \
                    #cond);                                                                        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* ---- connect: endpoints, names gone from /dev/shm, single copy detected -------------- */

static int rank_connect(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    btl_module_t *m = sm_up(eps);

    RANK_CHECK(m != NULL);
    for (int r = 0; r < n; r++) {
        RANK_CHECK((eps[r] == NULL) == (r == rank));
        RANK_CHECK(!shm_name_exists(r));
    }
    RANK_CHECK((m->flags & BTL_FLAG_GET) != 0 && (m->flags & BTL_FLAG_PUT) != 0);
    RANK_CHECK(m->put != NULL);
    RANK_CHECK(m->eager_limit <= m->max_frag && m->exclusivity > 0);
    fence();
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

START_TEST(test_sm_connect)
{
    ck_assert_int_eq(run_ranks(3, rank_connect), 0);
}
END_TEST

/* ---- stream: every rank to every other, varied lengths, FIFO and content ------------- */

#define STREAM_MSGS 20000
static uint32_t stream_next[MAX_RANKS];
static int stream_bad;

static size_t stream_len(uint32_t seq, size_t max_frag)
{
    /* mostly small, every 7th up to max_frag: wraps the ring at odd offsets */
    uint32_t h = seq * 2654435761u;
    return seq % 7 == 0 ? 8 + h % (max_frag - 7) : 8 + h % 120;
}

static unsigned char stream_byte(int src, uint32_t seq, size_t i)
{
    return (unsigned char)(src * 131 + seq * 31 + i);
}

static void stream_recv(int src, const void *frag, size_t len)
{
    const unsigned char *p = frag;
    uint32_t seq;

    memcpy(&seq, p, sizeof(seq));
    if (seq != stream_next[src] || len != stream_len(seq, btl_sm_module.max_frag)) {
        stream_bad++;
        return;
    }
    for (size_t i = 4; i < len; i++) {
        if (p[i] != stream_byte(src, seq, i)) {
            stream_bad++;
            return;
        }
    }
    stream_next[src]++;
}

static int rank_stream(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    uint32_t sent[MAX_RANKS] = {0};
    on_recv = stream_recv;
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL);

    for (;;) {
        int busy = 0, idle = 1;
        for (int r = 0; r < n; r++) {
            if (r == rank || sent[r] == STREAM_MSGS)
                continue;
            busy = 1;
            size_t len = stream_len(sent[r], m->max_frag);
            unsigned char *f = m->reserve(eps[r], len);
            if (f == NULL)
                continue;
            memcpy(f, &sent[r], sizeof(uint32_t));
            for (size_t i = 4; i < len; i++)
                f[i] = stream_byte(rank, sent[r], i);
            RANK_CHECK(m->commit(eps[r], f, len) == COMPI_OK);
            sent[r]++;
            idle = 0;
        }
        if (m->progress() > 0)
            idle = 0;
        for (int r = 0; r < n; r++)
            busy |= r != rank && stream_next[r] != STREAM_MSGS;
        RANK_CHECK(stream_bad == 0);
        if (!busy)
            break;
        if (idle)
            sched_yield();
    }
    fence();
    RANK_CHECK(m->progress() == 0);
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

START_TEST(test_sm_stream_pair)
{
    ck_assert_int_eq(run_ranks(2, rank_stream), 0);
}
END_TEST

START_TEST(test_sm_stream_all_to_all)
{
    ck_assert_int_eq(run_ranks(4, rank_stream), 0);
}
END_TEST

/* ---- a full ring refuses, then accepts once the receiver has drained it ------------- */

static int full_got;
static void count_recv(int src, const void *frag, size_t len)
{
    full_got++;
}

static int rank_full(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    on_recv = count_recv;
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL);
    int peer = 1 - rank;
    int sent = 0;

    if (rank == 0) {
        void *f;
        RANK_CHECK(m->reserve(eps[peer], m->max_frag + 1) == NULL);
        while ((f = m->reserve(eps[peer], m->max_frag)) != NULL) {
            m->commit(eps[peer], f, m->max_frag);
            sent++;
        }
        /* a 256 KiB ring takes 7 fragments of 32 KiB plus headers */
        RANK_CHECK((size_t)sent >= btl_sm_state.ring_size / m->max_frag - 1);
        shm->word[0] = (uint64_t)sent;
    }
    fence();
    if (rank == 1) {
        while ((uint64_t)full_got < shm->word[0])
            m->progress();
    }
    fence();
    if (rank == 0) {
        void *f = m->reserve(eps[peer], m->max_frag);
        RANK_CHECK(f != NULL);
        /* a second reserve without commit replaces the first: nothing was sent */
        RANK_CHECK(m->reserve(eps[peer], m->max_frag) == (char *)f);
        m->commit(eps[peer], f, 8);
    }
    fence();
    if (rank == 1) {
        while ((uint64_t)full_got < shm->word[0] + 1)
            m->progress();
        RANK_CHECK(m->progress() == 0);
    }
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

START_TEST(test_sm_ring_full)
{
    ck_assert_int_eq(run_ranks(2, rank_full), 0);
}
END_TEST

/* ---- the doorbell: sleeping ranks wake for each message, never for nothing ---------- */

#define BELL_ROUNDS 300
#define BELL_TIMEOUT_MS 3000

static double now(void);

/* the ranks take turns: rank r receives the numbers of the other parity, in order */
static int bell_last = -1, bell_bad;
static void bell_recv(int src, const void *frag, size_t len)
{
    int v;
    memcpy(&v, frag, sizeof(v));
    bell_bad += len != sizeof(v) || v != (bell_last < 0 ? 1 - my_rank : bell_last + 2);
    bell_last = v;
}

/* wait() until message `want` has arrived; how many waits ended with nothing (a lost
   wake-up sleeps the whole timeout and ends so); -1 when one lasted the timeout */
static int bell_wait_for(btl_module_t *m, int want)
{
    int empty = 0;
    while (bell_last < want) {
        double t0 = now();
        int got = m->wait(BELL_TIMEOUT_MS);
        if (got < 0 || now() - t0 >= BELL_TIMEOUT_MS * 1e-3)
            return -1;
        empty += got == 0;
    }
    return empty;
}

static int rank_doorbell(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    on_recv = bell_recv;
    svc.oversubscribed = 1;
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL && m->wait != NULL);
    int peer = 1 - rank, empty = 0;

    /* ping-pong: each side sleeps while the other works */
    for (int i = 0; i < BELL_ROUNDS; i++) {
        if ((i % 2) == rank) {
            void *f = m->reserve(eps[peer], sizeof(i));
            RANK_CHECK(f != NULL);
            memcpy(f, &i, sizeof(i));
            m->commit(eps[peer], f, sizeof(i));
        } else {
            int e = bell_wait_for(m, i);
            RANK_CHECK(e >= 0);
            empty += e;
        }
    }
    RANK_CHECK(bell_bad == 0);
    /* a wait can end empty when a sender's wake-up comes late; not every time */
    RANK_CHECK(empty < BELL_ROUNDS / 4);
    fence();

    /* a sender whose ring is full must not sleep: the receiver frees room silently */
    if (rank == 0) {
        void *f;
        while ((f = m->reserve(eps[peer], m->max_frag)) != NULL)
            m->commit(eps[peer], f, m->max_frag);
        double t0 = now();
        RANK_CHECK(m->wait(BELL_TIMEOUT_MS) == 0);
        RANK_CHECK(now() - t0 < BELL_TIMEOUT_MS * 1e-3 / 2);
    }
    fence();
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

/* not oversubscribed: no doorbell, and senders do not look for one */
static int rank_no_doorbell(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL && m->wait == NULL);
    RANK_CHECK(eps[1 - rank]->bell == NULL);
    fence();
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

START_TEST(test_sm_doorbell)
{
    ck_assert_int_eq(run_ranks(2, rank_doorbell), 0);
    ck_assert_int_eq(run_ranks(2, rank_no_doorbell), 0);
}
END_TEST

/* ---- single copy into scattered local buffers --------------------------------------- */

#define GET_BYTES ((size_t)4 * 1024 * 1024 + 13)

static int rank_get(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL && (m->flags & BTL_FLAG_GET) != 0);
    unsigned char *buf = malloc(GET_BYTES);
    RANK_CHECK(buf != NULL);

    if (rank == 1) {
        for (size_t i = 0; i < GET_BYTES; i++)
            buf[i] = (unsigned char)(i * 7 + (i >> 12));
        shm->word[1] = (uint64_t)(uintptr_t)buf;
    }
    fence();
    if (rank == 0) {
        /* three uneven pieces, then 300 small ones (more than one system call's worth) */
        struct iovec iov[300];
        size_t cut[3] = {1000, GET_BYTES / 2, GET_BYTES - 1000 - GET_BYTES / 2};
        size_t off = 0;
        memset(buf, 0, GET_BYTES);
        for (int i = 0; i < 3; i++) {
            iov[i] = (struct iovec){.iov_base = buf + off, .iov_len = cut[i]};
            off += cut[i];
        }
        RANK_CHECK(m->get(eps[1], iov, 3, shm->word[1], 0, GET_BYTES) == COMPI_OK);
        for (size_t i = 0; i < GET_BYTES; i++)
            RANK_CHECK(buf[i] == (unsigned char)(i * 7 + (i >> 12)));

        memset(buf, 0, GET_BYTES);
        for (int i = 0; i < 300; i++)
            iov[i] = (struct iovec){.iov_base = buf + i * 101, .iov_len = 101};
        RANK_CHECK(m->get(eps[1], iov, 300, shm->word[1] + 5, 0, 300 * 101) == COMPI_OK);
        for (size_t i = 0; i < 300 * 101; i++)
            RANK_CHECK(buf[i] == (unsigned char)((i + 5) * 7 + ((i + 5) >> 12)));
        /* more bytes than the local buffers hold is refused */
        RANK_CHECK(m->get(eps[1], iov, 1, shm->word[1], 0, 102) != COMPI_OK);
    }
    fence();
    free(buf);
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

START_TEST(test_sm_get)
{
    ck_assert_int_eq(run_ranks(2, rank_get), 0);
}
END_TEST

/* ---- single copy the other way: put from scattered local buffers ------------------- */

static unsigned char put_byte(size_t i)
{
    return (unsigned char)(i * 13 + (i >> 11) + 1);
}

static int rank_put(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL && (m->flags & BTL_FLAG_PUT) != 0);
    unsigned char *buf = malloc(GET_BYTES + 64);
    RANK_CHECK(buf != NULL);

    if (rank == 1) {
        memset(buf, 0, GET_BYTES + 64);
        shm->word[1] = (uint64_t)(uintptr_t)buf;
    }
    fence();
    if (rank == 0) {
        /* three uneven pieces into the peer at offset 3, then 300 small ones (more pieces
           than one system call takes) over the start of it */
        struct iovec iov[300];
        size_t cut[3] = {777, GET_BYTES / 3, GET_BYTES - 777 - GET_BYTES / 3};
        size_t off = 0;
        for (size_t i = 0; i < GET_BYTES; i++)
            buf[i] = put_byte(i);
        for (int i = 0; i < 3; i++) {
            iov[i] = (struct iovec){.iov_base = buf + off, .iov_len = cut[i]};
            off += cut[i];
        }
        RANK_CHECK(m->put(eps[1], iov, 3, shm->word[1] + 3, 0, GET_BYTES) == COMPI_OK);
        /* more bytes than the local buffers hold is refused */
        RANK_CHECK(m->put(eps[1], iov, 1, shm->word[1], 0, cut[0] + 1) != COMPI_OK);
    }
    fence();
    if (rank == 1) {
        for (size_t i = 0; i < 3; i++)
            RANK_CHECK(buf[i] == 0);
        for (size_t i = 0; i < GET_BYTES; i++)
            RANK_CHECK(buf[i + 3] == put_byte(i));
        for (size_t i = GET_BYTES + 3; i < GET_BYTES + 64; i++)
            RANK_CHECK(buf[i] == 0);
    }
    fence();
    if (rank == 0) {
        struct iovec iov[300];
        for (int i = 0; i < 300; i++) {
            memset(buf + i * 101, (unsigned char)i, 101);
            iov[i] = (struct iovec){.iov_base = buf + i * 101, .iov_len = 101};
        }
        RANK_CHECK(m->put(eps[1], iov, 300, shm->word[1], 0, 300 * 101) == COMPI_OK);
    }
    fence();
    if (rank == 1) {
        for (size_t i = 0; i < 300 * 101; i++)
            RANK_CHECK(buf[i] == (unsigned char)(i / 101));
        RANK_CHECK(buf[300 * 101] == put_byte(300 * 101 - 3));
    }
    fence();
    free(buf);
    RANK_CHECK(m->finalize() == COMPI_OK);
    return 0;
}

START_TEST(test_sm_put)
{
    ck_assert_int_eq(run_ranks(2, rank_put), 0);
}
END_TEST

/* ---- parameters: the eager limit, no single copy on request, bad value refused, alone
   on a host ------------------------------------------------------------------------ */

static int rank_no_copy(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    /* eager limit by default: 8 KiB with single copy, 16 KiB where it fails */
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL);
    RANK_CHECK(m->eager_limit == ((m->flags & BTL_FLAG_GET) ? 8192u : 16384u));
    RANK_CHECK(m->finalize() == COMPI_OK);

    setenv("COMPI_MCA_btl_sm_single_copy", "none", 1);
    m = sm_up(eps);
    RANK_CHECK(m != NULL && (m->flags & (BTL_FLAG_GET | BTL_FLAG_PUT)) == 0);
    RANK_CHECK(m->eager_limit == 16384);
    RANK_CHECK(m->finalize() == COMPI_OK);

    /* ranks sharing cores: 16 KiB (a rendezvous would wait for the receiver to run) */
    unsetenv("COMPI_MCA_btl_sm_single_copy");
    svc.oversubscribed = 1;
    m = sm_up(eps);
    RANK_CHECK(m != NULL && m->eager_limit == 16384);
    RANK_CHECK(m->finalize() == COMPI_OK);
    svc.oversubscribed = 0;

    /* a limit set by hand stays, single copy or not */
    setenv("COMPI_MCA_btl_sm_single_copy", "none", 1);
    setenv("COMPI_MCA_btl_sm_eager_limit", "4096", 1);
    m = sm_up(eps);
    RANK_CHECK(m != NULL && m->eager_limit == 4096);
    RANK_CHECK(m->finalize() == COMPI_OK);
    unsetenv("COMPI_MCA_btl_sm_eager_limit");

    setenv("COMPI_MCA_btl_sm_single_copy", "sometimes", 1);
    RANK_CHECK(compi_btl_sm_component.open(&svc) == NULL);
    return 0;
}

START_TEST(test_sm_params)
{
    ck_assert_int_eq(run_ranks(2, rank_no_copy), 0);
    setup_svc(0, 1);
    ck_assert_ptr_null(compi_btl_sm_component.open(&svc));
}
END_TEST

/* ---- self: delivered in progress(), in order, replies wait for the next call -------- */

static int self_seen[8], self_n;
static btl_module_t *self_m;
static btl_endpoint_t *self_ep_p;

static void self_recv(int src, const void *frag, size_t len)
{
    int v;
    memcpy(&v, frag, sizeof(v));
    self_seen[self_n++] = v;
    if (v == 2) {
        void *f = self_m->reserve(self_ep_p, sizeof(int));
        int reply = 99;
        memcpy(f, &reply, sizeof(reply));
        self_m->commit(self_ep_p, f, sizeof(reply));
    }
}

START_TEST(test_self)
{
    int ranks[2] = {0, 1};
    btl_endpoint_t *eps[2];
    char src[100], a[30], b[70];

    setup_svc(0, 2);
    on_recv = self_recv;
    self_m = compi_btl_self_component.open(&svc);
    ck_assert_ptr_nonnull(self_m);
    ck_assert_int_eq(self_m->add_procs(2, ranks, eps), COMPI_OK);
    ck_assert_ptr_nonnull(eps[0]);
    ck_assert_ptr_null(eps[1]);
    self_ep_p = eps[0];
    for (int v = 1; v <= 3; v++) {
        void *f = self_m->reserve(eps[0], sizeof(int));
        ck_assert_ptr_nonnull(f);
        memcpy(f, &v, sizeof(v));
        ck_assert_int_eq(self_m->commit(eps[0], f, sizeof(v)), COMPI_OK);
    }
    ck_assert_int_eq(self_n, 0);
    ck_assert_int_eq(self_m->progress(), 3);
    ck_assert_int_eq(self_seen[0] * 100 + self_seen[1] * 10 + self_seen[2], 123);
    ck_assert_int_eq(self_m->progress(), 1);
    ck_assert_int_eq(self_seen[3], 99);
    ck_assert_int_eq(self_m->progress(), 0);

    for (int i = 0; i < 100; i++)
        src[i] = (char)i;
    struct iovec iov[2] = {{a, sizeof(a)}, {b, sizeof(b)}};
    ck_assert_int_eq(self_m->get(eps[0], iov, 2, (uint64_t)(uintptr_t)src, 0, 100), COMPI_OK);
    ck_assert_int_eq(a[29] + b[69], 29 + 99);

    char dst[101];
    memset(dst, 0, sizeof(dst));
    ck_assert_int_eq(self_m->flags & BTL_FLAG_PUT, BTL_FLAG_PUT);
    ck_assert_int_eq(self_m->put(eps[0], iov, 2, (uint64_t)(uintptr_t)dst, 0, 100), COMPI_OK);
    ck_assert_int_eq(memcmp(dst, src, 100), 0);
    ck_assert_int_eq(dst[100], 0);
    ck_assert_int_ne(self_m->put(eps[0], iov, 2, (uint64_t)(uintptr_t)dst, 0, 101), COMPI_OK);
    ck_assert_int_eq(self_m->finalize(), COMPI_OK);
}
END_TEST

/* ---- benchmark (not part of the test suite) ----------------------------------------- */

static volatile int bench_got;
static uint64_t bench_addr;
static char *bench_sink; /* where pipelined fragments are copied out to */
static void bench_recv(int src, const void *frag, size_t len)
{
    if (len == sizeof(uint64_t))
        memcpy(&bench_addr, frag, sizeof(bench_addr));
    else {
        static size_t off;
        if (off + len > (4u << 20))
            off = 0;
        memcpy(bench_sink + off, frag, len);
        off += len;
    }
    bench_got++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void send_frag(btl_module_t *m, btl_endpoint_t *ep, const void *data, size_t len)
{
    void *f;
    while ((f = m->reserve(ep, len)) == NULL)
        m->progress();
    memcpy(f, data, len);
    m->commit(ep, f, len);
}

/* as the PML's blocking waits: a pause after each idle poll */
static void wait_frags(btl_module_t *m, int n)
{
    while (bench_got < n) {
        if (m->progress() == 0) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }
}

static int rank_bench(int rank, int n)
{
    btl_endpoint_t *eps[MAX_RANKS];
    on_recv = bench_recv;
    btl_module_t *m = sm_up(eps);
    RANK_CHECK(m != NULL);
    btl_endpoint_t *ep = eps[1 - rank];
    const int warm = 10000, iters = 100000;
    uint64_t small = 42;
    double t0 = 0;

    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = now();
        if (rank == 0) {
            send_frag(m, ep, &small, sizeof(small));
            wait_frags(m, i + 1);
        } else {
            wait_frags(m, i + 1);
            send_frag(m, ep, &small, sizeof(small));
        }
    }
    if (rank == 0)
        printf("latency  8 B fragment: one-way %.3f us\n", (now() - t0) / iters / 2 * 1e6);
    fence();

    size_t max = 4u << 20;
    char *buf = malloc(max);
    bench_sink = malloc(max);
    RANK_CHECK(buf != NULL && bench_sink != NULL);
    memset(buf, rank, max);
    memset(bench_sink, 0, max);
    for (size_t sz = 1u << 20; sz <= max; sz *= 2) {
        const int reps = 300;
        /* single copy: "here is my buffer" (8 B), the peer reads it, and answers likewise */
        bench_got = 0;
        fence();
        for (int i = 0; i < reps + 20; i++) {
            uint64_t addr = (uint64_t)(uintptr_t)buf;
            struct iovec iov = {buf, sz};
            if (i == 20)
                t0 = now();
            if (rank == 0) {
                send_frag(m, ep, &addr, sizeof(addr));
                wait_frags(m, i + 1);
                m->get(ep, &iov, 1, bench_addr, 0, sz);
            } else {
                wait_frags(m, i + 1);
                m->get(ep, &iov, 1, bench_addr, 0, sz);
                send_frag(m, ep, &addr, sizeof(addr));
            }
        }
        if (rank == 0) {
            double t = (now() - t0) / reps / 2;
            printf("get      %4zu KiB: one-way %8.1f us, %7.1f MB/s\n", sz >> 10, t * 1e6,
                   sz / t / 1e6);
        }
        /* copy-in/copy-out: the message in max_frag fragments through the ring */
        size_t nfrag = (sz + m->max_frag - 1) / m->max_frag;
        bench_got = 0;
        fence();
        for (int i = 0; i < 50 + 5; i++) {
            if (i == 5)
                t0 = now();
            if (rank == 0) {
                for (size_t k = 0; k < nfrag; k++)
                    send_frag(m, ep, buf + k * m->max_frag, m->max_frag);
                wait_frags(m, (int)((i + 1) * nfrag));
            } else {
                wait_frags(m, (int)((i + 1) * nfrag));
                for (size_t k = 0; k < nfrag; k++)
                    send_frag(m, ep, buf + k * m->max_frag, m->max_frag);
            }
        }
        if (rank == 0) {
            double t = (now() - t0) / 50 / 2;
            printf("pipeline %4zu KiB: one-way %8.1f us, %7.1f MB/s (copy in + copy out)\n",
                   sz >> 10, t * 1e6, sz / t / 1e6);
        }
    }
    fence();
    free(buf);
    free(bench_sink);
    m->finalize();
    fflush(stdout); /* the rank leaves by _exit */
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--bench") == 0)
        return run_ranks(2, rank_bench) == 0 ? 0 : 1;

    const TTest *tests[] = {test_sm_connect,   test_sm_stream_pair, test_sm_stream_all_to_all,
                            test_sm_ring_full, test_sm_doorbell,    test_sm_get,
                            test_sm_put,       test_sm_params,      test_self};
    const unit_case_t tc = {.suite = "btl_sm", .name = "btl", .timeout_s = RANK_DEADLINE_S + 10};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
