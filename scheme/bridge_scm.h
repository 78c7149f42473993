/*
 * bridge_scm.h -- the bridge's internal interface, with libguile types.  Included only by
 * files under scheme/: everything else goes through bridge.h.
 *
 * Every function here must be called in Guile mode (inside scm_with_guile, as the
 * bridge.h entry points arrange).  None of them lets a Scheme exception or a non-local
 * exit escape to its caller.
 *
 * Ownership: SCM values returned are owned by Guile's collector; a caller that keeps one
 * beyond the current call in C heap or static memory must protect it
 * (scm_gc_protect_object) -- the bridge's own cached procedures are protected in
 * bridge.c.  No finalizers anywhere.
 */
#ifndef COMPI_BRIDGE_SCM_H
#define COMPI_BRIDGE_SCM_H

#include "bridge.h"
#include "compi_status.h"

#include <libguile.h>
#include <stddef.h>

/*
 * Applies `proc' to the list `args' with every Scheme exception caught: COMPI_OK and the
 * value in *result_p (may be NULL), or COMPI_ERR_CONFIG and one line in errbuf naming the
 * creator or procedure that failed and what went wrong.
 */
compi_status_t bridge_call(SCM proc, SCM args, SCM *result_p, char *errbuf, size_t len);

/* Defines and exports the primitives of bridge_prims.c in `module'. */
void bridge_prims_register(SCM module);

/* Copies a Scheme string (or anything, written as Scheme writes it) into buf. */
void bridge_scm_to_buf(SCM obj, char *buf, size_t len);

#endif
