/*
 * info_mem: the MPI_Info API and MPI_Alloc_mem/MPI_Free_mem.
 *
 * Info: set/get/get_valuelen/get_nkeys/get_nthkey (keys in order of first setting, a
 * value replaced in place), delete (the others keep their order), dup (independent
 * copy), free; MPI-4's MPI_Info_get_string (truncation, *buflen the length it takes plus
 * one, buflen 0 only asks); MPI_INFO_ENV's keys (command, maxprocs = size of WORLD,
 * host, arch, wdir, thread_level) and MPI_Info_create_env, a copy of it.  Errors under
 * MPI_ERRORS_RETURN: MPI_ERR_INFO_KEY (empty or too long key), MPI_ERR_INFO_VALUE,
 * MPI_ERR_INFO_NOKEY (delete of a missing key), MPI_ERR_ARG (nthkey out of range),
 * MPI_ERR_INFO (MPI_INFO_NULL), MPI_ERR_ARG (NULL keys, values and outputs, a negative
 * length).  The info calls, MPI_Error_class and MPI_Error_string also work before MPI_Init
 * and after MPI_Finalize, where an error returns its class.
 * Memory: blocks of 0 .. 1 MiB, written whole, 64-byte aligned, with MPI_INFO_NULL and an
 * info; MPI_Free_mem of a pointer not from MPI_Alloc_mem gives MPI_ERR_BASE, of NULL
 * succeeds; an impossible size gives MPI_ERR_NO_MEM; a negative one an error.
 */
#include "tests/mpi/mpitest.h"

#include <stdint.h>

static void expect_value(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = -1;
    MPI_OK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
    if (want == NULL) {
        CHECK(!flag, "key %s present, expected absent", key);
        return;
    }
    CHECK(flag && strcmp(v, want) == 0, "key %s: flag %d value '%s', expected '%s'", key, flag,
          flag ? v : "", want);
}

