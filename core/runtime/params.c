/*
 * params.c -- registry of run-time parameters.
 *
 * Values come from COMPI_MCA_<name> in the environment (mpirun --mca sets it), else the
 * default.  Registering the same name twice returns the first registration's value, so
 * a component may register its parameters every time it is opened.  An integer outside
 * the range its registration names is a warning that names the range, and the default is
 * used: never a silent clamp.
 *
 * Ownership: the registry owns copies of every string; they live until exit (parameters
 * are few and compi_info lists them), so callers may keep the returned pointers.
 */
#include "core/runtime/params.h"
#include "core/runtime/log.h"

#include <errno.h>
#include <limits.h>
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

/* the value of p as an integer with an optional k/m/g suffix; -1 when it is not one */
static int param_parse_int(const param_desc_t *p, long *v_p)
{
    char *end;
    long v;
    int shift = 0;

    errno = 0;
    v = strtol(p->value, &end, 0);
    /* accept size suffixes: 4k, 1m, 1g */
    if (end != p->value && *end) {
        switch (*end) {
        case 'k': case 'K': shift = 10; end++; break;
        case 'm': case 'M': shift = 20; end++; break;
        case 'g': case 'G': shift = 30; end++; break;
        default: break;
        }
    }
    if (errno || end == p->value || *end)
        return -1;
    if (shift != 0 && (v > (LONG_MAX >> shift) || v < (LONG_MIN >> shift)))
        return -1;
    *v_p = shift != 0 ? v * (1L << shift) : v;
    return 0;
}

long param_register_int(const char *name, long defval, const char *help)
{
    return param_register_int_range(name, defval, LONG_MIN, LONG_MAX, help);
}

long param_register_int_range(const char *name, long defval, long lo, long hi, const char *help)
{
    char def[32];
    long v;

    snprintf(def, sizeof(def), "%ld", defval);
    const param_desc_t *p = param_add(name, def, help);
    if (!p || !p->value) {
        return defval;
    }
    if (param_parse_int(p, &v) != 0) {
        compi_log_warn("parameter %s: '%s' is not an integer; using the default %ld", name,
                       p->value, defval);
        return defval;
    }
    /* said every time it is registered: a component may register again, and the value
       it would otherwise run with is never silently another than the one given */
    if (v < lo || v > hi) {
        compi_log_warn("parameter %s: %ld is out of range (%ld to %ld); using the default %ld",
                       name, v, lo, hi, defval);
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
