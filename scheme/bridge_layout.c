/*
 * bridge_layout.c -- the records that cross the Scheme/C boundary, read by field name.
 *
 * C owns what it expects of them: each file that reads or builds a record of (compi
 * private), (compi internal) or (compi trees) describes it as a bridge_layout_t, the
 * fields it uses by name.  bridge_init resolves every layout once (bridge_layouts_check):
 * the record type is looked up, each name is found among its fields, and the struct
 * slot is kept, so that C then reads a field as fast as by a fixed number, with no
 * number written in C.  A record C builds (`complete') must have exactly the fields C
 * fills.  The first difference fails bridge_init with one line naming the record and
 * the field, so a Scheme module edited without its C (or the other way round) stops at
 * start-up instead of misreading a slot at the first miss.
 *
 * Ownership: the record types are protected for good (static memory); the layouts are
 * static in the files that use them.
 */
#include "scheme/bridge_scm.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void __attribute__((format(printf, 3, 4)))
layout__why(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

/* "kind size rank ..." : the record's fields, for messages */
static void layout__names(SCM fields, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; scm_is_pair(fields) && used < len; fields = scm_cdr(fields)) {
        char name[64];
        bridge_scm_to_buf(scm_car(fields), name, sizeof(name));
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", name);
    }
}

int bridge_layout_resolve(bridge_layout_t *l, char *why, size_t len)
{
    SCM module = scm_c_resolve_module(l->module);
    SCM var = scm_module_variable(module, scm_from_utf8_symbol(l->name));
    SCM is_rtd = scm_variable_ref(scm_c_lookup("record-type?"));
    if (scm_is_false(var) || scm_is_false(scm_call_1(is_rtd, scm_variable_ref(var)))) {
        layout__why(why, len, "(%s) defines no record type %s", l->module, l->name);
        return -1;
    }
    SCM rtd = scm_variable_ref(var);
    SCM fields = scm_call_1(scm_variable_ref(scm_c_lookup("record-type-fields")), rtd);
    char names[512];
    size_t n = 0;

    for (; l->fields[n] != NULL && n < BRIDGE_LAYOUT_MAX_FIELDS; n++) {
        SCM sym = scm_from_utf8_symbol(l->fields[n]);
        size_t slot = 0;
        SCM f = fields;
        while (scm_is_pair(f) && !scm_is_eq(scm_car(f), sym)) {
            f = scm_cdr(f);
            slot++;
        }
        if (!scm_is_pair(f)) {
            layout__names(fields, names, sizeof(names));
            layout__why(why, len,
                        "record %s of (%s) has no field %s, which C reads (its fields: %s)",
                        l->name, l->module, l->fields[n], names);
            return -1;
        }
        l->index[n] = slot; /* a record type without a parent: field i is slot i */
    }
    if (l->complete && scm_ilength(fields) != (long)n) {
        /* the first field C does not know */
        for (SCM f = fields; scm_is_pair(f); f = scm_cdr(f)) {
            size_t i = 0;
            while (i < n && !scm_is_eq(scm_car(f), scm_from_utf8_symbol(l->fields[i]))) {
                i++;
            }
            if (i == n) {
                char name[64];
                bridge_scm_to_buf(scm_car(f), name, sizeof(name));
                layout__why(why, len,
                            "record %s of (%s) has a field %s that C does not fill (C builds "
                            "this record)",
                            l->name, l->module, name);
                return -1;
            }
        }
    }
    l->nfields = n;
    if (l->resolved) {
        scm_gc_unprotect_object(l->rtd);
        scm_gc_unprotect_object(l->make);
    }
    l->rtd = scm_gc_protect_object(rtd);
    l->make = scm_gc_protect_object(
        scm_call_1(scm_variable_ref(scm_c_lookup("record-constructor")), rtd));
    l->resolved = 1;
    return 0;
}

/* the kinds Scheme uses (collective-kinds of (compi private)) against C's list */
static int layout__kinds(char *why, size_t len)
{
    SCM module = scm_c_resolve_module("compi private");
    SCM var = scm_module_variable(module, scm_from_utf8_symbol("kinds-list"));
    if (scm_is_false(var)) {
        layout__why(why, len, "(compi private) defines no kinds-list");
        return -1;
    }
    SCM kinds = scm_call_0(scm_variable_ref(var));
    int k = 0;
    for (; k < BRIDGE_KIND_COUNT; k++, kinds = scm_cdr(kinds)) {
        if (!scm_is_pair(kinds) ||
            !scm_is_eq(scm_car(kinds), scm_from_utf8_symbol(bridge_kind_name((bridge_kind_t)k)))) {
            layout__why(why, len,
                        "collective kind %s is not where C has it (number %d) in "
                        "collective-kinds of (compi private)",
                        bridge_kind_name((bridge_kind_t)k), k);
            return -1;
        }
    }
    if (!scm_is_null(kinds)) {
        layout__why(why, len, "collective-kinds of (compi private) has more kinds than C (%d)",
                    BRIDGE_KIND_COUNT);
        return -1;
    }
    return 0;
}

int bridge_layouts_check(char *why, size_t len)
{
    bridge_layout_t *const *tables[] = {bridge_call_layouts, bridge_closure_layouts};
    const size_t ntables[] = {bridge_call_nlayouts, bridge_closure_nlayouts};

    if (layout__kinds(why, len) != 0) {
        return -1;
    }
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
        for (size_t i = 0; i < ntables[t]; i++) {
            if (bridge_layout_resolve(tables[t][i], why, len) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

SCM bridge_make(const bridge_layout_t *l, const SCM *values)
{
    SCM args[BRIDGE_LAYOUT_MAX_FIELDS];
    for (size_t i = 0; i < l->nfields; i++) {
        args[l->index[i]] = values[i];
    }
    return scm_call_n(l->make, args, (int)l->nfields);
}
