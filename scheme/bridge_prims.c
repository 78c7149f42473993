/*
 * bridge_prims.c -- the C primitives that Scheme code sees in module (compi), defined
 * from one table.
 *
 * A primitive checks all its arguments before it does anything else: Guile reports a bad
 * argument by a non-local exit, which must never leave compi's C state half changed.
 */
#include "bridge_scm.h"
#include "compi_common.h"
#include "log.h"
#include "rte.h"

#include <stdlib.h>

typedef struct bridge_prim {
    const char *name;
    int req, opt, rest;
    scm_t_subr fn;
} bridge_prim_t;

/* (compi-version) -> "0.1.0" */
static SCM prim_version(void)
{
    return scm_from_utf8_string(PACKAGE_VERSION);
}

/* (compi-log LEVEL MESSAGE): LEVEL is 'error, 'warning or 'info; the message goes
 * through the library's logger, with the rank prefix, in one write. */
static SCM prim_log(SCM level, SCM message)
{
    static const char who[] = "compi-log";

    SCM_ASSERT_TYPE(scm_is_symbol(level), level, SCM_ARG1, who, "symbol");
    SCM_ASSERT_TYPE(scm_is_string(message), message, SCM_ARG2, who, "string");
    int is_error = scm_is_eq(level, scm_from_utf8_symbol("error"));
    int is_warn = scm_is_eq(level, scm_from_utf8_symbol("warning"));
    int is_info = scm_is_eq(level, scm_from_utf8_symbol("info"));
    if (!is_error && !is_warn && !is_info) {
        scm_misc_error(who, "level must be error, warning or info, got: ~S", scm_list_1(level));
    }

    /* no exit can happen past this point: the string is freed */
    char *text = scm_to_utf8_string(message);
    if (is_error) {
        compi_log_error("%s", text);
    } else if (is_warn) {
        compi_log_warn("%s", text);
    } else {
        compi_log_info("%s", text);
    }
    free(text);
    return SCM_UNSPECIFIED;
}

/* (compi-world-rank), (compi-world-size): 0 and 1 before the runtime is up */
static SCM prim_world_rank(void)
{
    return scm_from_int(rte_proc.world_size > 0 ? rte_proc.world_rank : 0);
}

static SCM prim_world_size(void)
{
    return scm_from_int(rte_proc.world_size > 0 ? rte_proc.world_size : 1);
}

static const bridge_prim_t bridge_prims[] = {
    {.name = "compi-version", .req = 0, .fn = (scm_t_subr)prim_version},
    {.name = "compi-log", .req = 2, .fn = (scm_t_subr)prim_log},
    {.name = "compi-world-rank", .req = 0, .fn = (scm_t_subr)prim_world_rank},
    {.name = "compi-world-size", .req = 0, .fn = (scm_t_subr)prim_world_size},
};

static SCM bridge__define_prims(void *unused)
{
    for (size_t i = 0; i < COMPI_ARRAY_SIZE(bridge_prims); i++) {
        const bridge_prim_t *p = &bridge_prims[i];
        scm_c_define_gsubr(p->name, p->req, p->opt, p->rest, p->fn);
        scm_c_export(p->name, NULL);
    }
    return SCM_UNSPECIFIED;
}

void bridge_prims_register(SCM module)
{
    scm_c_call_with_current_module(module, bridge__define_prims, NULL);
}
