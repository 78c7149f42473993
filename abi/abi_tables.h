/*
 * abi_tables.h -- what abi/gen/abi_tables.c sees: compi's native header (mpi.h) and the
 * standard ABI's names renamed ABI_ (abi/gen/abi_names.h), so that one file maps each
 * name of one to the same name of the other.
 */
#ifndef COMPI_ABI_TABLES_H
#define COMPI_ABI_TABLES_H

#include <mpi.h>

#include "abi/gen/abi_names.h"

#define ABI_NPRE 1024
#define ABI_NERR 128
#define ABI_NTERR 32

extern const int abi_pre[ABI_NPRE];
extern const int abi_err_n2a_tab[ABI_NERR];
extern const int abi_err_a2n_tab[ABI_NERR];
extern const int abi_terr_a2n_tab[ABI_NTERR];

#endif
