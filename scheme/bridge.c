/*
 * bridge.c -- starting Guile inside the library, loading (compi), and calling Scheme
 * safely.  gdb's habits: every call into Scheme is caught and turned into a status plus
 * one line of text; Scheme procedures are looked up once, at init, and kept protected.
 *
 * Two nets catch exceptions.  The Scheme procedures of (compi internal) catch
 * everything a configuration or a creator raises and describe it (file, line, creator)
 * while the raising context still exists.  Around every call, scm_c_catch catches what
 * might still escape them, so no exception ever unwinds into compi's C code; and the
 * entry points run under scm_with_guile, whose continuation barrier stops any other
 * non-local exit.
 *
 * Start-up cost: Guile boots from its own compiled files; our modules are loaded from .go
 * files compiled at build time (scheme/Makefile.inc) and auto-compilation is off, so
 * nothing is compiled or written under ~/.cache at run time.
 */
#include "compi_paths.h" /* made by make in the build tree */
#include "scheme/bridge.h"
#include "scheme/bridge_scm.h"
#include "scheme/tree_ext.h"
#include "core/include/compi_common.h"
#include "core/runtime/params.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const bridge_kind_names[BRIDGE_KIND_COUNT] = {
#define COLL_KIND(e, name) [BRIDGE_KIND_##e] = name,
#include "core/coll/kinds.def"
};

static const struct {
    const char *name;
    size_t offset;
} bridge_proc_table[] = {
    {"load-config", offsetof(bridge_procs_t, load_config)},
    {"safe-apply", offsetof(bridge_procs_t, safe_apply)},
    {"creator-count", offsetof(bridge_procs_t, creator_count)},
    {"creator-description", offsetof(bridge_procs_t, creator_description)},
    {"build-lowered-for", offsetof(bridge_procs_t, build_lowered_for)},
    {"run-scheme-closure", offsetof(bridge_procs_t, run_scheme_closure)},
    {"lower-for-run", offsetof(bridge_procs_t, lower_for_run)},
    {"run-finalize-hooks", offsetof(bridge_procs_t, run_finalize_hooks)},
    {"call-text", offsetof(bridge_procs_t, call_text)},
};

bridge_procs_t bridge_procs;

static struct {
    int initialized;
    char srcdir[PATH_MAX];
    char godir[PATH_MAX];
} bridge;

/* ---- small helpers ---------------------------------------------------------------- */

const char *bridge_kind_name(bridge_kind_t kind)
{
    return (unsigned)kind < BRIDGE_KIND_COUNT ? bridge_kind_names[kind] : NULL;
}

bridge_kind_t bridge_kind_from_name(const char *name)
{
    for (int k = 0; k < BRIDGE_KIND_COUNT; k++) {
        if (strcmp(bridge_kind_names[k], name) == 0) {
            return (bridge_kind_t)k;
        }
    }
    return BRIDGE_KIND_COUNT;
}

static void __attribute__((format(printf, 3, 4)))
bridge__msg(char *errbuf, size_t len, const char *fmt, ...)
{
    va_list ap;

    if (!errbuf || len == 0) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(errbuf, len, fmt, ap);
    va_end(ap);
}

int bridge_is_initialized(void)
{
    return bridge.initialized;
}

const char *bridge_source_dir(void)
{
    return bridge.srcdir;
}

const char *bridge_compiled_dir(void)
{
    return bridge.godir;
}

/* ---- converting and catching (Guile mode) ------------------------------------------ */

typedef struct bridge_to_buf {
    SCM obj;
    char *buf;
    size_t len;
} bridge_to_buf_t;

static SCM bridge__to_buf_body(void *data)
{
    bridge_to_buf_t *d = data;
    SCM str = scm_is_string(d->obj) ? d->obj : scm_object_to_string(d->obj, SCM_UNDEFINED);
    size_t n;
    char *s = scm_to_utf8_stringn(str, &n);
    snprintf(d->buf, d->len, "%.*s", (int)(n < INT_MAX ? n : INT_MAX), s);
    free(s);
    return SCM_BOOL_T;
}

static SCM bridge__to_buf_handler(void *data, SCM key, SCM args)
{
    bridge_to_buf_t *d = data;
    snprintf(d->buf, d->len, "(unprintable Scheme value)");
    return SCM_BOOL_F;
}

