/*
 * obj_args: the argument checks of the calls on groups, communicators, info objects,
 * attributes, error handlers and ops, under MPI_ERRORS_RETURN, give the class the
 * standard names: a handle that names no group MPI_ERR_GROUP, no communicator (or an
 * intracommunicator where an intercommunicator is asked for) MPI_ERR_COMM, no info object
 * MPI_ERR_INFO, a key of no keyval (or of another kind of object) MPI_ERR_KEYVAL, no
 * datatype MPI_ERR_TYPE, no error handler MPI_ERR_ARG, no operation (or a predefined one to free)
 * MPI_ERR_OP; a negative array length, a NULL array, string or output pointer or a negative color
 * MPI_ERR_ARG; a rank outside a group MPI_ERR_RANK; a negative tag MPI_ERR_TAG.  What the checks
 * must let through (MPI_PROC_NULL in a translation, empty arrays, MPI_UNDEFINED as a color,
 * MPI_INFO_NULL as hints) works, and the library stays usable after.  MPI_Reduce_local: a
 * negative count MPI_ERR_COUNT, a NULL buffer with elements MPI_ERR_BUFFER.
 */
#include "tests/mpi/mpitest.h"

#define EXPECT(cls, fn, ...) mt_expect_class_at(fn(__VA_ARGS__), cls, #fn, __FILE__, __LINE__)

static void groups(void)
{
    MPI_Group wg, ng, freed;
    int n, ranks[2] = {0, 0}, out[2], range[1][3] = {{0, 0, 0}};

    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &freed));
    MPI_OK(MPI_Group_free(&freed));
    EXPECT(MPI_ERR_GROUP, MPI_Group_size, MPI_GROUP_NULL, &n);
    EXPECT(MPI_ERR_GROUP, MPI_Group_rank, (MPI_Group)0x7fff1234, &n);
    EXPECT(MPI_ERR_ARG, MPI_Group_size, wg, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Group_rank, wg, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_compare, wg, MPI_GROUP_NULL, &n);
    EXPECT(MPI_ERR_ARG, MPI_Group_compare, wg, wg, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_union, MPI_GROUP_NULL, wg, &ng);
    EXPECT(MPI_ERR_GROUP, MPI_Group_intersection, wg, MPI_GROUP_NULL, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_difference, wg, wg, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks, wg, -1, ranks, wg, out);
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks, wg, 1, NULL, wg, out);
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks, wg, 1, ranks, wg, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_translate_ranks, wg, 1, ranks, MPI_GROUP_NULL, out);
    ranks[0] = mt_size;
    EXPECT(MPI_ERR_RANK, MPI_Group_translate_ranks, wg, 1, ranks, wg, out);
    ranks[0] = MPI_PROC_NULL;
    MPI_OK(MPI_Group_translate_ranks(wg, 1, ranks, wg, out));
    CHECK(out[0] == MPI_PROC_NULL, "MPI_PROC_NULL translated to %d", out[0]);
    MPI_OK(MPI_Group_translate_ranks(wg, 0, NULL, wg, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_incl, wg, -1, ranks, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_incl, wg, 1, NULL, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_excl, wg, 0, ranks, NULL);
    ranks[0] = ranks[1] = 0;
    EXPECT(MPI_ERR_RANK, MPI_Group_incl, wg, 2, ranks, &ng);
    ranks[0] = -1;
    EXPECT(MPI_ERR_RANK, MPI_Group_excl, wg, 1, ranks, &ng);
    EXPECT(MPI_ERR_GROUP, MPI_Group_range_incl, MPI_GROUP_NULL, 1, range, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_range_excl, wg, 1, NULL, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl, wg, -2, range, &ng);
    EXPECT(MPI_ERR_ARG, MPI_Group_free, NULL);
    EXPECT(MPI_ERR_GROUP, MPI_Group_free, &freed);
    MPI_OK(MPI_Group_incl(wg, 0, NULL, &ng));
    MPI_OK(MPI_Group_size(ng, &n));
    CHECK(n == 0, "Group_incl of no ranks: size %d", n);
    if (ng != MPI_GROUP_EMPTY) {
        MPI_OK(MPI_Group_free(&ng));
    }
    MPI_OK(MPI_Group_free(&wg));
}

