/*
 * info_api.c -- MPI_Info: an ordered key/value store.  No key changes compi's behaviour
 * yet; the objects exist so programs that pass hints work unchanged.  Every call here
 * works at any time, before MPI_Init and after MPI_Finalize too (see info_raise).
 *
 * Ownership: an info object owns copies of its keys and values; MPI_Info_free frees it.
 * MPI_INFO_ENV is built on first use and never freed; what it says is refreshed once MPI
 * is initialized (MPI_Info_create_env may be called before MPI_Init).
 */
#include "core/mpi/info.h"

#include "core/mpi/errors.h"
#include "core/runtime/handle.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/rte.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

typedef struct compi_info {
    int n, cap;
    char **keys, **vals; /* [n], in order of first setting */
    int handle;
} compi_info_t;

static handle_table_t info_table = HANDLE_TABLE_INIT(COMPI_HKIND_INFO, 2);
static compi_info_t info_env;
static int info_env_ready;
static int info_env_state = -1; /* compi_mpi_state when last filled */

static int info_set_one(compi_info_t *info, const char *key, const char *value);

/* the program's command line, from /proc: "command" is argv[0], "argv" the rest */
static void info_env_cmdline(void)
{
    char buf[4096], args[4096] = "";
    size_t n, off, alen = 0;
    FILE *f = fopen("/proc/self/cmdline", "r");

    if (f == NULL) {
        return;
    }
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (n == 0) {
        return;
    }
    info_set_one(&info_env, "command", buf);
    /* the arguments, separated by blanks (MPI 4.0, 11.2.2) */
    for (off = strlen(buf) + 1; off < n; off += strlen(buf + off) + 1) {
        int w = snprintf(args + alen, sizeof(args) - alen, "%s%s", alen ? " " : "", buf + off);
        if (w < 0 || (size_t)w >= sizeof(args) - alen) {
            break;
        }
        alen += (size_t)w;
    }
    if (alen > 0) {
        info_set_one(&info_env, "argv", args);
    }
}

/* before MPI_Init: maxprocs as the launcher set it (PMI_SIZE; a process started by no
   launcher is a singleton, one process), this machine's name as host, and the level
   MPI_Init would give as thread_level; MPI_Init replaces them with what it found */
static void info_env_before_init(void)
{
    char num[16], host[256];
    const char *size = getenv("PMI_SIZE");
    if (size != NULL && *size != '\0' && strspn(size, "0123456789") == strlen(size)) {
        info_set_one(&info_env, "maxprocs", size);
    } else if (getenv("PMI_FD") == NULL && getenv("PMI_PORT") == NULL &&
               getenv("PMIX_NAMESPACE") == NULL) {
        snprintf(num, sizeof(num), "%d", 1);
        info_set_one(&info_env, "maxprocs", num);
    }
    if (gethostname(host, sizeof(host) - 1) == 0) {
        host[sizeof(host) - 1] = '\0';
        info_set_one(&info_env, "host", host);
    }
    info_set_one(&info_env, "thread_level", "MPI_THREAD_SINGLE");
}

/*
 * MPI_INFO_ENV holds what a launcher would have been asked for: command, argv, maxprocs
 * (the size of MPI_COMM_WORLD), host, arch, wdir, thread_level (the level MPI runs at);
 * before MPI_Init, what can be known then (info_env_before_init).  "soft" and "file" are
 * left out: compi's mpirun takes no such requests.
 */
static void info_env_setup(void)
{
    char num[16], wdir[1024];
    struct utsname u;

    if (!info_env_ready) {
        info_env_ready = 1;
        info_env.handle = MPI_INFO_ENV;
        if (handle_set_fixed(&info_table, 1, MPI_INFO_ENV, &info_env) != COMPI_OK) {
            return;
        }
        info_env_cmdline();
        if (uname(&u) == 0) {
            info_set_one(&info_env, "arch", u.machine);
        }
        if (getcwd(wdir, sizeof(wdir)) != NULL) {
            info_set_one(&info_env, "wdir", wdir);
        }
        if (compi_mpi_state == COMPI_STATE_PRE_INIT) {
            info_env_before_init();
        }
    }
    if (info_env_state == compi_mpi_state || compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return;
    }
    info_env_state = compi_mpi_state;
    snprintf(num, sizeof(num), "%d", rte_proc.world_size);
    info_set_one(&info_env, "maxprocs", num);
    if (rte_proc.hostname[0] != '\0') {
        info_set_one(&info_env, "host", rte_proc.hostname);
    }
    {
        static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                             "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
        int provided = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&provided);
        if (provided >= 0 && provided < 4) {
            info_set_one(&info_env, "thread_level", levels[provided]);
        }
    }
}

