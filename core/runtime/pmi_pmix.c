/*
 * pmi_pmix.c -- the PMI client over PMIx, for ranks started by a PMIx launcher.
 *
 * The PMI-1 calls map one to one:
 *   init     PMIx_Init; job size, appnum, universe size from the job's data
 *   put      PMIx_Put(PMIX_GLOBAL)         commit   PMIx_Commit
 *   barrier  PMIx_Fence(all, COLLECT_DATA) get      PMIx_Get of the peer's key
 *   abort    PMIx_Abort (the launcher ends the job)  finalize  PMIx_Finalize
 * Gets pass PMIX_OPTIONAL: as in PMI-1, a key is only looked for after the fence that
 * collected it, so a missing key is "not found" at once, never a wait on the server.
 *
 * libpmix is loaded with dlopen, and only here: it is ~1 MB with plugins of its own, and a
 * job under our mpirun must not pay for loading it.  The library is never unloaded
 * (it leaves a progress thread behind until PMIx_Finalize, and plugins after it).
 */
#include "core/runtime/pmi_pmix.h"
#include "core/runtime/log.h"

#include <pmix.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef pmix_status_t (*init_fn_t)(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);
typedef pmix_status_t (*finalize_fn_t)(const pmix_info_t info[], size_t ninfo);
typedef pmix_status_t (*put_fn_t)(pmix_scope_t scope, const pmix_key_t key, pmix_value_t *val);
typedef pmix_status_t (*commit_fn_t)(void);
typedef pmix_status_t (*fence_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                    const pmix_info_t info[], size_t ninfo);
typedef pmix_status_t (*get_fn_t)(const pmix_proc_t *proc, const pmix_key_t key,
                                  const pmix_info_t info[], size_t ninfo, pmix_value_t **val);
typedef pmix_status_t (*abort_fn_t)(int status, const char msg[], pmix_proc_t procs[],
                                    size_t nprocs);
typedef void (*value_destruct_fn_t)(pmix_value_t *val);
typedef const char *(*error_string_fn_t)(pmix_status_t status);

typedef struct pmi_pmix_state {
    int loaded, initialized;
    pmix_proc_t me;
    init_fn_t init;
    finalize_fn_t finalize;
    put_fn_t put;
    commit_fn_t commit;
    fence_fn_t fence;
    get_fn_t get;
    abort_fn_t abort;
    value_destruct_fn_t value_destruct;
    error_string_fn_t error_string;
} pmi_pmix_state_t;

static pmi_pmix_state_t px;

static compi_status_t load(void)
{
    /* the one configure found first (Debian keeps it outside the loader's path), then
       whatever the loader finds by its soname */
    static const char *const paths[] = {
#ifdef PMI_PMIX_LIBDIR
        PMI_PMIX_LIBDIR "/libpmix.so.2",
#endif
        "libpmix.so.2",
        "libpmix.so",
    };
    static const struct {
        const char *name;
        size_t offset;
    } syms[] = {
        {"PMIx_Init", offsetof(pmi_pmix_state_t, init)},
        {"PMIx_Finalize", offsetof(pmi_pmix_state_t, finalize)},
        {"PMIx_Put", offsetof(pmi_pmix_state_t, put)},
        {"PMIx_Commit", offsetof(pmi_pmix_state_t, commit)},
        {"PMIx_Fence", offsetof(pmi_pmix_state_t, fence)},
        {"PMIx_Get", offsetof(pmi_pmix_state_t, get)},
        {"PMIx_Abort", offsetof(pmi_pmix_state_t, abort)},
        {"PMIx_Value_destruct", offsetof(pmi_pmix_state_t, value_destruct)},
        {"PMIx_Error_string", offsetof(pmi_pmix_state_t, error_string)},
    };
    const char *path = NULL, *why = "";
    void *h = NULL;

    if (px.loaded)
        return COMPI_OK;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && h == NULL; i++) {
        path = paths[i];
        h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (h == NULL)
            why = dlerror();
    }
    if (h == NULL) {
        compi_log_error("PMIx: started by a PMIx launcher, but cannot load libpmix (%s): "
                        "install it (Debian: libpmix2)",
                        why);
        return COMPI_ERR_PMI;
    }
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
        void *fn = dlsym(h, syms[i].name);

        if (fn == NULL) {
            compi_log_error("PMIx: %s has no %s: %s", path, syms[i].name, dlerror());
            return COMPI_ERR_PMI;
        }
        memcpy((char *)&px + syms[i].offset, &fn, sizeof(fn));
    }
    px.loaded = 1;
    return COMPI_OK;
}

static const char *err_string(pmix_status_t rc)
{
    return px.error_string != NULL ? px.error_string(rc) : "unknown PMIx error";
}

static void info_flag(pmix_info_t *info, const char *key)
{
    memset(info, 0, sizeof(*info));
    snprintf(info->key, sizeof(info->key), "%s", key);
    info->value.type = PMIX_BOOL;
    info->value.data.flag = true;
}

/* a job-level or own number as an int; 0 when PMIx does not have it */
static int get_int(pmix_rank_t rank, const char *key, int *value_p)
{
    pmix_proc_t proc = px.me;
    pmix_value_t *val = NULL;
    int ok = 1;

    proc.rank = rank;
    if (px.get(&proc, key, NULL, 0, &val) != PMIX_SUCCESS || val == NULL)
        return 0;
    switch (val->type) {
    case PMIX_UINT32:
        *value_p = (int)val->data.uint32;
        break;
    case PMIX_UINT16:
        *value_p = (int)val->data.uint16;
        break;
    case PMIX_INT:
        *value_p = val->data.integer;
        break;
    case PMIX_UINT:
        *value_p = (int)val->data.uint;
        break;
    case PMIX_SIZE:
        *value_p = (int)val->data.size;
        break;
    default:
        ok = 0;
        break;
    }
    px.value_destruct(val);
    free(val);
    return ok;
}

