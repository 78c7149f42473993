/*
 * dt_internal.h -- helpers shared by the files of core/dt, not used outside it.
 *
 * Ownership: dt_alloc returns a zeroed datatype with refcount 1 and a handle; the
 * constructor that called it fills the blocks (heap memory owned by the datatype).
 */
#ifndef COMPI_DT_INTERNAL_H
#define COMPI_DT_INTERNAL_H

#include "core/dt/dt.h"

/* size in bytes of basic type `basic` (an index of the predefined table) */
size_t dt_basic_size(int basic);
/* a new, empty derived datatype with a handle */
compi_status_t dt_alloc(compi_datatype_t **dt_p);
/* sets dt->contig from the blocks, size and extent */
void dt_compute_contig(compi_datatype_t *dt);

#endif
