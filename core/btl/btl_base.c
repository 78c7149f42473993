/*
 * btl_base.c -- finds, loads and opens the BTL components named by the "btl" parameter.
 *
 * A component is built into libmpi (--disable-dlopen) or loaded with libltdl from, in
 * order: the directories of $COMPI_MCA_module_path, the directory libmpi itself was
 * loaded from (the build tree's lib/.libs, or $libdir), <that directory>/compi (the
 * installed pkglibdir) and finally the configured pkglibdir.
 */
#include "compi_paths.h" /* made by make in the build tree */
#include "core/btl/btl.h"

#include "core/include/compi_common.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <ltdl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BTL_BASE_MAX 8 /* components open at once */
#define BTL_NAME_MAX 32
#define BTL_DIRS_MAX 16

static struct {
    btl_module_t *modules[BTL_BASE_MAX];
    lt_dlhandle handles[BTL_BASE_MAX]; /* NULL for built-in components */
    int n;
    int ltdl_up;
    int verbose;
} base;

/* ofi declines by itself when every rank is on one host, so listing it costs such jobs
   only the loading of the module */
#ifdef COMPI_HAVE_OFI
#define BTL_DEFAULT "self,sm,ofi"
#define BTL_BUILTIN_NAMES "self, sm, ofi"
#else
#define BTL_DEFAULT "self,sm"
#define BTL_BUILTIN_NAMES "self, sm"
#endif

#ifdef COMPI_STATIC_COMPONENTS
extern const btl_component_t compi_btl_self_component;
extern const btl_component_t compi_btl_sm_component;
#ifdef COMPI_HAVE_OFI
extern const btl_component_t compi_btl_ofi_component;
#endif
static const btl_component_t *const builtin[] = {
    &compi_btl_self_component,
    &compi_btl_sm_component,
#ifdef COMPI_HAVE_OFI
    &compi_btl_ofi_component,
#endif
};

static const btl_component_t *find_builtin(const char *name)
{
    for (size_t i = 0; i < COMPI_ARRAY_SIZE(builtin); i++) {
        if (strcmp(builtin[i]->name, name) == 0)
            return builtin[i];
    }
    compi_log_error("btl '%s': no such component built into this library (built in: %s)", name,
                    BTL_BUILTIN_NAMES);
    return NULL;
}
#else

/* the directories to search, in order; returns how many were written to dirs[] */
static int search_dirs(char dirs[][PATH_MAX], int max)
{
    int n = 0;
    const char *mp = param_register_string("module_path", "",
                                           "colon-separated directories searched first for "
                                           "component modules");
    Dl_info info;

    for (const char *p = mp; p != NULL && *p != '\0' && n < max;) {
        const char *colon = strchr(p, ':');
        size_t l = colon != NULL ? (size_t)(colon - p) : strlen(p);
        if (l > 0 && l < PATH_MAX) {
            memcpy(dirs[n], p, l);
            dirs[n++][l] = '\0';
        }
        p = colon != NULL ? colon + 1 : NULL;
    }
    /* the library holding this function is libmpi (or the program it was linked into) */
    char self[PATH_MAX];
    if (n + 2 <= max && dladdr((void *)btl_base_open, &info) != 0 && info.dli_fname != NULL &&
        realpath(info.dli_fname, self) != NULL) {
        /* realpath: a program started by a relative path reports a relative name */
        const char *slash = strrchr(self, '/');
        size_t l = slash != NULL ? (size_t)(slash - self) : 0;
        if (slash != NULL && l + sizeof("/compi") < PATH_MAX) {
            memcpy(dirs[n], self, l);
            dirs[n++][l] = '\0';
            memcpy(dirs[n], self, l);
            memcpy(dirs[n++] + l, "/compi", sizeof("/compi"));
        }
        /* a program linked with the library statically, inside the build tree (unit and
           internal tests): the modules are where the build put them */
        size_t bl = strlen(COMPI_BUILDDIR);
        if (n < max && strncmp(self, COMPI_BUILDDIR "/", bl + 1) == 0) {
            snprintf(dirs[n++], PATH_MAX, "%s/lib/.libs", COMPI_BUILDDIR);
        }
    }
    if (n < max)
        snprintf(dirs[n++], PATH_MAX, "%s", COMPI_PKGLIBDIR);
    return n;
}

