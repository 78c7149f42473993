/*
 * init_api.c -- MPI_Init, MPI_Finalize and the environment queries.
 *
 * Start-up order (each layer needs the ones before it):
 *   rte (PMI, host names) -> datatypes, ops -> PML (BTLs, connections) -> communicators
 *   -> Guile (compi's modules, the default creators, the user's config files)
 *   -> trampolines.
 * Shut-down: a message barrier over MPI_COMM_WORLD (so every rank has stopped sending
 * to us and our own queued sends have drained), a PMI fence, then the layers in reverse.
 *
 * The entry points (core/mpi/gen/init.c) check the arguments and call the x_impl here.
 */
#include "scheme/bridge.h"
#include "core/comm/attr.h"
#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/runtime/log.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/req_handle.h"
#include "core/runtime/params.h"
#include "core/op/op.h"
#include "core/mpi/win_state.h"
#include "core/mpi/file_args.h"
#include "core/pml/pml.h"
#include "core/runtime/rte.h"
#include "topologies/facts.h"
#include "trampolines/tramp.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int compi_mpi_state = COMPI_STATE_PRE_INIT;
static int thread_level = MPI_THREAD_SINGLE;
static pthread_t main_thread;

/* ---- the lock of MPI_THREAD_MULTIPLE (core/mpi/thread_lock.h) ------------------------ */

int compi_thread_multiple;
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int big_depth;   /* levels this thread holds */
static unsigned big_waiters;     /* threads in pthread_mutex_lock, atomic */
static unsigned big_takes;       /* acquisitions so far, atomic: a yield sees one happen */

/* whether a thread waits for the lock (the PML's sleeper asks before it sleeps) */
static int big_lock_waited(void)
{
    return __atomic_load_n(&big_waiters, __ATOMIC_SEQ_CST) > 0;
}

static void big_lock_take(void)
{
    if (pthread_mutex_trylock(&big_lock) != 0) {
        /* the holder may sleep in a wait of an oversubscribed host: say that we wait
           (it looks before it sleeps), then wake it (if it was already asleep) */
        __atomic_add_fetch(&big_waiters, 1, __ATOMIC_SEQ_CST);
        pml_wake_sleeper();
        pthread_mutex_lock(&big_lock);
        __atomic_sub_fetch(&big_waiters, 1, __ATOMIC_RELAXED);
    }
    __atomic_add_fetch(&big_takes, 1, __ATOMIC_RELAXED);
}

int compi_big_lock_enter(void)
{
    if (big_depth++ == 0) {
        big_lock_take();
    }
    return 1;
}

/* A mutex hands itself to nobody: a thread that drops it and takes it again soon (the
   next round of a wait, the next MPI_Test of a polling loop) usually wins, and a waiting
   thread could starve.  So a thread that drops it while others wait yields until one of
   them got it (a few turns at most). */
static void big_lock_drop(void)
{
    unsigned takes = __atomic_load_n(&big_takes, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&big_lock);
    for (int i = 0; i < 8 && __atomic_load_n(&big_waiters, __ATOMIC_RELAXED) > 0 &&
                    __atomic_load_n(&big_takes, __ATOMIC_RELAXED) == takes;
         i++) {
        sched_yield();
    }
}

void compi_big_lock_leave(void)
{
    if (--big_depth == 0) {
        big_lock_drop();
    }
}

/* called by the PML after each round of a wait: the lock changes hands only when another
   thread waits for it (a thread that finds it held counts itself in big_waiters before it
   blocks, so a later round sees it); a program that initialized MPI_THREAD_MULTIPLE and
   calls from one thread (mpi4py does) pays no lock operations in its waits */
void compi_big_lock_yield(void)
{
    int depth = big_depth;
    if (depth == 0 || __atomic_load_n(&big_waiters, __ATOMIC_RELAXED) == 0) {
        return;
    }
    big_depth = 0;
    big_lock_drop();
    big_lock_take();
    big_depth = depth;
}

static int init_fail(const char *what, compi_status_t st)
{
    compi_log_error("MPI_Init: %s failed: %s", what, compi_status_string(st));
    rte_abort(MPI_ERR_OTHER, "MPI_Init failed");
}

