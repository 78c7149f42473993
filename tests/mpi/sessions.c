/*
 * sessions: the MPI-4 sessions model.  With no argument the program uses sessions only
 * (MPI_Init is never called): two sessions at once, the process sets and their info, a
 * group from "mpi://WORLD" and "mpi://SELF" (and "mpi://world": the names are URIs, whose
 * scheme and authority are case-insensitive), communicators from groups (string tags; two
 * created over the same group with different tags do not mix), traffic and a collective on
 * them, session error handlers (predefined and user, call_errhandler, bad arguments),
 * MPI_Initialized false throughout, MPI_T_BIND_MPI_SESSION a bind of its own.  With "mixed"
 * a session is opened before MPI_Init and finalized after MPI_Finalize, and MPI_COMM_WORLD
 * and a session's communicator are used side by side.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int errs, rank = -1;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "FAIL sessions rank %d (%s:%d): ", rank, __FILE__, __LINE__);    \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fprintf(stderr, "\n");                                                            \
            errs++;                                                                           \
        }                                                                                     \
    } while (0)
#define MPI_OK(call)                                                                          \
    do {                                                                                      \
        int rc_ = (call);                                                                     \
        if (rc_ != MPI_SUCCESS) {                                                             \
            fprintf(stderr, "FAIL sessions rank %d: %s returned %d\n", rank, #call, rc_);    \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                     \
        }                                                                                     \
    } while (0)

static int handler_calls, handler_code;
static MPI_Session handler_session;

static void on_error(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_session = *s;
}

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* a communicator over "mpi://WORLD" of session s, and some traffic on it */
static MPI_Comm world_of(MPI_Session s, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    int size, gsize, me;
    MPI_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_OK(MPI_Group_size(g, &gsize));
    MPI_OK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_OK(MPI_Group_free(&g));
    MPI_OK(MPI_Comm_size(c, &size));
    MPI_OK(MPI_Comm_rank(c, &me));
    CHECK(size == gsize, "communicator size %d, group size %d", size, gsize);
    rank = me;
    return c;
}

