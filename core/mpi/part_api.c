/*
 * part_api.c -- partitioned communication (MPI-4.0 chapter 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.  Argument checks here; the
 * requests and their protocol are the PML's (core/pml/pml_part.c says what it gives up).
 * MPI_Start(all), MPI_Wait/Test and MPI_Request_free treat them as persistent requests.
 */
#include "core/mpi/args.h"
#include "core/mpi/info.h"
#include "core/mpi/req_handle.h"

#include <limits.h>

/* the buffer: partitions x count elements, whose product must fit the PML's size_t and
   the datatype checks' int */
static int check_part(compi_comm_t **c_p, MPI_Comm comm, const void *buf, int partitions,
                      MPI_Count count, MPI_Datatype type, MPI_Info info, MPI_Request *request,
                      compi_datatype_t **dt_p, const char *fn)
{
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "request pointer is NULL");
    }
    int rc = mpi_arg_comm(comm, fn, c_p);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (partitions < 1) {
        return mpi_err_raise(*c_p, MPI_ERR_ARG, fn, "partitions=%d is not positive", partitions);
    }
    if (count < 0 || count > LLONG_MAX / partitions) {
        return mpi_err_raise(*c_p, MPI_ERR_COUNT, fn,
                             "count=%lld per partition x %d partitions is negative or beyond "
                             "MPI_Count",
                             (long long)count, partitions);
    }
    if (info != MPI_INFO_NULL && !mpi_info_valid(info)) {
        return mpi_err_raise(*c_p, MPI_ERR_INFO, fn, "invalid info handle");
    }
    return mpi_arg_data(*c_p, buf, count * partitions, type, MPI_ARG_ONE, fn, dt_p);
}

#pragma weak MPI_Psend_init = PMPI_Psend_init
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Psend_init");
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_request_t *req;
    int rc = check_part(&c, comm, buf, partitions, count, datatype, info, request, &dt,
                        "MPI_Psend_init");
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_dest(c, dest, tag, "MPI_Psend_init");
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = pml_psend_init(buf, partitions, (size_t)count, dt, dest, tag, c, &req);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, "MPI_Psend_init");
    }
    return mpi_req_expose(c, req, request, "MPI_Psend_init");
}

#pragma weak MPI_Precv_init = PMPI_Precv_init
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Precv_init");
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_request_t *req;
    int rc = check_part(&c, comm, buf, partitions, count, datatype, info, request, &dt,
                        "MPI_Precv_init");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* a partitioned receive names its source and tag: no wildcards (MPI-4.0, 4.2.2) */
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) {
        return mpi_err_raise(c, source == MPI_ANY_SOURCE ? MPI_ERR_RANK : MPI_ERR_TAG,
                             "MPI_Precv_init",
                             "a partitioned receive takes no MPI_ANY_SOURCE or MPI_ANY_TAG");
    }
    rc = mpi_arg_source(c, source, tag, "MPI_Precv_init");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = pml_precv_init(buf, partitions, (size_t)count, dt, source, tag, c, &req);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, "MPI_Precv_init");
    }
    return mpi_req_expose(c, req, request, "MPI_Precv_init");
}

/* a started partitioned request of the wanted kind: its partitions in *parts_p */
static int part_request(MPI_Request h, int kind, compi_request_t **r_p, int *parts_p,
                        const char *fn)
{
    compi_request_t *r = h != MPI_REQUEST_NULL ? req_from_handle(h) : NULL;
    int parts = r != NULL ? pml_request_partitions(r) : 0;
    if (r == NULL || parts == 0 || r->kind != kind) {
        return mpi_err_raise(r != NULL ? r->comm : NULL, MPI_ERR_REQUEST, fn,
                             "not a partitioned %s request",
                             kind == REQ_SEND ? "send" : "receive");
    }
    if (!r->active) {
        return mpi_err_raise(r->comm, MPI_ERR_REQUEST, fn,
                             "the partitioned request is not started (MPI_Start)");
    }
    *r_p = r;
    *parts_p = parts;
    return MPI_SUCCESS;
}

static int ready_one(compi_request_t *r, int parts, int p, const char *fn)
{
    if (p < 0 || p >= parts) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, fn, "partition=%d is not in [0, %d)", p,
                             parts);
    }
    if (pml_pready(r, p) != COMPI_OK) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, fn,
                             "partition %d is marked ready already since MPI_Start", p);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Pready = PMPI_Pready
int PMPI_Pready(int partition, MPI_Request request)
{
    COMPI_CHECK_INIT("MPI_Pready");
    compi_request_t *r;
    int parts;
    int rc = part_request(request, REQ_SEND, &r, &parts, "MPI_Pready");
    return rc != MPI_SUCCESS ? rc : ready_one(r, parts, partition, "MPI_Pready");
}

#pragma weak MPI_Pready_range = PMPI_Pready_range
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    COMPI_CHECK_INIT("MPI_Pready_range");
    compi_request_t *r;
    int parts;
    int rc = part_request(request, REQ_SEND, &r, &parts, "MPI_Pready_range");
    if (rc == MPI_SUCCESS && (partition_low < 0 || partition_high >= parts ||
                              partition_low > partition_high)) {
        rc = mpi_err_raise(r->comm, MPI_ERR_ARG, "MPI_Pready_range",
                           "partitions [%d, %d] are not a range in [0, %d)", partition_low,
                           partition_high, parts);
    }
    for (int p = partition_low; rc == MPI_SUCCESS && p <= partition_high; p++) {
        rc = ready_one(r, parts, p, "MPI_Pready_range");
    }
    return rc;
}

#pragma weak MPI_Pready_list = PMPI_Pready_list
int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    COMPI_CHECK_INIT("MPI_Pready_list");
    compi_request_t *r;
    int parts;
    int rc = part_request(request, REQ_SEND, &r, &parts, "MPI_Pready_list");
    if (rc == MPI_SUCCESS && (length < 0 || (length > 0 && array_of_partitions == NULL))) {
        rc = mpi_err_raise(r->comm, MPI_ERR_ARG, "MPI_Pready_list",
                           "length=%d with %s partition list", length,
                           array_of_partitions == NULL ? "a NULL" : "a");
    }
    for (int i = 0; rc == MPI_SUCCESS && i < length; i++) {
        rc = ready_one(r, parts, array_of_partitions[i], "MPI_Pready_list");
    }
    return rc;
}

#pragma weak MPI_Parrived = PMPI_Parrived
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    COMPI_CHECK_INIT("MPI_Parrived");
    compi_request_t *r;
    int parts;
    int rc = part_request(request, REQ_RECV, &r, &parts, "MPI_Parrived");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (flag == NULL) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, "MPI_Parrived", "flag pointer is NULL");
    }
    if (partition < 0 || partition >= parts) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, "MPI_Parrived",
                             "partition=%d is not in [0, %d)", partition, parts);
    }
    *flag = pml_parrived(r, partition);
    return MPI_SUCCESS;
}
