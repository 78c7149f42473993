/*
 * attr_delete: attribute delete callbacks that delete or set attributes of the object
 * being emptied.  Two keyvals whose callbacks delete each other's attribute, a callback
 * that deletes a newer attribute while an older one is deleted by MPI_Comm_delete_attr,
 * a callback that sets a new attribute during MPI_Comm_free, and a pair left on
 * MPI_COMM_WORLD and MPI_COMM_SELF for MPI_Finalize; and a copy callback that deletes,
 * from the old communicator, the attribute it copies during MPI_Comm_dup; and copy
 * callbacks that fail, which fail MPI_Comm_dup and MPI_Type_dup with their code and a null
 * handle.  Every delete callback runs once
 * per value, nothing is freed twice, and the program ends normally.
 */
#include "tests/mpi/mpitest.h"

static int key_a, key_b, key_c, key_late;
static int ndel[4]; /* per value: 0 a, 1 b, 2 c, 3 late */

/* deletes the partner attribute of the same communicator, if it is still there */
static int del_partner(MPI_Comm comm, int keyval, void *val, void *extra)
{
    int partner = *(int *)extra, flag = 0;
    void *v;
    ndel[(int)(long)val]++;
    (void)keyval;
    MPI_Comm_get_attr(comm, partner, &v, &flag);
    if (flag)
        return MPI_Comm_delete_attr(comm, partner);
    return MPI_SUCCESS;
}

static int del_count(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    ndel[(int)(long)val]++;
    return MPI_SUCCESS;
}

/* sets key_late on the communicator being freed (once) */
static int del_sets(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval, (void)extra;
    ndel[(int)(long)val]++;
    if (ndel[3] == 0) {
        int flag = 0;
        void *v;
        MPI_Comm_get_attr(comm, key_late, &v, &flag);
        if (!flag)
            return MPI_Comm_set_attr(comm, key_late, (void *)3L);
    }
    return MPI_SUCCESS;
}

/* copy that moves the attribute: the old communicator loses it during MPI_Comm_dup */
static int copy_moves(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_Comm_delete_attr(old, keyval);
}

/* copies that fail, with a code of their own choosing */
static int copy_fails(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 1;
    return MPI_ERR_ARG;
}

static int type_copy_fails(MPI_Datatype old, int keyval, void *extra, void *in, void *out,
                           int *flag)
{
    (void)old, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 1;
    return MPI_ERR_ARG;
}

static void reset(void)
{
    memset(ndel, 0, sizeof(ndel));
}

