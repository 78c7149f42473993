/*
 * glue_manual.c -- the Fortran glue no rule of tools/mpigen/mpigen.py writes (its
 * MANUAL table lists these): MPI_Init without argc/argv, callbacks written in Fortran
 * (attribute copy/delete, error handlers, user reductions), attribute values, argument
 * vectors; and the common blocks of mpif.h, the string conversions and the predefined
 * callbacks Fortran programs pass by name (MPI_COMM_DUP_FN, ...).
 */
#include "fortran/glue.h"

#include "core/mpi/fortran_hooks.h"

/* ---- the sentinels' common blocks ------------------------------------------------ */

/* aligned as gfortran aligns common blocks, so that the definitions here (which the
   ones of a program's objects join) satisfy both */
#define COMPI_F_COMMON COMPI_F_EXPORT __attribute__((aligned(32)))
COMPI_F_COMMON MPI_Fint mpi_fortran_bottom_;
COMPI_F_COMMON MPI_Fint mpi_fortran_in_place_;
COMPI_F_COMMON MPI_Fint mpi_fortran_status_ignore_[COMPI_F_STATUS_SIZE];
COMPI_F_COMMON MPI_Fint mpi_fortran_statuses_ignore_[COMPI_F_STATUS_SIZE];
COMPI_F_COMMON MPI_Fint mpi_fortran_errcodes_ignore_;
COMPI_F_COMMON MPI_Fint mpi_fortran_unweighted_;
COMPI_F_COMMON MPI_Fint mpi_fortran_weights_empty_;
COMPI_F_COMMON char mpi_fortran_argv_null_;
COMPI_F_COMMON char mpi_fortran_argvs_null_;
COMPI_F_COMMON MPI_Fint mpi_fortran_buffer_automatic_;

/* ---- strings ------------------------------------------------------------------------- */

char *compi_f_str_in(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ') {
        len--;
    }
    char *c = malloc(len + 1);
    if (c != NULL) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

char *compi_f_info_str_in(const char *s, size_t len)
{
    while (len > 0 && *s == ' ') {
        s++;
        len--;
    }
    return compi_f_str_in(s, len);
}

char *compi_f_str_buf(size_t len)
{
    /* the longest string an MPI function writes is MPI_MAX_INFO_VAL or MPI_MAX_PORT_NAME
       characters (MPI_Info_get writes valuelen, which the program bounds by len) */
    return calloc(len + MPI_MAX_INFO_VAL + MPI_MAX_PORT_NAME + 1, 1);
}

void compi_f_str_out(char *c, char *f, size_t len)
{
    if (c == NULL) {
        return;
    }
    size_t n = strlen(c);
    if (n > len) {
        n = len;
    }
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
    free(c);
}

/* ---- start ----------------------------------------------------------------------------- */

COMPI_F_EXPORT void mpi_init_(MPI_Fint *ierror)
{
    *ierror = MPI_Init(NULL, NULL);
}

COMPI_F_EXPORT void mpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    *ierror = MPI_Init_thread(NULL, NULL, *required, provided);
}

/* ---- attributes: callbacks written in Fortran ------------------------------------ */

/* SUBROUTINE COPY_FN(OLDOBJ, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT,
   FLAG, IERROR) and SUBROUTINE DELETE_FN(OBJ, KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE,
   IERROR), every argument by reference; the values address-sized (MPI-2 and later) or
   default INTEGERs (MPI_KEYVAL_CREATE's) */
typedef void (*f_copy_fn)(MPI_Fint *, MPI_Fint *, void *, void *, void *, MPI_Fint *, MPI_Fint *);
typedef void (*f_delete_fn)(MPI_Fint *, MPI_Fint *, void *, void *, MPI_Fint *);

/* one per keyval made from Fortran, the C callbacks' extra state; never freed (a keyval
   freed while attributes remain keeps its callbacks), all kept on one list */
