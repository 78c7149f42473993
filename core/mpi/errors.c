/*
 * errors.c -- raising MPI errors: the error handler of a communicator decides whether
 * the job goes down (one line for people, said once: rte_abort_line), the class is
 * returned, or the user's function is called.  Also the names and descriptions of the error
 * classes, which MPI_Error_string returns (see errors_user.c).
 */
#include "core/mpi/errors.h"

#include "core/comm/comm.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/rte.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
    const char *name;
    const char *text;
} err_classes[] = {
    [MPI_SUCCESS] = {"MPI_SUCCESS", "no error"},
    [MPI_ERR_BUFFER] = {"MPI_ERR_BUFFER", "invalid buffer pointer"},
    [MPI_ERR_COUNT] = {"MPI_ERR_COUNT", "invalid count argument"},
    [MPI_ERR_TYPE] = {"MPI_ERR_TYPE", "invalid datatype"},
    [MPI_ERR_TAG] = {"MPI_ERR_TAG", "invalid tag"},
    [MPI_ERR_COMM] = {"MPI_ERR_COMM", "invalid communicator"},
    [MPI_ERR_RANK] = {"MPI_ERR_RANK", "invalid rank"},
    [MPI_ERR_REQUEST] = {"MPI_ERR_REQUEST", "invalid request"},
    [MPI_ERR_ROOT] = {"MPI_ERR_ROOT", "invalid root"},
    [MPI_ERR_GROUP] = {"MPI_ERR_GROUP", "invalid group"},
    [MPI_ERR_OP] = {"MPI_ERR_OP", "invalid reduction operation"},
    [MPI_ERR_TOPOLOGY] = {"MPI_ERR_TOPOLOGY", "invalid topology"},
    [MPI_ERR_DIMS] = {"MPI_ERR_DIMS", "invalid dimension argument"},
    [MPI_ERR_ARG] = {"MPI_ERR_ARG", "invalid argument of some other kind"},
    [MPI_ERR_UNKNOWN] = {"MPI_ERR_UNKNOWN", "unknown error"},
    [MPI_ERR_TRUNCATE] = {"MPI_ERR_TRUNCATE", "message truncated: receive buffer too small"},
    [MPI_ERR_OTHER] = {"MPI_ERR_OTHER", "known error not in this list"},
    [MPI_ERR_INTERN] = {"MPI_ERR_INTERN", "internal error in the MPI library"},
    [MPI_ERR_IN_STATUS] = {"MPI_ERR_IN_STATUS", "error code is in the status"},
    [MPI_ERR_PENDING] = {"MPI_ERR_PENDING", "pending request"},
    [MPI_ERR_KEYVAL] = {"MPI_ERR_KEYVAL", "invalid attribute key"},
    [MPI_ERR_NO_MEM] = {"MPI_ERR_NO_MEM", "out of memory"},
    [MPI_ERR_BASE] = {"MPI_ERR_BASE", "invalid base address passed to MPI_Free_mem"},
    [MPI_ERR_INFO_KEY] = {"MPI_ERR_INFO_KEY", "info key empty or longer than MPI_MAX_INFO_KEY"},
    [MPI_ERR_INFO_VALUE] = {"MPI_ERR_INFO_VALUE",
                            "info value empty or longer than MPI_MAX_INFO_VAL"},
    [MPI_ERR_INFO_NOKEY] = {"MPI_ERR_INFO_NOKEY", "no such key in the info object"},
    [MPI_ERR_SPAWN] = {"MPI_ERR_SPAWN", "error spawning processes"},
    [MPI_ERR_PORT] = {"MPI_ERR_PORT", "invalid port name"},
    [MPI_ERR_SERVICE] = {"MPI_ERR_SERVICE", "invalid service name"},
    [MPI_ERR_NAME] = {"MPI_ERR_NAME", "service name not published"},
    [MPI_ERR_WIN] = {"MPI_ERR_WIN", "invalid window"},
    [MPI_ERR_SIZE] = {"MPI_ERR_SIZE", "invalid size"},
    [MPI_ERR_DISP] = {"MPI_ERR_DISP", "invalid displacement"},
    [MPI_ERR_INFO] = {"MPI_ERR_INFO", "invalid info object"},
    [MPI_ERR_LOCKTYPE] = {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    [MPI_ERR_ASSERT] = {"MPI_ERR_ASSERT", "invalid assertion"},
    [MPI_ERR_RMA_CONFLICT] = {"MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    [MPI_ERR_RMA_SYNC] = {"MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    [MPI_ERR_FILE] = {"MPI_ERR_FILE", "invalid file handle"},
    [MPI_ERR_NOT_SAME] = {"MPI_ERR_NOT_SAME",
                          "collective arguments not identical on all processes"},
    [MPI_ERR_AMODE] = {"MPI_ERR_AMODE", "invalid file access mode"},
    [MPI_ERR_UNSUPPORTED_DATAREP] = {"MPI_ERR_UNSUPPORTED_DATAREP",
                                     "unsupported data representation"},
    [MPI_ERR_UNSUPPORTED_OPERATION] = {"MPI_ERR_UNSUPPORTED_OPERATION", "operation not supported"},
    [MPI_ERR_NO_SUCH_FILE] = {"MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    [MPI_ERR_FILE_EXISTS] = {"MPI_ERR_FILE_EXISTS", "file exists"},
    [MPI_ERR_BAD_FILE] = {"MPI_ERR_BAD_FILE", "invalid file name"},
    [MPI_ERR_ACCESS] = {"MPI_ERR_ACCESS", "permission denied"},
    [MPI_ERR_NO_SPACE] = {"MPI_ERR_NO_SPACE", "not enough space"},
    [MPI_ERR_QUOTA] = {"MPI_ERR_QUOTA", "quota exceeded"},
    [MPI_ERR_READ_ONLY] = {"MPI_ERR_READ_ONLY", "read-only file or file system"},
    [MPI_ERR_FILE_IN_USE] = {"MPI_ERR_FILE_IN_USE", "file operation failed: file in use"},
    [MPI_ERR_DUP_DATAREP] = {"MPI_ERR_DUP_DATAREP", "data representation already defined"},
    [MPI_ERR_CONVERSION] = {"MPI_ERR_CONVERSION", "error in a data conversion function"},
    [MPI_ERR_IO] = {"MPI_ERR_IO", "other I/O error"},
    [MPI_ERR_RMA_RANGE] = {"MPI_ERR_RMA_RANGE", "target memory outside the window"},
    [MPI_ERR_RMA_ATTACH] = {"MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    [MPI_ERR_RMA_SHARED] = {"MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    [MPI_ERR_RMA_FLAVOR] = {"MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    [MPI_T_ERR_INVALID] = {"MPI_T_ERR_INVALID", "invalid use of the tool interface"},
    [MPI_T_ERR_MEMORY] = {"MPI_T_ERR_MEMORY", "out of memory in the tool interface"},
    [MPI_T_ERR_NOT_INITIALIZED] = {"MPI_T_ERR_NOT_INITIALIZED",
                                   "the tool interface is not initialized"},
    [MPI_T_ERR_CANNOT_INIT] = {"MPI_T_ERR_CANNOT_INIT", "the tool interface cannot be initialized"},
    [MPI_T_ERR_INVALID_INDEX] = {"MPI_T_ERR_INVALID_INDEX", "index of a variable out of range"},
    [MPI_T_ERR_INVALID_ITEM] = {"MPI_T_ERR_INVALID_ITEM", "item index out of range"},
    [MPI_T_ERR_INVALID_HANDLE] = {"MPI_T_ERR_INVALID_HANDLE",
                                  "invalid handle of the tool interface, or invalid object "
                                  "to bind a variable to"},
    [MPI_T_ERR_OUT_OF_HANDLES] = {"MPI_T_ERR_OUT_OF_HANDLES", "no more handles available"},
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = {"MPI_T_ERR_CVAR_SET_NOT_NOW",
                                    "the control variable cannot be set now"},
    [MPI_T_ERR_CVAR_SET_NEVER] = {"MPI_T_ERR_CVAR_SET_NEVER",
                                  "the control variable can never be set"},
    [MPI_T_ERR_INVALID_NAME] = {"MPI_T_ERR_INVALID_NAME", "no variable has this name"},
    [MPI_ERR_SESSION] = {"MPI_ERR_SESSION", "invalid session"},
    [MPI_ERR_VALUE_TOO_LARGE] = {"MPI_ERR_VALUE_TOO_LARGE",
                                 "a value does not fit its output argument"},
    [MPI_T_ERR_INVALID_SESSION] = {"MPI_T_ERR_INVALID_SESSION",
                                   "invalid performance experiment session"},
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = {"MPI_T_ERR_PVAR_NO_STARTSTOP",
                                     "the performance variable cannot be started or stopped"},
    [MPI_T_ERR_PVAR_NO_WRITE] = {"MPI_T_ERR_PVAR_NO_WRITE",
                                 "the performance variable cannot be written or reset"},
    [MPI_T_ERR_PVAR_NO_ATOMIC] = {"MPI_T_ERR_PVAR_NO_ATOMIC",
                                  "the performance variable cannot be read and reset atomically"},
    [MPI_T_ERR_OUT_OF_SESSIONS] = {"MPI_T_ERR_OUT_OF_SESSIONS",
                                   "no more performance experiment sessions available"},
    [MPI_ERR_PROC_ABORTED] = {"MPI_ERR_PROC_ABORTED", "communication with an aborted process"},
    [MPI_T_ERR_NOT_SUPPORTED] = {"MPI_T_ERR_NOT_SUPPORTED",
                                 "the tool interface does not support this"},
    [MPI_T_ERR_NOT_ACCESSIBLE] = {"MPI_T_ERR_NOT_ACCESSIBLE",
                                  "the tool interface's variable is not accessible"},
    [MPI_ERR_ERRHANDLER] = {"MPI_ERR_ERRHANDLER", "invalid error handler"},
    [MPI_ERR_ABI] = {"MPI_ERR_ABI", "the Fortran ABI information cannot be set now"},
};

static int class_valid(int code)
{
    return (code >= 0 && code < (int)COMPI_ARRAY_SIZE(err_classes) &&
            err_classes[code].name != NULL) ||
           mpi_err_user_is_class(code);
}

/* ---- codes with text ---------------------------------------------------------------- */

/* codes with text lie below MPI_ERR_LASTCODE (0x3fffffff), with bit 29 set; the codes
   and classes the application adds lie above it (errors_user.c) */
#define TEXT_CODE_BIT (1 << 29)
#define TEXT_CODE_SEQ_MAX ((1 << 22) - 1) /* bits 7..28 */
#define IS_TEXT_CODE(code) ((code) >= 0 && (code) <= MPI_ERR_LASTCODE && ((code)&TEXT_CODE_BIT))

static struct {
    int code; /* 0: empty */
    char text[MPI_MAX_ERROR_STRING];
} text_codes[MPI_ERR_TEXT_KEEP];
static int text_seq;

static int text_code_new(int errclass, const char *what)
{
    int seq = text_seq;
    text_seq = text_seq == TEXT_CODE_SEQ_MAX ? 0 : text_seq + 1;
    int code = TEXT_CODE_BIT | seq << 7 | errclass;
    int slot = seq % MPI_ERR_TEXT_KEEP;
    text_codes[slot].code = code;
    snprintf(text_codes[slot].text, sizeof(text_codes[slot].text), "%s: %s",
             mpi_err_class_name(errclass), what);
    return code;
}

int mpi_err_code_valid(int code)
{
    if (IS_TEXT_CODE(code)) {
        return class_valid(code & 0x7f);
    }
    return class_valid(code) || mpi_err_user_is_code(code);
}

int mpi_err_code_class(int code)
{
    if (IS_TEXT_CODE(code)) {
        return code & 0x7f;
    }
    return mpi_err_user_class_of(code);
}

void mpi_err_code_string(int code, char *string)
{
    if (IS_TEXT_CODE(code)) {
        int slot = ((code >> 7) & TEXT_CODE_SEQ_MAX) % MPI_ERR_TEXT_KEEP;
        if (text_codes[slot].code == code) {
            snprintf(string, MPI_MAX_ERROR_STRING, "%s", text_codes[slot].text);
            return;
        }
        code &= 0x7f;
    }
    if (mpi_err_user_string(code, string)) {
        return;
    }
    snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", mpi_err_class_name(code),
             mpi_err_class_text(code));
}

/* the table's entry for a predefined class, NULL for anything else */
static int class_predefined(int code)
{
    return code >= 0 && code < (int)COMPI_ARRAY_SIZE(err_classes) && err_classes[code].name != NULL;
}

const char *mpi_err_class_name(int code)
{
    if (class_predefined(code)) {
        return err_classes[code].name;
    }
    return mpi_err_user_is_class(code) ? "user-defined error class" : "MPI_ERR_UNKNOWN";
}

const char *mpi_err_class_text(int code)
{
    return class_predefined(code) ? err_classes[code].text : "unknown error code";
}

int mpi_err_class_of(compi_status_t st)
{
    switch (st) {
    case COMPI_OK:
    case COMPI_INPROGRESS:
        return MPI_SUCCESS;
    case COMPI_ERR_NO_MEMORY:
        return MPI_ERR_NO_MEM;
    case COMPI_ERR_TRUNCATE:
        return MPI_ERR_TRUNCATE;
    case COMPI_ERR_ROOT:
        return MPI_ERR_ROOT;
    case COMPI_ERR_INVALID_PARAM:
        return MPI_ERR_ARG;
    case COMPI_ERR_INTERNAL:
        return MPI_ERR_INTERN;
    default:
        return MPI_ERR_OTHER;
    }
}

/* the one line a fatal error prints, then the job goes down */
static void __attribute__((noreturn)) err_fatal(const char *func, int errclass, const char *what)
{
    char line[1024], name[MPI_MAX_ERROR_STRING];

    if (class_predefined(errclass) || !mpi_err_user_string(errclass, name) || name[0] == '\0') {
        snprintf(name, sizeof(name), "%s", mpi_err_class_name(mpi_err_code_class(errclass)));
    }
    if (rte_proc.hostname[0] != '\0') {
        snprintf(line, sizeof(line), "compi: rank %d (%s): %s: %s: %s", rte_proc.world_rank,
                 rte_proc.hostname, func, name, what);
    } else { /* before the host is known */
        snprintf(line, sizeof(line), "compi: rank %d: %s: %s: %s", rte_proc.world_rank, func, name,
                 what);
    }
    /* said once: by mpirun, after its own line, or here */
    rte_abort_line(errclass != MPI_SUCCESS ? errclass : 1, line);
}

struct compi_comm mpi_err_any_time;

int mpi_err_invoke(struct compi_comm *comm, int errclass, const char *func, const char *what)
{
    compi_errhandler_t *errh;

    if (comm == MPI_ERR_ANY_TIME) {
        if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
            return errclass;
        }
        comm = NULL;
    }
    if (comm == NULL) {
        comm = comm_world();
    }
    if (comm == NULL || comm->errh == NULL) {
        /* before MPI_COMM_WORLD exists nobody can have asked to get errors back */
        err_fatal(func, errclass, what);
    }
    errh = comm->errh;
    return mpi_err_invoke_errh(errh, comm->handle, errclass, func, what);
}

int mpi_err_invoke_errh(struct compi_errhandler *errh, int handle, int errclass,
                        const char *func, const char *what)
{
    switch (errh->kind) {
    case ERRH_RETURN:
        return errclass;
    case ERRH_USER: {
        MPI_Comm h = handle;
        int code = errclass;
        if (errh->fn != NULL) {
            errh->fn(&h, &code);
        }
        return errclass;
    }
    case ERRH_ABORT:
    case ERRH_FATAL:
    default:
        err_fatal(func, errclass, what);
    }
}

int mpi_err_raise(struct compi_comm *comm, int errclass, const char *func, const char *fmt, ...)
{
    char what[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return mpi_err_invoke(comm, errclass, func, what);
}

int mpi_err_text_code(int errclass, const char *what)
{
    return text_code_new(errclass, what);
}

int mpi_err_raise_text(struct compi_comm *comm, int errclass, const char *func, const char *what,
                       int report)
{
    if (comm == NULL) {
        comm = comm_world();
    }
    if (comm != NULL && comm->errh != NULL &&
        (comm->errh->kind == ERRH_RETURN || comm->errh->kind == ERRH_USER)) {
        int code = text_code_new(errclass, what);
        if (comm->errh->kind == ERRH_USER && comm->errh->fn != NULL) {
            MPI_Comm h = comm->handle;
            int c = code;
            comm->errh->fn(&h, &c);
        }
        return code;
    }
    if (report) {
        err_fatal(func, errclass, what);
    }
    /* the reporter is taking the job down: this rank keeps quiet and waits to be killed
       (the launcher signals every rank), unless that never comes */
    for (int i = 0; i < 100; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    rte_abort(errclass != MPI_SUCCESS ? errclass : 1, what);
}

int mpi_err_not_initialized(const char *func)
{
    const char *when =
        compi_mpi_state == COMPI_STATE_FINALIZED ? "after MPI_Finalize" : "before MPI_Init";

    fprintf(stderr, "compi: %s called %s\n", func, when);
    fflush(stderr);
    exit(1);
}
