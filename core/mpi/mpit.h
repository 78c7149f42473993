/*
 * mpit.h -- what the files of the tool information interface share: mpit_api.c (the
 * interface's life and the control variables), mpit_pvar.c (performance variables and
 * their sessions), mpit_cat.c (categories and enumerations), mpit_event.c (events and
 * sources).
 *
 * Ownership: the enumerations and the categories are static tables; sessions and handles
 * belong to mpit_pvar.c until the tool frees them or the last MPI_T_finalize does.
 * Every function here is called with the library's lock held (COMPI_API_LOCK).  The
 * entry points are generated (tools/mpigen/cgen.py, core/mpi/gen/mpit*.c): they check
 * the interface is up (mpit_initialized) and call each file's t_x_impl.
 */
#ifndef COMPI_MPIT_H
#define COMPI_MPIT_H

#include <mpi.h>

/* MPI_T_init_thread calls not yet balanced by MPI_T_finalize: 0 when the interface is down */
int mpit_initialized(void);
/* a string out through (buf, *len): MPI_T's convention for names and descriptions */
void mpit_string_out(const char *s, char *buf, int *len);

/* the variables by index, for the categories (the number of control variables grows as
   components register their parameters) */
int mpit_cvar_count(void);
const char *mpit_cvar_name(int index);
int mpit_pvar_count(void);
const char *mpit_pvar_name(int index);

/* the last MPI_T_finalize: every session and its handles go */
void mpit_pvar_finalize(void);

/* The enumeration of the parameter `param' when its values are a fixed set, else NULL.
   A string parameter's items are its values (mpit_enum_is_text): mpit_enum_find gives
   the item value of the item named `text' (1), or 0 when none is.  An integer
   parameter's items are its values themselves, and the library reads the others as the
   nearest item: mpit_enum_clamp. */
MPI_T_enum mpit_enum_of(const char *param);
int mpit_enum_is_text(MPI_T_enum e);
int mpit_enum_find(MPI_T_enum e, const char *text, int *value_p);
int mpit_enum_clamp(MPI_T_enum e, int v);

#endif