typedef struct f_keyval {
    struct f_keyval *next;
    f_copy_fn copy;
    f_delete_fn del;
    MPI_Aint extra;   /* the program's extra state */
    MPI_Fint extra_i; /* MPI_KEYVAL_CREATE's */
    int old;          /* values are default INTEGERs */
} f_keyval_t;

static int f_copy(int obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    f_keyval_t *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    if (k->old) {
        MPI_Fint vin = (MPI_Fint)(MPI_Aint)in, vout = 0;
        k->copy(&fobj, &fkey, &k->extra_i, &vin, &vout, &fflag, &ierr);
        if (fflag) {
            *(void **)out = (void *)(MPI_Aint)vout;
        }
    } else {
        MPI_Aint vin = (MPI_Aint)in, vout = 0;
        k->copy(&fobj, &fkey, &k->extra, &vin, &vout, &fflag, &ierr);
        if (fflag) {
            *(void **)out = (void *)vout;
        }
    }
    *flag = fflag != 0;
    return ierr;
}

static int f_delete(int obj, int keyval, void *val, void *extra)
{
    f_keyval_t *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
    if (k->old) {
        MPI_Fint v = (MPI_Fint)(MPI_Aint)val;
        k->del(&fobj, &fkey, &v, &k->extra_i, &ierr);
    } else {
        MPI_Aint v = (MPI_Aint)val;
        k->del(&fobj, &fkey, &v, &k->extra, &ierr);
    }
    return ierr;
}

static f_keyval_t *f_keyvals;

/* MPI_Comm_create_keyval and its kin: the same C type (every handle is an int) */
typedef int (*keyval_create_fn)(MPI_Comm_copy_attr_function *, MPI_Comm_delete_attr_function *,
                                int *, void *);

/* a keyval of `kind` (COMPI_FORTRAN_COMM ...) whose callbacks are the Fortran copy and
   del, with the extra state extra (address-sized) or extra_i (old: MPI_KEYVAL_CREATE's
   default INTEGERs); libmpi is told that they take integers */
static int f_keyval_create(keyval_create_fn create, int kind, void *copy, void *del, int old,
                           MPI_Aint extra, MPI_Fint extra_i, MPI_Fint *keyval)
{
    f_keyval_t *k = calloc(1, sizeof *k);
    if (k == NULL) {
        return MPI_ERR_NO_MEM;
    }
    k->copy = (f_copy_fn)copy;
    k->del = (f_delete_fn)del;
    k->old = old;
    k->extra = extra;
    k->extra_i = extra_i;
    /* pushed atomically: threads may make keyvals at once */
    k->next = __atomic_exchange_n(&f_keyvals, k, __ATOMIC_ACQ_REL);
    int rc = create(f_copy, f_delete, keyval, k);
    if (rc == MPI_SUCCESS) {
        rc = compi_fortran_keyval(kind, *keyval, old ? COMPI_FORTRAN_INT : COMPI_FORTRAN_AINT);
    }
    return rc;
}

COMPI_F_EXPORT void mpi_comm_create_keyval_(void *copy, void *del, MPI_Fint *keyval,
                                            const MPI_Aint *extra, MPI_Fint *ierror)
{
    *ierror = f_keyval_create(MPI_Comm_create_keyval, COMPI_FORTRAN_COMM, copy, del, 0, *extra, 0,
                              keyval);
}

COMPI_F_EXPORT void mpi_type_create_keyval_(void *copy, void *del, MPI_Fint *keyval,
                                            const MPI_Aint *extra, MPI_Fint *ierror)
{
    *ierror = f_keyval_create(MPI_Type_create_keyval, COMPI_FORTRAN_TYPE, copy, del, 0, *extra, 0,
                              keyval);
}

COMPI_F_EXPORT void mpi_win_create_keyval_(void *copy, void *del, MPI_Fint *keyval,
                                           const MPI_Aint *extra, MPI_Fint *ierror)
{
    *ierror =
        f_keyval_create(MPI_Win_create_keyval, COMPI_FORTRAN_WIN, copy, del, 0, *extra, 0, keyval);
}

