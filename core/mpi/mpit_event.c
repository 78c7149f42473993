/*
 * mpit_event.c -- the events and event sources of the tool information interface
 * (MPI 4.0): compi raises no events and has no sources, and answers every query as the
 * standard asks of an implementation with none.
 *
 *   MPI_T_event_get_num, MPI_T_source_get_num, MPI_T_category_get_num_events   0
 *   an event or source index (get_info, handle_alloc, get_timestamp)   MPI_T_ERR_INVALID_INDEX
 *   an event name (MPI_T_event_get_index)                              MPI_T_ERR_INVALID_NAME
 *   a registration or an instance: none can exist                      MPI_T_ERR_INVALID_HANDLE
 *
 * Before MPI_T_init_thread (and after the last MPI_T_finalize) every function returns
 * MPI_T_ERR_NOT_INITIALIZED; a NULL output is MPI_T_ERR_INVALID, as in mpit_api.c.  Like the
 * rest of the interface, these return their errors and call no error handler.  The entry
 * points are generated (core/mpi/gen/mpit_event.c: the interface's state, the pointers of
 * the counts and the lookup); each calls its t_x_impl here.
 */
#include "core/mpi/mpit.h"
#include "core/mpi/args.h"
#include "core/mpi/thread_lock.h"

#include <stddef.h>

/* a category index that names one of mpit_cat.c's */
static int event__category(int cat_index)
{
    int ncat = 0;
    int rc = PMPI_T_category_get_num(&ncat);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return cat_index < 0 || cat_index >= ncat ? MPI_T_ERR_INVALID_INDEX : MPI_SUCCESS;
}

static int t_event_get_num_impl(int *num_events)
{
    *num_events = 0;
    return MPI_SUCCESS;
}

static int t_source_get_num_impl(int *num_sources)
{
    *num_sources = 0;
    return MPI_SUCCESS;
}

static int t_category_get_num_events_impl(int cat_index, int *num_events)
{
    int rc = event__category(cat_index);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_events == NULL) {
        return MPI_T_ERR_INVALID;
    }
    *num_events = 0;
    return MPI_SUCCESS;
}

static int t_category_get_events_impl(int cat_index, int len, int indices[])
{
    int rc = event__category(cat_index);
    if (rc == MPI_SUCCESS && (len < 0 || (len > 0 && indices == NULL))) {
        rc = MPI_T_ERR_INVALID;
    }
    return rc; /* no event to write into indices */
}

static int t_event_get_index_impl(const char *name, int *event_index)
{
    return MPI_T_ERR_INVALID_NAME;
}

/* an event or source index: none is valid */
static int t_event_get_info_impl(int event_index, char *name, int *name_len, int *verbosity,
                                 MPI_Datatype array_of_datatypes[],
                                 MPI_Aint array_of_displacements[], int *num_elements,
                                 MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len,
                                 int *bind)
{
    return MPI_T_ERR_INVALID_INDEX;
}

static int t_event_handle_alloc_impl(int event_index, void *obj_handle, MPI_Info info,
                                     MPI_T_event_registration *event_registration)
{
    return MPI_T_ERR_INVALID_INDEX;
}

static int t_source_get_info_impl(int source_index, char *name, int *name_len, char *desc,
                                  int *desc_len, MPI_T_source_order *ordering,
                                  MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    return MPI_T_ERR_INVALID_INDEX;
}

static int t_source_get_timestamp_impl(int source_index, MPI_Count *timestamp)
{
    return MPI_T_ERR_INVALID_INDEX;
}

/* a registration or an instance: none can exist */
static int t_event_handle_set_info_impl(MPI_T_event_registration event_registration, MPI_Info info)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_handle_get_info_impl(MPI_T_event_registration event_registration,
                                        MPI_Info *info_used)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_register_callback_impl(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                          MPI_T_event_cb_function *event_cb_function)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_callback_set_info_impl(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, MPI_Info info)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_callback_get_info_impl(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_handle_free_impl(MPI_T_event_registration event_registration, void *user_data,
                                    MPI_T_event_free_cb_function *free_cb_function)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_set_dropped_handler_impl(MPI_T_event_registration event_registration,
                                            MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_read_impl(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_copy_impl(MPI_T_event_instance event_instance, void *buffer)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_get_timestamp_impl(MPI_T_event_instance event_instance,
                                      MPI_Count *event_timestamp)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

static int t_event_get_source_impl(MPI_T_event_instance event_instance, int *source_index)
{
    return MPI_T_ERR_INVALID_HANDLE;
}

#include "core/mpi/gen/mpit_event.c"