static void traffic(MPI_Comm a, MPI_Comm b)
{
    int size, me, x, y = -1, sum = 0;
    MPI_OK(MPI_Comm_size(a, &size));
    MPI_OK(MPI_Comm_rank(a, &me));
    int right = (me + 1) % size, left = (me + size - 1) % size;
    /* same tag on both communicators, sent in one order, received in the other */
    MPI_Request r[2];
    int ya = -1, yb = -1, xa = 1000 + me, xb = 2000 + me;
    MPI_OK(MPI_Isend(&xa, 1, MPI_INT, right, 7, a, &r[0]));
    MPI_OK(MPI_Isend(&xb, 1, MPI_INT, right, 7, b, &r[1]));
    MPI_OK(MPI_Recv(&yb, 1, MPI_INT, MPI_ANY_SOURCE, 7, b, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Recv(&ya, 1, MPI_INT, MPI_ANY_SOURCE, 7, a, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(ya == 1000 + left && yb == 2000 + left, "crossed messages: %d %d", ya, yb);
    x = me + 1;
    MPI_OK(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, a));
    CHECK(sum == size * (size + 1) / 2, "Allreduce on a session communicator: %d", sum);
    MPI_OK(MPI_Bcast(&y, 1, MPI_INT, 0, b));
    (void)y;
}

static void psets(MPI_Session s)
{
    int n = 0, len;
    char name[MPI_MAX_PSET_NAME_LEN], v[64];
    MPI_Info info;
    int flag;

    MPI_OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2, "%d process sets", n);
    int seen_world = 0, seen_self = 0;
    for (int i = 0; i < n; i++) {
        len = 0;
        MPI_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "pset %d: length %d", i, len);
        MPI_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK((int)strlen(name) == len - 1, "pset %d: %s of length %d", i, name, len);
        seen_world += strcmp(name, "mpi://WORLD") == 0;
        seen_self += strcmp(name, "mpi://SELF") == 0;
        MPI_OK(MPI_Session_get_pset_info(s, name, &info));
        MPI_OK(MPI_Info_get_string(info, "mpi_size", &(int){sizeof(v)}, v, &flag));
        CHECK(flag, "pset %s: no mpi_size", name);
        MPI_OK(MPI_Info_free(&info));
    }
    CHECK(seen_world == 1 && seen_self == 1, "WORLD %d, SELF %d", seen_world, seen_self);
    len = 5; /* truncated to 4 characters and a NUL */
    MPI_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name));
    CHECK(strlen(name) == 4, "truncated name %s", name);

    MPI_Group g;
    int gs;
    MPI_OK(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
    MPI_OK(MPI_Group_size(g, &gs));
    CHECK(gs == 1, "SELF group of %d", gs);
    MPI_Comm self;
    MPI_OK(MPI_Comm_create_from_group(g, "org.compi.test.self", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &self));
    MPI_OK(MPI_Comm_size(self, &gs));
    CHECK(gs == 1, "communicator from SELF of size %d", gs);
    MPI_OK(MPI_Comm_free(&self));
    MPI_OK(MPI_Group_free(&g));
    /* the names are URIs: scheme and authority in any case name the same sets */
    int wsize;
    MPI_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_OK(MPI_Group_size(g, &wsize));
    MPI_OK(MPI_Group_free(&g));
    static const char *const other_case[] = {"mpi://world", "MPI://World", "mpi://self"};
    for (int i = 0; i < 3; i++) {
        int rc = MPI_Group_from_session_pset(s, other_case[i], &g);
        CHECK(rc == MPI_SUCCESS, "process set %s refused: %d", other_case[i], rc);
        if (rc == MPI_SUCCESS) {
            MPI_OK(MPI_Group_size(g, &gs));
            CHECK(gs == (i < 2 ? wsize : 1), "process set %s has %d processes", other_case[i], gs);
            MPI_OK(MPI_Group_free(&g));
        }
    }

    MPI_OK(MPI_Session_get_info(s, &info));
    MPI_OK(MPI_Info_get_string(info, "thread_level", &(int){sizeof(v)}, v, &flag));
    CHECK(flag && (strcmp(v, "MPI_THREAD_FUNNELED") == 0 ||
                   strcmp(v, "MPI_THREAD_SERIALIZED") == 0 ||
                   strcmp(v, "MPI_THREAD_MULTIPLE") == 0),
          "thread_level %s, asked for MPI_THREAD_FUNNELED", flag ? v : "(none)");
    MPI_OK(MPI_Info_free(&info));
}

