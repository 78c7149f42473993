/*
 * test_attr.c -- attribute caching without MPI_Init: keyvals, set/get/overwrite/delete,
 * delete callbacks and their order, copy callbacks on dup, deferred keyval free, the
 * predefined keys, and errors for wrong keyvals.
 *
 * Attribute lists are driven directly (attr_set & co. on a bare list head), the way
 * comm.c and the datatype engine use them.
 */
#include "core/comm/attr.h"

#include "core/runtime/rte.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <limits.h>
#include <stdint.h>

#define OBJ 0x1000042 /* any handle: the callbacks only pass it along */

static int deleted[16], ndeleted;
static int extra_seen;

static int rec_delete(MPI_Comm obj, int keyval, void *val, void *extra)
{
    ck_assert_int_eq(obj, OBJ);
    extra_seen = *(int *)extra;
    deleted[ndeleted++] = (int)(intptr_t)val;
    return MPI_SUCCESS;
}

/* fails while *(int *)extra is set */
static int fail_delete(MPI_Comm obj, int keyval, void *val, void *extra)
{
    return *(int *)extra ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int dup_copy(MPI_Comm obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    *(void **)out = (char *)in + 100;
    *flag = 1;
    return MPI_SUCCESS;
}

static int skip_copy(MPI_Comm obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

static int extra = 77;

static void setup(void)
{
    ndeleted = 0;
    extra_seen = 0;
}

static void teardown(void)
{
    attr_finalize();
}

#define V(x) ((void *)(intptr_t)(x))

START_TEST(set_get_overwrite_delete)
{
    struct attr_list *list = NULL;
    int kv, flag = -1, cb = 0;
    void *val = NULL;

    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, NULL, rec_delete, &extra, &kv), COMPI_OK);
    /* clear of MPI_KEYVAL_INVALID and of the predefined keys (MPI_TAG_UB and above) */
    ck_assert_int_gt(kv, MPI_KEYVAL_INVALID);
    ck_assert_int_lt(kv, MPI_TAG_UB);
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, list, kv, &val, &flag), COMPI_OK);
    ck_assert_int_eq(flag, 0);

    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv, V(1), &cb), COMPI_OK);
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, list, kv, &val, &flag), COMPI_OK);
    ck_assert_int_eq(flag, 1);
    ck_assert_ptr_eq(val, V(1));

    /* overwrite runs the delete callback on the old value */
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv, V(2), &cb), COMPI_OK);
    ck_assert_int_eq(ndeleted, 1);
    ck_assert_int_eq(deleted[0], 1);
    ck_assert_int_eq(extra_seen, 77);

    ck_assert_int_eq(attr_delete(ATTR_KIND_COMM, OBJ, &list, kv, &cb), COMPI_OK);
    ck_assert_int_eq(ndeleted, 2);
    ck_assert_int_eq(deleted[1], 2);
    ck_assert_ptr_null(list);
    ck_assert_int_eq(attr_keyval_free(ATTR_KIND_COMM, &kv), COMPI_OK);
    ck_assert_int_eq(kv, MPI_KEYVAL_INVALID);
}
END_TEST

START_TEST(delete_all_in_reverse_order)
{
    struct attr_list *list = NULL;
    int kv[3], cb = 0;

    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, NULL, rec_delete, &extra, &kv[i]),
                         COMPI_OK);
        ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv[i], V(10 + i), &cb), COMPI_OK);
    }
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_COMM, OBJ, &list, &cb), COMPI_OK);
    ck_assert_int_eq(ndeleted, 3);
    ck_assert_int_eq(deleted[0], 12);
    ck_assert_int_eq(deleted[1], 11);
    ck_assert_int_eq(deleted[2], 10);
    ck_assert_ptr_null(list);
}
END_TEST

START_TEST(failing_delete_keeps_value)
{
    struct attr_list *list = NULL;
    int kv, cb = 0, flag, failing = 1;
    void *val;

    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, NULL, fail_delete, &failing, &kv),
                     COMPI_OK);
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv, V(5), &cb), COMPI_OK);
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv, V(6), &cb), ATTR_ERR_CALLBACK);
    ck_assert_int_eq(cb, MPI_ERR_OTHER);
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, list, kv, &val, &flag), COMPI_OK);
    ck_assert_ptr_eq(val, V(5));
    cb = 0;
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_COMM, OBJ, &list, &cb), ATTR_ERR_CALLBACK);
    ck_assert_ptr_nonnull(list);
    /* the value is still there to delete once the callback succeeds (and nothing leaks) */
    failing = 0;
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_COMM, OBJ, &list, &cb), COMPI_OK);
    ck_assert_ptr_null(list);
}
END_TEST