/*
 * Start Guile, install the default creators, load the user's config files.  A config
 * that fails takes the job down with one message naming the file and line: every rank
 * fails the same way, so each one aborts with the message, and the launcher prints the
 * first (without a launcher, the singleton prints it itself).
 */
static compi_status_t coll_config_load(void)
{
    char err[1024];
    compi_status_t st = bridge_init(err, sizeof(err));
    if (st == COMPI_OK) {
        /* before the configs: only the defaults see these calls */
        bridge_warm_up(comm_from_handle(MPI_COMM_SELF));
        const char *list = bridge_config_list();
        if (list == NULL || *list == '\0') {
            return COMPI_OK;
        }
        st = bridge_load_config_list(list, err, sizeof(err));
    }
    if (st != COMPI_OK) {
        if (rte_proc.singleton) {
            compi_log_error("%s", err);
        }
        rte_abort(1, err);
    }
    return COMPI_OK;
}

/* The library has two kinds of user: the world model (MPI_Init .. MPI_Finalize) and the
   sessions (core/mpi/session_api.c).  The first to come starts it, the last to go
   finalizes it; it starts once per process. */
int compi_world_model = 0; /* 0: before MPI_Init, 1: until MPI_Finalize, 2: after it */
static int nsessions = 0;

static int lib_start(int required);
static void lib_stop(void);

static int compi_init(int required, int *provided)
{
    if (compi_world_model != 0) {
        compi_log_error("MPI_Init called %s",
                        compi_world_model == 1 ? "twice" : "after MPI_Finalize");
        rte_abort(MPI_ERR_OTHER, "MPI_Init called twice");
    }
    if (compi_mpi_state == COMPI_STATE_FINALIZED) {
        compi_log_error("MPI_Init called after the last session was finalized: compi starts once");
        rte_abort(MPI_ERR_OTHER, "MPI_Init called after the library was finalized");
    }
    if (compi_mpi_state == COMPI_STATE_PRE_INIT) {
        int rc = lib_start(required);
        if (rc != MPI_SUCCESS) {
            return rc;
        }
    }
    compi_world_model = 1;
    if (provided) {
        *provided = thread_level;
    }
    return MPI_SUCCESS;
}

int compi_lib_session_up(int required, int *provided, const char *fn)
{
    if (compi_mpi_state == COMPI_STATE_FINALIZED) {
        fprintf(stderr, "compi: %s called after the library was finalized: it starts once\n",
                fn);
        return MPI_ERR_OTHER;
    }
    if (compi_mpi_state == COMPI_STATE_PRE_INIT) {
        int rc = lib_start(required);
        if (rc != MPI_SUCCESS) {
            return rc;
        }
    }
    nsessions++;
    *provided = thread_level;
    return MPI_SUCCESS;
}

void compi_lib_session_down(void)
{
    if (--nsessions == 0 && compi_world_model != 1) {
        lib_stop();
    }
}

int compi_thread_multiple_early(void)
{
    if (compi_mpi_state == COMPI_STATE_PRE_INIT) {
        compi_thread_multiple = 1;
    }
    return compi_thread_multiple;
}

