/*
 * std_query: the MPI 4.1 and 5.0 procedures that answer from what compi already holds.
 *   - MPI_Status_c2f08/f082c/f082f/f2f08 carry every word between the three forms of a
 *     status; ignored or NULL statuses are MPI_ERR_ARG
 *   - MPI_Status_get/set_source/tag/error read and write the fields, before MPI_Init too
 *   - MPI_<Handle>_toint/_fromint equal _c2f/_f2c and round-trip every kind of handle
 *   - MPI_Type_get_value_index gives the predefined pair types, MPI_DATATYPE_NULL else
 *   - MPI_Remove_error_class/code/string: removed values are no codes any more; a
 *     predefined class, a class with codes, a code with a string are MPI_ERR_ARG; 4000
 *     rounds of adding and removing 192 values take well under the time limit (and
 *     MPICH 4.0's MPIX_Delete_error_* names do the same)
 *   - MPI_Get_hw_resource_info: a new info naming this process's host
 *   - MPI_Request_get_status_all/any/some see a receive complete only once its message
 *     is sent, leave the requests to MPI_Wait, skip null requests
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

static void check_statuses(void)
{
    MPI_Status c = {.count_lo = 11,
                    .count_hi_and_cancelled = 22,
                    .MPI_SOURCE = 3,
                    .MPI_TAG = 44,
                    .MPI_ERROR = 55},
               c2;
    MPI_F08_status f08, f08b;
    MPI_Fint f[MPI_F_STATUS_SIZE];

    MPI_OK(MPI_Status_c2f08(&c, &f08));
    CHECK(f08.MPI_SOURCE == 3 && f08.MPI_TAG == 44 && f08.MPI_ERROR == 55 && f08.count_lo == 11 &&
              f08.count_hi_and_cancelled == 22,
          "MPI_Status_c2f08: %d %d %d", f08.MPI_SOURCE, f08.MPI_TAG, f08.MPI_ERROR);
    MPI_OK(MPI_Status_f082f(&f08, f));
    CHECK(f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 44 && f[MPI_F_ERROR] == 55,
          "MPI_Status_f082f: %d %d %d", f[MPI_F_SOURCE], f[MPI_F_TAG], f[MPI_F_ERROR]);
    memset(&f08b, 0, sizeof(f08b));
    MPI_OK(MPI_Status_f2f08(f, &f08b));
    CHECK(memcmp(&f08, &f08b, sizeof(f08)) == 0, "MPI_Status_f2f08 differs");
    memset(&c2, 0, sizeof(c2));
    MPI_OK(MPI_Status_f082c(&f08b, &c2));
    CHECK(memcmp(&c, &c2, sizeof(c)) == 0, "MPI_Status_f082c differs");
    int count = -1;
    c2 = c;
    MPI_OK(MPI_Status_set_elements(&c2, MPI_BYTE, 1234));
    MPI_OK(MPI_Status_c2f08(&c2, &f08));
    MPI_OK(MPI_Status_f082c(&f08, &c));
    MPI_OK(MPI_Get_count(&c, MPI_BYTE, &count));
    CHECK(count == 1234, "the count through the f08 status: %d", count);

    CHECK(MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08) == MPI_ERR_ARG, "c2f08 of STATUS_IGNORE");
    CHECK(MPI_Status_c2f08(&c, MPI_F08_STATUS_IGNORE) == MPI_ERR_ARG, "c2f08 into F08_IGNORE");
    CHECK(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &c) == MPI_ERR_ARG, "f082c of F08_IGNORE");
    CHECK(MPI_Status_f082f(&f08, MPI_F_STATUS_IGNORE) == MPI_ERR_ARG, "f082f into F_IGNORE");
    CHECK(MPI_Status_f2f08(NULL, &f08) == MPI_ERR_ARG, "f2f08 of NULL");
    CHECK(MPI_F08_STATUS_IGNORE != MPI_F08_STATUSES_IGNORE && MPI_F08_STATUS_IGNORE != NULL,
          "the f08 ignore sentinels");

    int v = 0;
    MPI_OK(MPI_Status_set_source(&c, 7));
    MPI_OK(MPI_Status_set_tag(&c, 77));
    MPI_OK(MPI_Status_set_error(&c, MPI_ERR_TAG));
    MPI_OK(MPI_Status_get_source(&c, &v));
    CHECK(v == 7 && c.MPI_SOURCE == 7, "get_source %d", v);
    MPI_OK(MPI_Status_get_tag(&c, &v));
    CHECK(v == 77 && c.MPI_TAG == 77, "get_tag %d", v);
    MPI_OK(MPI_Status_get_error(&c, &v));
    CHECK(v == MPI_ERR_TAG && c.MPI_ERROR == MPI_ERR_TAG, "get_error %d", v);
    MPI_OK(MPI_Get_count(&c, MPI_BYTE, &count));
    CHECK(count == 1234, "the setters changed the count: %d", count);
    CHECK(MPI_Status_get_tag(MPI_STATUS_IGNORE, &v) == MPI_ERR_ARG, "get_tag of IGNORE");
    CHECK(MPI_Status_set_tag(NULL, 1) == MPI_ERR_ARG, "set_tag of NULL");
}

static void check_handles(void)
{
    MPI_Comm dup;
    MPI_Group g;
    MPI_Info info;
    MPI_Request r;
    MPI_Datatype t;
    int x = 0;

    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_toint(dup) == (int)MPI_Comm_c2f(dup), "Comm_toint != c2f");
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(dup)) == dup, "Comm round trip");
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_NULL)) == MPI_COMM_NULL, "COMM_NULL");
    MPI_OK(MPI_Comm_group(dup, &g));
    CHECK(MPI_Group_fromint(MPI_Group_toint(g)) == g, "Group round trip");
    MPI_OK(MPI_Info_create(&info));
    CHECK(MPI_Info_fromint(MPI_Info_toint(info)) == info, "Info round trip");
    MPI_OK(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK(MPI_Type_fromint(MPI_Type_toint(t)) == t, "Type round trip");
    CHECK(MPI_Type_toint(MPI_INT) == (int)MPI_Type_c2f(MPI_INT), "Type_toint != c2f");
    MPI_OK(MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, dup, &r));
    CHECK(MPI_Request_fromint(MPI_Request_toint(r)) == r, "Request round trip");
    MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Op_fromint(MPI_Op_toint(MPI_SUM)) == MPI_SUM, "Op round trip");
    CHECK(MPI_Errhandler_fromint(MPI_Errhandler_toint(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN,
          "Errhandler round trip");
    CHECK(MPI_Message_fromint(MPI_Message_toint(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC,
          "Message round trip");
    CHECK(MPI_Win_fromint(MPI_Win_toint(MPI_WIN_NULL)) == MPI_WIN_NULL, "Win round trip");
    CHECK(MPI_File_fromint(MPI_File_toint(MPI_FILE_NULL)) == MPI_FILE_NULL, "File round trip");
    CHECK(MPI_Session_fromint(MPI_Session_toint(MPI_SESSION_NULL)) == MPI_SESSION_NULL,
          "Session round trip");
    MPI_OK(MPI_Type_free(&t));
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Group_free(&g));
    MPI_OK(MPI_Comm_free(&dup));
}

static void check_value_index(void)
{
    static const struct {
        MPI_Datatype v, i, pair;
    } want[] = {{MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
                {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
                {MPI_LONG, MPI_INT, MPI_LONG_INT},
                {MPI_INT, MPI_INT, MPI_2INT},
                {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
                {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
                {MPI_REAL, MPI_REAL, MPI_2REAL},
                {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
                {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
                {MPI_INT, MPI_DOUBLE, MPI_DATATYPE_NULL},
                {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL}};
    for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
        MPI_Datatype p = MPI_BYTE;
        MPI_OK(MPI_Type_get_value_index(want[k].v, want[k].i, &p));
        CHECK(p == want[k].pair, "value_index case %zu: 0x%x, not 0x%x", k, (unsigned)p,
              (unsigned)want[k].pair);
    }
    MPI_Datatype p;
    CHECK(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p) == MPI_ERR_TYPE,
          "value_index of DATATYPE_NULL");
}

static int error_class_of(int code)
{
    int c = -1;
    return MPI_Error_class(code, &c) == MPI_SUCCESS ? c : -1;
}

static void check_remove_errors(void)
{
    int cls, code, len;
    char s[MPI_MAX_ERROR_STRING];

    MPI_OK(MPI_Add_error_class(&cls));
    MPI_OK(MPI_Add_error_code(cls, &code));
    MPI_OK(MPI_Add_error_string(code, "a code soon gone"));
    CHECK(MPI_Remove_error_class(MPI_ERR_ARG) == MPI_ERR_ARG, "removed a predefined class");
    CHECK(MPI_Remove_error_code(MPI_ERR_ARG) == MPI_ERR_ARG, "removed a predefined code");
    CHECK(MPI_Remove_error_string(MPI_ERR_ARG) == MPI_ERR_ARG, "removed a predefined string");
    CHECK(MPI_Remove_error_class(cls) == MPI_ERR_ARG, "removed a class with a code");
    CHECK(MPI_Remove_error_code(cls) == MPI_ERR_ARG, "removed a class as a code");
    CHECK(MPI_Remove_error_class(code) == MPI_ERR_ARG, "removed a code as a class");
    CHECK(MPI_Remove_error_code(code) == MPI_ERR_ARG, "removed a code with a string");
    MPI_OK(MPI_Remove_error_string(code));
    MPI_OK(MPI_Error_string(code, s, &len));
    CHECK(len == 0, "string after removal: \"%s\"", s);
    CHECK(MPI_Remove_error_string(code) == MPI_ERR_ARG, "removed a string twice");
    CHECK(error_class_of(code) == cls, "the code's class before removal");
    MPI_OK(MPI_Remove_error_code(code));
    CHECK(error_class_of(code) == -1, "a removed code still has a class");
    CHECK(MPI_Remove_error_code(code) == MPI_ERR_ARG, "removed a code twice");
    CHECK(MPI_Add_error_code(cls, &code) == MPI_SUCCESS, "a new code of the class");
    CHECK(MPI_Remove_error_class(cls) == MPI_ERR_ARG, "removed a class with its new code");
    MPI_OK(MPI_Remove_error_code(code));
    MPI_OK(MPI_Remove_error_class(cls));
    CHECK(error_class_of(cls) == -1, "a removed class is still one");
    CHECK(MPI_Add_error_code(cls, &code) == MPI_ERR_ARG, "a code of a removed class");
    int again;
    MPI_OK(MPI_Add_error_class(&again));
    CHECK(again != cls, "a removed class's value handed out again");
    MPI_OK(MPI_Remove_error_class(again));

    /* many rounds of adding and removing (MPICH's adderr does 10000 of 192 values): a
       removal costs nothing like a pass over every value ever added, or this runs past
       the test's time limit; the last round through MPICH 4.0's MPIX_Delete_ names */
    double t0 = MPI_Wtime();
    for (int round = 0; round < 4000; round++) {
        int c[32], k[32][5];
        for (int i = 0; i < 32; i++) {
            MPI_OK(MPI_Add_error_class(&c[i]));
            for (int j = 0; j < 5; j++) {
                MPI_OK(MPI_Add_error_code(c[i], &k[i][j]));
                MPI_OK(MPI_Add_error_string(k[i][j], "round"));
            }
        }
        for (int i = 0; i < 32; i++) {
            for (int j = 0; j < 5; j++) {
                if (round == 3999) {
                    MPI_OK(MPIX_Delete_error_string(k[i][j]));
                    MPI_OK(MPIX_Delete_error_code(k[i][j]));
                } else {
                    MPI_OK(MPI_Remove_error_string(k[i][j]));
                    MPI_OK(MPI_Remove_error_code(k[i][j]));
                }
            }
            MPI_OK(round == 3999 ? MPIX_Delete_error_class(c[i]) : MPI_Remove_error_class(c[i]));
            CHECK(error_class_of(c[i]) == -1, "class %d still there after its removal", c[i]);
        }
    }
    CHECK(MPI_Wtime() - t0 < 20, "4000 rounds of 192 values took %.1f s", MPI_Wtime() - t0);
}

