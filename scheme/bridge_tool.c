/*
 * bridge_tool.c -- compi-tree's way into Scheme: one call of tree-tool-render of
 * (compi tree-tool), which answers (#t . text) or (#f . "message") and never raises;
 * bridge_invoke's catch-all stands behind it as behind every other call into Scheme.
 *
 * Ownership: see bridge_tool.h; the procedure is looked up on each call (the tool makes
 * one), so nothing is kept in C memory.
 */
#include "scheme/bridge_tool.h"
#include "scheme/bridge_scm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tool_args {
    compi_status_t st;
    const bridge_tree_request_t *req;
    char **text_p;
    char *errbuf;
    size_t len;
} tool_args_t;

static SCM tool__lookup_body(void *unused)
{
    return scm_c_public_ref("compi tree-tool", "tree-tool-render");
}

static SCM tool__lookup_handler(void *unused, SCM key, SCM args)
{
    return SCM_BOOL_F;
}

/* the layout as (compi tree-tool)'s make-layout wants it: its text, a vector of rank
   records ((compi)'s make-rank: world rank, host, addresses, no place, unbound) and a
   vector of each rank's subnet text or #f */
static SCM tool__layout(const bridge_tree_request_t *r)
{
    const rte_layout_t *l = r->layout;
    SCM make_rank = scm_c_public_ref("compi", "make-rank");
    SCM ranks = scm_c_make_vector((size_t)l->size, SCM_BOOL_F);
    SCM subnets = scm_c_make_vector((size_t)l->size, SCM_BOOL_F);
    char addr[64], net[64];

    for (int i = 0; i < l->size; i++) {
        SCM addrs = rte_layout_addr(l, i, addr, sizeof(addr))
                        ? scm_list_1(scm_from_utf8_string(addr))
                        : SCM_EOL;
        SCM args[5] = {scm_from_int(i), scm_from_utf8_string(rte_layout_entry_of(l, i)->name),
                       addrs, SCM_BOOL_F, SCM_BOOL_F};
        scm_c_vector_set_x(ranks, (size_t)i, scm_call_n(make_rank, args, 5));
        if (rte_layout_subnet(l, i, net, sizeof(net))) {
            scm_c_vector_set_x(subnets, (size_t)i, scm_from_utf8_string(net));
        }
    }
    return scm_call_3(scm_c_public_ref("compi tree-tool", "make-layout"),
                      scm_from_utf8_string(r->layout_text), ranks, subnets);
}

static SCM tool__symbol_or_false(const char *s)
{
    return s != NULL ? scm_from_utf8_symbol(s) : SCM_BOOL_F;
}

static void *tool__render_in_guile(void *p)
{
    tool_args_t *a = p;
    const bridge_tree_request_t *r = a->req;
    SCM proc =
        scm_c_catch(SCM_BOOL_T, tool__lookup_body, NULL, tool__lookup_handler, NULL, NULL, NULL);

    if (scm_is_false(proc)) {
        snprintf(a->errbuf, a->len, "cannot load (compi tree-tool) from %s (compiled: %s)",
                 bridge_source_dir(), bridge_compiled_dir());
        a->st = COMPI_ERR_CONFIG;
        return a;
    }
    /* make-rank and make-layout only build records from values of the right types:
       nothing here raises once the module is loaded */
    SCM args = scm_list_n(
        scm_from_utf8_symbol(bridge_kind_name(r->kind)), tool__layout(r),
        r->root >= 0 ? scm_from_long(r->root) : SCM_BOOL_F, scm_from_long(r->rank),
        scm_from_ulong(r->bytes), tool__symbol_or_false(r->datatype), tool__symbol_or_false(r->op),
        scm_from_bool(r->commutative), scm_from_utf8_symbol(r->dot ? "dot" : "text"),
        scm_from_utf8_string(r->signature != NULL ? r->signature : "unknown"), SCM_UNDEFINED);
    SCM text;
    a->st = bridge_invoke(proc, args, &text, a->errbuf, a->len);
    if (a->st != COMPI_OK) {
        return a;
    }
    if (!scm_is_string(text)) {
        snprintf(a->errbuf, a->len, "internal error: (compi tree-tool) answered no text");
        a->st = COMPI_ERR_INTERNAL;
        return a;
    }
    /* a string of the collector's: converting it cannot raise */
    *a->text_p = scm_to_utf8_string(text);
    a->st = COMPI_OK;
    return a;
}

compi_status_t bridge_tree_render(const bridge_tree_request_t *req, char **text_p, char *errbuf,
                                  size_t len)
{
    tool_args_t a = {
        .st = COMPI_ERR_INTERNAL, .req = req, .text_p = text_p, .errbuf = errbuf, .len = len};

    *text_p = NULL;
    if (!bridge_is_initialized()) {
        snprintf(errbuf, len, "the Guile bridge is not initialized");
        return COMPI_ERR_INTERNAL;
    }
    return bridge_with_guile(tool__render_in_guile, &a.st, errbuf, len);
}
