/*
 * libdir.h -- where compi's libraries are, for mpirun (the ranks' LD_LIBRARY_PATH) and
 * compi_info --abi.
 */
#ifndef COMPI_LAUNCHER_LIBDIR_H
#define COMPI_LAUNCHER_LIBDIR_H

#include <stddef.h>

/* The folder holding this compi's libmpi.so.12 (and libmpich.so.12, libmpi_abi.so.1):
   the build tree's lib/.libs beside the running program's bin/, else the installed
   library folder (beside COMPI_PKGLIBDIR).  Writes its real path into buf; returns 0, or
   -1 when neither has the library. */
int compi_lib_dir(char *buf, size_t size);

#endif