static void test_info(void)
{
    MPI_Info a, b;
    char key[MPI_MAX_INFO_KEY + 1], longkey[MPI_MAX_INFO_KEY + 10], v[64];
    int n, len, flag;

    MPI_OK(MPI_Info_create(&a));
    MPI_OK(MPI_Info_get_nkeys(a, &n));
    CHECK(n == 0, "new info has %d keys", n);
    MPI_OK(MPI_Info_set(a, "k1", "one"));
    MPI_OK(MPI_Info_set(a, "k2", "two"));
    MPI_OK(MPI_Info_set(a, "k3", "three"));
    MPI_OK(MPI_Info_set(a, "k2", "TWO")); /* replaced in place */
    MPI_OK(MPI_Info_get_nkeys(a, &n));
    CHECK(n == 3, "nkeys %d, expected 3", n);
    for (int i = 0; i < 3; i++) {
        char want[4];
        snprintf(want, sizeof(want), "k%d", i + 1);
        MPI_OK(MPI_Info_get_nthkey(a, i, key));
        CHECK(strcmp(key, want) == 0, "nthkey %d: '%s', expected '%s'", i, key, want);
    }
    expect_value(a, "k2", "TWO");
    MPI_OK(MPI_Info_get_valuelen(a, "k3", &len, &flag));
    CHECK(flag && len == 5, "valuelen of k3: flag %d len %d", flag, len);
    MPI_OK(MPI_Info_get_valuelen(a, "nope", &len, &flag));
    CHECK(!flag, "valuelen of a missing key: flag %d", flag);
    /* MPI_Info_get truncates to valuelen characters */
    MPI_OK(MPI_Info_get(a, "k3", 2, v, &flag));
    CHECK(flag && strcmp(v, "th") == 0, "Info_get valuelen 2: '%s'", v);

    /* MPI_Info_get_string */
    len = sizeof(v);
    MPI_OK(MPI_Info_get_string(a, "k3", &len, v, &flag));
    CHECK(flag && strcmp(v, "three") == 0 && len == 6, "get_string: '%s' buflen %d", v, len);
    len = 3;
    MPI_OK(MPI_Info_get_string(a, "k3", &len, v, &flag));
    CHECK(flag && strcmp(v, "th") == 0 && len == 6, "get_string buflen 3: '%s' buflen %d", v,
          len);
    len = 0;
    MPI_OK(MPI_Info_get_string(a, "k1", &len, NULL, &flag));
    CHECK(flag && len == 4, "get_string buflen 0: flag %d buflen %d", flag, len);
    len = 17;
    MPI_OK(MPI_Info_get_string(a, "nope", &len, v, &flag));
    CHECK(!flag && len == 17, "get_string of a missing key: flag %d buflen %d", flag, len);

    /* dup is a copy; delete keeps the order of the rest */
    MPI_OK(MPI_Info_dup(a, &b));
    MPI_OK(MPI_Info_delete(a, "k1"));
    MPI_OK(MPI_Info_get_nthkey(a, 0, key));
    CHECK(strcmp(key, "k2") == 0, "after delete, key 0 is '%s'", key);
    expect_value(a, "k1", NULL);
    expect_value(b, "k1", "one");
    MPI_OK(MPI_Info_get_nkeys(b, &n));
    CHECK(n == 3, "the dup has %d keys", n);

    /* errors */
    mt_expect_class(MPI_Info_set(a, "", "x"), MPI_ERR_INFO_KEY, "Info_set empty key");
    memset(longkey, 'k', sizeof(longkey) - 1);
    longkey[sizeof(longkey) - 1] = '\0';
    mt_expect_class(MPI_Info_set(a, longkey, "x"), MPI_ERR_INFO_KEY, "Info_set key too long");
    mt_expect_class(MPI_Info_set(a, "k", ""), MPI_ERR_INFO_VALUE, "Info_set empty value");
    mt_expect_class(MPI_Info_delete(a, "nope"), MPI_ERR_INFO_NOKEY, "Info_delete missing key");
    mt_expect_class(MPI_Info_get_nthkey(a, 2, key), MPI_ERR_ARG, "Info_get_nthkey out of range");
    mt_expect_class(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO, "Info_set MPI_INFO_NULL");
    mt_expect_class(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO, "Info_get_nkeys null");
    mt_expect_class(MPI_Info_free(&(MPI_Info){MPI_INFO_ENV}), MPI_ERR_INFO, "Info_free(ENV)");
    mt_expect_class(MPI_Info_set(a, NULL, "x"), MPI_ERR_ARG, "Info_set NULL key");
    mt_expect_class(MPI_Info_set(a, "k", NULL), MPI_ERR_ARG, "Info_set NULL value");
    mt_expect_class(MPI_Info_get(a, "k1", -1, key, &flag), MPI_ERR_ARG, "Info_get valuelen=-1");
    mt_expect_class(MPI_Info_get(a, "k1", 4, key, NULL), MPI_ERR_ARG, "Info_get NULL flag");
    mt_expect_class(MPI_Info_get_valuelen(a, "", &n, &flag), MPI_ERR_INFO_KEY,
                 "Info_get_valuelen empty key");
    mt_expect_class(MPI_Info_get_nkeys(a, NULL), MPI_ERR_ARG, "Info_get_nkeys NULL");
    mt_expect_class(MPI_Info_get_nthkey(a, -1, key), MPI_ERR_ARG, "Info_get_nthkey n=-1");
    n = 4;
    mt_expect_class(MPI_Info_get_string(a, "k2", &n, NULL, &flag), MPI_ERR_ARG,
                 "Info_get_string NULL value with buflen 4");
    mt_expect_class(MPI_Info_dup(a, NULL), MPI_ERR_ARG, "Info_dup into NULL");
    mt_expect_class(MPI_Info_free(NULL), MPI_ERR_ARG, "Info_free(NULL)");
    mt_expect_class(MPI_Info_create(NULL), MPI_ERR_ARG, "Info_create(NULL)");

    MPI_OK(MPI_Info_free(&a));
    CHECK(a == MPI_INFO_NULL, "Info_free did not set MPI_INFO_NULL");
    MPI_OK(MPI_Info_free(&b));
}

