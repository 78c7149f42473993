/*
 * errors_user.c -- error classes and codes that the application adds (MPI_Add_error_class,
 * MPI_Add_error_code, MPI_Add_error_string) and removes (MPI_Remove_error_class, _code,
 * _string: MPI 4.1).
 *
 * Classes and codes share one counter that starts above MPI_ERR_LASTCODE, so every value
 * handed out is new, below the library's codes with text (errors.h, bit 30 set), and at
 * most MPI_LASTUSEDCODE, which follows the counter.  The value v is entry
 * v - USER_FIRST of one table: the class it belongs to (itself for a class) and the
 * string MPI_Error_string gives ("" until MPI_Add_error_string sets one, as the standard
 * says).  A value removed keeps its entry, marked (class 0, which no added value has):
 * it is no code any more, and is never handed out again.
 *
 * MPI_Error_class and MPI_Error_string, which answer for every code, are here too.  All
 * work at any time, before MPI_Init and after MPI_Finalize too: the entry points
 * (core/mpi/gen/errors_user.c, included last) check the arguments, and the errors are
 * raised on MPI_ERR_ANY_TIME (errors.h), which returns the class outside
 * MPI_Init..MPI_Finalize.
 *
 * Ownership: the table and its strings live until the process ends (MPI_Error_string
 * answers after MPI_Finalize too); a destructor frees them.
 */
#include "core/mpi/args.h"
#include "core/mpi/errors.h"

#include "core/comm/attr.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USER_FIRST (MPI_ERR_LASTCODE + 1)
#define USER_MAX (INT_MAX - USER_FIRST) /* the codes with text lie below USER_FIRST */

typedef struct user_err {
    int errclass;
    int ncodes; /* of a class: its codes not removed (removing it is O(1)) */
    char *text; /* NULL: no string set */
} user_err_t;

static user_err_t *user_errs;
static int n_user, cap_user;

#define REMOVED 0 /* the class of a removed value */

static user_err_t *user_entry(int code)
{
    if (code < USER_FIRST || code - USER_FIRST >= n_user ||
        user_errs[code - USER_FIRST].errclass == REMOVED) {
        return NULL;
    }
    return &user_errs[code - USER_FIRST];
}

int mpi_err_user_is_class(int code)
{
    const user_err_t *e = user_entry(code);
    return e != NULL && e->errclass == code;
}

int mpi_err_user_is_code(int code)
{
    return user_entry(code) != NULL;
}

int mpi_err_user_class_of(int code)
{
    const user_err_t *e = user_entry(code);
    return e != NULL ? e->errclass : code;
}

int mpi_err_user_string(int code, char *string)
{
    const user_err_t *e = user_entry(code);
    if (e == NULL) {
        return 0;
    }
    snprintf(string, MPI_MAX_ERROR_STRING, "%s", e->text != NULL ? e->text : "");
    return 1;
}

/* a new value of class errclass (-1: a new class); MPI_ERR_NO_MEM when none is left */
static int user_new(int errclass, int *value_p)
{
    if (n_user == cap_user) {
        int cap = cap_user ? 2 * cap_user : 16;
        user_err_t *tab = cap_user >= USER_MAX ? NULL : realloc(user_errs, (size_t)cap * sizeof(*tab));
        if (tab == NULL) {
            return MPI_ERR_NO_MEM;
        }
        user_errs = tab;
        cap_user = cap;
    }
    *value_p = USER_FIRST + n_user;
    user_errs[n_user].errclass = errclass < 0 ? *value_p : errclass;
    user_errs[n_user].ncodes = 0;
    user_errs[n_user].text = NULL;
    n_user++;
    if (errclass >= USER_FIRST) {
        user_errs[errclass - USER_FIRST].ncodes++;
    }
    attr_set_lastusedcode(*value_p);
    return MPI_SUCCESS;
}

static int add_error_class_impl(int *errorclass, const char *fn)
{
    int rc = user_new(-1, errorclass);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, rc, fn, "no error class left");
    }
    return MPI_SUCCESS;
}

