/*
 * mpit_threads -- the tools interface at MPI_THREAD_MULTIPLE, asked for before MPI_Init.
 *
 * MPI_T_init_thread(MPI_THREAD_MULTIPLE) before MPI_Init grants that level (a tool may
 * start its threads before the program initializes MPI, at whatever level the program
 * asks).  Then MPI_Init (MPI_THREAD_SINGLE) and three threads that read the control and
 * performance variables (the bytes the transports sent, the closure cache's counters) and
 * walk the categories, each in a session of its own, while the main thread runs
 * point-to-point and collectives: every call succeeds and every counter only grows.
 * After MPI_Finalize, MPI_T_init_thread(MPI_THREAD_MULTIPLE) is still granted.
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>

#define NTHREADS 3
#define ROUNDS 300

static int stop; /* set by the main thread when its rounds are done (atomic) */

#define TOK(call)                                                                                  \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_);                                   \
    } while (0)

/* the counters that bind to no object (the bytes each transport moved), and whether each
   counts from its allocation on (continuous) or from its start */
static int find_counters(int *idx, int *cont_of, int max)
{
    int n = 0, num = 0;
    TOK(MPI_T_pvar_get_num(&num));
    for (int i = 0; i < num && n < max; i++) {
        char name[128], desc[256];
        int nlen = sizeof name, dlen = sizeof desc, verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum et;
        TOK(MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &et, desc, &dlen, &bind, &ro,
                                &cont, &atomic));
        if (cls == MPI_T_PVAR_CLASS_COUNTER && bind == MPI_T_BIND_NO_OBJECT &&
            dt == MPI_UNSIGNED_LONG_LONG) {
            cont_of[n] = cont;
            idx[n++] = i;
        }
    }
    return n;
}

static void *reader(void *arg)
{
    int me = (int)(long)arg, idx[8], cont[8], n = find_counters(idx, cont, 8);
    unsigned long long last[8] = {0};
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[8];

    CHECK(n > 0, "thread %d: no counters", me);
    TOK(MPI_T_pvar_session_create(&s));
    for (int k = 0; k < n; k++) {
        int count = 0;
        TOK(MPI_T_pvar_handle_alloc(s, idx[k], NULL, &h[k], &count));
        CHECK(count == 1, "thread %d: counter %d has count %d", me, idx[k], count);
        if (!cont[k]) {
            TOK(MPI_T_pvar_start(s, h[k]));
        }
    }
    for (int round = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE) || round < 10; round++) {
        int ncvar = 0, ncat = 0;
        TOK(MPI_T_cvar_get_num(&ncvar));
        for (int i = 0; i < ncvar; i++) {
            char name[128], desc[256];
            int nlen = sizeof name, dlen = sizeof desc, verb, bind, scope;
            MPI_Datatype dt;
            MPI_T_enum et;
            TOK(MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &et, desc, &dlen, &bind, &scope));
        }
        TOK(MPI_T_category_get_num(&ncat));
        for (int c = 0; c < ncat; c++) {
            char name[128], desc[256];
            int nlen = sizeof name, dlen = sizeof desc, nc, np, ncats;
            TOK(MPI_T_category_get_info(c, name, &nlen, desc, &dlen, &nc, &np, &ncats));
        }
        for (int k = 0; k < n; k++) {
            unsigned long long v = 0;
            TOK(MPI_T_pvar_read(s, h[k], &v));
            CHECK(v >= last[k], "thread %d: counter %d went from %llu to %llu", me, idx[k], last[k],
                  v);
            last[k] = v;
        }
    }
    for (int k = 0; k < n; k++) {
        TOK(MPI_T_pvar_handle_free(s, &h[k]));
    }
    TOK(MPI_T_pvar_session_free(&s));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    pthread_t th[NTHREADS];

    MPI_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_T_init_thread before MPI_Init provided %d",
          provided);
    mt_init(&argc, &argv, "mpit_threads");
    MPI_OK(MPI_Query_thread(&provided));
    CHECK(provided == MPI_THREAD_SINGLE, "MPI_Init's level is %d", provided);
    for (long t = 0; t < NTHREADS; t++) {
        CHECK(pthread_create(&th[t], NULL, reader, (void *)t) == 0, "pthread_create");
    }
    for (int r = 0; r < ROUNDS; r++) {
        int v = mt_rank + r, sum = 0, got = -1;
        int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
        MPI_OK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == mt_size * (mt_size - 1) / 2 + mt_size * r, "round %d: sum %d", r, sum);
        MPI_OK(MPI_Sendrecv(&v, 1, MPI_INT, right, r, &got, 1, MPI_INT, left, r, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
        CHECK(got == left + r, "round %d: got %d from %d", r, got, left);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
    }
    MPI_OK(MPI_T_finalize());
    int rc = mt_finish();
    MPI_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_T_init_thread after MPI_Finalize provided %d",
          provided);
    MPI_OK(MPI_T_finalize());
    return rc != 0 || mt_errors != 0;
}
