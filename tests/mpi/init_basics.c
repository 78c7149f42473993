/*
 * init_basics: the environment calls.  Initialized/Finalized before, during and after;
 * Init_thread's provided level is a valid level and matches Query_thread; Is_thread_main;
 * Wtime increases and Wtick is positive; Get_processor_name is the host name;
 * Get_version says 3.1 or later (and matches MPI_VERSION); Get_library_version is a
 * non-empty string; MPI_Pcontrol takes extra arguments; MPI_Aint_add/diff are address
 * arithmetic.  The checks of the queries' pointers: MPI_ERR_ARG before MPI_Init and after
 * MPI_Finalize (returned: in compi no handler is called then) and between them (raised
 * on the handler, MPI_ERRORS_RETURN here).  Also the singleton test: run without mpirun,
 * size is 1; and with "twice", a second MPI_Init ends the job.
 */
#include "tests/mpi/mpitest.h"

#include <unistd.h>

/* the class of an error code (-1 for MPI_SUCCESS) */
static int class_of(int rc)
{
    int cls = -1;

    if (rc != MPI_SUCCESS)
        MPI_OK(MPI_Error_class(rc, &cls));
    return cls;
}

#define EXPECT_ARG(call)                                                                           \
    CHECK(class_of(call) == MPI_ERR_ARG, "line %d: %s: not MPI_ERR_ARG", __LINE__, #call)

/* the pointers the queries write through, NULL: MPI_ERR_ARG; `inited`, between MPI_Init
   and MPI_Finalize, adds the queries that need MPI initialized */
static void null_outputs(int inited)
{
    int ver, sub, len;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], name[MPI_MAX_PROCESSOR_NAME];

    EXPECT_ARG(MPI_Initialized(NULL));
    EXPECT_ARG(MPI_Finalized(NULL));
    EXPECT_ARG(MPI_Get_version(NULL, &sub));
    EXPECT_ARG(MPI_Get_version(&ver, NULL));
    EXPECT_ARG(MPI_Get_library_version(NULL, &len));
    EXPECT_ARG(MPI_Get_library_version(lib, NULL));
    if (inited) {
        EXPECT_ARG(MPI_Query_thread(NULL));
        EXPECT_ARG(MPI_Is_thread_main(NULL));
        EXPECT_ARG(MPI_Get_processor_name(NULL, &len));
        EXPECT_ARG(MPI_Get_processor_name(name, NULL));
    }
}

int main(int argc, char **argv)
{
    int flag = -1, provided = -1, q = -1, rank, size, len = -1, ver = -1, sub = -1;
    char name[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];
    char host[256];
    double t0, t1, tick;

    mt_name = "init_basics";
    MPI_Initialized(&flag);
    CHECK(flag == 0, "Initialized before Init: %d", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 0, "Finalized before Init: %d", flag);
    /* Get_version may be called at any time */
    MPI_Get_version(&ver, &sub);
    CHECK(ver == MPI_VERSION && sub == MPI_SUBVERSION, "Get_version before Init: %d.%d", ver,
          sub);
#ifdef COMPI
    null_outputs(0);
#endif

    MPI_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    mt_rank = rank;
    mt_size = size;
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
          "provided level %d", provided);
    MPI_OK(MPI_Query_thread(&q));
    CHECK(q == provided, "Query_thread %d, Init_thread provided %d", q, provided);
    MPI_OK(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "Is_thread_main in the main thread: %d", flag);
    MPI_OK(MPI_Initialized(&flag));
    CHECK(flag == 1, "Initialized after Init: %d", flag);
    MPI_OK(MPI_Finalized(&flag));
    CHECK(flag == 0, "Finalized after Init: %d", flag);
    if (argc > 1 && strcmp(argv[1], "twice") == 0) {
        /* erroneous: the job ends, naming MPI_Init */
        MPI_Init(&argc, &argv);
        CHECK(0, "the second call returned instead of aborting");
    }
    /* errors not tied to an object: MPI_COMM_WORLD's handler (MPI_COMM_SELF's in MPI-4's
       words) */
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    null_outputs(1);
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
    MPI_OK(MPI_Pcontrol(0));
    MPI_OK(MPI_Pcontrol(1, "phase", 2.5));
    {
        char buf[16];
        MPI_Aint a = 0, b = 0;

        MPI_OK(MPI_Get_address(&buf[3], &a));
        MPI_OK(MPI_Get_address(&buf[11], &b));
        CHECK(MPI_Aint_diff(b, a) == 8 && MPI_Aint_diff(a, b) == -8, "Aint_diff %ld, %ld",
              (long)MPI_Aint_diff(b, a), (long)MPI_Aint_diff(a, b));
        CHECK(MPI_Aint_add(a, 8) == b && MPI_Aint_add(b, -8) == a, "Aint_add");
    }

    t0 = MPI_Wtime();
    usleep(20000);
    t1 = MPI_Wtime();
    tick = MPI_Wtick();
    CHECK(t1 - t0 >= 0.015 && t1 - t0 < 5.0, "Wtime: a 20 ms sleep took %g s", t1 - t0);
    CHECK(tick > 0.0 && tick < 0.01, "Wtick %g", tick);
    for (int i = 0; i < 1000; i++) {
        double t = MPI_Wtime();

        CHECK(t >= t1, "Wtime went backwards: %.9f after %.9f", t, t1);
        if (t < t1)
            break;
        t1 = t;
    }

    MPI_OK(MPI_Get_processor_name(name, &len));
    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';
    CHECK(len > 0 && (int)strlen(name) == len, "processor name '%s' length %d", name, len);
    CHECK(strncmp(name, host, strlen(name)) == 0, "processor name '%s', host name '%s'", name,
          host);
    MPI_OK(MPI_Get_version(&ver, &sub));
    CHECK(ver > 3 || (ver == 3 && sub >= 1), "Get_version %d.%d", ver, sub);
    MPI_OK(MPI_Get_library_version(lib, &len));
    /* implementations differ on counting the terminating NUL: accept both */
    CHECK(len > 0 && lib[0] != '\0' && (len == (int)strlen(lib) || len == (int)strlen(lib) + 1),
          "library version '%s' length %d", lib, len);
#ifdef COMPI
    CHECK(strstr(lib, "compi") != NULL, "library version '%s' does not say compi", lib);
#endif
    /* a singleton run: the runner passes "singleton" when it starts us without mpirun */
    if (argc > 1 && strcmp(argv[1], "singleton") == 0)
        CHECK(size == 1 && rank == 0, "singleton: size %d rank %d", size, rank);

    mt_barrier(MPI_COMM_WORLD);
    MPI_OK(MPI_Finalize());
    MPI_Initialized(&flag);
    CHECK(flag == 1, "Initialized after Finalize: %d", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 1, "Finalized after Finalize: %d", flag);
    MPI_OK(MPI_Get_version(&ver, &sub));
    MPI_OK(MPI_Get_library_version(lib, &len));
#ifdef COMPI
    null_outputs(0);
#endif
    if (mt_errors == 0 && rank == 0)
        printf("ok: init_basics np=%d\n", size);
    return mt_errors ? 1 : 0;
}