COMPI_F_EXPORT void mpi_keyval_create_(void *copy, void *del, MPI_Fint *keyval,
                                       const MPI_Fint *extra, MPI_Fint *ierror)
{
    *ierror =
        f_keyval_create(MPI_Keyval_create, COMPI_FORTRAN_COMM, copy, del, 1, 0, *extra, keyval);
}

/* the predefined callbacks, as Fortran calls them */
COMPI_F_EXPORT void mpi_comm_null_copy_fn_(MPI_Fint *obj, MPI_Fint *key, MPI_Aint *extra,
                                           MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                                           MPI_Fint *ierr)
{
    *flag = 0;
    *ierr = MPI_SUCCESS;
}

COMPI_F_EXPORT void mpi_comm_dup_fn_(MPI_Fint *obj, MPI_Fint *key, MPI_Aint *extra, MPI_Aint *in,
                                     MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}

COMPI_F_EXPORT void mpi_comm_null_delete_fn_(MPI_Fint *obj, MPI_Fint *key, MPI_Aint *val,
                                             MPI_Aint *extra, MPI_Fint *ierr)
{
    *ierr = MPI_SUCCESS;
}

COMPI_F_EXPORT void mpi_null_copy_fn_(MPI_Fint *obj, MPI_Fint *key, MPI_Fint *extra, MPI_Fint *in,
                                      MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    *flag = 0;
    *ierr = MPI_SUCCESS;
}

COMPI_F_EXPORT void mpi_dup_fn_(MPI_Fint *obj, MPI_Fint *key, MPI_Fint *extra, MPI_Fint *in,
                                MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}

COMPI_F_EXPORT void mpi_null_delete_fn_(MPI_Fint *obj, MPI_Fint *key, MPI_Fint *val,
                                        MPI_Fint *extra, MPI_Fint *ierr)
{
    *ierr = MPI_SUCCESS;
}

/* the type and window ones are the communicator ones under other names */
COMPI_F_ALIAS(mpi_type_null_copy_fn_, mpi_comm_null_copy_fn_);
COMPI_F_ALIAS(mpi_type_dup_fn_, mpi_comm_dup_fn_);
COMPI_F_ALIAS(mpi_type_null_delete_fn_, mpi_comm_null_delete_fn_);
COMPI_F_ALIAS(mpi_win_null_copy_fn_, mpi_comm_null_copy_fn_);
COMPI_F_ALIAS(mpi_win_dup_fn_, mpi_comm_dup_fn_);
COMPI_F_ALIAS(mpi_win_null_delete_fn_, mpi_comm_null_delete_fn_);

/* ---- attribute values: integers, as Fortran sets them -------------------------------
   libmpi keeps the form (core/mpi/fortran_hooks.h): a value set here reads in C as a
   pointer to the integer, one set in C reads here as the pointer's address, and the
   predefined ones as their values */

COMPI_F_EXPORT void mpi_comm_set_attr_(const MPI_Comm *comm, const MPI_Fint *keyval,
                                       const MPI_Aint *val, MPI_Fint *ierror)
{
    *ierror = compi_fortran_comm_set_attr(*comm, *keyval, *val, COMPI_FORTRAN_AINT);
}

COMPI_F_EXPORT void mpi_attr_put_(const MPI_Comm *comm, const MPI_Fint *keyval, const MPI_Fint *val,
                                  MPI_Fint *ierror)
{
    *ierror = compi_fortran_comm_set_attr(*comm, *keyval, *val, COMPI_FORTRAN_INT);
}

COMPI_F_EXPORT void mpi_type_set_attr_(const MPI_Datatype *type, const MPI_Fint *keyval,
                                       const MPI_Aint *val, MPI_Fint *ierror)
{
    *ierror = compi_fortran_type_set_attr(*type, *keyval, *val);
}

COMPI_F_EXPORT void mpi_win_set_attr_(const MPI_Win *win, const MPI_Fint *keyval,
                                      const MPI_Aint *val, MPI_Fint *ierror)
{
    *ierror = compi_fortran_win_set_attr(*win, *keyval, *val);
}

