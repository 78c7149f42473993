/*
 * err_user: error classes and codes added by the application.  MPI_Add_error_class and
 * MPI_Add_error_code give new values, at most MPI_LASTUSEDCODE (which follows them);
 * MPI_Error_class maps a code to its class and a class to itself; MPI_Error_string is ""
 * until MPI_Add_error_string sets a string, then that string, and it can be changed.
 * MPI_Comm_call_errhandler hands an added code to a user handler, and returns it under
 * MPI_ERRORS_RETURN.  Bad arguments: Add_error_code on a code or an unknown class,
 * Add_error_string on a predefined class, a string too long: MPI_ERR_ARG.  Also
 * MPI_Message_c2f/f2c.
 */
#include "tests/mpi/mpitest.h"

static int handler_calls, handler_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static int lastused(void)
{
    int *v = NULL, flag = 0;
    MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag && v != NULL, "MPI_LASTUSEDCODE not set");
    return flag && v != NULL ? *v : -1;
}

static void expect_arg(int rc, const char *what)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG, "%s: class %d, expected MPI_ERR_ARG", what, cls);
    }
}

/* the last rank raises an added code; the others wait to be taken down */
static int fatal(void)
{
    int cls, code, token;
    if (mt_rank == mt_size - 1) {
        MPI_OK(MPI_Add_error_class(&cls));
        MPI_OK(MPI_Add_error_code(cls, &code));
        MPI_OK(MPI_Add_error_string(code, "the widget broke"));
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        fprintf(stderr, "err_user: MPI_Comm_call_errhandler returned instead of aborting\n");
        return 1;
    }
    MPI_Recv(&token, 1, MPI_INT, mt_size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return 1;
}

int main(int argc, char **argv)
{
    int cls1, cls2, code1, code2, code3, got, len, last0;
    char str[MPI_MAX_ERROR_STRING], big[MPI_MAX_ERROR_STRING + 10];
    MPI_Errhandler eh;

    mt_init(&argc, &argv, "err_user");
    if (argc > 1 && strcmp(argv[1], "fatal") == 0)
        return fatal();
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    last0 = lastused();
    CHECK(last0 >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d below MPI_ERR_LASTCODE %d", last0,
          MPI_ERR_LASTCODE);

    MPI_OK(MPI_Add_error_class(&cls1));
    MPI_OK(MPI_Add_error_class(&cls2));
    MPI_OK(MPI_Add_error_code(cls1, &code1));
    MPI_OK(MPI_Add_error_code(cls1, &code2));
    MPI_OK(MPI_Add_error_code(MPI_ERR_IO, &code3)); /* a predefined class works too */
    {
        int all[5] = {cls1, cls2, code1, code2, code3};
        for (int i = 0; i < 5; i++) {
            CHECK(all[i] > MPI_ERR_LASTCODE, "value %d: %d is not above MPI_ERR_LASTCODE", i,
                  all[i]);
            CHECK(all[i] <= lastused(), "value %d: %d is above MPI_LASTUSEDCODE %d", i, all[i],
                  lastused());
            for (int j = 0; j < i; j++)
                CHECK(all[i] != all[j], "values %d and %d are both %d", j, i, all[i]);
        }
    }

    MPI_OK(MPI_Error_class(cls1, &got));
    CHECK(got == cls1, "class of an added class: %d, expected %d", got, cls1);
    MPI_OK(MPI_Error_class(code2, &got));
    CHECK(got == cls1, "class of an added code: %d, expected %d", got, cls1);
    MPI_OK(MPI_Error_class(code3, &got));
    CHECK(got == MPI_ERR_IO, "class of a code of MPI_ERR_IO: %d", got);

    /* no string yet: "" */
    strcpy(str, "x");
    len = -1;
    MPI_OK(MPI_Error_string(code1, str, &len));
    CHECK(len == 0 && str[0] == '\0', "string before Add_error_string: '%s' (%d)", str, len);
    MPI_OK(MPI_Add_error_string(cls1, "the first class"));
    MPI_OK(MPI_Add_error_string(code1, "a code of the first class"));
    MPI_OK(MPI_Error_string(code1, str, &len));
    CHECK(strcmp(str, "a code of the first class") == 0 && len == (int)strlen(str),
          "string of code1: '%s' (%d)", str, len);
    MPI_OK(MPI_Error_string(cls1, str, &len));
    CHECK(strcmp(str, "the first class") == 0, "string of cls1: '%s'", str);
    MPI_OK(MPI_Add_error_string(code1, "changed"));
    MPI_OK(MPI_Error_string(code1, str, &len));
    CHECK(strcmp(str, "changed") == 0, "changed string of code1: '%s'", str);
    /* the predefined classes keep theirs */
    MPI_OK(MPI_Error_string(MPI_ERR_IO, str, &len));
    CHECK(len > 0, "MPI_ERR_IO lost its string");

    /* bad arguments */
    expect_arg(MPI_Add_error_code(code1, &got), "Add_error_code on a code");
    expect_arg(MPI_Add_error_code(lastused() + 1000, &got), "Add_error_code on an unknown class");
    expect_arg(MPI_Add_error_code(MPI_SUCCESS, &got), "Add_error_code on MPI_SUCCESS");
    expect_arg(MPI_Add_error_string(MPI_ERR_COUNT, "mine"), "Add_error_string on MPI_ERR_COUNT");
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    expect_arg(MPI_Add_error_string(code2, big), "Add_error_string too long");
    expect_arg(MPI_Add_error_class(NULL), "Add_error_class(NULL)");

    /* MPI_Comm_call_errhandler with an added code */
    MPI_OK(MPI_Comm_create_errhandler(handler, &eh));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    MPI_OK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code2));
    CHECK(handler_calls == 1 && handler_code == code2, "user handler: %d calls, code %d",
          handler_calls, handler_code);
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Errhandler_free(&eh));
    {
        int rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, code2);
        CHECK(rc == code2 || rc == MPI_SUCCESS, "Comm_call_errhandler under ERRORS_RETURN: %d", rc);
    }

    /* Message handles convert both ways */
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL,
          "MPI_MESSAGE_NULL does not survive c2f/f2c");
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC,
          "MPI_MESSAGE_NO_PROC does not survive c2f/f2c");
    return mt_finish();
}
