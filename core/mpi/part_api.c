/*
 * part_api.c -- partitioned communication (MPI-4.0 chapter 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.  The entry points are generated
 * (core/mpi/gen/part.c); what a partitioned request allows is checked here; the
 * requests and their protocol are the PML's (core/pml/pml_part.c says what it gives up).
 * MPI_Start(all), MPI_Wait/Test and MPI_Request_free treat them as persistent requests.
 */
#include "core/mpi/args.h"
#include "core/mpi/info.h"
#include "core/mpi/req_handle.h"

#include <limits.h>

/* The implementations of the entry points of core/mpi/gen/part.c, which checked the
   communicator, the partitions, the buffer of partitions x count elements, the ranks,
   tags, hints and pointers. */
static int psend_init_impl(const void *buf, int partitions, MPI_Count count,
                           compi_datatype_t *datatype, int dest, int tag, compi_comm_t *c,
                           MPI_Info info, MPI_Request *request, const char *fn)
{
    compi_request_t *req;
    (void)info; /* no hint changes anything */
    compi_status_t st =
        pml_psend_init(buf, partitions, (size_t)count, datatype, dest, tag, c, &req);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, req, request, fn);
}

static int precv_init_impl(void *buf, int partitions, MPI_Count count, compi_datatype_t *datatype,
                           int source, int tag, compi_comm_t *c, MPI_Info info,
                           MPI_Request *request, const char *fn)
{
    compi_request_t *req;
    (void)info;
    /* a partitioned receive names its source and tag: no wildcards (MPI-4.0, 4.2.2) */
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) {
        return mpi_err_raise(c, source == MPI_ANY_SOURCE ? MPI_ERR_RANK : MPI_ERR_TAG, fn,
                             "a partitioned receive takes no MPI_ANY_SOURCE or MPI_ANY_TAG");
    }
    compi_status_t st =
        pml_precv_init(buf, partitions, (size_t)count, datatype, source, tag, c, &req);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, req, request, fn);
}

/* a started partitioned request of the wanted kind (NULL: MPI_REQUEST_NULL): its
   partitions in *parts_p */
static int part_request(compi_request_t *r, int kind, int *parts_p, const char *fn)
{
    int parts = r != NULL ? pml_request_partitions(r) : 0;
    if (r == NULL || parts == 0 || r->kind != kind) {
        return mpi_err_raise(r != NULL ? r->comm : NULL, MPI_ERR_REQUEST, fn,
                             "not a partitioned %s request", kind == REQ_SEND ? "send" : "receive");
    }
    if (!r->active) {
        return mpi_err_raise(r->comm, MPI_ERR_REQUEST, fn,
                             "the partitioned request is not started (MPI_Start)");
    }
    *parts_p = parts;
    return MPI_SUCCESS;
}

static int ready_one(compi_request_t *r, int parts, int p, const char *fn)
{
    if (p < 0 || p >= parts) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, fn, "partition=%d is not in [0, %d)", p, parts);
    }
    if (pml_pready(r, p) != COMPI_OK) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, fn,
                             "partition %d is marked ready already since MPI_Start", p);
    }
    return MPI_SUCCESS;
}

static int pready_impl(int partition, compi_request_t *r, const char *fn)
{
    int parts;
    int rc = part_request(r, REQ_SEND, &parts, fn);
    return rc != MPI_SUCCESS ? rc : ready_one(r, parts, partition, fn);
}

static int pready_range_impl(int partition_low, int partition_high, compi_request_t *r,
                             const char *fn)
{
    int parts;
    int rc = part_request(r, REQ_SEND, &parts, fn);
    if (rc == MPI_SUCCESS &&
        (partition_low < 0 || partition_high >= parts || partition_low > partition_high)) {
        rc = mpi_err_raise(r->comm, MPI_ERR_ARG, fn,
                           "partitions [%d, %d] are not a range in [0, %d)", partition_low,
                           partition_high, parts);
    }
    for (int p = partition_low; rc == MPI_SUCCESS && p <= partition_high; p++) {
        rc = ready_one(r, parts, p, fn);
    }
    return rc;
}

static int pready_list_impl(int length, const int array_of_partitions[], compi_request_t *r,
                            const char *fn)
{
    int parts;
    int rc = part_request(r, REQ_SEND, &parts, fn);
    for (int i = 0; rc == MPI_SUCCESS && i < length; i++) {
        rc = ready_one(r, parts, array_of_partitions[i], fn);
    }
    return rc;
}

static int parrived_impl(compi_request_t *r, int partition, int *flag, const char *fn)
{
    int parts;
    int rc = part_request(r, REQ_RECV, &parts, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (partition < 0 || partition >= parts) {
        return mpi_err_raise(r->comm, MPI_ERR_ARG, fn, "partition=%d is not in [0, %d)", partition,
                             parts);
    }
    *flag = pml_parrived(r, partition);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/part.c"