static void comms(void)
{
    MPI_Comm nc, dup, freed, null = MPI_COMM_NULL, world = MPI_COMM_WORLD;
    MPI_Group wg, eg;
    MPI_Info info, bad_info;
    MPI_Request req;
    char name[MPI_MAX_OBJECT_NAME];
    int n;

    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Info_create(&info));
    bad_info = info; /* a freed info object */
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &freed));
    MPI_OK(MPI_Comm_free(&freed));
    EXPECT(MPI_ERR_COMM, MPI_Comm_size, MPI_COMM_NULL, &n);
    EXPECT(MPI_ERR_COMM, MPI_Comm_rank, freed, &n);
    EXPECT(MPI_ERR_ARG, MPI_Comm_size, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_rank, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_compare, MPI_COMM_WORLD, MPI_COMM_NULL, &n);
    EXPECT(MPI_ERR_ARG, MPI_Comm_compare, MPI_COMM_WORLD, MPI_COMM_SELF, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_dup, MPI_COMM_NULL, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Comm_dup, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_INFO, MPI_Comm_dup_with_info, MPI_COMM_WORLD, bad_info, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Comm_dup_with_info, MPI_COMM_WORLD, MPI_INFO_NULL, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_split, MPI_COMM_WORLD, -5, 0, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Comm_split, MPI_COMM_WORLD, 0, 0, NULL);
    EXPECT(MPI_ERR_INFO, MPI_Comm_split_type, MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, bad_info,
           &nc);
    EXPECT(MPI_ERR_ARG, MPI_Comm_split_type, MPI_COMM_WORLD, -12345, 0, MPI_INFO_NULL, &nc);
    EXPECT(MPI_ERR_GROUP, MPI_Comm_create, MPI_COMM_WORLD, MPI_GROUP_NULL, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Comm_create, MPI_COMM_WORLD, wg, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_create, MPI_COMM_NULL, wg, &nc);
    EXPECT(MPI_ERR_TAG, MPI_Comm_create_group, MPI_COMM_WORLD, wg, -1, &nc);
    EXPECT(MPI_ERR_GROUP, MPI_Comm_create_group, MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Comm_free, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_free, &null);
    EXPECT(MPI_ERR_COMM, MPI_Comm_free, &world);
    EXPECT(MPI_ERR_ARG, MPI_Comm_group, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_set_name, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_name, MPI_COMM_WORLD, NULL, &n);
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_name, MPI_COMM_WORLD, name, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_get_name, MPI_COMM_NULL, name, &n);
    EXPECT(MPI_ERR_INFO, MPI_Comm_set_info, MPI_COMM_WORLD, bad_info);
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_info, MPI_COMM_NULL, MPI_INFO_NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_info, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_idup, MPI_COMM_WORLD, NULL, &req);
    EXPECT(MPI_ERR_ARG, MPI_Comm_idup, MPI_COMM_WORLD, &nc, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_idup, MPI_COMM_NULL, &nc, &req);
    EXPECT(MPI_ERR_INFO, MPI_Comm_idup_with_info, MPI_COMM_WORLD, bad_info, &nc, &req);
    EXPECT(MPI_ERR_ARG, MPI_Comm_test_inter, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_test_inter, MPI_COMM_NULL, &n);
    EXPECT(MPI_ERR_COMM, MPI_Comm_remote_size, MPI_COMM_WORLD, &n);
    EXPECT(MPI_ERR_ARG, MPI_Comm_remote_size, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_remote_group, MPI_COMM_WORLD, &eg);
    EXPECT(MPI_ERR_TAG, MPI_Intercomm_create, MPI_COMM_SELF, 0, MPI_COMM_NULL, 0, -1, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Intercomm_create, MPI_COMM_SELF, 0, MPI_COMM_NULL, 0, 0, NULL);
    EXPECT(MPI_ERR_RANK, MPI_Intercomm_create, MPI_COMM_SELF, 1, MPI_COMM_NULL, 0, 0, &nc);
    EXPECT(MPI_ERR_COMM, MPI_Intercomm_create, MPI_COMM_SELF, 0, MPI_COMM_NULL, 0, 0, &nc);
    EXPECT(MPI_ERR_COMM, MPI_Intercomm_create, MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 0, &nc);
    EXPECT(MPI_ERR_COMM, MPI_Intercomm_merge, MPI_COMM_WORLD, 0, &nc);
    EXPECT(MPI_ERR_ARG, MPI_Intercomm_merge, MPI_COMM_WORLD, 0, NULL);
    /* what passes: MPI_UNDEFINED as a color, MPI_INFO_NULL as hints, an empty group */
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &nc));
    CHECK(nc == MPI_COMM_NULL, "split with MPI_UNDEFINED gave a communicator");
    MPI_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup));
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &eg));
    MPI_OK(MPI_Group_free(&eg));
    MPI_OK(MPI_Comm_create(dup, MPI_GROUP_EMPTY, &nc));
    CHECK(nc == MPI_COMM_NULL, "Comm_create of MPI_GROUP_EMPTY gave a communicator");
    MPI_OK(MPI_Comm_set_info(dup, MPI_INFO_NULL));
    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Comm_test_inter(dup, &n));
    CHECK(!n, "Comm_test_inter: an idup of WORLD is an intercommunicator");
    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Group_free(&wg));
}

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void sum_fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)type;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void ops(void)
{
    MPI_Op op, op_c, freed, sum = MPI_SUM, null = MPI_OP_NULL;
    int commute = -1, a[2] = {1, 2}, b[2] = {10, 20};

    EXPECT(MPI_ERR_ARG, MPI_Op_create, NULL, 1, &op);
    EXPECT(MPI_ERR_ARG, MPI_Op_create, sum_fn, 1, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Op_create_c, NULL, 1, &op);
    EXPECT(MPI_ERR_ARG, MPI_Op_create_c, sum_fn_c, 1, NULL);
    MPI_OK(MPI_Op_create(sum_fn, 0, &op));
    MPI_OK(MPI_Op_create_c(sum_fn_c, 1, &op_c));
    MPI_OK(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "Op_commutative of a non-commutative op: %d", commute);
    MPI_OK(MPI_Op_commutative(op_c, &commute));
    CHECK(commute == 1, "Op_commutative of a commutative op: %d", commute);
    MPI_OK(MPI_Reduce_local(a, b, 2, MPI_INT, op));
    MPI_OK(MPI_Reduce_local(a, b, 2, MPI_INT, op_c));
    CHECK(b[0] == 12 && b[1] == 24, "Reduce_local with the user ops: %d %d", b[0], b[1]);
    EXPECT(MPI_ERR_COUNT, MPI_Reduce_local, a, b, -1, MPI_INT, op);
    EXPECT(MPI_ERR_COUNT, MPI_Reduce_local_c, a, b, (MPI_Count)-1, MPI_INT, op);
    EXPECT(MPI_ERR_TYPE, MPI_Reduce_local, a, b, 2, MPI_DATATYPE_NULL, op);
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local, a, NULL, 2, MPI_INT, op);
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local, NULL, b, 2, MPI_INT, op);
    EXPECT(MPI_ERR_OP, MPI_Reduce_local, a, b, 2, MPI_INT, MPI_OP_NULL);
    MPI_OK(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, op));
    EXPECT(MPI_ERR_OP, MPI_Op_commutative, MPI_OP_NULL, &commute);
    EXPECT(MPI_ERR_ARG, MPI_Op_commutative, op, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Op_free, NULL);
    EXPECT(MPI_ERR_OP, MPI_Op_free, &null);
    EXPECT(MPI_ERR_OP, MPI_Op_free, &sum);
    freed = op;
    MPI_OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "Op_free did not reset the handle");
    EXPECT(MPI_ERR_OP, MPI_Op_free, &freed);
    MPI_OK(MPI_Op_free(&op_c));
}