START_TEST(copy_on_dup)
{
    struct attr_list *old = NULL, *copy = NULL;
    int k_dup, k_null, k_skip, cb = 0, flag;
    void *val;

    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, dup_copy, NULL, NULL, &k_dup), COMPI_OK);
    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, NULL, NULL, NULL, &k_null), COMPI_OK);
    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, skip_copy, NULL, NULL, &k_skip), COMPI_OK);
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &old, k_dup, V(1), &cb), COMPI_OK);
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &old, k_null, V(2), &cb), COMPI_OK);
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &old, k_skip, V(3), &cb), COMPI_OK);

    ck_assert_int_eq(attr_copy_all(ATTR_KIND_COMM, OBJ, old, OBJ + 1, &copy, &cb), COMPI_OK);
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, copy, k_dup, &val, &flag), COMPI_OK);
    ck_assert_int_eq(flag, 1);
    ck_assert_ptr_eq(val, V(101));
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, copy, k_null, &val, &flag), COMPI_OK);
    ck_assert_int_eq(flag, 0);
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, copy, k_skip, &val, &flag), COMPI_OK);
    ck_assert_int_eq(flag, 0);
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_COMM, OBJ, &old, &cb), COMPI_OK);
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_COMM, OBJ + 1, &copy, &cb), COMPI_OK);
}
END_TEST

START_TEST(keyval_free_is_deferred)
{
    struct attr_list *list = NULL;
    int kv, kv_copy, cb = 0, flag;
    void *val;

    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_COMM, NULL, rec_delete, &extra, &kv), COMPI_OK);
    kv_copy = kv;
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv, V(9), &cb), COMPI_OK);
    ck_assert_int_eq(attr_keyval_free(ATTR_KIND_COMM, &kv), COMPI_OK);
    /* freed by the user: no new attributes, no second free */
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, kv_copy, V(1), &cb), COMPI_ERR_NOT_FOUND);
    ck_assert_int_eq(attr_keyval_free(ATTR_KIND_COMM, &kv_copy), COMPI_ERR_NOT_FOUND);
    /* but the attribute still there is deleted with its callback */
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_COMM, OBJ, &list, &cb), COMPI_OK);
    ck_assert_int_eq(ndeleted, 1);
    ck_assert_int_eq(deleted[0], 9);
    /* and now the keyval is gone entirely */
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, list, kv_copy, &val, &flag), COMPI_ERR_NOT_FOUND);
}
END_TEST

START_TEST(wrong_keyvals)
{
    struct attr_list *list = NULL;
    int tkv, cb = 0, flag;
    void *val;

    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, 12345, V(1), &cb), COMPI_ERR_NOT_FOUND);
    ck_assert_int_eq(attr_get(ATTR_KIND_COMM, list, MPI_KEYVAL_INVALID, &val, &flag),
                     COMPI_ERR_NOT_FOUND);
    /* a datatype keyval is not a communicator keyval */
    ck_assert_int_eq(attr_keyval_create(ATTR_KIND_TYPE, NULL, NULL, NULL, &tkv), COMPI_OK);
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, tkv, V(1), &cb), COMPI_ERR_NOT_FOUND);
    ck_assert_int_eq(attr_set(ATTR_KIND_TYPE, OBJ, &list, tkv, V(1), &cb), COMPI_OK);
    ck_assert_int_eq(attr_delete_all(ATTR_KIND_TYPE, OBJ, &list, &cb), COMPI_OK);
    /* predefined keys cannot be set */
    ck_assert_int_eq(attr_set(ATTR_KIND_COMM, OBJ, &list, MPI_TAG_UB, V(1), &cb),
                     COMPI_ERR_NOT_FOUND);
    ck_assert_int_eq(attr_keyval_free(ATTR_KIND_COMM, &(int){MPI_TAG_UB}), COMPI_ERR_NOT_FOUND);
}
END_TEST

START_TEST(predefined_on_any_comm)
{
    compi_comm_t comm = {.handle = OBJ};
    void *val = NULL;
    int flag = 0;

    rte_proc.appnum = 0;
    rte_proc.universe_size = 0;
    rte_proc.world_size = 4;
    ck_assert_int_eq(attr_comm_get(&comm, MPI_TAG_UB, &val, &flag), COMPI_OK);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(*(int *)val, INT_MAX);
    ck_assert_int_eq(attr_comm_get(&comm, MPI_HOST, &val, &flag), COMPI_OK);
    ck_assert_int_eq(*(int *)val, MPI_PROC_NULL);
    ck_assert_int_eq(attr_comm_get(&comm, MPI_IO, &val, &flag), COMPI_OK);
    ck_assert_int_eq(*(int *)val, MPI_ANY_SOURCE);
    ck_assert_int_eq(attr_comm_get(&comm, MPI_WTIME_IS_GLOBAL, &val, &flag), COMPI_OK);
    ck_assert_int_eq(*(int *)val, 0);
    ck_assert_int_eq(attr_comm_get(&comm, MPI_UNIVERSE_SIZE, &val, &flag), COMPI_OK);
    ck_assert_int_eq(*(int *)val, 4);
    ck_assert_int_eq(attr_comm_get(&comm, MPI_APPNUM, &val, &flag), COMPI_OK);
    ck_assert_int_eq(*(int *)val, 0);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        set_get_overwrite_delete, delete_all_in_reverse_order, failing_delete_keeps_value,
        copy_on_dup, keyval_free_is_deferred, wrong_keyvals, predefined_on_any_comm
    };
    const unit_case_t tc = {.suite = "attr", .name = "attr", .setup = setup, .teardown = teardown};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