compi_status_t pmi_pmix_init(pmi_info_t *info)
{
    pmix_status_t rc;
    compi_status_t st;
    int size = 0, v;

    st = load();
    if (st != COMPI_OK)
        return st;
    rc = px.init(&px.me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        compi_log_error("PMIx: PMIx_Init failed: %s", err_string(rc));
        return COMPI_ERR_PMI;
    }
    px.initialized = 1;
    if (!get_int(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &size) || size < 1 || (int)px.me.rank >= size) {
        compi_log_error("PMIx: the launcher gave no usable job size (rank %u, size %d)",
                        (unsigned)px.me.rank, size);
        pmi_pmix_finalize();
        return COMPI_ERR_PMI;
    }
    info->rank = (int)px.me.rank;
    info->size = size;
    info->singleton = 0;
    info->appnum = get_int(px.me.rank, PMIX_APPNUM, &v) ? v : 0;
    info->universe_size = get_int(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, &v) && v >= size ? v : size;
    snprintf(info->kvsname, sizeof(info->kvsname), "%s", px.me.nspace);
    return COMPI_OK;
}

compi_status_t pmi_pmix_put(const char *key, const char *value)
{
    pmix_value_t val = {.type = PMIX_STRING};
    pmix_status_t rc;

    if (strlen(key) > PMIX_MAX_KEYLEN) {
        compi_log_error("PMIx: key '%.100s' is longer than PMIx allows (%d)", key, PMIX_MAX_KEYLEN);
        return COMPI_ERR_INVALID_PARAM;
    }
    val.data.string = (char *)value; /* PMIx_Put copies it */
    rc = px.put(PMIX_GLOBAL, key, &val);
    if (rc != PMIX_SUCCESS) {
        compi_log_error("PMIx: put of key '%s' failed: %s", key, err_string(rc));
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

compi_status_t pmi_pmix_commit(void)
{
    pmix_status_t rc = px.commit();

    if (rc != PMIX_SUCCESS) {
        compi_log_error("PMIx: commit failed: %s", err_string(rc));
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

compi_status_t pmi_pmix_barrier(void)
{
    pmix_info_t collect;
    pmix_status_t rc;

    info_flag(&collect, PMIX_COLLECT_DATA);
    rc = px.fence(NULL, 0, &collect, 1); /* NULL: every rank of our namespace */
    if (rc != PMIX_SUCCESS) {
        compi_log_error("PMIx: fence failed: %s", err_string(rc));
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

compi_status_t pmi_pmix_get(int rank, const char *key, char *value, size_t len)
{
    pmix_proc_t proc = px.me;
    pmix_value_t *val = NULL;
    pmix_info_t optional;
    pmix_status_t rc;
    compi_status_t st = COMPI_OK;

    if (rank < 0 || strlen(key) > PMIX_MAX_KEYLEN)
        return COMPI_ERR_INVALID_PARAM;
    proc.rank = (pmix_rank_t)rank;
    info_flag(&optional, PMIX_OPTIONAL);
    rc = px.get(&proc, key, &optional, 1, &val);
    if (rc == PMIX_ERR_NOT_FOUND || (rc == PMIX_SUCCESS && val == NULL))
        return COMPI_ERR_NOT_FOUND;
    if (rc != PMIX_SUCCESS) {
        compi_log_error("PMIx: get of key '%s' of rank %d failed: %s", key, rank, err_string(rc));
        return COMPI_ERR_PMI;
    }
    if (val->type != PMIX_STRING || val->data.string == NULL) {
        compi_log_error("PMIx: key '%s' of rank %d is not a string (type %d)", key, rank,
                        (int)val->type);
        st = COMPI_ERR_PMI;
    } else if (strlen(val->data.string) >= len) {
        st = COMPI_ERR_TRUNCATE;
    } else {
        strcpy(value, val->data.string);
    }
    px.value_destruct(val);
    free(val);
    return st;
}

compi_status_t pmi_pmix_finalize(void)
{
    pmix_status_t rc;

    if (!px.initialized)
        return COMPI_OK;
    px.initialized = 0;
    rc = px.finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        compi_log_error("PMIx: finalize failed: %s", err_string(rc));
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

compi_status_t pmi_pmix_abort(int code, const char *msg)
{
    pmix_status_t rc;

    if (!px.initialized)
        return COMPI_OK; /* the caller's exit is the abort */
    /* PMIx launchers (Open MPI's mpirun) kill the job without saying who asked, so say it
       here, as our mpirun does for PMI-1 ranks */
    fprintf(stderr, "compi: rank %u of job %s aborts the job with exit code %d: %s\n",
            (unsigned)px.me.rank, px.me.nspace, code, msg != NULL && *msg ? msg : "no reason");
    fflush(stderr);
    /* NULL procs: the whole namespace; the launcher kills the others and returns */
    rc = px.abort(code, msg != NULL ? msg : "", NULL, 0);
    return rc == PMIX_SUCCESS ? COMPI_OK : COMPI_ERR_PMI;
}
