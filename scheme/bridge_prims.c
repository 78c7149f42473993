/*
 * bridge_prims.c -- the C primitives that Scheme code sees in module (compi), defined
 * from tables: this file's (general ones) and bridge_call.c's (the call's buffers).
 *
 * A primitive checks all its arguments before it does anything else: Guile reports a bad
 * argument by a non-local exit, which must never leave compi's C state half changed.
 */
#include "scheme/bridge_scm.h"
#include "core/coll/coll.h"
#include "core/include/compi_common.h"
#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <stdlib.h>
#include <string.h>

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

/* (native-algorithms KIND) -> (linear binomial ...): the native algorithms of KIND, as
 * `native' accepts them (compi_info --algorithms prints them with their help). */
static SCM prim_native_algorithms(SCM kind)
{
    static const char who[] = "native-algorithms";

    SCM_ASSERT_TYPE(scm_is_symbol(kind), kind, SCM_ARG1, who, "symbol");
    char name[64];
    bridge_scm_to_buf(scm_symbol_to_string(kind), name, sizeof(name));
    bridge_kind_t k = bridge_kind_from_name(name);
    if (k == BRIDGE_KIND_COUNT) {
        scm_misc_error(who, "unknown collective kind: ~S", scm_list_1(kind));
    }
    size_t n;
    const coll_algo_t *const *all = coll_algo_all(&n);
    SCM list = SCM_EOL;
    for (size_t i = n; i-- > 0;) {
        if ((int)all[i]->kind == (int)k) {
            list = scm_cons(scm_from_utf8_symbol(all[i]->name), list);
        }
    }
    return list;
}

static const bridge_prim_t bridge_prims[] = {
    {.name = "compi-version", .req = 0, .fn = (scm_t_subr)prim_version},
    {.name = "compi-log", .req = 2, .fn = (scm_t_subr)prim_log},
    {.name = "compi-world-rank", .req = 0, .fn = (scm_t_subr)prim_world_rank},
    {.name = "compi-world-size", .req = 0, .fn = (scm_t_subr)prim_world_size},
    {.name = "native-algorithms", .req = 1, .fn = (scm_t_subr)prim_native_algorithms},
};

static void bridge__define_table(const bridge_prim_t *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const bridge_prim_t *p = &table[i];
        scm_c_define_gsubr(p->name, p->req, p->opt, p->rest, p->fn);
        scm_c_export(p->name, NULL);
    }
}

static SCM bridge__define_prims(void *unused)
{
    bridge__define_table(bridge_prims, COMPI_ARRAY_SIZE(bridge_prims));
    bridge__define_table(bridge_call_prims, bridge_call_nprims);
    bridge__define_table(bridge_facts_prims, bridge_facts_nprims);
    bridge__define_table(bridge_closure_prims, bridge_closure_nprims);
    return SCM_UNSPECIFIED;
}

void bridge_prims_register(SCM module)
{
    scm_c_call_with_current_module(module, bridge__define_prims, NULL);
}
