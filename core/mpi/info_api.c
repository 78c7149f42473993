/*
 * info_api.c -- MPI_Info: an ordered key/value store.  No key changes compi's behaviour
 * yet; the objects exist so programs that pass hints work unchanged.  Every call here
 * works at any time, before MPI_Init and after MPI_Finalize too: the entry points
 * (core/mpi/gen/info.c, included last) check the arguments and raise on MPI_ERR_ANY_TIME
 * (errors.h), which returns the class outside MPI_Init..MPI_Finalize.
 *
 * Ownership: an info object owns copies of its keys and values; MPI_Info_free frees it.
 * MPI_INFO_ENV is built on first use and never freed; what it says is refreshed once MPI
 * is initialized (MPI_Info_create_env may be called before MPI_Init).
 */
#include "core/mpi/info.h"

#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/runtime/handle.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/rte.h"

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
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_NO_MEM, func,
                             "cannot allocate an info object");
    }
    *info_p = info;
    return MPI_SUCCESS;
}

static int info_create_impl(MPI_Info *info, const char *fn)
{
    compi_info_t *in;
    info_get(MPI_INFO_NULL); /* makes sure the table exists */
    int rc = info_new(fn, &in);
    if (rc == MPI_SUCCESS) {
        *info = in->handle;
    }
    return rc;
}

static int info_set_impl(MPI_Info info, const char *key, const char *value, const char *fn)
{
    int rc = info_set_one(info_get(info), key, value);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, rc, fn, "out of memory storing key \"%s\"", key);
    }
    return MPI_SUCCESS;
}

static int info_get_impl(MPI_Info info, const char *key, int valuelen, char *value, int *flag,
                         const char *fn)
{
    compi_info_t *in = info_get(info);
    int i = find_key(in, key);
    (void)fn;
    *flag = i >= 0;
    if (i >= 0) {
        /* at most valuelen characters, always terminated (the buffer has valuelen+1) */
        snprintf(value, (size_t)valuelen + 1, "%s", in->vals[i]);
    }
    return MPI_SUCCESS;
}

static int info_get_nkeys_impl(MPI_Info info, int *nkeys, const char *fn)
{
    (void)fn;
    *nkeys = info_get(info)->n;
    return MPI_SUCCESS;
}

static int info_get_nthkey_impl(MPI_Info info, int n, char *key, const char *fn)
{
    compi_info_t *in = info_get(info);
    if (n < 0 || n >= in->n) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn,
                             "n=%d is not in 0..%d (the info has %d keys)", n, in->n - 1, in->n);
    }
    snprintf(key, MPI_MAX_INFO_KEY + 1, "%s", in->keys[n]);
    return MPI_SUCCESS;
}

static int info_get_valuelen_impl(MPI_Info info, const char *key, int *valuelen, int *flag,
                                  const char *fn)
{
    compi_info_t *in = info_get(info);
    int i = find_key(in, key);
    (void)fn;
    *flag = i >= 0;
    if (i >= 0) {
        *valuelen = (int)strlen(in->vals[i]);
    }
    return MPI_SUCCESS;
}

static int info_delete_impl(MPI_Info info, const char *key, const char *fn)
{
    compi_info_t *in = info_get(info);
    int i = find_key(in, key);
    if (i < 0) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_INFO_NOKEY, fn,
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

/* a new info object with the keys and values of `in`, as *out_h */
static int info_copy(const compi_info_t *in, MPI_Info *out_h, const char *fn)
{
    compi_info_t *out;
    int rc = info_new(fn, &out);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    for (int i = 0; i < in->n; i++) {
        if (info_set_one(out, in->keys[i], in->vals[i]) != MPI_SUCCESS) {
            handle_free(&info_table, out->handle);
            info_destroy(out);
            return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_NO_MEM, fn,
                                 "out of memory copying %d keys", in->n);
        }
    }
    *out_h = out->handle;
    return MPI_SUCCESS;
}

static int info_dup_impl(MPI_Info info, MPI_Info *newinfo, const char *fn)
{
    return info_copy(info_get(info), newinfo, fn);
}

static int info_free_impl(MPI_Info *info, const char *fn)
{
    compi_info_t *in = info_get(*info);
    if (in == &info_env) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_INFO, fn, "MPI_INFO_ENV cannot be freed");
    }
    handle_free(&info_table, in->handle);
    info_destroy(in);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

static int info_get_string_impl(MPI_Info info, const char *key, int *buflen, char *value, int *flag,
                                const char *fn)
{
    compi_info_t *in = info_get(info);
    int i;
    if (*buflen < 0) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn, "*buflen=%d is negative", *buflen);
    }
    if (*buflen > 0 && value == NULL) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_ARG, fn, "value is NULL");
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

static int info_create_env_impl(int argc, char *argv[], MPI_Info *info, const char *fn)
{
    compi_info_t *env;
    (void)argc, (void)argv; /* the command line is read from the system, as MPI_INFO_ENV's */
    env = info_get(MPI_INFO_ENV);
    if (env == NULL) {
        return mpi_err_raise(MPI_ERR_ANY_TIME, MPI_ERR_INTERN, fn,
                             "MPI_INFO_ENV could not be set up");
    }
    return info_copy(env, info, fn);
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

#include "core/mpi/gen/info.c"