static int add_error_code_impl(int errorclass, int *errorcode, const char *fn)
{
    /* a class: predefined (not MPI_SUCCESS) or added; a code of a class is not one */
    if (errorclass == MPI_SUCCESS || !mpi_err_code_valid(errorclass) ||
        mpi_err_code_class(errorclass) != errorclass) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "errorclass=%d is not an error class", errorclass);
    }
    int rc = user_new(errorclass, errorcode);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, rc, fn, "no error code left");
    }
    return MPI_SUCCESS;
}

static int add_error_string_impl(int errorcode, const char *string, const char *fn)
{
    user_err_t *e = user_entry(errorcode);
    char *text;
    if (e == NULL) {
        /* the strings of the library's classes and codes cannot be changed */
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "errorcode=%d was not made by MPI_Add_error_class/_code", errorcode);
    }
    if (strlen(string) >= MPI_MAX_ERROR_STRING) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "string of %zu characters (at most %d)", strlen(string),
                             MPI_MAX_ERROR_STRING - 1);
    }
    text = strdup(string);
    if (text == NULL) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    free(e->text);
    e->text = text;
    return MPI_SUCCESS;
}

/* ---- removal --------------------------------------------------------------------------
 * Erroneous calls raise MPI_ERR_ARG: a value the application did not add (the library's
 * classes and codes among them), a class whose codes remain, a class or code whose
 * string remains, a string never set. */

/* the entry of `code' when it was added and is a class (want_class) or a code of one */
static int user_removable(int code, int want_class, const char *fn, user_err_t **e_p)
{
    user_err_t *e = user_entry(code);
    if (e == NULL || (e->errclass == code) != want_class) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn, "%d is no error %s added by %s",
                             code, want_class ? "class" : "code",
                             want_class ? "MPI_Add_error_class" : "MPI_Add_error_code");
    }
    if (e->text != NULL) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "error %s %d still has a string (MPI_Remove_error_string first)",
                             want_class ? "class" : "code", code);
    }
    *e_p = e;
    return MPI_SUCCESS;
}

static int remove_error_class_impl(int errorclass, const char *fn)
{
    user_err_t *e;
    int rc = user_removable(errorclass, 1, fn, &e);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    for (int i = 0; e->ncodes > 0 && i < n_user; i++) {
        if (user_errs[i].errclass == errorclass && USER_FIRST + i != errorclass) {
            return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                                 "error class %d still has error code %d", errorclass,
                                 USER_FIRST + i);
        }
    }
    e->errclass = REMOVED;
    return MPI_SUCCESS;
}

static int remove_error_code_impl(int errorcode, const char *fn)
{
    user_err_t *e;
    int rc = user_removable(errorcode, 0, fn, &e);
    if (rc == MPI_SUCCESS) {
        if (e->errclass >= USER_FIRST) {
            user_errs[e->errclass - USER_FIRST].ncodes--;
        }
        e->errclass = REMOVED;
    }
    return rc;
}

static int remove_error_string_impl(int errorcode, const char *fn)
{
    user_err_t *e = user_entry(errorcode);
    if (e == NULL || e->text == NULL) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "error code %d has no string set by MPI_Add_error_string", errorcode);
    }
    free(e->text);
    e->text = NULL;
    return MPI_SUCCESS;
}

/* ---- the strings and classes of every code (the library's too) ---- */

static int error_string_impl(int errorcode, char *string, int *resultlen, const char *fn)
{
    if (!mpi_err_code_valid(errorcode)) {
        snprintf(string, MPI_MAX_ERROR_STRING, "invalid error code %d", errorcode);
        *resultlen = (int)strlen(string);
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "errorcode=%d is not an MPI error code", errorcode);
    }
    mpi_err_code_string(errorcode, string);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

static int error_class_impl(int errorcode, int *errorclass, const char *fn)
{
    if (!mpi_err_code_valid(errorcode)) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "errorcode=%d is not an MPI error code", errorcode);
    }
    /* a class is its own class; a code made with a text (errors.h) carries its class */
    *errorclass = mpi_err_code_class(errorcode);
    return MPI_SUCCESS;
}

static void __attribute__((destructor)) user_errs_free(void)
{
    for (int i = 0; i < n_user; i++) {
        free(user_errs[i].text);
    }
    free(user_errs);
    user_errs = NULL;
    n_user = cap_user = 0;
}

#include "core/mpi/gen/errors_user.c"
