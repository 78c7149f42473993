/*
 * bridge.h -- the Guile bridge as the rest of compi sees it: no libguile types here.
 *
 * scheme/ is the only C code that calls libguile (ARCHITECTURE.md).  This header lets
 * MPI_Init start Guile, load the user's configuration files and ask which creators are
 * installed, without including libguile.h.  Every function enters Guile mode itself
 * (scm_with_guile), so it may be called from any thread, but the library only calls it
 * from the thread that called MPI_Init.
 *
 * Errors come back as a compi_status_t plus one line of text in the caller's buffer
 * (errbuf, len): no function here prints, aborts or lets a Scheme exception escape.
 * Config errors read "config error: FILE:LINE:COL: what went wrong"; the caller logs
 * them once (compi_log_error("%s", errbuf)) and takes the job down.
 *
 * Ownership: Guile's heap and the Scheme state (the creator table of module (compi))
 * belong to the bridge and live until the process exits; Guile cannot be shut down, so
 * there is no bridge_finalize.  Buffers passed in belong to the caller.
 */
#ifndef COMPI_BRIDGE_H
#define COMPI_BRIDGE_H

#include "core/include/compi_status.h"

#include <stddef.h>

/* Collective kinds: coll_kind_t's, from the same list (core/coll/kinds.def). */
typedef enum bridge_kind {
#define COLL_KIND(e, name) BRIDGE_KIND_##e,
#include "core/coll/kinds.def"
    BRIDGE_KIND_COUNT
} bridge_kind_t;

/* "bcast", "reduce-scatter", ...; NULL for an invalid kind */
const char *bridge_kind_name(bridge_kind_t kind);
/* BRIDGE_KIND_COUNT when `name' is not a kind */
bridge_kind_t bridge_kind_from_name(const char *name);

/*
 * Starts Guile on the calling thread (the first call only; later calls return COMPI_OK),
 * turns auto-compilation off, points the load path at the build tree when this code runs
 * from it (else at the install prefix; COMPI_SCHEME_DIR overrides both), loads the
 * compiled modules (compi) and (compi internal), registers the C primitives and installs
 * the default creators of (compi defaults) (one per kind, before any config file).
 */
compi_status_t bridge_init(char *errbuf, size_t len);
int bridge_is_initialized(void);
/* where the .scm and .go files were taken from (valid after bridge_init) */
const char *bridge_source_dir(void);
const char *bridge_compiled_dir(void);

/* Loads one configuration file in a fresh module that sees (guile) and (compi). */
compi_status_t bridge_load_config(const char *path, char *errbuf, size_t len);
/* Loads a colon-separated list of files in order, stopping at the first error. */
compi_status_t bridge_load_config_list(const char *list, char *errbuf, size_t len);
/* One entry of that list (scheme/bridge_path.c): a path (it has a '/' or ends in .scm)
 * is loaded as given; a bare name ("hierarchical") is NAME.scm of the configs that come
 * with compi ($(pkgdatadir)/configs; examples/configs of the source tree from the build
 * tree), and a name found nowhere is a config error listing where it looked and the
 * names there.  bridge_config_resolve only finds the file (PATH). */
compi_status_t bridge_load_config_entry(const char *entry, char *errbuf, size_t len);
compi_status_t bridge_config_resolve(const char *entry, char *path, size_t pathlen,
                                     char *errbuf, size_t len);
/* The list to load: parameter coll_config (COMPI_MCA_coll_config, mpirun --coll-config),
 * else the environment variable COMPI_COLL_CONFIG, else NULL. */
const char *bridge_config_list(void);

/* How many creators are installed for `kind'. */
compi_status_t bridge_creator_count(bridge_kind_t kind, size_t *count_p);
/* "NAME (installed at FILE:L:C)" of the i-th creator of `kind', latest installed first
 * (for compi_info and coll_verbose). */
compi_status_t bridge_creator_describe(bridge_kind_t kind, size_t i, char *buf, size_t len);

struct coll_call;
struct coll_closure;

/*
 * The trampoline's miss path: runs the creator chain of call->kind on a call object
 * answering from `call' and turns the closure description it returns into a closure in
 * *closure_p (refcount 1, the caller's).  Native algorithms, trees and wrappers become
 * native closures; a Scheme procedure becomes a Scheme closure (is_scheme = 1) that
 * enters Guile on every call.  Any failure -- a Scheme error in a creator, an answer that
 * is not a closure or is for another kind, an unknown or unusable algorithm, an invalid
 * tree -- gives COMPI_ERR_CONFIG and one line naming the creator, where it was installed
 * and the call:
 *   "creator NAME (KIND, installed at FILE:L:C) returned X, which is not a closure
 *    (call: bcast root=0 bytes=8 comm=MPI_COMM_WORLD size=4)"
 * Only reads call->comm's size, rank and name: creators never communicate.
 */
compi_status_t bridge_build_closure(const struct coll_call *call, struct coll_closure **closure_p,
                                    char *errbuf, size_t len);

/* MPI_Init, before the config files load: builds and drops the closures of a few calls
   on `comm` (MPI_COMM_SELF) through the default creators, so that the program's first
   miss does not pay for Guile's first runs of the miss path (bridge_warm.c). */
struct compi_comm;
void bridge_warm_up(struct compi_comm *comm);

/* Who answered the last successful bridge_build_closure, for coll_verbose:
   "creator NAME (KIND, installed at FILE:L:C) returned DESCRIPTION"; kept only after
   bridge_keep_origins(1) (tramp_init, when coll_verbose is on): copying it out of Guile
   costs a miss about 0.3 us, and several times that when the caches are cold. */
const char *bridge_last_origin(void);
void bridge_keep_origins(int on);

/*
 * MPI_Finalize, before the closures go: runs the thunks configs registered with
 * (at-finalize THUNK), in the order they were registered.  A thunk that raises gives
 * COMPI_ERR_CONFIG and one line naming it; the ones after it still run.
 */
compi_status_t bridge_run_finalize_hooks(char *errbuf, size_t len);

#endif
