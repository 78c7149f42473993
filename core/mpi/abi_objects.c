/*
 * abi_objects.c -- the objects of the library that mpi.h names: sentinels whose value is
 * the address of something (MPI_UNWEIGHTED, MPI_F_STATUS_IGNORE, ...), and MPIR_Dup_fn,
 * which MPICH's mpi.h names for MPI_COMM_DUP_FN and its kin.  MPICH's library exports
 * them under these names, so a program built with MPICH's header links against compi's
 * library and passes these values to it (include/mpi.h).
 */
#include <mpi.h>

/* distinct addresses, never read or written through */
static int unweighted_mark, weights_empty_mark;
static MPI_Fint f_status_ignore_mark, f_statuses_ignore_mark;
static char pvar_all_handles_mark;

int *const MPI_UNWEIGHTED = &unweighted_mark;
int *const MPI_WEIGHTS_EMPTY = &weights_empty_mark;
MPI_Fint *MPI_F_STATUS_IGNORE = &f_status_ignore_mark;
MPI_Fint *MPI_F_STATUSES_IGNORE = &f_statuses_ignore_mark;
MPI_T_pvar_handle const MPI_T_PVAR_ALL_HANDLES = (MPI_T_pvar_handle)&pvar_all_handles_mark;

/* exported like the functions of mpi.h (the library is built with hidden visibility) */
__attribute__((visibility("default"))) int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra_state,
                                                       void *attribute_val_in,
                                                       void *attribute_val_out, int *flag);

/* MPI_COMM_DUP_FN under MPICH's name (it copies the value, for any kind of object) */
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra_state, void *attribute_val_in,
                void *attribute_val_out, int *flag)
{
    return MPI_COMM_DUP_FN(comm, keyval, extra_state, attribute_val_in, attribute_val_out, flag);
}