COMPI_F_EXPORT void mpi_comm_get_attr_(const MPI_Comm *comm, const MPI_Fint *keyval, MPI_Aint *val,
                                       MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = 0;
    int f = 0;
    *ierror = compi_fortran_comm_get_attr(*comm, *keyval, &v, &f, COMPI_FORTRAN_AINT);
    *flag = f != 0;
    if (*ierror == MPI_SUCCESS && f) {
        *val = v;
    }
}

/* MPI_ATTR_GET: a default INTEGER, the low part of a longer value */
COMPI_F_EXPORT void mpi_attr_get_(const MPI_Comm *comm, const MPI_Fint *keyval, MPI_Fint *val,
                                  MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = 0;
    int f = 0;
    *ierror = compi_fortran_comm_get_attr(*comm, *keyval, &v, &f, COMPI_FORTRAN_INT);
    *flag = f != 0;
    if (*ierror == MPI_SUCCESS && f) {
        *val = (MPI_Fint)v;
    }
}

COMPI_F_EXPORT void mpi_type_get_attr_(const MPI_Datatype *type, const MPI_Fint *keyval,
                                       MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = 0;
    int f = 0;
    *ierror = compi_fortran_type_get_attr(*type, *keyval, &v, &f);
    *flag = f != 0;
    if (*ierror == MPI_SUCCESS && f) {
        *val = v;
    }
}

COMPI_F_EXPORT void mpi_win_get_attr_(const MPI_Win *win, const MPI_Fint *keyval, MPI_Aint *val,
                                      MPI_Fint *flag, MPI_Fint *ierror)
{
    MPI_Aint v = 0;
    int f = 0;
    *ierror = compi_fortran_win_get_attr(*win, *keyval, &v, &f);
    *flag = f != 0;
    if (*ierror == MPI_SUCCESS && f) {
        *val = v;
    }
}

/* ---- error handlers and user reductions: called as C calls them ------------------------
   SUBROUTINE HANDLER(OBJ, ERROR_CODE) is C's handler(MPI_Comm *, int *), and
   SUBROUTINE USER_FUNCTION(INVEC, INOUTVEC, LEN, DATATYPE) is C's MPI_User_function:
   every argument a pointer, handles ints in both */

COMPI_F_EXPORT void mpi_comm_create_errhandler_(void *fn, MPI_Errhandler *errhandler,
                                                MPI_Fint *ierror)
{
    *ierror = MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)fn, errhandler);
}

COMPI_F_EXPORT void mpi_win_create_errhandler_(void *fn, MPI_Errhandler *errhandler,
                                               MPI_Fint *ierror)
{
    *ierror = MPI_Win_create_errhandler((MPI_Win_errhandler_function *)fn, errhandler);
}

COMPI_F_EXPORT void mpi_session_create_errhandler_(void *fn, MPI_Errhandler *errhandler,
                                                   MPI_Fint *ierror)
{
    *ierror = MPI_Session_create_errhandler((MPI_Session_errhandler_function *)fn, errhandler);
}

/* A file handler is the exception: C passes the MPI_File (a pointer), Fortran wants its
   INTEGER handle.  The C handler made here finds the file's handler again, looks up the
   Fortran subroutine registered with it and calls that with MPI_File_c2f of the file. */
typedef void(f_file_handler_t)(MPI_Fint *, MPI_Fint *);
#define F_FILE_HANDLERS 64
static struct {
    MPI_Errhandler h;
    f_file_handler_t *fn;
} f_file_handlers[F_FILE_HANDLERS];
static int f_nfile_handlers;

static void f_file_handler_call(MPI_File *fh, int *code, ...)
{
    MPI_Errhandler e;
    if (MPI_File_get_errhandler(*fh, &e) != MPI_SUCCESS) {
        return;
    }
    for (int i = 0; i < f_nfile_handlers; i++) {
        if (f_file_handlers[i].h == e) {
            MPI_Fint f = MPI_File_c2f(*fh), c = *code;
            f_file_handlers[i].fn(&f, &c);
            break;
        }
    }
    MPI_Errhandler_free(&e);
}

