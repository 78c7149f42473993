/*
 * errors.h -- raising MPI errors at the API layer.
 *
 * Internal code returns compi_status_t; only the API layer (core/mpi/) turns problems
 * into MPI error classes and calls the communicator's error handler:
 *
 *     if (count < 0)
 *         return mpi_err_raise(comm, MPI_ERR_COUNT, __func__, "count=%d is negative", count);
 *
 * mpi_err_raise() invokes the handler of `comm` (MPI_COMM_WORLD's when comm is NULL):
 * MPI_ERRORS_ARE_FATAL prints "compi: MPI_Send: MPI_ERR_COUNT: count=-1 is negative"
 * (rank and host prefixed) and aborts the job; MPI_ERRORS_RETURN returns the class;
 * user handlers are called with the class.  The function name passed is the MPI_ name
 * (PMPI_Send reports as MPI_Send).
 */
#ifndef COMPI_ERRORS_H
#define COMPI_ERRORS_H

#include "core/include/compi_status.h"

#include <mpi.h>

struct compi_comm;

int mpi_err_raise(struct compi_comm *comm, int errclass, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* MPI error class for an internal status */
int mpi_err_class_of(compi_status_t st);

/* error checks before MPI_Init / after MPI_Finalize: prints and aborts */
int mpi_err_not_initialized(const char *func);

/*
 * What the checks of the procedures callable at any time (MPI_Info_*, MPI_Error_class,
 * MPI_Add_error_class...: tools/mpigen/cgen.py's CALLABLE_ANY_TIME) raise on: while MPI
 * is initialized MPI_COMM_WORLD's handler, as NULL; before MPI_Init and after
 * MPI_Finalize the class is returned and no handler is called (MPI-4.1, 11.4.1).
 */
extern struct compi_comm mpi_err_any_time;
#define MPI_ERR_ANY_TIME (&mpi_err_any_time)

/* mpi_err_raise with the message already written (MPI_Comm_call_errhandler) */
int mpi_err_invoke(struct compi_comm *comm, int errclass, const char *func, const char *what);
/* the same with a handler and the handle it gets (a session's: core/mpi/session_api.c) */
struct compi_errhandler;
int mpi_err_invoke_errh(struct compi_errhandler *errh, int handle, int errclass,
                        const char *func, const char *what);

/*
 * Error codes that carry their own text.  A failure whose words only the library knows (a
 * creator's message, ranks that built different closures) is returned as a code made for
 * it: its class is `errclass`, and MPI_Error_string gives "CLASS_NAME: what".  A code is
 * (1 << 29) | sequence << 7 | class (below MPI_ERR_LASTCODE), so MPI_Error_class answers
 * for every code ever made; the texts of the last MPI_ERR_TEXT_KEEP codes are kept (an
 * older code's string is its class's).
 *
 * mpi_err_raise_text raises such a code on `comm`'s error handler.  Under
 * MPI_ERRORS_ARE_FATAL the rank with `report` set prints the one line and aborts the
 * job; a rank without it prints nothing and waits to be taken down with the others
 * (after a second it aborts the job itself, quietly, should the reporter not have).
 * Nothing is printed under MPI_ERRORS_RETURN or a user's handler.
 */
#define MPI_ERR_TEXT_KEEP 64
int mpi_err_raise_text(struct compi_comm *comm, int errclass, const char *func, const char *what,
                       int report);

/* a code with text, of class `errclass`, made without calling any error handler (the
   MPI_T functions, which only return their errors) */
int mpi_err_text_code(int errclass, const char *what);

/* error codes: valid code? (a class or a code with text), its class */
int mpi_err_code_valid(int code);
int mpi_err_code_class(int code);
/* "CLASS_NAME: description" of any valid code into string (MPI_MAX_ERROR_STRING) */
void mpi_err_code_string(int code, char *string);
/* error classes: "MPI_ERR_RANK", "invalid rank" */
const char *mpi_err_class_name(int code);
const char *mpi_err_class_text(int code);

/*
 * Classes and codes the application adds (errors_user.c): values above MPI_ERR_LASTCODE.
 * is_class/is_code: made by MPI_Add_error_class (/_code); class_of: the class of an added
 * code (any other value comes back unchanged); string: its text ("" when none was set)
 * into string (MPI_MAX_ERROR_STRING), 0 when `code` was not added.
 */
int mpi_err_user_is_class(int code);
int mpi_err_user_is_code(int code);
int mpi_err_user_class_of(int code);
int mpi_err_user_string(int code, char *string);

#endif