static int lib_start(int required)
{
    compi_status_t st;

    main_thread = pthread_self();
    /* below MULTIPLE nothing is locked; at MULTIPLE the API takes the lock of
       thread_lock.h, which the PML drops while a thread waits */
    thread_level = required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    if (thread_level < MPI_THREAD_SINGLE) {
        thread_level = MPI_THREAD_SINGLE;
    }
    /* MPI_T_init_thread may have asked for MPI_THREAD_MULTIPLE first
       (compi_thread_multiple_early): its threads may call the tools interface while this
       one waits, whatever level MPI_Init_thread asks */
    if (thread_level == MPI_THREAD_MULTIPLE || compi_thread_multiple) {
        compi_thread_multiple = 1;
        pml_set_thread_yield(compi_big_lock_yield, big_lock_waited);
        compi_big_lock_enter(); /* the rest of MPI_Init runs as one entry point */
    }

    static const rte_facts_hooks_t facts_hooks = {
        .host = topo_facts_host,
        .publish = topo_facts_publish,
        .finalize = topo_facts_finalize,
    };
    rte_set_facts_hooks(&facts_hooks);
    if ((st = rte_init()) != COMPI_OK) {
        return init_fail("the run-time environment", st);
    }
    if ((st = dt_init()) != COMPI_OK) {
        return init_fail("the datatype engine", st);
    }
    if ((st = op_init()) != COMPI_OK) {
        return init_fail("the reduction operations", st);
    }
    if ((st = pml_init()) != COMPI_OK) {
        return init_fail("the point-to-point layer", st);
    }
    if ((st = comm_init()) != COMPI_OK) {
        return init_fail("the communicators", st);
    }
    if ((st = coll_config_load()) != COMPI_OK) {
        return init_fail("the collective configuration", st);
    }
    if ((st = tramp_init()) != COMPI_OK) {
        return init_fail("the trampolines", st);
    }
    if ((st = mpi_dyn_init()) != COMPI_OK) {
        return init_fail("the connection to the parent processes", st);
    }
    /* every layer has registered its parameters by now: a COMPI_MCA_ variable (mpirun
       --mca) that names none is a typo, said once per job */
    if (rte_proc.world_rank == 0) {
        param_warn_unknown();
    }
    compi_mpi_state = COMPI_STATE_INITIALIZED;
    if (compi_thread_multiple) {
        compi_big_lock_leave();
    }
    return MPI_SUCCESS;
}

static int init_impl(int *argc, char ***argv, const char *fn)
{
    (void)argc, (void)argv, (void)fn;
    return compi_init(MPI_THREAD_SINGLE, NULL);
}

static int init_thread_impl(int *argc, char ***argv, int required, int *provided, const char *fn)
{
    (void)argc, (void)argv, (void)fn;
    return compi_init(required, provided);
}

/*
 * Wait for `req` patiently: ranks that reach MPI_Finalize early may wait there a long
 * time (for the others to finish their work), and on an oversubscribed host spinning
 * would steal the CPU from exactly those ranks.  After a short spin, sleep between polls.
 */