static const btl_component_t *load_module(const char *name, lt_dlhandle *handle_p)
{
    static char dirs[BTL_DIRS_MAX][PATH_MAX];
    char path[PATH_MAX + BTL_NAME_MAX + 8];
    char tried[2048] = "";
    size_t used = 0;
    lt_dlhandle h = NULL;

    if (!base.ltdl_up) {
        if (lt_dlinit() != 0) {
            compi_log_error("btl: libltdl does not start: %s", lt_dlerror());
            return NULL;
        }
        base.ltdl_up = 1;
    }
    int ndirs = search_dirs(dirs, BTL_DIRS_MAX);
    for (int i = 0; i < ndirs && h == NULL; i++) {
        size_t dl = strlen(dirs[i]);
        memcpy(path, dirs[i], dl);
        snprintf(path + dl, sizeof(path) - dl, "/btl_%s", name);
        h = lt_dlopenext(path);
        if (h == NULL && used < sizeof(tried)) {
            const char *why = lt_dlerror();
            int w = snprintf(tried + used, sizeof(tried) - used, "\n    %s: %s", path,
                             why != NULL ? why : "not found");
            used += w > 0 ? (size_t)w : 0;
        }
    }
    if (h == NULL) {
        compi_log_error("btl '%s': cannot load the module btl_%s; tried:%s", name, name, tried);
        return NULL;
    }

    snprintf(path, sizeof(path), "compi_btl_%s_component", name);
    const btl_component_t *comp = lt_dlsym(h, path);
    if (comp == NULL) {
        const lt_dlinfo *li = lt_dlgetinfo(h);
        compi_log_error("btl '%s': module %s has no symbol %s: %s", name,
                        li != NULL && li->filename != NULL ? li->filename : "?", path,
                        lt_dlerror());
        lt_dlclose(h);
        return NULL;
    }
    *handle_p = h;
    return comp;
}
#endif

