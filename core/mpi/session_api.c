/*
 * session_api.c -- MPI sessions (MPI-4 chapter 11): MPI_Session_init/finalize, the process
 * sets, MPI_Group_from_session_pset, MPI_Comm_create_from_group,
 * MPI_Intercomm_create_from_groups and the session error handlers.
 *
 * A session is a user of the library like the world model: the first of MPI_Init and
 * MPI_Session_init starts it, the last of MPI_Finalize and MPI_Session_finalize finalizes
 * it (core/mpi/init_api.c; that last call synchronises with every process, as
 * MPI_Finalize does).  The library starts once per process: a session begun after it was
 * finalized fails with MPI_ERR_OTHER.  So a program may use sessions only, or sessions and
 * MPI_Init together in any order.
 *
 * Process sets: "mpi://WORLD" (every process of the job) and "mpi://SELF".  Their groups
 * are those of MPI_COMM_WORLD and MPI_COMM_SELF, which the library makes when it starts,
 * whether MPI_Init is called or not.  MPI_Comm_create_from_group makes its communicator
 * with MPI_Comm_create_group over the job, the string tag hashed into the tag, so
 * different tags (or the same tag over disjoint groups) can be created concurrently.
 * MPI_Intercomm_create_from_groups agrees on a context id over the union of its groups
 * (core/comm/intercomm.c).
 *
 * The calls on a session have generated entry points (core/mpi/gen/session.c): the session
 * and the pointers, hints and error handler they take are checked there, on the session's
 * error handler.  So have MPI_Session_init and the communicators made from groups
 * (core/mpi/gen/session_init.c, on MPI_COMM_WORLD's handler, or before MPI_Init returned);
 * MPI_Session_create_errhandler is with the other constructors of error handlers
 * (errhandler_api.c).
 *
 * Ownership: a session holds a reference on its error handler; MPI_Session_get_errhandler
 * gives the caller one of its own.  Info objects returned are the caller's.
 */
#include "core/comm/errhandler.h"
#include "core/comm/group.h"
#include "core/mpi/buffer.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/handle.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SESSION_MAX 64

struct session {
    int used;
    int thread_level;
    compi_errhandler_t *errh; /* one reference */
};

static session_t sessions[SESSION_MAX + 1]; /* index 0 is MPI_SESSION_NULL */

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
#define NPSETS ((int)(sizeof(psets) / sizeof(psets[0])))

static session_t *session_get(MPI_Session h)
{
    int idx = (int)((unsigned)h & HANDLE_IDX_MASK);
    if (h != HANDLE_MAKE(COMPI_HKIND_SESSION, idx) || idx < 1 || idx > SESSION_MAX ||
        !sessions[idx].used) {
        return NULL;
    }
    return &sessions[idx];
}

static MPI_Session session_handle(const session_t *s)
{
    return HANDLE_MAKE(COMPI_HKIND_SESSION, (int)(s - sessions));
}

/* an error of a session call: the session's handler, or (no valid session) the default */
static int session_err(session_t *s, int errclass, const char *fn, const char *what)
{
    if (s == NULL || s->errh == NULL) {
        return mpi_err_invoke(NULL, errclass, fn, what);
    }
    return mpi_err_invoke_errh(s->errh, session_handle(s), errclass, fn, what);
}

int mpi_session_raise(session_t *s, int errclass, const char *fn, const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return session_err(s, errclass, fn, what);
}

int mpi_session_index_of(const session_t *s)
{
    return (int)(s - sessions);
}

/*
 * The checks of the generated entry points of a session's procedures (core/mpi/gen/session.c,
 * and gen/session_buffer.c through core/mpi/buffer.h; tools/mpigen/cgen.py): the session first
 * (MPI_ERR_SESSION, on the default handler: there is no session to raise it on), then each
 * argument, raised on the session's handler.
 */
int mpi_arg_session(MPI_Session h, const char *fn, session_t **s_p)
{
    if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return mpi_err_not_initialized(fn);
    }
    *s_p = session_get(h);
    if (*s_p == NULL) {
        char what[64];
        snprintf(what, sizeof(what), "invalid session (handle 0x%x)", (unsigned)h);
        return session_err(NULL, MPI_ERR_SESSION, fn, what);
    }
    return MPI_SUCCESS;
}

/* a pointer the procedure reads or writes through (MPI_ERR_ARG) */
int mpi_arg_session_ptr(session_t *s, const void *p, const char *what, const char *fn)
{
    if (p == NULL) {
        char msg[64];
        snprintf(msg, sizeof(msg), "%s is NULL", what);
        return session_err(s, MPI_ERR_ARG, fn, msg);
    }
    return MPI_SUCCESS;
}

/* hints: MPI_INFO_NULL or a valid info (MPI_ERR_INFO) */
static int mpi_arg_session_info(session_t *s, MPI_Info info, const char *fn)
{
    if (info != MPI_INFO_NULL && !mpi_info_valid(info)) {
        return session_err(s, MPI_ERR_INFO, fn, "invalid info handle");
    }
    return MPI_SUCCESS;
}