static compi_info_t *info_get(MPI_Info h)
{
    if (!info_env_ready || info_env_state != compi_mpi_state) {
        info_env_setup();
    }
    return handle_get(&info_table, h);
}

/*
 * The info calls work at any time, before MPI_Init and after MPI_Finalize too (MPI 4.0,
 * 11.4.1); outside that time an error is returned without calling a handler, as
 * MPI_Error_string does.
 */
static int info_raise(int errclass, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int info_raise(int errclass, const char *func, const char *fmt, ...)
{
    char what[512];
    va_list ap;

    if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return errclass;
    }
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return mpi_err_invoke(NULL, errclass, func, what);
}

static int bad_info(const char *func, MPI_Info h)
{
    return info_raise(MPI_ERR_INFO, func, "invalid info handle 0x%x%s", (unsigned)h,
                         h == MPI_INFO_NULL ? " (MPI_INFO_NULL)" : "");
}

static int null_arg(const char *func, const char *what)
{
    return info_raise(MPI_ERR_ARG, func, "%s is NULL", what);
}

/*
 * what a call on one info object checks first: MPI is initialized, `h` names an info
 * object (*in_p), and the output argument `out`, called `what`, is not NULL
 */
static int info_check(const char *func, MPI_Info h, const void *out, const char *what,
                      compi_info_t **in_p)
{
    *in_p = info_get(h);
    if (*in_p == NULL) {
        return bad_info(func, h);
    }
    if (out == NULL) {
        return null_arg(func, what);
    }
    return MPI_SUCCESS;
}

/* a key must be non-empty and at most MPI_MAX_INFO_KEY characters */
static int check_key(const char *func, const char *key)
{
    size_t len;
    if (key == NULL) {
        return null_arg(func, "key");
    }
    len = strlen(key);
    if (len == 0 || len > MPI_MAX_INFO_KEY) {
        return info_raise(MPI_ERR_INFO_KEY, func,
                             "key of length %zu (must be 1..%d characters)", len, MPI_MAX_INFO_KEY);
    }
    return MPI_SUCCESS;
}

static int find_key(const compi_info_t *info, const char *key)
{
    for (int i = 0; i < info->n; i++) {
        if (strcmp(info->keys[i], key) == 0) {
            return i;
        }
    }
    return -1;
}