COMPI_F_EXPORT void mpi_file_create_errhandler_(void *fn, MPI_Errhandler *errhandler,
                                                MPI_Fint *ierror)
{
    if (f_nfile_handlers == F_FILE_HANDLERS) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *ierror = MPI_File_create_errhandler(f_file_handler_call, errhandler);
    if (*ierror == MPI_SUCCESS) {
        f_file_handlers[f_nfile_handlers].h = *errhandler;
        f_file_handlers[f_nfile_handlers++].fn = (f_file_handler_t *)fn;
    }
}

COMPI_F_EXPORT void mpi_op_create_(void *fn, const MPI_Fint *commute, MPI_Op *op, MPI_Fint *ierror)
{
    *ierror = MPI_Op_create((MPI_User_function *)fn, *commute != 0, op);
}

/* ---- the rest ------------------------------------------------------------------------ */

/* BUFFER_ADDR means nothing in Fortran: the program keeps its own buffer */
COMPI_F_EXPORT void mpi_buffer_detach_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierror)
{
    void *addr = NULL;
    *ierror = MPI_Buffer_detach(&addr, size);
}

COMPI_F_EXPORT void mpi_comm_detach_buffer_(MPI_Fint *comm, void *buffer_addr, MPI_Fint *size,
                                            MPI_Fint *ierror)
{
    void *addr = NULL;
    *ierror = MPI_Comm_detach_buffer(MPI_Comm_f2c(*comm), &addr, size);
}

COMPI_F_EXPORT void mpi_session_detach_buffer_(MPI_Fint *session, void *buffer_addr, MPI_Fint *size,
                                               MPI_Fint *ierror)
{
    void *addr = NULL;
    *ierror = MPI_Session_detach_buffer(MPI_Session_f2c(*session), &addr, size);
}

static int f_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] != ' ') {
            return 0;
        }
    }
    return 1;
}

/* an argument vector of Fortran strings: n strings of length len, stride apart (in
   strings), up to the first blank one; NULL for none (free it with f_argv_free) */
static char **f_argv(const char *argv, size_t len, size_t stride)
{
    size_t n = 0;
    while (!f_blank(argv + n * stride * len, len)) {
        n++;
    }
    char **c = calloc(n + 1, sizeof *c);
    for (size_t i = 0; c != NULL && i < n; i++) {
        c[i] = compi_f_str_in(argv + i * stride * len, len);
    }
    return c;
}

static void f_argv_free(char **argv)
{
    for (size_t i = 0; argv != NULL && argv[i] != NULL; i++) {
        free(argv[i]);
    }
    free(argv);
}

/* ARGV(*): blank-padded strings, the first blank one ends the list */
COMPI_F_EXPORT void mpi_comm_spawn_(char *command, char *argv, const MPI_Fint *maxprocs,
                                    const MPI_Info *info, const MPI_Fint *root,
                                    const MPI_Comm *comm, MPI_Comm *intercomm, MPI_Fint *errcodes,
                                    MPI_Fint *ierror, size_t command_len, size_t argv_len)
{
    char *cmd = compi_f_str_in(command, command_len);
    char **cargv = argv == &mpi_fortran_argv_null_ ? MPI_ARGV_NULL : f_argv(argv, argv_len, 1);
    *ierror = MPI_Comm_spawn(cmd, cargv, *maxprocs, *info, *root, *comm, intercomm,
                             compi_f_errcodes(errcodes));
    f_argv_free(cargv);
    free(cmd);
}

