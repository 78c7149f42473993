/*
 * bridge_reconfig.c -- resetting the creator table (see bridge_reconfig.h).
 *
 * The table belongs to (compi private); its clear-creators! empties it, and
 * install-default-creators! of (compi defaults) gives it again the entries MPI_Init
 * installed before it loaded the user's files.
 */
#include "scheme/bridge_reconfig.h"

#include "scheme/bridge_scm.h"

#include <stdio.h>

typedef struct reset_args {
    compi_status_t st;
    char *errbuf;
    size_t len;
} reset_args_t;

static SCM reset__body(void *unused)
{
    (void)unused;
    scm_call_0(scm_c_public_ref("compi private", "clear-creators!"));
    scm_call_0(scm_c_public_ref("compi defaults", "install-default-creators!"));
    return SCM_BOOL_T;
}

static SCM reset__handler(void *data, SCM key, SCM args)
{
    (void)data;
    return scm_cons(key, args);
}

static SCM reset__text_body(void *data)
{
    return scm_object_to_string(*(SCM *)data, SCM_UNDEFINED);
}

static SCM reset__text_handler(void *data, SCM key, SCM args)
{
    (void)data;
    (void)key;
    (void)args;
    return scm_from_utf8_string("(an error that cannot be written)");
}

static void *reset__in_guile(void *p)
{
    reset_args_t *a = p;
    SCM r = scm_c_catch(SCM_BOOL_T, reset__body, NULL, reset__handler, NULL, NULL, NULL);
    if (scm_is_eq(r, SCM_BOOL_T)) {
        a->st = COMPI_OK;
        return a;
    }
    char what[512];
    SCM text = scm_c_catch(SCM_BOOL_T, reset__text_body, &r, reset__text_handler, NULL, NULL,
                           NULL);
    bridge_scm_to_buf(text, what, sizeof(what));
    snprintf(a->errbuf, a->len, "cannot reset the creators to the defaults: %s", what);
    a->st = COMPI_ERR_CONFIG;
    return a;
}

compi_status_t bridge_reset_creators(char *errbuf, size_t len)
{
    reset_args_t a = {.st = COMPI_ERR_INTERNAL, .errbuf = errbuf, .len = len};
    if (!bridge_is_initialized()) {
        snprintf(errbuf, len, "the Guile bridge is not initialized");
        return COMPI_ERR_INTERNAL;
    }
    return bridge_with_guile(reset__in_guile, &a.st, errbuf, len);
}