void bridge_scm_to_buf(SCM obj, char *buf, size_t len)
{
    bridge_to_buf_t d = {.obj = obj, .buf = buf, .len = len};

    if (!buf || len == 0) {
        return;
    }
    scm_c_catch(SCM_BOOL_T, bridge__to_buf_body, &d, bridge__to_buf_handler, &d, NULL, NULL);
}

typedef struct bridge_invoke {
    SCM proc;
    SCM args;
} bridge_invoke_t;

static SCM bridge__invoke_body(void *data)
{
    bridge_invoke_t *d = data;
    return scm_apply_0(d->proc, d->args);
}

/* Last net: something escaped the Scheme-level handlers.  Build the failure pair in C,
 * with calls that cannot raise. */
static SCM bridge__invoke_handler(void *data, SCM key, SCM args)
{
    SCM what =
        scm_is_symbol(key) ? scm_symbol_to_string(key) : scm_from_utf8_string("(not a symbol)");
    return scm_cons(SCM_BOOL_F, scm_string_append(scm_list_2(
                                    scm_from_utf8_string("uncaught Scheme exception: "), what)));
}

/*
 * Calls one of the (compi internal) procedures, which answer (#t . value) or
 * (#f . "message"), with a catch-all around it.
 */
compi_status_t bridge_invoke(SCM proc, SCM args, SCM *value_p, char *errbuf, size_t len)
{
    bridge_invoke_t d = {.proc = proc, .args = args};
    SCM r =
        scm_c_catch(SCM_BOOL_T, bridge__invoke_body, &d, bridge__invoke_handler, NULL, NULL, NULL);

    if (!scm_is_pair(r)) {
        bridge__msg(errbuf, len, "internal error: the Scheme side answered no pair");
        return COMPI_ERR_INTERNAL;
    }
    if (scm_is_false(scm_car(r))) {
        bridge_scm_to_buf(scm_cdr(r), errbuf, len);
        return COMPI_ERR_CONFIG;
    }
    if (value_p) {
        *value_p = scm_cdr(r);
    }
    return COMPI_OK;
}

compi_status_t bridge_call(SCM proc, SCM args, SCM *result_p, char *errbuf, size_t len)
{
    if (!bridge.initialized) {
        bridge__msg(errbuf, len, "the Guile bridge is not initialized");
        return COMPI_ERR_INTERNAL;
    }
    return bridge_invoke(bridge_procs.safe_apply, scm_list_2(proc, args), result_p, errbuf, len);
}

/* Runs fn(arg) in Guile mode.  Every argument struct given here starts with its status,
 * which fn sets; NULL from scm_with_guile means that something got past every catch. */
compi_status_t bridge_with_guile(void *(*fn)(void *), compi_status_t *st_p, char *errbuf,
                                 size_t len)
{
    if (scm_with_guile(fn, st_p) == NULL) {
        bridge__msg(errbuf, len, "internal error: a Scheme exception escaped the bridge");
        return COMPI_ERR_INTERNAL;
    }
    return *st_p;
}

/* ---- start-up ---------------------------------------------------------------------- */

static int bridge__is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Is this code running from the build tree?  The library (or a test program that links
 * the convenience library statically) then lives under COMPI_BUILDDIR. */
static int bridge__in_build_tree(void)
{
    Dl_info info;
    char self[PATH_MAX], build[PATH_MAX];

    if (!dladdr((void *)&bridge_init, &info) || !info.dli_fname ||
        !realpath(info.dli_fname, self)) {
        if (!realpath("/proc/self/exe", self)) {
            return 0;
        }
    }
    if (!realpath(COMPI_BUILDDIR, build)) {
        return 0;
    }
    size_t n = strlen(build);
    return strncmp(self, build, n) == 0 && self[n] == '/';
}

