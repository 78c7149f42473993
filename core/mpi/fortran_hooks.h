/*
 * fortran_hooks.h -- what libmpi offers the Fortran library (lib/libmpifort,
 * fortran/glue_manual.c) beyond MPI's own procedures: attributes in Fortran's forms.
 *
 * MPI keeps the form an attribute value was set in (MPI 4.1, 19.3.7; core/comm/attr.h):
 * a C program reads a value set from Fortran as a pointer to MPI's copy of the integer,
 * which MPI_Comm_set_attr's void * cannot say, so the Fortran library sets and reads
 * attributes here instead.  Each call checks its handle and raises errors as the MPI
 * procedure it stands for.  libmpi exports these names (core/mpi/libmpi.map); they are
 * not an interface for programs.
 */
#ifndef COMPI_MPI_FORTRAN_HOOKS_H
#define COMPI_MPI_FORTRAN_HOOKS_H

#include <mpi.h>

/* the form of an integer set from Fortran: INTEGER (MPI_ATTR_PUT, MPI_KEYVAL_CREATE's
   callbacks) or INTEGER(KIND=MPI_ADDRESS_KIND) (the MPI-2 calls) */
#define COMPI_FORTRAN_INT 1
#define COMPI_FORTRAN_AINT 2

/* the objects a keyval serves */
#define COMPI_FORTRAN_COMM 1
#define COMPI_FORTRAN_TYPE 2
#define COMPI_FORTRAN_WIN 3

#pragma GCC visibility push(default)

/* keyval (of `kind`) was made from Fortran: its callbacks take and give integers of
   `form` (passed as void *) */
int compi_fortran_keyval(int kind, int keyval, int form);

/* MPI_COMM_SET_ATTR (form AINT) and MPI_ATTR_PUT (form INT) */
int compi_fortran_comm_set_attr(MPI_Comm comm, int keyval, MPI_Aint val, int form);
/* MPI_COMM_GET_ATTR and MPI_ATTR_GET: the value as Fortran reads it (a pointer set from
   C as its address; MPI_ATTR_GET's caller truncates it) */
int compi_fortran_comm_get_attr(MPI_Comm comm, int keyval, MPI_Aint *val, int *flag, int form);
int compi_fortran_type_set_attr(MPI_Datatype type, int keyval, MPI_Aint val);
int compi_fortran_type_get_attr(MPI_Datatype type, int keyval, MPI_Aint *val, int *flag);
int compi_fortran_win_set_attr(MPI_Win win, int keyval, MPI_Aint val);
/* also the predefined window keys, as values (MPI_WIN_BASE as an address) */
int compi_fortran_win_get_attr(MPI_Win win, int keyval, MPI_Aint *val, int *flag);

#pragma GCC visibility pop

#endif