/* an error handler (MPI_ERR_ERRHANDLER) */
static int mpi_arg_session_errhandler(session_t *s, MPI_Errhandler h, const char *fn,
                                      compi_errhandler_t **e_p)
{
    *e_p = errh_from_handle(h);
    if (*e_p == NULL) {
        return session_err(s, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
    }
    return MPI_SUCCESS;
}

static int thread_level_of(const char *v)
{
    static const char *const names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                        "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, names[i]) == 0) {
            return MPI_THREAD_SINGLE + i;
        }
    }
    return MPI_THREAD_SINGLE;
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "MPI_THREAD_SINGLE";
    }
}

/* callable before MPI_Init: the first session (or MPI_Init) starts the library, whose error
   handlers the one given (MPI_ERRHANDLER_NULL: MPI_ERRORS_ARE_FATAL) must be */
static int session_init_impl(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session,
                             const char *fn)
{
    int required = MPI_THREAD_SINGLE, provided;

    *session = MPI_SESSION_NULL;
    /* the info calls work before the library is up (core/mpi/info_api.c) */
    if (info != MPI_INFO_NULL) {
        char v[64];
        int len = sizeof(v), flag = 0;
        if (PMPI_Info_get_string(info, "thread_level", &len, v, &flag) == MPI_SUCCESS && flag) {
            required = thread_level_of(v);
        }
    }
    int rc = compi_lib_session_up(required, &provided, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_errhandler_t *e = NULL;
    rc = mpi_arg_errh_null(MPI_ERR_ANY_TIME, errhandler, "errhandler", fn, &e);
    if (rc != MPI_SUCCESS) {
        compi_lib_session_down();
        return rc;
    }
    e = e != NULL ? e : errh_predefined(ERRH_FATAL);
    for (int i = 1; i <= SESSION_MAX; i++) {
        if (!sessions[i].used) {
            errh_retain(e);
            sessions[i] = (session_t){.used = 1, .thread_level = provided, .errh = e};
            *session = session_handle(&sessions[i]);
            return MPI_SUCCESS;
        }
    }
    compi_lib_session_down();
    return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_SESSION, fn, "too many sessions at once");
}

static int session_finalize_impl(MPI_Session *session, session_t *s, const char *fn)
{
    (void)fn;
    mpi_session_buffer_end((int)(s - sessions));
    errh_release(s->errh);
    *s = (session_t){0};
    *session = MPI_SESSION_NULL;
    compi_lib_session_down();
    return MPI_SUCCESS;
}

static int session_get_num_psets_impl(session_t *s, MPI_Info info, int *npset_names, const char *fn)
{
    (void)s, (void)info, (void)fn;
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}

static int session_get_nth_pset_impl(session_t *s, MPI_Info info, int n, int *pset_len,
                                     char *pset_name, const char *fn)
{
    (void)info;
    if (n < 0 || n >= NPSETS) {
        char what[64];
        snprintf(what, sizeof(what), "n=%d is not in [0, %d)", n, NPSETS);
        return session_err(s, MPI_ERR_ARG, fn, what);
    }
    if (*pset_len < 0 || (*pset_len > 0 && pset_name == NULL)) {
        return session_err(s, MPI_ERR_ARG, fn, "pset_len is negative, or pset_name NULL");
    }
    int need = (int)strlen(psets[n]) + 1;
    if (*pset_len == 0) {
        /* the length asked for, with the terminating NUL */
        *pset_len = need;
        return MPI_SUCCESS;
    }
    snprintf(pset_name, (size_t)*pset_len, "%s", psets[n]);
    return MPI_SUCCESS;
}

/* the group of a process set, or NULL.  MPI-4 names them as URIs, "mpi://WORLD", and a
   URI's scheme and authority are case-insensitive (RFC 3986 3.1, 3.2.2): "mpi://world"
   names the same set (as MPICH and Open MPI accept it) */
static MPI_Comm pset_comm(const char *name)
{
    if (name == NULL) {
        return MPI_COMM_NULL;
    }
    if (strcasecmp(name, psets[0]) == 0) {
        return MPI_COMM_WORLD;
    }
    if (strcasecmp(name, psets[1]) == 0) {
        return MPI_COMM_SELF;
    }
    return MPI_COMM_NULL;
}

/* the communicator of the process set `name` of session s into *c (MPI_ERR_ARG: no such
   set) */
static int pset_arg(session_t *s, const char *fn, const char *name, MPI_Comm *c)
{
    *c = pset_comm(name);
    if (*c == MPI_COMM_NULL) {
        char what[MPI_MAX_PSET_NAME_LEN + 64];
        snprintf(what, sizeof(what), "no process set is named \"%s\"", name ? name : "(null)");
        return session_err(s, MPI_ERR_ARG, fn, what);
    }
    return MPI_SUCCESS;
}

static int session_get_pset_info_impl(session_t *s, const char *pset_name, MPI_Info *info,
                                      const char *fn)
{
    int size;
    MPI_Comm c;
    int rc = pset_arg(s, fn, pset_name, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    char v[32];
    PMPI_Comm_size(c, &size);
    snprintf(v, sizeof(v), "%d", size);
    rc = PMPI_Info_create(info);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Info_set(*info, "mpi_size", v);
    }
    return rc;
}