static void bridge__choose_dirs(void)
{
    const char *override = getenv("COMPI_SCHEME_DIR");

    if (override && *override) {
        snprintf(bridge.srcdir, sizeof(bridge.srcdir), "%s", override);
        snprintf(bridge.godir, sizeof(bridge.godir), "%s", override);
    } else if (bridge__in_build_tree() && bridge__is_dir(COMPI_SRCDIR "/scheme")) {
        /* the modules live beside what they are about: (compi) and (compi internal) in
           scheme/, the creators in creators/, topologies and trees in topologies/;
           installed, they share one directory */
        snprintf(bridge.srcdir, sizeof(bridge.srcdir), "%s",
                 COMPI_SRCDIR "/scheme:" COMPI_SRCDIR "/creators:" COMPI_SRCDIR "/topologies");
        snprintf(bridge.godir, sizeof(bridge.godir), "%s", COMPI_BUILDDIR "/scheme");
    } else {
        snprintf(bridge.srcdir, sizeof(bridge.srcdir), "%s", COMPI_PKGDATADIR "/scheme");
        snprintf(bridge.godir, sizeof(bridge.godir), "%s", COMPI_PKGLIBDIR "/scheme");
    }
}

/* Puts the directories of `dirs' (separated by ':') in front of the list `var', in
   their order. */
static void bridge__prepend(const char *var, const char *dirs)
{
    SCM v = scm_c_lookup(var);
    SCM front = SCM_EOL;
    for (const char *d = dirs; *d != '\0';) {
        const char *end = strchr(d, ':');
        size_t n = end ? (size_t)(end - d) : strlen(d);
        if (n > 0) {
            front = scm_cons(scm_from_utf8_stringn(d, n), front);
        }
        d += n + (end != NULL);
    }
    scm_variable_set_x(v, scm_append(scm_list_2(scm_reverse_x(front, SCM_EOL),
                                                scm_variable_ref(v))));
}

static SCM bridge__interface(const char *name)
{
    SCM resolve = scm_variable_ref(scm_c_lookup("resolve-interface"));
    return scm_call_1(resolve, scm_c_read_string(name));
}

/* what bridge__init_body found wrong with the modules' records (bridge_layout.c) */
typedef struct bridge_init_body {
    char why[512];
} bridge_init_body_t;

static SCM bridge__init_body(void *data)
{
    bridge_init_body_t *body = data;
    /* configs and our modules are never compiled at run time */
    scm_variable_set_x(scm_c_lookup("%load-should-auto-compile"), SCM_BOOL_F);
    bridge__prepend("%load-path", bridge.srcdir);
    bridge__prepend("%load-compiled-path", bridge.godir);
    /* (compi trees) loads its C primitives as an extension: from this program */
    bridge_trees_register();

    SCM internal = bridge__interface("(compi internal)");
    SCM compi = scm_c_resolve_module("compi");
    /* the records C reads and builds, by field name, and the kinds: checked once here */
    if (bridge_layouts_check(body->why, sizeof(body->why)) != 0) {
        return SCM_BOOL_F;
    }
    bridge_prims_register(compi);
    bridge_call_init();
    for (size_t i = 0; i < COMPI_ARRAY_SIZE(bridge_proc_table); i++) {
        SCM var = scm_module_variable(internal, scm_from_utf8_symbol(bridge_proc_table[i].name));
        if (scm_is_false(var)) {
            scm_misc_error("bridge_init", "(compi internal) does not export ~A",
                           scm_list_1(scm_from_utf8_string(bridge_proc_table[i].name)));
        }
        SCM *slot = (SCM *)((char *)&bridge_procs + bridge_proc_table[i].offset);
        /* kept in C static memory: protected from the collector for good */
        *slot = scm_gc_protect_object(scm_variable_ref(var));
    }
    /* what a user gets with no config: installed before any config file is loaded */
    SCM defaults = bridge__interface("(compi defaults)");
    scm_call_0(scm_variable_ref(scm_c_module_lookup(defaults, "install-default-creators!")));
    return SCM_BOOL_T;
}

static SCM bridge__init_handler(void *data, SCM key, SCM args)
{
    /* (key . args): described by the caller, outside the handler */
    return scm_cons(key, args);
}

/* Guile's own errors are (key subr message format-args rest): format them as Guile
 * would; anything else is written as it is. */
static SCM bridge__throw_text_body(void *data)
{
    SCM thrown = *(SCM *)data;
    SCM args = scm_cdr(thrown);

    if (scm_ilength(args) >= 3 && scm_is_string(scm_cadr(args)) &&
        scm_ilength(scm_caddr(args)) >= 0) {
        return scm_simple_format(SCM_BOOL_F, scm_cadr(args), scm_caddr(args));
    }
    return scm_object_to_string(thrown, SCM_UNDEFINED);
}