/* ARRAY_OF_ARGV(COUNT, *): command i's arguments are row i, column-major */
COMPI_F_EXPORT void mpi_comm_spawn_multiple_(const MPI_Fint *count, char *commands, char *argvs,
                                             MPI_Fint *maxprocs, MPI_Info *infos,
                                             const MPI_Fint *root, const MPI_Comm *comm,
                                             MPI_Comm *intercomm, MPI_Fint *errcodes,
                                             MPI_Fint *ierror, size_t commands_len,
                                             size_t argvs_len)
{
    int n = *count > 0 ? *count : 0;
    char **cmds = calloc((size_t)n + 1, sizeof *cmds);
    char ***cargvs =
        argvs == &mpi_fortran_argvs_null_ ? MPI_ARGVS_NULL : calloc((size_t)n + 1, sizeof *cargvs);
    for (int i = 0; cmds != NULL && i < n; i++) {
        cmds[i] = compi_f_str_in(commands + (size_t)i * commands_len, commands_len);
        if (cargvs != NULL) {
            cargvs[i] = f_argv(argvs + (size_t)i * argvs_len, argvs_len, (size_t)n);
        }
    }
    *ierror = MPI_Comm_spawn_multiple(*count, cmds, cargvs, maxprocs, infos, *root, *comm,
                                      intercomm, compi_f_errcodes(errcodes));
    for (int i = 0; i < n; i++) {
        if (cmds != NULL) {
            free(cmds[i]);
        }
        if (cargvs != NULL) {
            f_argv_free(cargvs[i]);
        }
    }
    free(cmds);
    free(cargvs);
}

/* MPI_PCONTROL(LEVEL), without IERROR: C's takes more arguments than Fortran can give */
COMPI_F_EXPORT void mpi_pcontrol_(const MPI_Fint *level)
{
    MPI_Pcontrol(*level);
}

/* MPI_INFO_GET_STRING(INFO, KEY, BUFLEN, VALUE, FLAG, IERROR): in Fortran BUFLEN counts
   characters, without C's terminating null, both ways; VALUE is left alone when the key is
   not there or BUFLEN is 0, else it gets at most BUFLEN characters, blank-padded */