static int handler_calls;

static void count_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
    handler_calls++;
}

static void errhandlers(void)
{
    MPI_Errhandler eh, got, freed, null = MPI_ERRHANDLER_NULL;
    MPI_Comm dup;

    EXPECT(MPI_ERR_ARG, MPI_Comm_create_errhandler, NULL, &eh);
    EXPECT(MPI_ERR_ARG, MPI_Comm_create_errhandler, count_handler, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Win_create_errhandler, NULL, &eh);
    EXPECT(MPI_ERR_ARG, MPI_Win_create_errhandler, (MPI_Win_errhandler_function *)count_handler,
           NULL);
    EXPECT(MPI_ERR_ARG, MPI_Session_create_errhandler, NULL, &eh);
    EXPECT(MPI_ERR_COMM, MPI_Errhandler_set, MPI_COMM_NULL, MPI_ERRORS_RETURN);
    EXPECT(MPI_ERR_ARG, MPI_Errhandler_get, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_set_errhandler, MPI_COMM_WORLD, MPI_ERRHANDLER_NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_errhandler, MPI_COMM_NULL, MPI_ERRORS_RETURN);
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_errhandler, MPI_COMM_WORLD, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_get_errhandler, MPI_COMM_NULL, &got);
    EXPECT(MPI_ERR_COMM, MPI_Comm_call_errhandler, MPI_COMM_NULL, MPI_ERR_OTHER);
    EXPECT(MPI_ERR_ARG, MPI_Errhandler_free, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Errhandler_free, &null);
    MPI_OK(MPI_Comm_create_errhandler(count_handler, &eh));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_OK(MPI_Comm_set_errhandler(dup, eh));
    MPI_OK(MPI_Comm_get_errhandler(dup, &got));
    CHECK(got == eh, "Comm_get_errhandler: 0x%x, set 0x%x", (unsigned)got, (unsigned)eh);
    MPI_OK(MPI_Errhandler_free(&got));
    /* MPI-1's names, removed in MPI-3.0: the same calls */
    MPI_OK(MPI_Errhandler_set(dup, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Errhandler_get(dup, &got));
    CHECK(got == MPI_ERRORS_RETURN, "Errhandler_get: 0x%x", (unsigned)got);
    MPI_OK(MPI_Errhandler_free(&got));
    MPI_OK(MPI_Comm_set_errhandler(dup, eh));
    freed = eh;
    MPI_OK(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not reset the handle");
    handler_calls = 0;
    MPI_OK(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    CHECK(handler_calls == 1, "Comm_call_errhandler: the handler ran %d times", handler_calls);
    MPI_OK(MPI_Comm_free(&dup));
    EXPECT(MPI_ERR_ARG, MPI_Errhandler_free, &freed);
    /* MPI-1's MPI_Errhandler_create, removed in MPI-3.0: MPI_Comm_create_errhandler */
    EXPECT(MPI_ERR_ARG, MPI_Errhandler_create, NULL, &eh);
    MPI_OK(MPI_Errhandler_create((MPI_Handler_function *)count_handler, &eh));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_OK(MPI_Errhandler_set(dup, eh));
    handler_calls = 0;
    MPI_OK(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    CHECK(handler_calls == 1, "Errhandler_create's handler ran %d times", handler_calls);
    MPI_OK(MPI_Errhandler_free(&eh));
    MPI_OK(MPI_Comm_free(&dup));
}

static void attrs(void)
{
    int key, tkey, freed, flag, bad = 123456;
    void *val;

    EXPECT(MPI_ERR_ARG, MPI_Comm_create_keyval, MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
           NULL, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Type_create_keyval, MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN,
           NULL, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Keyval_create, MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_free_keyval, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Type_free_keyval, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Keyval_free, NULL);
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MPI_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL));
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_attr, MPI_COMM_NULL, key, &bad);
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_set_attr, MPI_COMM_WORLD, bad, &bad);
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_set_attr, MPI_COMM_WORLD, tkey, &bad);
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_attr, MPI_COMM_WORLD, key, NULL, &flag);
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_attr, MPI_COMM_WORLD, key, &val, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Attr_get, MPI_COMM_WORLD, key, &val, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_delete_attr, MPI_COMM_NULL, key);
    EXPECT(MPI_ERR_COMM, MPI_Attr_put, MPI_COMM_NULL, key, &bad);
    EXPECT(MPI_ERR_KEYVAL, MPI_Attr_delete, MPI_COMM_WORLD, bad);
    EXPECT(MPI_ERR_TYPE, MPI_Type_set_attr, MPI_DATATYPE_NULL, tkey, &bad);
    EXPECT(MPI_ERR_KEYVAL, MPI_Type_set_attr, MPI_INT, key, &bad);
    EXPECT(MPI_ERR_ARG, MPI_Type_get_attr, MPI_INT, tkey, NULL, &flag);
    EXPECT(MPI_ERR_TYPE, MPI_Type_delete_attr, MPI_DATATYPE_NULL, tkey);
    MPI_OK(MPI_Attr_put(MPI_COMM_WORLD, key, &bad));
    MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &val, &flag));
    CHECK(flag && val == &bad, "Attr_put then Comm_get_attr: flag %d", flag);
    MPI_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key));
    MPI_OK(MPI_Type_set_attr(MPI_INT, tkey, &bad));
    MPI_OK(MPI_Type_get_attr(MPI_INT, tkey, &val, &flag));
    CHECK(flag && val == &bad, "Type_set_attr then Type_get_attr: flag %d", flag);
    MPI_OK(MPI_Type_delete_attr(MPI_INT, tkey));
    freed = key;
    MPI_OK(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID, "Comm_free_keyval did not reset the key");
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_free_keyval, &freed);
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_free_keyval, &tkey);
    MPI_OK(MPI_Type_free_keyval(&tkey));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "obj_args");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    groups();
    comms();
    ops();
    errhandlers();
    attrs();
    return mt_finish();
}
