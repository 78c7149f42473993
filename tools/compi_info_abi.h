/*
 * compi_info_abi.h -- compi_info --abi (tools/compi_info_abi.c).
 */
#ifndef COMPI_INFO_ABI_H
#define COMPI_INFO_ABI_H

/* prints the ABIs compi offers and, for the program at path (or NULL), the MPI
   libraries it loads under compi's mpirun; returns the exit status (0: it runs on compi) */
int compi_info_abi(const char *path);

#endif
