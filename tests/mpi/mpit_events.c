/*
 * mpit_events: the tool interface's events and sources, of which compi has none.  Before
 * MPI_T_init_thread every call is MPI_T_ERR_NOT_INITIALIZED; then the counts are 0 (of
 * every category too), every event or source index is MPI_T_ERR_INVALID_INDEX, a name
 * MPI_T_ERR_INVALID_NAME, any registration or instance MPI_T_ERR_INVALID_HANDLE, a bad
 * category index MPI_T_ERR_INVALID_INDEX and NULL outputs MPI_T_ERR_INVALID; after the
 * last MPI_T_finalize, MPI_T_ERR_NOT_INITIALIZED again.
 */
#include "tests/mpi/mpitest.h"

static void cb(MPI_T_event_instance ei, MPI_T_event_registration er, MPI_T_cb_safety s, void *u)
{
}

static void free_cb(MPI_T_event_registration er, MPI_T_cb_safety s, void *u)
{
}

static void dropped_cb(MPI_Count n, MPI_T_event_registration er, int src, MPI_T_cb_safety s,
                       void *u)
{
}

#define EXPECT(call, want)                                                                         \
    do {                                                                                           \
        int got_ = (call);                                                                         \
        CHECK(got_ == (want), "%s returned %d, not %s (%d)", #call, got_, #want, (want));          \
    } while (0)

/* every call that names a registration or an instance */
static void handles(int want)
{
    /* a registration the tool made up: none is valid */
    MPI_T_event_registration reg = (MPI_T_event_registration)&want;
    MPI_T_event_instance inst = (MPI_T_event_instance)&want;
    MPI_Info info = MPI_INFO_NULL;
    MPI_Count t;
    int src, buf[4];

    EXPECT(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL), want);
    EXPECT(MPI_T_event_handle_get_info(reg, &info), want);
    EXPECT(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, cb),
           want);
    EXPECT(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL), want);
    EXPECT(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, &info), want);
    EXPECT(MPI_T_event_set_dropped_handler(reg, dropped_cb), want);
    EXPECT(MPI_T_event_handle_free(reg, NULL, free_cb), want);
    EXPECT(MPI_T_event_read(inst, 0, buf), want);
    EXPECT(MPI_T_event_copy(inst, buf), want);
    EXPECT(MPI_T_event_get_timestamp(inst, &t), want);
    EXPECT(MPI_T_event_get_source(inst, &src), want);
    CHECK(info == MPI_INFO_NULL, "an info came back");
}

/* every call that names an event or source index (`index`) */
static void indices(int index, int want)
{
    char name[64], desc[64];
    int name_len = sizeof(name), desc_len = sizeof(desc), verbosity, num = 0, bind;
    MPI_T_enum e;
    MPI_Info info;
    MPI_T_event_registration reg;
    MPI_T_source_order order;
    MPI_Count tps, max, t;

    EXPECT(MPI_T_event_get_info(index, name, &name_len, &verbosity, NULL, NULL, &num, &e, &info,
                                desc, &desc_len, &bind),
           want);
    EXPECT(MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg), want);
    EXPECT(
        MPI_T_source_get_info(index, name, &name_len, desc, &desc_len, &order, &tps, &max, &info),
        want);
    EXPECT(MPI_T_source_get_timestamp(index, &t), want);
}

int main(int argc, char **argv)
{
    int n = -1, provided, ncat = 0, idx = -1;

    mt_init(&argc, &argv, "mpit_events");
    EXPECT(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_source_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_category_get_num_events(0, &n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_event_get_index("x", &idx), MPI_T_ERR_NOT_INITIALIZED);
    indices(0, MPI_T_ERR_NOT_INITIALIZED);
    handles(MPI_T_ERR_NOT_INITIALIZED);

    MPI_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_OK(MPI_T_event_get_num(&n));
    CHECK(n == 0, "%d events", n);
    n = -1;
    MPI_OK(MPI_T_source_get_num(&n));
    CHECK(n == 0, "%d sources", n);
    EXPECT(MPI_T_event_get_num(NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_source_get_num(NULL), MPI_T_ERR_INVALID);
    MPI_OK(MPI_T_category_get_num(&ncat));
    CHECK(ncat > 0, "no categories to ask");
    for (int c = 0; c < ncat; c++) {
        n = -1;
        MPI_OK(MPI_T_category_get_num_events(c, &n));
        CHECK(n == 0, "category %d has %d events", c, n);
        int ind[2] = {-5, -5};
        MPI_OK(MPI_T_category_get_events(c, 2, ind));
        CHECK(ind[0] == -5 && ind[1] == -5, "category %d wrote event indices", c);
    }
    EXPECT(MPI_T_category_get_num_events(ncat, &n), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_num_events(-1, &n), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_events(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_num_events(0, NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_event_get_index("mpi_event", &idx), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_event_get_index(NULL, &idx), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_event_get_index("mpi_event", NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_category_get_events(0, -1, NULL), MPI_T_ERR_INVALID);
    CHECK(idx == -1, "MPI_T_event_get_index wrote %d", idx);
    indices(0, MPI_T_ERR_INVALID_INDEX);
    indices(-1, MPI_T_ERR_INVALID_INDEX);
    handles(MPI_T_ERR_INVALID_HANDLE);
    MPI_OK(MPI_T_finalize());
    EXPECT(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    handles(MPI_T_ERR_NOT_INITIALIZED);
    return mt_finish();
}