COMPI_F_EXPORT void mpi_info_get_string_(const MPI_Info *info, char *key, MPI_Fint *buflen,
                                         char *value, MPI_Fint *flag, MPI_Fint *ierror,
                                         size_t key_len, size_t value_len)
{
    char *c_key = compi_f_info_str_in(key, key_len);
    int c_len = *buflen > 0 ? *buflen + 1 : 0;
    char *c_value = c_len > 0 ? calloc((size_t)c_len, 1) : NULL;
    int c_flag = 0;
    if (c_key == NULL || (c_len > 0 && c_value == NULL)) {
        free(c_key);
        free(c_value);
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *ierror = MPI_Info_get_string(*info, c_key, &c_len, c_value, &c_flag);
    free(c_key);
    if (*ierror == MPI_SUCCESS) {
        *flag = c_flag ? 1 : 0;
        if (c_flag) {
            *buflen = c_len - 1;
        }
    }
    if (*ierror == MPI_SUCCESS && c_flag && c_value != NULL) {
        compi_f_str_out(c_value, value, value_len);
    } else {
        free(c_value);
    }
}

/* generalized requests whose callbacks are Fortran subroutines: QUERY_FN(EXTRA_STATE,
   STATUS, IERROR), FREE_FN(EXTRA_STATE, IERROR), CANCEL_FN(EXTRA_STATE, COMPLETE,
   IERROR), the extra state address-sized; this is the C callbacks' extra state, freed by
   the free callback.  The callbacks get the program's own EXTRA_STATE variable, the one
   given to MPI_GREQUEST_START, as from MPICH and Open MPI: what a callback writes there
   the program sees (so that variable must live until the request is freed). */
typedef struct f_greq {
    void (*query)(MPI_Aint *, MPI_Fint *, MPI_Fint *);
    void (*free)(MPI_Aint *, MPI_Fint *);
    void (*cancel)(MPI_Aint *, MPI_Fint *, MPI_Fint *);
    MPI_Aint *extra;
} f_greq_t;

static int f_greq_query(void *extra, MPI_Status *status)
{
    f_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(g->extra, (MPI_Fint *)(void *)status, &ierr);
    return ierr;
}

static int f_greq_free(void *extra)
{
    f_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(g->extra, &ierr);
    free(g);
    return ierr;
}

static int f_greq_cancel(void *extra, int complete)
{
    f_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS, fcomplete = complete != 0;
    g->cancel(g->extra, &fcomplete, &ierr);
    return ierr;
}

COMPI_F_EXPORT void mpi_grequest_start_(void *query, void *freefn, void *cancel, MPI_Aint *extra,
                                        MPI_Request *request, MPI_Fint *ierror)
{
    f_greq_t *g = malloc(sizeof *g);
    if (g == NULL) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    g->query = (void (*)(MPI_Aint *, MPI_Fint *, MPI_Fint *))query;
    g->free = (void (*)(MPI_Aint *, MPI_Fint *))freefn;
    g->cancel = (void (*)(MPI_Aint *, MPI_Fint *, MPI_Fint *))cancel;
    g->extra = extra;
    *ierror = MPI_Grequest_start(f_greq_query, f_greq_free, f_greq_cancel, g, request);
    if (*ierror != MPI_SUCCESS) {
        free(g);
    }
}

/* ---- MPI-1's datatype procedures that MPI-3.0 removed ---------------------------------- */

/* Programs still call them (MPICH and Open MPI keep them).  Their Fortran forms take
   displacements and extents as default INTEGERs, not INTEGER(KIND=MPI_ADDRESS_KIND):
   widened on the way in, narrowed on the way out. */

/* a copy of n INTEGER displacements as MPI_Aint (free it); NULL when out of memory */
static MPI_Aint *f_aints(const MPI_Fint *d, MPI_Fint n)
{
    MPI_Aint *a = malloc((n > 0 ? (size_t)n : 1) * sizeof *a);
    for (MPI_Fint i = 0; a != NULL && i < n; i++) {
        a[i] = d[i];
    }
    return a;
}

COMPI_F_EXPORT void mpi_type_hvector_(const MPI_Fint *count, const MPI_Fint *blocklength,
                                      const MPI_Fint *stride, const MPI_Datatype *oldtype,
                                      MPI_Datatype *newtype, MPI_Fint *ierror)
{
    *ierror = MPI_Type_hvector(*count, *blocklength, *stride, *oldtype, newtype);
}

COMPI_F_EXPORT void mpi_type_hindexed_(const MPI_Fint *count, MPI_Fint *blocklengths,
                                       const MPI_Fint *displacements, const MPI_Datatype *oldtype,
                                       MPI_Datatype *newtype, MPI_Fint *ierror)
{
    MPI_Aint *d = f_aints(displacements, *count);
    if (d == NULL) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *ierror = MPI_Type_hindexed(*count, blocklengths, d, *oldtype, newtype);
    free(d);
}

COMPI_F_EXPORT void mpi_type_struct_(const MPI_Fint *count, MPI_Fint *blocklengths,
                                     const MPI_Fint *displacements, MPI_Datatype *types,
                                     MPI_Datatype *newtype, MPI_Fint *ierror)
{
    MPI_Aint *d = f_aints(displacements, *count);
    if (d == NULL) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *ierror = MPI_Type_struct(*count, blocklengths, d, types, newtype);
    free(d);
}

COMPI_F_EXPORT void mpi_type_extent_(const MPI_Datatype *datatype, MPI_Fint *extent,
                                     MPI_Fint *ierror)
{
    MPI_Aint a = 0;
    *ierror = MPI_Type_extent(*datatype, &a);
    if (*ierror == MPI_SUCCESS) {
        *extent = (MPI_Fint)a;
    }
}

COMPI_F_EXPORT void mpi_type_lb_(const MPI_Datatype *datatype, MPI_Fint *displacement,
                                 MPI_Fint *ierror)
{
    MPI_Aint a = 0;
    *ierror = MPI_Type_lb(*datatype, &a);
    if (*ierror == MPI_SUCCESS) {
        *displacement = (MPI_Fint)a;
    }
}

COMPI_F_EXPORT void mpi_type_ub_(const MPI_Datatype *datatype, MPI_Fint *displacement,
                                 MPI_Fint *ierror)
{
    MPI_Aint a = 0;
    *ierror = MPI_Type_ub(*datatype, &a);
    if (*ierror == MPI_SUCCESS) {
        *displacement = (MPI_Fint)a;
    }
}

/* MPI_F_SYNC_REG(BUF): nothing, in a call the compiler cannot see through, so it must
   assume BUF read and written there (a buffer of a nonblocking call kept in registers
   across its completion) */
COMPI_F_EXPORT void mpi_f_sync_reg_(void *buf)
{
    (void)buf;
}

/* the profiling names of the procedures above (glue.h) */
COMPI_F_ALIAS(pmpi_init_, mpi_init_);
COMPI_F_ALIAS(pmpi_init_thread_, mpi_init_thread_);
COMPI_F_ALIAS(pmpi_comm_create_keyval_, mpi_comm_create_keyval_);
COMPI_F_ALIAS(pmpi_type_create_keyval_, mpi_type_create_keyval_);
COMPI_F_ALIAS(pmpi_win_create_keyval_, mpi_win_create_keyval_);
COMPI_F_ALIAS(pmpi_keyval_create_, mpi_keyval_create_);
COMPI_F_ALIAS(pmpi_comm_set_attr_, mpi_comm_set_attr_);
COMPI_F_ALIAS(pmpi_attr_put_, mpi_attr_put_);
COMPI_F_ALIAS(pmpi_type_set_attr_, mpi_type_set_attr_);
COMPI_F_ALIAS(pmpi_win_set_attr_, mpi_win_set_attr_);
COMPI_F_ALIAS(pmpi_comm_get_attr_, mpi_comm_get_attr_);
COMPI_F_ALIAS(pmpi_attr_get_, mpi_attr_get_);
COMPI_F_ALIAS(pmpi_type_get_attr_, mpi_type_get_attr_);
COMPI_F_ALIAS(pmpi_win_get_attr_, mpi_win_get_attr_);
COMPI_F_ALIAS(pmpi_comm_create_errhandler_, mpi_comm_create_errhandler_);
COMPI_F_ALIAS(pmpi_win_create_errhandler_, mpi_win_create_errhandler_);
COMPI_F_ALIAS(pmpi_session_create_errhandler_, mpi_session_create_errhandler_);
COMPI_F_ALIAS(pmpi_file_create_errhandler_, mpi_file_create_errhandler_);
COMPI_F_ALIAS(pmpi_op_create_, mpi_op_create_);
COMPI_F_ALIAS(pmpi_buffer_detach_, mpi_buffer_detach_);
COMPI_F_ALIAS(pmpi_comm_detach_buffer_, mpi_comm_detach_buffer_);
COMPI_F_ALIAS(pmpi_session_detach_buffer_, mpi_session_detach_buffer_);
COMPI_F_ALIAS(pmpi_comm_spawn_, mpi_comm_spawn_);
COMPI_F_ALIAS(pmpi_comm_spawn_multiple_, mpi_comm_spawn_multiple_);
COMPI_F_ALIAS(pmpi_pcontrol_, mpi_pcontrol_);
COMPI_F_ALIAS(pmpi_grequest_start_, mpi_grequest_start_);
COMPI_F_ALIAS(pmpi_info_get_string_, mpi_info_get_string_);
COMPI_F_ALIAS(pmpi_type_hvector_, mpi_type_hvector_);
COMPI_F_ALIAS(pmpi_type_hindexed_, mpi_type_hindexed_);
COMPI_F_ALIAS(pmpi_type_struct_, mpi_type_struct_);
COMPI_F_ALIAS(pmpi_type_extent_, mpi_type_extent_);
COMPI_F_ALIAS(pmpi_type_lb_, mpi_type_lb_);
COMPI_F_ALIAS(pmpi_type_ub_, mpi_type_ub_);
COMPI_F_ALIAS(pmpi_f_sync_reg_, mpi_f_sync_reg_);