static void test_env(int argc, char **argv)
{
    char v[MPI_MAX_INFO_VAL + 1], want[32];
    int flag, n, m;
    MPI_Info e;

    MPI_OK(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag && strstr(v, "info_mem") != NULL, "INFO_ENV command: flag %d '%s'", flag,
          flag ? v : "");
    snprintf(want, sizeof(want), "%d", mt_size);
    expect_value(MPI_INFO_ENV, "maxprocs", want);
    {
        static const char *const keys[] = {"host", "arch", "wdir", "thread_level"};
        for (int i = 0; i < 4; i++) {
            MPI_OK(MPI_Info_get(MPI_INFO_ENV, keys[i], MPI_MAX_INFO_VAL, v, &flag));
            CHECK(flag && v[0] != '\0', "INFO_ENV has no %s", keys[i]);
        }
    }
    MPI_OK(MPI_Info_create_env(argc, argv, &e));
    MPI_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    MPI_OK(MPI_Info_get_nkeys(e, &m));
    CHECK(n == m && n >= 5, "Info_create_env: %d keys, INFO_ENV %d", m, n);
    expect_value(e, "maxprocs", want);
    MPI_OK(MPI_Info_free(&e));
}

static void test_mem(void)
{
    MPI_Info info;
    void *p;
    int x;

    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    for (MPI_Aint size = 0; size <= (1 << 20); size = size ? size * 4 : 1) {
        unsigned char *c = NULL;
        MPI_OK(MPI_Alloc_mem(size, (size & 1) ? MPI_INFO_NULL : info, &c));
        CHECK(c != NULL, "Alloc_mem(%ld) gave NULL", (long)size);
        CHECK(((uintptr_t)c & 63) == 0, "Alloc_mem(%ld): %p not aligned", (long)size, (void *)c);
        memset(c, 0x5a, (size_t)size);
        for (MPI_Aint i = 0; i < size; i += 4093)
            CHECK(c[i] == 0x5a, "Alloc_mem(%ld): byte %ld", (long)size, (long)i);
        MPI_OK(MPI_Free_mem(c));
    }
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Free_mem(NULL));
    mt_expect_class(MPI_Free_mem(&x), MPI_ERR_BASE, "Free_mem of a stack address");
    MPI_OK(MPI_Alloc_mem(16, MPI_INFO_NULL, &p));
    MPI_OK(MPI_Free_mem(p));
    mt_expect_class(MPI_Free_mem(p), MPI_ERR_BASE, "Free_mem twice");
    p = &x;
    mt_expect_class(MPI_Alloc_mem((MPI_Aint)1 << 62, MPI_INFO_NULL, &p), MPI_ERR_NO_MEM,
                 "Alloc_mem of 4 EiB");
    CHECK(p == &x, "a failed Alloc_mem changed baseptr");
    mt_expect_class(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_SIZE, "Alloc_mem(-1)");
    mt_expect_class(MPI_Alloc_mem(16, MPI_INFO_NULL, NULL), MPI_ERR_ARG, "Alloc_mem into NULL");
    mt_expect_class(MPI_Alloc_mem(16, (MPI_Info)0x7777, &p), MPI_ERR_INFO, "Alloc_mem bad info");
    CHECK(p == &x, "a failed Alloc_mem changed baseptr");
}

/* MPI_Info_create_env before MPI_Init: its maxprocs, "" when it had none */
static char before_maxprocs[16];

/* the info calls work before MPI_Init and after MPI_Finalize (MPI 4.0, 11.4.1); before
   it, MPI_Info_create_env already has maxprocs, host and thread_level */
