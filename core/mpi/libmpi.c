/*
 * libmpi.c -- libmpi.so is lib/libcompi.la (all of the library) linked whole, with only
 * MPI_, PMPI_ and MPIX_ symbols exported (core/mpi/libmpi.map).  Automake needs one
 * source file of its own for the library: this is it.
 */
#include <mpi.h>