static void check_hw_info(void)
{
    MPI_Info info = MPI_INFO_NULL;
    char host[MPI_MAX_PROCESSOR_NAME], v[MPI_MAX_INFO_VAL + 1];
    int flag = 0, len;

    MPI_OK(MPI_Get_hw_resource_info(&info));
    CHECK(info != MPI_INFO_NULL, "no info");
    MPI_OK(MPI_Info_get(info, "compi_host", MPI_MAX_INFO_VAL, v, &flag));
    MPI_OK(MPI_Get_processor_name(host, &len));
    CHECK(flag && strcmp(v, host) == 0, "compi_host \"%s\" vs \"%s\"", flag ? v : "", host);
    MPI_OK(MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag, "no mpi_hw_resource_type");
    if (flag && strstr(v, "hwloc://Core") != NULL) {
        int has = 0;
        MPI_OK(MPI_Info_get(info, "hwloc://Core", MPI_MAX_INFO_VAL, v, &has));
        CHECK(has && atoi(v) >= 0, "hwloc://Core listed without an index");
    }
    MPI_OK(MPI_Info_free(&info));
    CHECK(MPI_Get_hw_resource_info(NULL) == MPI_ERR_ARG, "NULL hw_info");
}

static void check_request_status(void)
{
    int next = (mt_rank + 1) % mt_size, prev = (mt_rank + mt_size - 1) % mt_size;
    int in[2] = {-1, -1}, out[2] = {10 * mt_rank, 10 * mt_rank + 1};
    MPI_Request r[3];
    MPI_Status st[3];
    int flag = -1, index = -1, outcount = -1, idx[3];

    MPI_OK(MPI_Irecv(&in[0], 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &r[0]));
    MPI_OK(MPI_Irecv(&in[1], 1, MPI_INT, prev, 6, MPI_COMM_WORLD, &r[1]));
    r[2] = MPI_REQUEST_NULL;
    /* nothing was sent yet: no receive can be complete (the sync below orders it) */
    MPI_OK(MPI_Request_get_status_all(3, r, &flag, st));
    CHECK(flag == 0, "get_status_all complete before any send");
    MPI_OK(MPI_Request_get_status_any(3, r, &index, &flag, &st[0]));
    CHECK(flag == 0 && index == MPI_UNDEFINED, "get_status_any: flag %d index %d", flag, index);
    MPI_OK(MPI_Request_get_status_some(3, r, &outcount, idx, st));
    CHECK(outcount == 0, "get_status_some: %d before any send", outcount);
    mt_barrier(mt_sync_comm);
    MPI_OK(MPI_Send(&out[1], 1, MPI_INT, next, 6, MPI_COMM_WORLD));
    do {
        MPI_OK(MPI_Request_get_status_any(3, r, &index, &flag, &st[0]));
    } while (!flag);
    CHECK(index == 1 && st[0].MPI_TAG == 6 && st[0].MPI_SOURCE == prev,
          "get_status_any: index %d tag %d source %d", index, st[0].MPI_TAG, st[0].MPI_SOURCE);
    CHECK(r[1] != MPI_REQUEST_NULL, "get_status_any freed the request");
    MPI_OK(MPI_Request_get_status_all(3, r, &flag, st));
    CHECK(flag == 0, "get_status_all: complete with one receive pending");
    /* every rank has seen its tag 6 alone before any tag 5 leaves */
    mt_barrier(mt_sync_comm);
    MPI_OK(MPI_Send(&out[0], 1, MPI_INT, next, 5, MPI_COMM_WORLD));
    do {
        MPI_OK(MPI_Request_get_status_some(3, r, &outcount, idx, st));
    } while (outcount < 2);
    CHECK(outcount == 2 && idx[0] == 0 && idx[1] == 1 && st[0].MPI_TAG == 5 && st[1].MPI_TAG == 6,
          "get_status_some: %d (%d %d)", outcount, idx[0], idx[1]);
    MPI_OK(MPI_Request_get_status_all(3, r, &flag, st));
    CHECK(flag == 1 && st[0].MPI_TAG == 5 && st[1].MPI_TAG == 6 && st[2].MPI_TAG == MPI_ANY_TAG,
          "get_status_all: flag %d tags %d %d %d", flag, st[0].MPI_TAG, st[1].MPI_TAG,
          st[2].MPI_TAG);
    MPI_OK(MPI_Request_get_status_all(3, r, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag == 1, "get_status_all with STATUSES_IGNORE");
    CHECK(in[0] == -1 || in[0] == 10 * prev, "receive 0 wrote %d", in[0]);
    MPI_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    CHECK(in[0] == 10 * prev && in[1] == 10 * prev + 1, "received %d %d", in[0], in[1]);
    /* every request null: flag true, nothing to point at */
    MPI_OK(MPI_Request_get_status_any(3, r, &index, &flag, &st[0]));
    CHECK(flag == 1 && index == MPI_UNDEFINED && st[0].MPI_SOURCE == MPI_ANY_SOURCE,
          "get_status_any of null requests: flag %d index %d", flag, index);
    MPI_OK(MPI_Request_get_status_some(3, r, &outcount, idx, st));
    CHECK(outcount == MPI_UNDEFINED, "get_status_some of null requests: %d", outcount);
    CHECK(MPI_Request_get_status_all(-1, r, &flag, st) == MPI_ERR_COUNT, "negative count");
    CHECK(MPI_Request_get_status_any(1, r, NULL, &flag, st) == MPI_ERR_ARG, "NULL index");
}

int main(int argc, char **argv)
{
    MPI_Status c = {.MPI_TAG = 1};
    int v = 0;

    /* the accessors and conversions work before MPI_Init */
    CHECK(MPI_Status_set_tag(&c, 9) == MPI_SUCCESS && MPI_Status_get_tag(&c, &v) == MPI_SUCCESS &&
              v == 9,
          "status accessors before MPI_Init");
    mt_init(&argc, &argv, "std_query");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_statuses();
    check_handles();
    check_value_index();
    check_remove_errors();
    check_hw_info();
    check_request_status();
    return mt_finish();
}