static int session_get_info_impl(session_t *s, MPI_Info *info_used, const char *fn)
{
    (void)fn;
    int rc = PMPI_Info_create(info_used);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Info_set(*info_used, "thread_level", thread_level_name(s->thread_level));
    }
    return rc;
}

static int group_from_session_pset_impl(session_t *s, const char *pset_name, MPI_Group *newgroup,
                                        const char *fn)
{
    MPI_Comm c;
    int rc = pset_arg(s, fn, pset_name, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return PMPI_Comm_group(c, newgroup);
}

/* the string tag as a tag of MPI_Comm_create_group (FNV-1a, kept in [0, 2^30)) */
static int stringtag_hash(const char *t)
{
    uint32_t h = 2166136261u;
    for (; *t != '\0'; t++) {
        h = (h ^ (unsigned char)*t) * 16777619u;
    }
    return (int)(h & 0x3fffffff);
}

static int comm_create_from_group_impl(compi_group_t *group, const char *stringtag, MPI_Info info,
                                       compi_errhandler_t *errhandler, MPI_Comm *newcomm,
                                       const char *fn)
{
    compi_comm_t *world = comm_world(), *nc = NULL;

    *newcomm = MPI_COMM_NULL;
    if (!comm_group_is_subset(world, group)) {
        return mpi_err_raise(NULL, MPI_ERR_GROUP, fn,
                             "the group (%d processes) is not a group of mpi://WORLD", group->size);
    }
    compi_status_t st = comm_create_group(world, group, stringtag_hash(stringtag), &nc);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot create the communicator: %s",
                             compi_status_string(st));
    }
    if (nc == NULL) {
        return MPI_SUCCESS;
    }
    *newcomm = nc->handle;
    if (errhandler != NULL) {
        comm_set_errhandler(nc, errhandler);
    }
    return info != MPI_INFO_NULL ? PMPI_Comm_set_info(*newcomm, info) : MPI_SUCCESS;
}

/*
 * MPI-4.0 section 11.6: the union of the two groups takes part, every process naming its
 * own group first.  Each process knows both groups, so the leaders route nothing here
 * (they are checked, as MPI asks for them); the string tag, hashed as in
 * MPI_Comm_create_from_group, separates concurrent calls: the agreement travels on a tag
 * derived from it.
 */
static int intercomm_create_from_groups_impl(compi_group_t *lg, int local_leader, compi_group_t *rg,
                                             int remote_leader, const char *stringtag,
                                             MPI_Info info, compi_errhandler_t *errhandler,
                                             MPI_Comm *newintercomm, const char *fn)
{
    int rc = MPI_SUCCESS;

    *newintercomm = MPI_COMM_NULL;
    if (lg->rank == MPI_UNDEFINED) {
        return mpi_err_raise(NULL, MPI_ERR_GROUP, fn,
                             "the calling process is not in local_group (%d processes)", lg->size);
    }
    if (rg->size == 0) {
        return mpi_err_raise(NULL, MPI_ERR_GROUP, fn, "remote_group is empty");
    }
    if (local_leader < 0 || local_leader >= lg->size) {
        return mpi_err_raise(NULL, MPI_ERR_RANK, fn, "local_leader=%d is not in [0, %d)",
                             local_leader, lg->size);
    }
    if (remote_leader < 0 || remote_leader >= rg->size) {
        return mpi_err_raise(NULL, MPI_ERR_RANK, fn, "remote_leader=%d is not in [0, %d)",
                             remote_leader, rg->size);
    }
    compi_comm_t *c = NULL;
    compi_status_t st =
        comm_intercomm_from_groups(lg, rg, stringtag_hash(stringtag), errhandler, &c);
    if (st == COMPI_ERR_INVALID_PARAM) {
        return mpi_err_raise(NULL, MPI_ERR_GROUP, fn,
                             "local_group and remote_group overlap (the groups of an "
                             "intercommunicator must be disjoint)");
    }
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn,
                             "cannot create the intercommunicator: %s", compi_status_string(st));
    }
    *newintercomm = c->handle;
    if (info != MPI_INFO_NULL) {
        rc = PMPI_Comm_set_info(*newintercomm, info);
    }
    return rc;
}

static int session_set_errhandler_impl(session_t *s, compi_errhandler_t *e, const char *fn)
{
    (void)fn;
    errh_retain(e);
    errh_release(s->errh);
    s->errh = e;
    return MPI_SUCCESS;
}

static int session_get_errhandler_impl(session_t *s, MPI_Errhandler *errhandler, const char *fn)
{
    (void)fn;
    errh_retain(s->errh);
    *errhandler = s->errh->handle;
    return MPI_SUCCESS;
}

static int session_call_errhandler_impl(session_t *s, int errorcode, const char *fn)
{
    char what[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (PMPI_Error_string(errorcode, what, &len) != MPI_SUCCESS) {
        snprintf(what, sizeof(what), "error code %d", errorcode);
    }
    session_err(s, errorcode, fn, what);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/session.c"
#include "core/mpi/gen/session_init.c"