static SCM bridge__throw_text_handler(void *data, SCM key, SCM args)
{
    return scm_object_to_string(*(SCM *)data, SCM_UNDEFINED);
}

typedef struct bridge_init_args {
    compi_status_t st;
    char *errbuf;
    size_t len;
} bridge_init_args_t;

static void *bridge__init_in_guile(void *p)
{
    bridge_init_args_t *a = p;
    bridge_init_body_t body = {.why = ""};
    SCM r =
        scm_c_catch(SCM_BOOL_T, bridge__init_body, &body, bridge__init_handler, NULL, NULL, NULL);

    if (scm_is_eq(r, SCM_BOOL_T)) {
        a->st = COMPI_OK;
        return a;
    }
    if (scm_is_false(r)) {
        /* the modules loaded but are not the ones this C was written against */
        bridge__msg(a->errbuf, a->len,
                    "compi's Scheme modules (from %s) do not match this library: %s",
                    bridge.srcdir, body.why);
        a->st = COMPI_ERR_INTERNAL;
        return a;
    }
    char what[512];
    SCM text = scm_is_pair(r) ? scm_c_catch(SCM_BOOL_T, bridge__throw_text_body, &r,
                                            bridge__throw_text_handler, &r, NULL, NULL)
                              : r;
    bridge_scm_to_buf(text, what, sizeof(what));
    bridge__msg(a->errbuf, a->len, "cannot load compi's Scheme modules from %s (compiled: %s): %s",
                bridge.srcdir, bridge.godir, what);
    a->st = COMPI_ERR_CONFIG;
    return a;
}

compi_status_t bridge_init(char *errbuf, size_t len)
{
    bridge_init_args_t a = {.st = COMPI_ERR_INTERNAL, .errbuf = errbuf, .len = len};

    if (bridge.initialized) {
        return COMPI_OK;
    }
    bridge__choose_dirs();
    compi_status_t st = bridge_with_guile(bridge__init_in_guile, &a.st, errbuf, len);
    if (st == COMPI_OK) {
        bridge.initialized = 1;
    }
    return st;
}

/* ---- configuration files ------------------------------------------------------------ */

/* the largest config file read (bytes) */
#define BRIDGE_CONFIG_MAX (4 * 1024 * 1024)

typedef struct bridge_load_args {
    compi_status_t st;
    const char *path;
    char *errbuf;
    size_t len;
} bridge_load_args_t;

static void *bridge__load_in_guile(void *p)
{
    bridge_load_args_t *a = p;
    a->st = bridge_invoke(bridge_procs.load_config, scm_list_1(scm_from_utf8_string(a->path)), NULL,
                          a->errbuf, a->len);
    return a;
}

compi_status_t bridge_load_config(const char *path, char *errbuf, size_t len)
{
    bridge_load_args_t a = {.st = COMPI_ERR_INTERNAL, .path = path, .errbuf = errbuf, .len = len};

    if (!bridge.initialized) {
        bridge__msg(errbuf, len, "the Guile bridge is not initialized");
        return COMPI_ERR_INTERNAL;
    }
    if (!path || !*path) {
        bridge__msg(errbuf, len, "config error: empty file name");
        return COMPI_ERR_CONFIG;
    }
    /* Guile would read /dev/zero or a FIFO for ever: only regular files of bounded size
       (a missing file is left to Guile, whose message says so) */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        bridge__msg(errbuf, len, "config error: %s: not a regular file", path);
        return COMPI_ERR_CONFIG;
    }
    if (stat(path, &sb) == 0 && sb.st_size > BRIDGE_CONFIG_MAX) {
        bridge__msg(errbuf, len, "config error: %s: %lld bytes, more than a config file may have "
                    "(%d)", path, (long long)sb.st_size, BRIDGE_CONFIG_MAX);
        return COMPI_ERR_CONFIG;
    }
    return bridge_with_guile(bridge__load_in_guile, &a.st, errbuf, len);
}