static int outside_mpi(int argc, char **argv, const char *when)
{
    MPI_Info a, e;
    char v[16];
    int flag = 0, n = -1, bad = 0;

    bad |= MPI_Info_create(&a) != MPI_SUCCESS;
    bad |= MPI_Info_set(a, "k", "v") != MPI_SUCCESS;
    bad |= MPI_Info_get(a, "k", 15, v, &flag) != MPI_SUCCESS || !flag || strcmp(v, "v") != 0;
    bad |= MPI_Info_free(&a) != MPI_SUCCESS;
    bad |= MPI_Info_create_env(argc, argv, &e) != MPI_SUCCESS;
    bad |= MPI_Info_get(e, "command", 15, v, &flag) != MPI_SUCCESS || !flag;
    bad |= MPI_Info_get_nkeys(e, &n) != MPI_SUCCESS || n < 1;
    if (strcmp(when, "before MPI_Init") == 0) {
        static const char *const keys[] = {"maxprocs", "host", "thread_level"};
        for (int i = 0; i < 3; i++) {
            char val[256];
            flag = 0;
            MPI_Info_get(e, keys[i], (int)sizeof(val) - 1, val, &flag);
            if (!flag || val[0] == '\0') {
                fprintf(stderr, "FAIL info_mem: MPI_Info_create_env has no %s before MPI_Init\n",
                        keys[i]);
                bad = 1;
            } else if (i == 0) {
                snprintf(before_maxprocs, sizeof(before_maxprocs), "%s", val);
            }
        }
    }
    bad |= MPI_Info_free(&e) != MPI_SUCCESS;
    /* errors: the class returned, no handler called (there is no MPI_COMM_WORLD) */
    {
        char key[MPI_MAX_INFO_KEY + 1], s[MPI_MAX_ERROR_STRING];
        int cls = -1, len = 0;
        bad |= MPI_Info_create(&a) != MPI_SUCCESS;
        bad |= MPI_Info_set(a, "", "x") != MPI_ERR_INFO_KEY;
        bad |= MPI_Info_set(a, "k", "") != MPI_ERR_INFO_VALUE;
        bad |= MPI_Info_delete(a, "nope") != MPI_ERR_INFO_NOKEY;
        bad |= MPI_Info_get_nthkey(a, 0, key) != MPI_ERR_ARG;
        bad |= MPI_Info_get_nkeys(a, NULL) != MPI_ERR_ARG;
        bad |= MPI_Info_free(&a) != MPI_SUCCESS;
        bad |= MPI_Info_set(MPI_INFO_NULL, "k", "v") != MPI_ERR_INFO;
        bad |= MPI_Error_class(-5, &cls) != MPI_ERR_ARG;
        bad |= MPI_Error_class(MPI_ERR_INFO_KEY, NULL) != MPI_ERR_ARG;
        bad |= MPI_Error_class(MPI_ERR_INFO_KEY, &cls) != MPI_SUCCESS || cls != MPI_ERR_INFO_KEY;
        bad |= MPI_Error_string(MPI_ERR_TAG, s, &len) != MPI_SUCCESS || len < 1;
        bad |= MPI_Error_string(MPI_ERR_TAG, s, NULL) != MPI_ERR_ARG;
    }
    if (bad)
        fprintf(stderr, "FAIL info_mem: the info calls do not work %s\n", when);
    return bad;
}

int main(int argc, char **argv)
{
    int before = outside_mpi(argc, argv, "before MPI_Init"), rc;

    mt_init(&argc, &argv, "info_mem");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(!before, "the info calls failed before MPI_Init");
    CHECK(atoi(before_maxprocs) == mt_size,
          "maxprocs before MPI_Init was \"%s\", the size of MPI_COMM_WORLD is %d", before_maxprocs,
          mt_size);
    test_info();
    test_env(argc, argv);
    test_mem();
    rc = mt_finish();
    return outside_mpi(argc, argv, "after MPI_Finalize") ? 1 : rc;
}