static compi_status_t finalize_wait(compi_request_t *req)
{
    unsigned idle = 0;
    while (!req->complete) {
        if (pml_progress_wait() > 0) {
            idle = 0;
        } else if (++idle > 1000) {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = 50 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    compi_status_t st = pml_wait(req, NULL);
    pml_request_free(req);
    return st;
}

/* Linear barrier over WORLD through the PML: everyone reports to rank 0, which
   answers.  Used once, at finalize; it progresses the PML while it waits (so queued
   sends drain), unlike a PMI fence. */
static compi_status_t finalize_barrier(void)
{
    compi_comm_t *w = comm_world();
    compi_datatype_t *byte = dt_from_handle(MPI_BYTE);
    char token = 0;
    compi_request_t *req;
    compi_status_t st = COMPI_OK;

    if (w->size == 1) {
        return COMPI_OK;
    }
    if (w->rank == 0) {
        for (int r = 1; r < w->size && st == COMPI_OK; r++) {
            st = pml_irecv(&token, 1, byte, MPI_ANY_SOURCE, COMPI_TAG_FINALIZE, w, &req);
            if (st == COMPI_OK) {
                st = finalize_wait(req);
            }
        }
        for (int r = 1; r < w->size && st == COMPI_OK; r++) {
            st = pml_send(&token, 1, byte, r, COMPI_TAG_FINALIZE, w, PML_SEND_STANDARD);
        }
    } else {
        st = pml_send(&token, 1, byte, 0, COMPI_TAG_FINALIZE, w, PML_SEND_STANDARD);
        if (st == COMPI_OK) {
            st = pml_irecv(&token, 1, byte, 0, COMPI_TAG_FINALIZE, w, &req);
        }
        if (st == COMPI_OK) {
            st = finalize_wait(req);
        }
    }
    return st;
}

static int finalize_impl(const char *fn)
{
    if (compi_world_model != 1) {
        return mpi_err_raise(NULL, MPI_ERR_OTHER, fn, "MPI_Init was not called");
    }
    /* MPI-3.1 8.7.1: MPI_COMM_SELF is "freed" first, before any other part of MPI is
       affected: its delete callbacks see MPI_Finalized false and may still communicate */
    if (attr_comm_free_all(comm_from_handle(MPI_COMM_SELF), NULL) != COMPI_OK) {
        compi_log_warn("MPI_Finalize: a delete callback of an attribute on MPI_COMM_SELF failed");
    }
    compi_world_model = 2;
    if (nsessions == 0) {
        lib_stop();
    }
    return MPI_SUCCESS;
}

/* the library's end, when its last user (the world model or a session) leaves */
static void lib_stop(void)
{
    compi_status_t st;

    /* coll_summary: every rank's rows to world rank 0, while every rank still listens */
    if ((st = tramp_summary_write()) != COMPI_OK) {
        compi_log_error("MPI_Finalize: the collective summary was not written: %s",
                        compi_status_string(st));
    }
    if ((st = finalize_barrier()) != COMPI_OK || (st = rte_fence()) != COMPI_OK) {
        compi_log_error("MPI_Finalize: synchronisation failed: %s", compi_status_string(st));
        rte_abort(MPI_ERR_OTHER, "MPI_Finalize failed");
    }
    /* the configs' (at-finalize THUNK): reports of what their closures counted */
    char err[1024];
    if (bridge_run_finalize_hooks(err, sizeof(err)) != COMPI_OK) {
        compi_log_error("MPI_Finalize: %s", err);
    }
    mpi_win_finalize();
    mpi_file_finalize();
    tramp_finalize();
    comm_finalize();
    pml_finalize();
    mpi_req_finalize();
    op_finalize();
    dt_finalize();
    compi_mpi_state = COMPI_STATE_FINALIZED;
    rte_finalize();
}

static int initialized_impl(int *flag, const char *fn)
{
    (void)fn;
    *flag = compi_world_model != 0;
    return MPI_SUCCESS;
}

static int finalized_impl(int *flag, const char *fn)
{
    (void)fn;
    *flag = compi_world_model == 2;
    return MPI_SUCCESS;
}

/* the job ends whatever the communicator: one not valid (or MPI not initialized) is named
   so in the message */
static int abort_impl(MPI_Comm comm, int errorcode, const char *fn)
{
    char msg[160];
    compi_comm_t *c = compi_mpi_state == COMPI_STATE_INITIALIZED ? comm_from_handle(comm) : NULL;
    snprintf(msg, sizeof(msg), "%s was called on %s", fn,
             c == NULL            ? "an invalid communicator"
             : c->name[0] != '\0' ? c->name
                                  : "an unnamed communicator");
    rte_abort(errorcode, msg);
}

static int query_thread_impl(int *provided, const char *fn)
{
    (void)fn;
    *provided = thread_level;
    return MPI_SUCCESS;
}

static int is_thread_main_impl(int *flag, const char *fn)
{
    (void)fn;
    *flag = pthread_equal(pthread_self(), main_thread);
    return MPI_SUCCESS;
}

/* one clock read, no lock: programs time loops with it */
static double wtime_impl(const char *fn)
{
    (void)fn;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wtick_impl(const char *fn)
{
    (void)fn;
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) {
        return 1e-9;
    }
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int get_processor_name_impl(char *name, int *resultlen, const char *fn)
{
    (void)fn;
    const char *h = rte_proc.hostname[0] ? rte_proc.hostname : "localhost";
    /* a longer host name is cut to MPI_MAX_PROCESSOR_NAME - 1 characters */
    snprintf(name, MPI_MAX_PROCESSOR_NAME, "%.*s", MPI_MAX_PROCESSOR_NAME - 1, h);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

static int get_version_impl(int *version, int *subversion, const char *fn)
{
    (void)fn;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

static int get_library_version_impl(char *version, int *resultlen, const char *fn)
{
    (void)fn;
    snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
             "compi %s (MPI %d.%d: large counts, sessions, partitioned communication, "
             "MPI-IO, one-sided communication; collectives configured at run time in "
             "Scheme)",
             COMPI_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
    *resultlen = (int)strlen(version);
    return MPI_SUCCESS;
}

/* no profiling levels: a tool that intercepts MPI_Pcontrol sees the call */
static int pcontrol_impl(const int level, const char *fn)
{
    (void)level, (void)fn;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/init.c"
