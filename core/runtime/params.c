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
 *
 * Parameters are registered lazily, where they are read, and some only in some runs (a
 * BTL component's when it is opened, coll_profile_all at MPI_Finalize), so the names a
 * COMPI_MCA_ variable may have are those registered so far plus the list below, which
 * holds every name the library registers (tests/mpi/params.sh checks it against the
 * sources).  param_warn_unknown compares the environment with both.
 */
#include "core/runtime/params.h"
#include "core/runtime/log.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static param_desc_t *params;
static size_t nparams, capparams;

/* every parameter the library registers, wherever and whenever (sorted) */
static const char *const param_all_names[] = {
    "btl", "btl_base_verbose", "btl_ofi_dynamic", "btl_ofi_eager_limit", "btl_ofi_iface",
    "btl_ofi_local", "btl_ofi_max_frag", "btl_ofi_provider", "btl_ofi_rx_bufs", "btl_ofi_tx_bufs",
    "btl_self_eager_limit", "btl_self_max_frag", "btl_sm_backing", "btl_sm_cma_chunk",
    "btl_sm_doorbell", "btl_sm_eager_limit", "btl_sm_max_frag", "btl_sm_ring_size",
    "btl_sm_single_copy",
    "btl_verbose", "coll_cache_size", "coll_check_determinism", "coll_config",
    "coll_profile_all", "coll_shm_slot", "coll_summary", "coll_verbose", "module_path",
    "mpi_yield_when_idle", "op_simd", "osc_transport", "pml_block_after", "pml_block_ms", "pml_split_get_pct", "pml_split_min",
    "pml_verbose", "rte_addresses", "rte_hostname", "rte_layout",
};
#define COMPI_PARAM_NAMES (sizeof(param_all_names) / sizeof(param_all_names[0]))

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

/* ---- unknown parameters --------------------------------------------------------------- */

size_t param_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t row[64 + 1];

    if (lb > 64) {
        return SIZE_MAX;
    }
    for (size_t j = 0; j <= lb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) {
                best = up + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static int param_known(const char *name, size_t len)
{
    for (size_t i = 0; i < COMPI_PARAM_NAMES; i++) {
        if (strlen(param_all_names[i]) == len && strncmp(param_all_names[i], name, len) == 0) {
            return 1;
        }
    }
    for (size_t i = 0; i < nparams; i++) {
        if (strlen(params[i].name) == len && strncmp(params[i].name, name, len) == 0) {
            return 1;
        }
    }
    return 0;
}

/* the known name closest to `name' when it is close enough to be a typo, or NULL */
static const char *param_closest(const char *name)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;

    for (size_t i = 0; i < COMPI_PARAM_NAMES + nparams; i++) {
        const char *cand = i < COMPI_PARAM_NAMES ? param_all_names[i]
                                                 : params[i - COMPI_PARAM_NAMES].name;
        size_t d = param_edit_distance(name, cand);
        if (d < best_d) {
            best_d = d;
            best = cand;
        }
    }
    /* a typo: a few edits, fewer than a third of the name */
    size_t len = strlen(name);
    size_t limit = len / 3 > 3 ? 3 : len / 3;
    return best != NULL && best_d <= (limit > 0 ? limit : 1) ? best : NULL;
}

extern char **environ;

int param_warn_unknown(void)
{
    static const char prefix[] = "COMPI_MCA_";
    const size_t plen = sizeof(prefix) - 1;
    int n = 0;

    for (char **e = environ; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, prefix, plen) != 0) {
            continue;
        }
        const char *name = *e + plen;
        const char *eq = strchr(name, '=');
        size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
        if (len == 0 || len >= 128 || param_known(name, len)) {
            continue;
        }
        char copy[128];
        memcpy(copy, name, len);
        copy[len] = '\0';
        const char *near = param_closest(copy);
        if (near != NULL) {
            compi_log_warn("unknown parameter %s (COMPI_MCA_%s); did you mean %s?", copy, copy,
                           near);
        } else {
            compi_log_warn("unknown parameter %s (COMPI_MCA_%s); compi_info lists the "
                           "parameters", copy, copy);
        }
        n++;
    }
    return n;
}