static void errhandlers(MPI_Session s)
{
    MPI_Errhandler e, got;
    int rc, n;
    MPI_Group g;

    /* the session was made with MPI_ERRORS_RETURN */
    MPI_OK(MPI_Session_get_errhandler(s, &got));
    CHECK(got == MPI_ERRORS_RETURN, "errhandler 0x%x", (unsigned)got);
    MPI_OK(MPI_Errhandler_free(&got));
    rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    CHECK(rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_ARG, "unknown pset: %d", rc);
    rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 99, &(int){0}, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "pset 99: %d", rc);
    /* a NULL output argument */
    rc = MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "get_num_psets with NULL: %d", rc);
    rc = MPI_Session_get_errhandler(s, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "get_errhandler with NULL: %d", rc);
    rc = MPI_Session_get_info(s, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "get_info with NULL: %d", rc);
    rc = MPI_Group_from_session_pset(s, "mpi://WORLD", NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "group_from_session_pset with NULL: %d", rc);
    rc = MPI_Session_get_pset_info(s, "mpi://SELF", NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "get_pset_info with NULL: %d", rc);
    rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, NULL, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "get_nth_pset without pset_len: %d", rc);
    rc = MPI_Session_get_num_psets(s, (MPI_Info)0x7777, &n);
    CHECK(class_of(rc) == MPI_ERR_INFO, "get_num_psets with a bad info: %d", rc);
    rc = MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL);
    CHECK(class_of(rc) == MPI_ERR_ERRHANDLER, "set_errhandler MPI_ERRHANDLER_NULL: %d", rc);

    /* a user handler sees the session and the code */
    MPI_OK(MPI_Session_create_errhandler(on_error, &e));
    MPI_OK(MPI_Session_set_errhandler(s, e));
    MPI_OK(MPI_Errhandler_free(&e));
    rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    CHECK(handler_calls == 1 && class_of(handler_code) == MPI_ERR_ARG && handler_session == s,
          "user handler: %d calls, code %d", handler_calls, handler_code);
    MPI_OK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_OTHER, "call_errhandler: %d calls",
          handler_calls);
    MPI_OK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));

    /* an invalid session: MPI_ERR_SESSION (raised on the default handler: make it return) */
    rc = MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &(int){0});
    CHECK(class_of(rc) == MPI_ERR_SESSION, "SESSION_NULL: %d", rc);

    /* the arguments of MPI_Session_init and of the communicators made from groups (on the
       default handler too) */
    MPI_Session s3;
    MPI_Comm c;
    char tag[MPI_MAX_STRINGTAG_LEN + 1];
    memset(tag, 'x', MPI_MAX_STRINGTAG_LEN);
    tag[MPI_MAX_STRINGTAG_LEN] = '\0';
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "Session_init with NULL: %d", rc);
    rc = MPI_Session_init((MPI_Info)0x7777, MPI_ERRORS_RETURN, &s3);
    CHECK(class_of(rc) == MPI_ERR_INFO, "Session_init with a bad info: %d", rc);
    rc = MPI_Session_init(MPI_INFO_NULL, (MPI_Errhandler)0x7777, &s3);
    CHECK(class_of(rc) == MPI_ERR_ARG, "Session_init with a bad error handler: %d", rc);
    MPI_OK(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
    rc = MPI_Comm_create_from_group(MPI_GROUP_NULL, "org.compi.test.e", MPI_INFO_NULL,
                                    MPI_ERRORS_RETURN, &c);
    CHECK(class_of(rc) == MPI_ERR_GROUP, "create_from_group MPI_GROUP_NULL: %d", rc);
    rc = MPI_Comm_create_from_group(g, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    CHECK(class_of(rc) == MPI_ERR_ARG, "create_from_group NULL tag: %d", rc);
    rc = MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    CHECK(class_of(rc) == MPI_ERR_ARG, "create_from_group tag too long: %d", rc);
    rc = MPI_Comm_create_from_group(g, "org.compi.test.e", (MPI_Info)0x7777, MPI_ERRORS_RETURN, &c);
    CHECK(class_of(rc) == MPI_ERR_INFO, "create_from_group bad info: %d", rc);
    rc = MPI_Comm_create_from_group(g, "org.compi.test.e", MPI_INFO_NULL, (MPI_Errhandler)0x7777,
                                    &c);
    CHECK(class_of(rc) == MPI_ERR_ARG, "create_from_group bad error handler: %d", rc);
    rc = MPI_Comm_create_from_group(g, "org.compi.test.e", MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG, "create_from_group NULL newcomm: %d", rc);
    /* MPI_ERRHANDLER_NULL: the default handler */
    MPI_OK(
        MPI_Comm_create_from_group(g, "org.compi.test.e", MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &c));
    MPI_OK(MPI_Comm_free(&c));
    MPI_OK(MPI_Group_free(&g));
}

/* MPI_T binds variables to sessions too (MPI-4): a kind of object of its own */
static void t_bind(void)
{
    static const int binds[] = {
        MPI_T_BIND_NO_OBJECT,      MPI_T_BIND_MPI_COMM,    MPI_T_BIND_MPI_DATATYPE,
        MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE,    MPI_T_BIND_MPI_GROUP,
        MPI_T_BIND_MPI_OP,         MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN,
        MPI_T_BIND_MPI_MESSAGE,    MPI_T_BIND_MPI_INFO};
    for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
        CHECK(binds[i] != MPI_T_BIND_MPI_SESSION, "MPI_T_BIND_MPI_SESSION is bind %d too",
              binds[i]);
    }
}

