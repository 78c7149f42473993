/*
 * abi_native.c -- the layer's facts about compi's native ABI, checked against its header
 * (include/mpi.h) when the layer is compiled: the status layout and the sentinels that
 * abi/abi.h spells as numbers, and the native addresses of MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY and MPI_T_PVAR_ALL_HANDLES.  Also the error class maps of
 * abi/gen/abi_tables.c, both ways.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "abi/abi_tables.h"

_Static_assert(sizeof(MPI_Status) == 5 * sizeof(int), "native MPI_Status is 5 ints");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == 2 * sizeof(int), "MPI_SOURCE third");
_Static_assert(offsetof(MPI_Status, MPI_TAG) == 3 * sizeof(int), "MPI_TAG fourth");
_Static_assert(offsetof(MPI_Status, MPI_ERROR) == 4 * sizeof(int), "MPI_ERROR fifth");
_Static_assert(sizeof(MPI_Comm) == sizeof(int), "native handles are ints");
_Static_assert(sizeof(MPI_Session) == sizeof(int), "native sessions are ints");

_Static_assert(MPI_ERR_LASTCODE >= ABI_NERR, "native classes below ABI_NERR");
#ifdef MPI_DISPLACEMENT_CURRENT
_Static_assert(MPI_DISPLACEMENT_CURRENT == -54278278, "abi/abi.h's ABI_N_DISPLACEMENT_CURRENT");
#endif
_Static_assert(sizeof(MPI_File) == sizeof(void *), "native files are pointers");

int *abi_n_unweighted, *abi_n_weights_empty;
void *abi_n_pvar_all_handles;

void abi_native_init(void);
void abi_native_init(void)
{
    /* abi/abi.h's ABI_N_STATUS_IGNORE, ABI_N_STATUSES_IGNORE, ABI_N_IN_PLACE and
       ABI_N_BUFFER_AUTOMATIC */
    if ((intptr_t)MPI_STATUS_IGNORE != 1 || (intptr_t)MPI_STATUSES_IGNORE != 1 ||
        (intptr_t)MPI_IN_PLACE != -1 || (intptr_t)MPI_BUFFER_AUTOMATIC != -2) {
        fprintf(stderr, "libmpi_abi: built for another native mpi.h\n");
        abort();
    }
    abi_n_unweighted = MPI_UNWEIGHTED;
    abi_n_weights_empty = MPI_WEIGHTS_EMPTY;
    abi_n_pvar_all_handles = (void *)MPI_T_PVAR_ALL_HANDLES;
}

int abi_err_n2a(int rc);
int abi_err_n2a(int rc)
{
    if (rc > 0 && rc < ABI_NERR) {
        /* a native class the standard has no name for is MPI_ERR_OTHER */
        return abi_err_n2a_tab[rc] != 0 ? abi_err_n2a_tab[rc] : ABI_ERR_OTHER;
    }
    return rc;
}

int abi_err_in(int code);
int abi_err_in(int code)
{
    if (code > 0 && code < ABI_NERR) {
        return abi_err_a2n_tab[code] != 0 ? abi_err_a2n_tab[code] : MPI_ERR_OTHER;
    }
    if (code >= ABI_T_ERR_CANNOT_INIT && code < ABI_T_ERR_CANNOT_INIT + ABI_NTERR) {
        int n = abi_terr_a2n_tab[code - ABI_T_ERR_CANNOT_INIT];
        return n != 0 ? n : MPI_ERR_OTHER;
    }
    return code;
}
