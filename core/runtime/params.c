/*
 * params.c -- registry of run-time parameters.
 *
 * Values come from COMPI_MCA_<name> in the environment (mpirun --mca sets it), else the
 * default.  Registering the same name twice returns the first registration's value, so
 * a component may register its parameters every time it is opened.
 *
 * Ownership: the registry owns copies of every string; they live until exit (parameters
 * are few and compi_info lists them), so callers may keep the returned pointers.
 */
#include "core/runtime/params.h"
#include "core/runtime/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static param_desc_t *params;
static size_t nparams, capparams;

static const param_desc_t *param_find(const char *name)
{
    for (size_t i = 0; i < nparams; i++) {
        if (strcmp(params[i].name, name) == 0) {
            return &params[i];
        }
    }
    return NULL;
}

static const param_desc_t *param_add(const char *name, const char *defval, const char *help)
{
    const param_desc_t *old = param_find(name);
    if (old) {
        return old;
    }
    if (nparams == capparams) {
        size_t ncap = capparams ? 2 * capparams : 64;
        param_desc_t *np = realloc(params, ncap * sizeof(*np));
        if (!np) {
            return NULL;
        }
        params = np;
        capparams = ncap;
    }
    char envname[256];
    snprintf(envname, sizeof(envname), "COMPI_MCA_%s", name);
    const char *env = getenv(envname);
    param_desc_t *p = &params[nparams++];
    p->name = strdup(name);
    p->defval = strdup(defval ? defval : "");
    p->value = strdup(env ? env : p->defval);
    p->help = strdup(help ? help : "");
    return p;
}

long param_register_int(const char *name, long defval, const char *help)
{
    char def[32];
    snprintf(def, sizeof(def), "%ld", defval);
    const param_desc_t *p = param_add(name, def, help);
    if (!p || !p->value) {
        return defval;
    }
    char *end;
    errno = 0;
    long v = strtol(p->value, &end, 0);
    /* accept size suffixes: 4k, 1m, 1g */
    if (end != p->value && *end) {
        switch (*end) {
        case 'k': case 'K': v <<= 10; end++; break;
        case 'm': case 'M': v <<= 20; end++; break;
        case 'g': case 'G': v <<= 30; end++; break;
        default: break;
        }
    }
    if (errno || end == p->value || *end) {
        compi_log_warn("parameter %s: '%s' is not an integer; using the default %ld", name,
                       p->value, defval);
        return defval;
    }
    return v;
}

const char *param_register_string(const char *name, const char *defval, const char *help)
{
    const param_desc_t *p = param_add(name, defval, help);
    return p ? p->value : defval;
}

size_t param_count(void)
{
    return nparams;
}

const param_desc_t *param_get(size_t i)
{
    return i < nparams ? &params[i] : NULL;
}
