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
 * rest of the interface, these return their errors and call no error handler.
 */
#include "core/mpi/mpit.h"
#include "core/mpi/thread_lock.h"

#include <stddef.h>

/* the interface is up, and the category index names one of mpit_cat.c's */
static int event__category(int cat_index)
{
    int ncat = 0;
    int rc = PMPI_T_category_get_num(&ncat);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return cat_index < 0 || cat_index >= ncat ? MPI_T_ERR_INVALID_INDEX : MPI_SUCCESS;
}

/* what a call naming a registration or an instance answers: none is valid */
static int event__no_handle(void)
{
    return mpit_initialized() ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED;
}

/* what a call naming an event or source index answers: none is valid */
static int event__no_index(void)
{
    return mpit_initialized() ? MPI_T_ERR_INVALID_INDEX : MPI_T_ERR_NOT_INITIALIZED;
}

#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num
int PMPI_T_event_get_num(int *num_events)
{
    COMPI_API_LOCK();
    return mpit_count(num_events, 0);
}

#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num
int PMPI_T_source_get_num(int *num_sources)
{
    COMPI_API_LOCK();
    return mpit_count(num_sources, 0);
}

#pragma weak MPI_T_category_get_num_events = PMPI_T_category_get_num_events
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    COMPI_API_LOCK();
    int rc = event__category(cat_index);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return mpit_count(num_events, 0);
}

#pragma weak MPI_T_category_get_events = PMPI_T_category_get_events
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    COMPI_API_LOCK();
    int rc = event__category(cat_index);
    if (rc == MPI_SUCCESS && (len < 0 || (len > 0 && indices == NULL))) {
        rc = MPI_T_ERR_INVALID;
    }
    return rc; /* no event to write into indices */
}

#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    COMPI_API_LOCK();
    if (!mpit_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (name == NULL || event_index == NULL) {
        return MPI_T_ERR_INVALID;
    }
    return MPI_T_ERR_INVALID_NAME;
}

#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    COMPI_API_LOCK();
    return event__no_index();
}

#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    COMPI_API_LOCK();
    return event__no_index();
}

#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                           MPI_Count *max_ticks, MPI_Info *info)
{
    COMPI_API_LOCK();
    return event__no_index();
}

#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    COMPI_API_LOCK();
    return event__no_index();
}

#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_handle_get_info = PMPI_T_event_handle_get_info
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_read = PMPI_T_event_read
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_copy = PMPI_T_event_copy
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    COMPI_API_LOCK();
    return event__no_handle();
}

#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    COMPI_API_LOCK();
    return event__no_handle();
}