/* returns an MPI class (MPI_SUCCESS or MPI_ERR_NO_MEM) */
static int info_set_one(compi_info_t *info, const char *key, const char *value)
{
    int i = find_key(info, key);
    char *v = strdup(value), *k = NULL;

    if (v == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (i >= 0) {
        free(info->vals[i]);
        info->vals[i] = v;
        return MPI_SUCCESS;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        char **keys = realloc(info->keys, (size_t)cap * sizeof(char *));
        if (keys == NULL) {
            goto err;
        }
        info->keys = keys;
        char **vals = realloc(info->vals, (size_t)cap * sizeof(char *));
        if (vals == NULL) {
            goto err;
        }
        info->vals = vals;
        info->cap = cap;
    }
    k = strdup(key);
    if (k == NULL) {
        goto err;
    }
    info->keys[info->n] = k;
    info->vals[info->n] = v;
    info->n++;
    return MPI_SUCCESS;

err:
    free(v);
    return MPI_ERR_NO_MEM;
}

static void info_destroy(compi_info_t *info)
{
    for (int i = 0; i < info->n; i++) {
        free(info->keys[i]);
        free(info->vals[i]);
    }
    free(info->keys);
    free(info->vals);
    free(info);
}

static int info_new(const char *func, compi_info_t **info_p)
{
    compi_info_t *info = calloc(1, sizeof(*info));
    if (info == NULL || handle_alloc(&info_table, info, &info->handle) != COMPI_OK) {
        free(info);
        return info_raise(MPI_ERR_NO_MEM, func, "cannot allocate an info object");
    }
    *info_p = info;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_create = PMPI_Info_create
int PMPI_Info_create(MPI_Info *info)
{
    COMPI_API_LOCK();
    compi_info_t *in;
    int rc;
    if (info == NULL) {
        return null_arg("MPI_Info_create", "info");
    }
    info_get(MPI_INFO_NULL); /* makes sure the table exists */
    rc = info_new("MPI_Info_create", &in);
    if (rc == MPI_SUCCESS) {
        *info = in->handle;
    }
    return rc;
}

#pragma weak MPI_Info_set = PMPI_Info_set
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    COMPI_API_LOCK();
    compi_info_t *in = info_get(info);
    size_t vlen;
    int rc;
    if (in == NULL) {
        return bad_info("MPI_Info_set", info);
    }
    rc = check_key("MPI_Info_set", key);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (value == NULL) {
        return null_arg("MPI_Info_set", "value");
    }
    vlen = strlen(value);
    if (vlen == 0 || vlen > MPI_MAX_INFO_VAL) {
        return info_raise(MPI_ERR_INFO_VALUE, "MPI_Info_set",
                             "value of length %zu for key \"%s\" (must be 1..%d characters)", vlen,
                             key, MPI_MAX_INFO_VAL);
    }
    rc = info_set_one(in, key, value);
    if (rc != MPI_SUCCESS) {
        return info_raise(rc, "MPI_Info_set", "out of memory storing key \"%s\"", key);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get = PMPI_Info_get
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    COMPI_API_LOCK();
    compi_info_t *in = info_get(info);
    int rc, i;
    if (in == NULL) {
        return bad_info("MPI_Info_get", info);
    }
    rc = check_key("MPI_Info_get", key);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (value == NULL || flag == NULL) {
        return null_arg("MPI_Info_get", value == NULL ? "value" : "flag");
    }
    if (valuelen < 0) {
        return info_raise(MPI_ERR_ARG, "MPI_Info_get", "valuelen=%d is negative",
                             valuelen);
    }
    i = find_key(in, key);
    *flag = i >= 0;
    if (i >= 0) {
        /* at most valuelen characters, always terminated (the buffer has valuelen+1) */
        snprintf(value, (size_t)valuelen + 1, "%s", in->vals[i]);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    COMPI_API_LOCK();
    compi_info_t *in;
    int rc = info_check("MPI_Info_get_nkeys", info, nkeys, "nkeys", &in);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *nkeys = in->n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    COMPI_API_LOCK();
    compi_info_t *in;
    int rc = info_check("MPI_Info_get_nthkey", info, key, "key", &in);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (n < 0 || n >= in->n) {
        return info_raise(MPI_ERR_ARG, "MPI_Info_get_nthkey",
                             "n=%d is not in 0..%d (the info has %d keys)", n, in->n - 1, in->n);
    }
    snprintf(key, MPI_MAX_INFO_KEY + 1, "%s", in->keys[n]);
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    COMPI_API_LOCK();
    compi_info_t *in = info_get(info);
    int rc, i;
    if (in == NULL) {
        return bad_info("MPI_Info_get_valuelen", info);
    }
    rc = check_key("MPI_Info_get_valuelen", key);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (valuelen == NULL || flag == NULL) {
        return null_arg("MPI_Info_get_valuelen", valuelen == NULL ? "valuelen" : "flag");
    }
    i = find_key(in, key);
    *flag = i >= 0;
    if (i >= 0) {
        *valuelen = (int)strlen(in->vals[i]);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_delete = PMPI_Info_delete
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    COMPI_API_LOCK();
    compi_info_t *in = info_get(info);
    int rc, i;
    if (in == NULL) {
        return bad_info("MPI_Info_delete", info);
    }
    rc = check_key("MPI_Info_delete", key);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    i = find_key(in, key);
    if (i < 0) {
        return info_raise(MPI_ERR_INFO_NOKEY, "MPI_Info_delete",
                             "key \"%s\" is not in the info object", key);
    }
    free(in->keys[i]);
    free(in->vals[i]);
    /* keep the others in order: MPI_Info_get_nthkey numbers them */
    memmove(&in->keys[i], &in->keys[i + 1], (size_t)(in->n - i - 1) * sizeof(char *));
    memmove(&in->vals[i], &in->vals[i + 1], (size_t)(in->n - i - 1) * sizeof(char *));
    in->n--;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_dup = PMPI_Info_dup
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    COMPI_API_LOCK();
    compi_info_t *in, *out;
    int rc = info_check("MPI_Info_dup", info, newinfo, "newinfo", &in);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = info_new("MPI_Info_dup", &out);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    for (int i = 0; i < in->n; i++) {
        if (info_set_one(out, in->keys[i], in->vals[i]) != MPI_SUCCESS) {
            handle_free(&info_table, out->handle);
            info_destroy(out);
            return info_raise(MPI_ERR_NO_MEM, "MPI_Info_dup",
                                 "out of memory copying %d keys", in->n);
        }
    }
    *newinfo = out->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_free = PMPI_Info_free
int PMPI_Info_free(MPI_Info *info)
{
    COMPI_API_LOCK();
    compi_info_t *in;
    if (info == NULL) {
        return null_arg("MPI_Info_free", "info");
    }
    in = info_get(*info);
    if (in == NULL) {
        return bad_info("MPI_Info_free", *info);
    }
    if (in == &info_env) {
        return info_raise(MPI_ERR_INFO, "MPI_Info_free", "MPI_INFO_ENV cannot be freed");
    }
    handle_free(&info_table, in->handle);
    info_destroy(in);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_string = PMPI_Info_get_string
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    COMPI_API_LOCK();
    compi_info_t *in = info_get(info);
    int rc, i;
    if (in == NULL) {
        return bad_info("MPI_Info_get_string", info);
    }
    rc = check_key("MPI_Info_get_string", key);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (buflen == NULL || flag == NULL) {
        return null_arg("MPI_Info_get_string", buflen == NULL ? "buflen" : "flag");
    }
    if (*buflen < 0) {
        return info_raise(MPI_ERR_ARG, "MPI_Info_get_string", "*buflen=%d is negative",
                             *buflen);
    }
    if (*buflen > 0 && value == NULL) {
        return null_arg("MPI_Info_get_string", "value");
    }
    i = find_key(in, key);
    *flag = i >= 0;
    if (i < 0) {
        return MPI_SUCCESS;
    }
    /* at most *buflen - 1 characters and the terminator; *buflen becomes what it takes */
    if (*buflen > 0) {
        snprintf(value, (size_t)*buflen, "%s", in->vals[i]);
    }
    *buflen = (int)strlen(in->vals[i]) + 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_create_env = PMPI_Info_create_env
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    COMPI_API_LOCK();
    compi_info_t *env, *out;
    int rc;
    (void)argc, (void)argv; /* the command line is read from the system, as MPI_INFO_ENV's */
    if (info == NULL) {
        return null_arg("MPI_Info_create_env", "info");
    }
    env = info_get(MPI_INFO_ENV);
    if (env == NULL) {
        return info_raise(MPI_ERR_INTERN, "MPI_Info_create_env",
                             "MPI_INFO_ENV could not be set up");
    }
    rc = info_new("MPI_Info_create_env", &out);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    for (int i = 0; i < env->n; i++) {
        if (info_set_one(out, env->keys[i], env->vals[i]) != MPI_SUCCESS) {
            handle_free(&info_table, out->handle);
            info_destroy(out);
            return info_raise(MPI_ERR_NO_MEM, "MPI_Info_create_env",
                                 "out of memory copying %d keys", env->n);
        }
    }
    *info = out->handle;
    return MPI_SUCCESS;
}

/* ---- for the other API files (info.h) --------------------------------------------- */

int mpi_info_valid(MPI_Info h)
{
    return info_get(h) != NULL;
}

int mpi_info_dup(MPI_Info in, MPI_Info *out_p)
{
    compi_info_t *src = in == MPI_INFO_NULL ? NULL : info_get(in);
    compi_info_t *out = calloc(1, sizeof(*out));

    if (out == NULL || handle_alloc(&info_table, out, &out->handle) != COMPI_OK) {
        free(out);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; src != NULL && i < src->n; i++) {
        if (info_set_one(out, src->keys[i], src->vals[i]) != MPI_SUCCESS) {
            handle_free(&info_table, out->handle);
            info_destroy(out);
            return MPI_ERR_NO_MEM;
        }
    }
    *out_p = out->handle;
    return MPI_SUCCESS;
}

void mpi_info_release(MPI_Info h)
{
    compi_info_t *in = info_get(h);
    if (in != NULL && in != &info_env) {
        handle_free(&info_table, in->handle);
        info_destroy(in);
    }
}

int mpi_info_merge(MPI_Info dst, MPI_Info src)
{
    compi_info_t *d = info_get(dst), *sr = src == MPI_INFO_NULL ? NULL : info_get(src);

    if (d == NULL) {
        return MPI_ERR_INFO;
    }
    for (int i = 0; sr != NULL && i < sr->n; i++) {
        if (info_set_one(d, sr->keys[i], sr->vals[i]) != MPI_SUCCESS) {
            return MPI_ERR_NO_MEM;
        }
    }
    return MPI_SUCCESS;
}