compi_status_t bridge_load_config_list(const char *list, char *errbuf, size_t len)
{
    compi_status_t st = COMPI_OK;
    char *copy, *save = NULL;

    if (!list || !*list) {
        return COMPI_OK;
    }
    copy = strdup(list);
    if (!copy) {
        bridge__msg(errbuf, len, "out of memory");
        return COMPI_ERR_NO_MEMORY;
    }
    /* empty entries ("a.scm::b.scm", a trailing ':') are skipped */
    for (char *f = strtok_r(copy, ":", &save); f; f = strtok_r(NULL, ":", &save)) {
        st = bridge_load_config_entry(f, errbuf, len);
        if (st != COMPI_OK) {
            goto out;
        }
    }
out:
    free(copy);
    return st;
}

const char *bridge_config_list(void)
{
    const char *v = param_register_string(
        "coll_config", "",
        "colon-separated list of Scheme files that configure collectives, loaded in "
        "order by MPI_Init (also COMPI_COLL_CONFIG, mpirun --coll-config)");

    if (v && *v) {
        return v;
    }
    v = getenv("COMPI_COLL_CONFIG");
    return v && *v ? v : NULL;
}

/* ---- creators ----------------------------------------------------------------------- */

typedef struct bridge_creator_args {
    compi_status_t st;
    bridge_kind_t kind;
    size_t index;
    size_t count;
    char *buf;
    size_t buflen;
    char *errbuf;
    size_t len;
} bridge_creator_args_t;

static void *bridge__count_in_guile(void *p)
{
    bridge_creator_args_t *a = p;
    SCM v;
    SCM kind = scm_from_utf8_symbol(bridge_kind_names[a->kind]);

    a->st = bridge_invoke(bridge_procs.creator_count, scm_list_1(kind), &v, a->errbuf, a->len);
    if (a->st == COMPI_OK) {
        a->count = scm_is_unsigned_integer(v, 0, SIZE_MAX) ? scm_to_size_t(v) : 0;
    }
    return a;
}

compi_status_t bridge_creator_count(bridge_kind_t kind, size_t *count_p)
{
    char errbuf[256];
    bridge_creator_args_t a = {
        .st = COMPI_ERR_INTERNAL, .kind = kind, .errbuf = errbuf, .len = sizeof(errbuf)};

    if (!bridge.initialized || (unsigned)kind >= BRIDGE_KIND_COUNT) {
        return COMPI_ERR_INVALID_PARAM;
    }
    compi_status_t st = bridge_with_guile(bridge__count_in_guile, &a.st, errbuf, sizeof(errbuf));
    if (st == COMPI_OK) {
        *count_p = a.count;
    }
    return st;
}

static void *bridge__describe_in_guile(void *p)
{
    bridge_creator_args_t *a = p;
    SCM v;
    SCM kind = scm_from_utf8_symbol(bridge_kind_names[a->kind]);

    a->st = bridge_invoke(bridge_procs.creator_description,
                          scm_list_2(kind, scm_from_size_t(a->index)), &v, a->buf, a->buflen);
    if (a->st == COMPI_OK) {
        bridge_scm_to_buf(v, a->buf, a->buflen);
    }
    return a;
}

compi_status_t bridge_creator_describe(bridge_kind_t kind, size_t i, char *buf, size_t len)
{
    size_t count;
    bridge_creator_args_t a = {
        .st = COMPI_ERR_INTERNAL, .kind = kind, .index = i, .buf = buf, .buflen = len};

    compi_status_t st = bridge_creator_count(kind, &count);
    if (st != COMPI_OK) {
        return st;
    }
    if (i >= count) {
        return COMPI_ERR_NOT_FOUND;
    }
    return bridge_with_guile(bridge__describe_in_guile, &a.st, buf, len);
}

/* ---- MPI_Finalize ------------------------------------------------------------------- */

typedef struct bridge_hooks_args {
    compi_status_t st;
    char *errbuf;
    size_t len;
} bridge_hooks_args_t;

static void *bridge__hooks_in_guile(void *p)
{
    bridge_hooks_args_t *a = p;
    a->st = bridge_invoke(bridge_procs.run_finalize_hooks, SCM_EOL, NULL, a->errbuf, a->len);
    return a;
}

compi_status_t bridge_run_finalize_hooks(char *errbuf, size_t len)
{
    bridge_hooks_args_t a = {.st = COMPI_ERR_INTERNAL, .errbuf = errbuf, .len = len};

    if (!bridge.initialized) {
        return COMPI_OK;
    }
    return bridge_with_guile(bridge__hooks_in_guile, &a.st, errbuf, len);
}