int main(int argc, char **argv)
{
    MPI_Comm c;

    mt_init(&argc, &argv, "attr_delete");
    /* the extra_state of each of a and b points at the other's keyval */
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_partner, &key_a, &key_b));
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_partner, &key_b, &key_a));
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_count, &key_c, NULL));
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_count, &key_late, NULL));

    /* 1. each deletes the other; both orders of setting */
    for (int order = 0; order < 2; order++) {
        reset();
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        MPI_OK(MPI_Comm_set_attr(c, order ? key_b : key_a, (void *)(long)(order ? 1 : 0)));
        MPI_OK(MPI_Comm_set_attr(c, order ? key_a : key_b, (void *)(long)(order ? 0 : 1)));
        MPI_OK(MPI_Comm_set_attr(c, key_c, (void *)2L));
        MPI_OK(MPI_Comm_free(&c));
        CHECK(ndel[0] == 1 && ndel[1] == 1 && ndel[2] == 1,
              "Comm_free, order %d: delete callbacks ran %d/%d/%d times", order, ndel[0], ndel[1],
              ndel[2]);
    }

    /* 2. MPI_Comm_delete_attr of the older one, whose callback deletes the newer */
    reset();
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_OK(MPI_Comm_set_attr(c, key_c, (void *)2L));
    MPI_OK(MPI_Comm_set_attr(c, key_a, (void *)0L));
    MPI_OK(MPI_Comm_set_attr(c, key_b, (void *)1L));
    MPI_OK(MPI_Comm_delete_attr(c, key_a));
    CHECK(ndel[0] == 1 && ndel[1] == 1 && ndel[2] == 0, "Comm_delete_attr: callbacks ran %d/%d/%d",
          ndel[0], ndel[1], ndel[2]);
    {
        int flag = 1;
        void *v;
        MPI_OK(MPI_Comm_get_attr(c, key_c, &v, &flag));
        CHECK(flag && v == (void *)2L, "the unrelated attribute was lost");
        MPI_OK(MPI_Comm_get_attr(c, key_b, &v, &flag));
        CHECK(!flag, "the partner attribute is still there");
    }
    /* overwriting a value whose callback deletes the partner */
    MPI_OK(MPI_Comm_set_attr(c, key_a, (void *)0L));
    MPI_OK(MPI_Comm_set_attr(c, key_b, (void *)1L));
    MPI_OK(MPI_Comm_set_attr(c, key_b, (void *)1L));
    {
        int flag = 0;
        void *v;
        MPI_OK(MPI_Comm_get_attr(c, key_b, &v, &flag));
        CHECK(flag && v == (void *)1L, "overwritten attribute lost");
    }
    MPI_OK(MPI_Comm_free(&c));

    /* 3. a callback that sets an attribute while the communicator is freed */
    {
        int key_s;
        reset();
        MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_sets, &key_s, NULL));
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        MPI_OK(MPI_Comm_set_attr(c, key_c, (void *)2L));
        MPI_OK(MPI_Comm_set_attr(c, key_s, (void *)0L));
        MPI_OK(MPI_Comm_free(&c));
        CHECK(ndel[0] == 1 && ndel[2] == 1 && ndel[3] == 1,
              "Comm_free with a setting callback: callbacks ran %d/%d/%d (the new one must be "
              "deleted too)",
              ndel[0], ndel[2], ndel[3]);
        MPI_OK(MPI_Comm_free_keyval(&key_s));
    }

    /* 4. a copy callback that deletes the attribute it copies, from the old communicator */
    {
        int key_m, flag = 0;
        void *v;
        MPI_Comm d;
        reset();
        MPI_OK(MPI_Comm_create_keyval(copy_moves, del_count, &key_m, NULL));
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        MPI_OK(MPI_Comm_set_attr(c, key_c, (void *)2L));
        MPI_OK(MPI_Comm_set_attr(c, key_m, (void *)0L));
        MPI_OK(MPI_Comm_set_attr(c, key_a, (void *)1L));
        MPI_OK(MPI_Comm_dup(c, &d));
        MPI_OK(MPI_Comm_get_attr(c, key_m, &v, &flag));
        CHECK(!flag, "the moved attribute is still on the old communicator");
        MPI_OK(MPI_Comm_get_attr(d, key_m, &v, &flag));
        CHECK(flag && v == (void *)0L, "the moved attribute is not on the dup");
        MPI_OK(MPI_Comm_get_attr(c, key_c, &v, &flag));
        CHECK(flag && v == (void *)2L, "an attribute next to the moved one was lost");
        MPI_OK(MPI_Comm_free(&d));
        MPI_OK(MPI_Comm_free(&c));
        CHECK(ndel[0] == 2 && ndel[2] == 1 && ndel[1] == 1,
              "after the move: delete callbacks ran %d/%d/%d times", ndel[0], ndel[1], ndel[2]);
        MPI_OK(MPI_Comm_free_keyval(&key_m));
    }

    /* 5. a copy callback that fails: the dup fails with the callback's code and gives the
       null handle (communicator and datatype alike), the original keeps its attribute */
    {
        int ckey, tkey, flag = 0;
        void *v;
        MPI_Comm d = MPI_COMM_WORLD;
        MPI_Datatype t, td = MPI_INT;
        MPI_OK(MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &ckey, NULL));
        MPI_OK(MPI_Type_create_keyval(type_copy_fails, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL));
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        MPI_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
        MPI_OK(MPI_Comm_set_attr(c, ckey, (void *)5L));
        int rc = MPI_Comm_dup(c, &d);
        CHECK(rc == MPI_ERR_ARG && d == MPI_COMM_NULL,
              "Comm_dup with a failing copy callback: code %d, newcomm %s", rc,
              d == MPI_COMM_NULL ? "null" : "not null");
        MPI_OK(MPI_Comm_get_attr(c, ckey, &v, &flag));
        CHECK(flag && v == (void *)5L, "the original lost its attribute in a failed dup");
        MPI_OK(MPI_Type_dup(MPI_INT, &t));
        MPI_OK(MPI_Type_set_attr(t, tkey, (void *)6L));
        MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        rc = MPI_Type_dup(t, &td);
        MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
        CHECK(rc == MPI_ERR_ARG && td == MPI_DATATYPE_NULL,
              "Type_dup with a failing copy callback: code %d, newtype %s", rc,
              td == MPI_DATATYPE_NULL ? "null" : "not null");
        MPI_OK(MPI_Type_get_attr(t, tkey, &v, &flag));
        CHECK(flag && v == (void *)6L, "the original type lost its attribute in a failed dup");
        MPI_OK(MPI_Type_free(&t));
        MPI_OK(MPI_Comm_free(&c));
        MPI_OK(MPI_Comm_free_keyval(&ckey));
        MPI_OK(MPI_Type_free_keyval(&tkey));
    }

    /* 6. left for MPI_Finalize on WORLD and SELF (the keyvals are freed, still in use) */
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, key_a, (void *)0L));
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, key_b, (void *)1L));
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_SELF, key_b, (void *)1L));
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_SELF, key_a, (void *)0L));
    return mt_finish();
}