int main(int argc, char **argv)
{
    int mixed = argc > 1 && strcmp(argv[1], "mixed") == 0;
    MPI_Session s1 = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL;
    int flag, size;

    MPI_OK(MPI_Initialized(&flag));
    CHECK(!flag, "MPI_Initialized before anything: %d", flag);
    t_bind();
    /* before the library is up, bad arguments return their class */
    MPI_Errhandler e;
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL) == MPI_ERR_ARG,
          "Session_init with NULL before anything");
    CHECK(MPI_Session_create_errhandler(NULL, &e) == MPI_ERR_ARG,
          "Session_create_errhandler with NULL before anything");
    /* info works before anything: ask for a thread level */
    MPI_Info want;
    MPI_OK(MPI_Info_create(&want));
    MPI_OK(MPI_Info_set(want, "thread_level", "MPI_THREAD_FUNNELED"));
    MPI_OK(MPI_Session_init(want, MPI_ERRORS_RETURN, &s1));
    MPI_OK(MPI_Info_free(&want));
    CHECK(s1 != MPI_SESSION_NULL, "Session_init gave MPI_SESSION_NULL");
    MPI_OK(MPI_Initialized(&flag));
    CHECK(!flag, "MPI_Initialized with a session only: %d", flag);
    /* errors outside any object go to MPI_COMM_WORLD's handler: make it return for the
       invalid-session checks */
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (mixed)
        MPI_OK(MPI_Init(&argc, &argv));

    MPI_Comm a = world_of(s1, "org.compi.test.a");
    MPI_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    CHECK(s2 != s1, "two sessions with one handle");
    CHECK(MPI_Session_f2c(MPI_Session_c2f(s2)) == s2 &&
              MPI_Session_f2c(MPI_Session_c2f(MPI_SESSION_NULL)) == MPI_SESSION_NULL,
          "MPI_Session_c2f/f2c do not give the session back");
    MPI_Comm b = world_of(s2, "org.compi.test.b");
    traffic(a, b);
    psets(s1);
    errhandlers(s2);
    MPI_OK(MPI_Comm_size(a, &size));
    if (mixed) {
        MPI_OK(MPI_Initialized(&flag));
        CHECK(flag, "MPI_Initialized after MPI_Init: %d", flag);
        traffic(MPI_COMM_WORLD, a);
    }
    MPI_OK(MPI_Comm_free(&a));
    MPI_OK(MPI_Comm_free(&b));
    MPI_OK(MPI_Session_finalize(&s2));
    CHECK(s2 == MPI_SESSION_NULL, "Session_finalize left the handle");
    if (mixed) {
        MPI_OK(MPI_Finalize());
        MPI_OK(MPI_Finalized(&flag));
        CHECK(flag, "MPI_Finalized after MPI_Finalize: %d", flag);
    }
    /* a session still works after MPI_Finalize (mixed) */
    MPI_Comm c = world_of(s1, "org.compi.test.c"), d = world_of(s1, "org.compi.test.d");
    traffic(c, d);
    MPI_OK(MPI_Comm_free(&c));
    MPI_OK(MPI_Comm_free(&d));
    MPI_OK(MPI_Session_finalize(&s1));
    MPI_OK(MPI_Finalized(&flag));
    CHECK(flag == mixed, "MPI_Finalized at the end: %d", flag);
    if (errs == 0 && rank == 0)
        printf("ok: sessions np=%d\n", size);
    if (errs != 0)
        fprintf(stderr, "sessions rank %d: %d check(s) failed\n", rank, errs);
    return errs == 0 ? 0 : 1;
}