/* copies the next name of the comma list at *p into name; 0 at the end of the list */
static int next_name(const char **p, char *name, size_t len)
{
    const char *s = *p;
    size_t l = 0;

    while (*s == ',' || isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return 0;
    while (s[l] != '\0' && s[l] != ',' && !isspace((unsigned char)s[l]))
        l++;
    *p = s + l;
    if (l >= len) {
        compi_log_error("btl: component name '%.*s' is too long", (int)l, s);
        return -1;
    }
    memcpy(name, s, l);
    name[l] = '\0';
    for (size_t i = 0; i < l; i++) {
        if (!isalnum((unsigned char)name[i]) && name[i] != '_') {
            compi_log_error("btl: '%s' is not a component name (letters, digits, _)", name);
            return -1;
        }
    }
    return 1;
}

static compi_status_t open_one(const char *name, const btl_services_t *svc)
{
    lt_dlhandle h = NULL;
    const btl_component_t *comp;

    for (int i = 0; i < base.n; i++) {
        if (strcmp(base.modules[i]->name, name) == 0)
            return COMPI_OK; /* named twice */
    }
    if (base.n == BTL_BASE_MAX) {
        compi_log_error("btl: more than %d components requested", BTL_BASE_MAX);
        return COMPI_ERR_CONFIG;
    }
#ifdef COMPI_STATIC_COMPONENTS
    comp = find_builtin(name);
#else
    comp = load_module(name, &h);
#endif
    if (comp == NULL)
        return COMPI_ERR_NOT_FOUND;
    if (comp->size != sizeof(btl_component_t) || comp->abi_version != BTL_ABI_VERSION) {
        compi_log_error("btl '%s': component built for another compi (size %zu, ABI %d; this "
                        "library: size %zu, ABI %d)",
                        name, comp->size, comp->abi_version, sizeof(btl_component_t),
                        BTL_ABI_VERSION);
        goto err;
    }

    btl_module_t *m = comp->open(svc);
    if (m == NULL) {
        /* the component said why at verbose level: it cannot run here, which is fine */
        compi_log_verbose(base.verbose, 1, "btl '%s': not available here", name);
        if (h != NULL)
            lt_dlclose(h);
        return COMPI_OK;
    }
    if (m->size != sizeof(btl_module_t)) {
        compi_log_error("btl '%s': module table of %zu bytes, expected %zu", name, m->size,
                        sizeof(btl_module_t));
        goto err;
    }
    compi_log_verbose(base.verbose, 1, "btl '%s' open: eager %zu, max frag %zu, exclusivity %d%s",
                      name, m->eager_limit, m->max_frag, m->exclusivity,
                      (m->flags & BTL_FLAG_GET) != 0 ? ", single copy" : "");
    base.modules[base.n] = m;
    base.handles[base.n] = h;
    base.n++;
    return COMPI_OK;

err:
    if (h != NULL)
        lt_dlclose(h);
    return COMPI_ERR_UNSUPPORTED;
}

/* a failed open: release the modules already opened, then unload */
static void abandon(void)
{
    for (int i = 0; i < base.n; i++)
        base.modules[i]->finalize();
    btl_base_close();
}

compi_status_t btl_base_open(const btl_services_t *svc, btl_module_t ***modules_p, int *n_p)
{
    char name[BTL_NAME_MAX];
    const char *list = param_register_string("btl", BTL_DEFAULT,
                                             "comma-separated transports (BTL components) "
                                             "to use: self, sm, ofi");
    const char *all = list;
    int r;

    base.verbose =
        (int)param_register_int("btl_base_verbose", 0, "verbosity of BTL loading and selection");
    while ((r = next_name(&list, name, sizeof(name))) > 0) {
        compi_status_t rc = open_one(name, svc);
        if (rc != COMPI_OK) {
            abandon();
            return rc;
        }
    }
    if (r < 0) {
        abandon();
        return COMPI_ERR_CONFIG;
    }
    if (base.n == 0) {
        compi_log_error("btl: none of the components named by btl=%s can run here", all);
        return COMPI_ERR_UNREACHABLE;
    }
    *modules_p = base.modules;
    *n_p = base.n;
    return COMPI_OK;
}

compi_status_t btl_base_open_late(const char *name, const btl_services_t *svc, int *n_p, char *why,
                                  size_t len)
{
    const char *list = param_register_string("btl", BTL_DEFAULT, NULL), *p = list;
    char one[BTL_NAME_MAX];
    int named = 0, before = base.n;

#ifndef COMPI_HAVE_OFI
    if (strcmp(name, "ofi") == 0) {
        snprintf(why, len, "this compi was built without libfabric (no btl ofi)");
        return COMPI_ERR_UNSUPPORTED;
    }
#endif
    while (!named && next_name(&p, one, sizeof(one)) > 0)
        named = strcmp(one, name) == 0;
    if (!named) {
        snprintf(why, len, "btl %s is not in the btl list (btl=%s)", name, list);
        return COMPI_ERR_UNSUPPORTED;
    }
    for (int i = 0; i < base.n; i++) {
        if (strcmp(base.modules[i]->name, name) == 0) {
            *n_p = base.n;
            return COMPI_OK;
        }
    }
    compi_status_t rc = open_one(name, svc);
    if (rc == COMPI_OK && base.n > before) {
        *n_p = base.n;
        return COMPI_OK;
    }
    if (why[0] == '\0')
        snprintf(why, len, "btl %s %s (the message above says why)", name,
                 rc == COMPI_ERR_NOT_FOUND ? "cannot be loaded" : "did not open");
    return rc != COMPI_OK ? rc : COMPI_ERR_UNREACHABLE;
}

void btl_base_close(void)
{
    for (int i = 0; i < base.n; i++) {
        if (base.handles[i] != NULL)
            lt_dlclose(base.handles[i]);
        base.modules[i] = NULL;
        base.handles[i] = NULL;
    }
    base.n = 0;
    if (base.ltdl_up) {
        lt_dlexit();
        base.ltdl_up = 0;
    }
}
