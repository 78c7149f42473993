/*
 * request_api.c -- completing requests: Wait/Test and their any/all/some forms,
 * Request_free, Request_get_status, Cancel, persistent Start/Startall, generalized
 * requests, and the Fortran handle conversions.
 *
 * One helper, finish(), ends every completed request the same way: status out, then a
 * non-persistent request is released and its handle set to MPI_REQUEST_NULL, while a
 * persistent one just becomes inactive.  A null handle or an inactive persistent request
 * completes at once with an empty status, as the standard says.
 *
 * The entry points are generated (core/mpi/gen/request.c and, for MPI 4.1's
 * MPI_Request_get_status_all, _any and _some, core/mpi/gen/request_status.c, made by
 * tools/mpigen/cgen.py and included at the end): they check the pointers, the counts and
 * the handles (an invalid one is MPI_ERR_REQUEST, MPI_REQUEST_NULL passes) and call the
 * x_impl here.
 */
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

/* nothing to wait for: null, or persistent and not started */
static inline int is_idle(const compi_request_t *r)
{
    return r == NULL || (r->persistent && !r->active);
}

static inline int is_done(const compi_request_t *r)
{
    return is_idle(r) || __atomic_load_n(&r->complete, __ATOMIC_ACQUIRE);
}

/* the status of a generalized request that completed one operation: query_fn's, MPI_ERROR
   left as it was; returns query_fn's error */
static int greq_status(compi_request_t *r, MPI_Status *status)
{
    MPI_Status st;
    mpi_status_empty(&st);
    int err = mpi_greq_query(r, &st);
    if (status != NULL && status != MPI_STATUS_IGNORE) {
        st.MPI_ERROR = status->MPI_ERROR;
        *status = st;
    }
    return err;
}

/* the class of a failure with a message: the one the API layer gave it, else its result's */
static int text_class(const compi_request_t *r)
{
    return r->errclass != 0 ? r->errclass : mpi_err_class_of(r->result.error);
}

/* the error of a failed request, raised on its communicator (the class when the handler
   returns) */
static int raise_result(const compi_request_t *r, const char *fn)
{
    if (r->errtext != NULL) {
        /* a collective that failed with a message (the same on every rank) */
        return mpi_err_raise_text(r->comm, text_class(r), fn, r->errtext, r->err_report);
    }
    return mpi_raise_p2p_status(r->comm, r->result.error, fn);
}

/* the same, not raised: a code whose MPI_Error_string is the message (MPI_Waitall's
   statuses) */
static int result_code(const compi_request_t *r)
{
    if (r->errtext != NULL) {
        return mpi_err_text_code(text_class(r), r->errtext);
    }
    return mpi_p2p_class_of(r->result.error);
}

/*
 * End a done request: fill *status (all but MPI_ERROR), release or deactivate it.
 * Returns the request's error: the class of its result's, or for a generalized request
 * the error of free_fn, else of query_fn (free_fn runs last; MPI 3.1, 12.2).  Raises it
 * on the request's communicator when `raise_fn` is not NULL.
 */
static int finish(MPI_Request *h, compi_request_t *r, MPI_Status *status, const char *raise_fn)
{
    if (is_idle(r)) {
        mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    int err;
    if (compi_likely(r->kind != REQ_GREQ)) {
        mpi_status_set(status, &r->result);
        err = compi_likely(r->result.error == COMPI_OK)
                  ? MPI_SUCCESS
                  : (raise_fn != NULL ? raise_result(r, raise_fn) : result_code(r));
    } else {
        err = greq_status(r, status);
        int ferr = mpi_greq_free(r);
        if (ferr != MPI_SUCCESS) {
            err = ferr;
        }
        if (err != MPI_SUCCESS && raise_fn != NULL) {
            err = mpi_err_raise(r->comm, err, raise_fn, "generalized request failed");
        }
    }
    if (r->persistent) {
        r->active = 0;
    } else {
        mpi_req_dispose(h, r);
    }
    return err;
}

static inline MPI_Status *status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE || statuses == NULL ? MPI_STATUS_IGNORE : &statuses[i];
}

/*
 * Multi-completion calls write MPI_ERROR in their statuses only when they return
 * MPI_ERR_IN_STATUS, and then in every status of a request they completed.  Each
 * request is finished as it is found done; at the first error the statuses already
 * filled get MPI_SUCCESS.  `failed` counts the errors so far.
 */
static void in_status(MPI_Status *statuses, int n, int err, int *failed)
{
    if (statuses == NULL || statuses == MPI_STATUSES_IGNORE) {
        *failed += err != MPI_SUCCESS;
        return;
    }
    if (err != MPI_SUCCESS && *failed == 0) {
        for (int i = 0; i < n; i++) {
            statuses[i].MPI_ERROR = MPI_SUCCESS;
        }
    }
    if (err != MPI_SUCCESS || *failed > 0) {
        statuses[n].MPI_ERROR = err;
    }
    *failed += err != MPI_SUCCESS;
}

static int wait_impl(MPI_Request *request, compi_request_t *request_obj, MPI_Status *status,
                     const char *fn)
{
    while (!is_done(request_obj)) {
        pml_progress_wait();
    }
    return finish(request, request_obj, status, fn);
}

static int test_impl(MPI_Request *request, compi_request_t *request_obj, int *flag,
                     MPI_Status *status, const char *fn)
{
    if (!is_done(request_obj)) {
        pml_progress();
    }
    *flag = is_done(request_obj);
    return *flag ? finish(request, request_obj, status, fn) : MPI_SUCCESS;
}

/* shared by Waitall and Testall once every request is done */
static int finish_all(int count, MPI_Request reqs[], MPI_Status *statuses, const char *fn)
{
    int failed = 0;
    for (int i = 0; i < count; i++) {
        compi_request_t *r = req_from_handle(reqs[i]);
        in_status(statuses, i, finish(&reqs[i], r, status_at(statuses, i), NULL), &failed);
    }
    if (failed) {
        return mpi_err_raise(NULL, MPI_ERR_IN_STATUS, fn, "a request failed (see statuses)");
    }
    return MPI_SUCCESS;
}

static int waitall_impl(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[],
                        const char *fn)
{
    for (int i = 0; i < count; i++) {
        compi_request_t *r = req_from_handle(array_of_requests[i]);
        while (!is_done(r)) {
            pml_progress_wait();
        }
    }
    return finish_all(count, array_of_requests, array_of_statuses, fn);
}

static int testall_impl(int count, MPI_Request array_of_requests[], int *flag,
                        MPI_Status array_of_statuses[], const char *fn)
{
    pml_progress();
    *flag = 0;
    for (int i = 0; i < count; i++) {
        if (!is_done(req_from_handle(array_of_requests[i]))) {
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return finish_all(count, array_of_requests, array_of_statuses, fn);
}

/* index of a done, non-idle request; -1 when none; *nactive_p counts non-idle ones */
static int find_done(int count, MPI_Request reqs[], int *nactive_p)
{
    int nactive = 0;
    for (int i = 0; i < count; i++) {
        compi_request_t *r = req_from_handle(reqs[i]);
        if (is_idle(r)) {
            continue;
        }
        nactive++;
        if (is_done(r)) {
            *nactive_p = nactive;
            return i;
        }
    }
    *nactive_p = nactive;
    return -1;
}

static int any_common(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status,
                      int blocking, const char *fn)
{
    for (int round = 0;; round++) {
        int nactive;
        int i = find_done(count, reqs, &nactive);
        if (i >= 0) {
            *index = i;
            *flag = 1;
            return finish(&reqs[i], req_from_handle(reqs[i]), status, fn);
        }
        if (nactive == 0) {
            *index = MPI_UNDEFINED;
            *flag = 1;
            mpi_status_empty(status);
            return MPI_SUCCESS;
        }
        if (!blocking && round > 0) {
            *index = MPI_UNDEFINED;
            *flag = 0;
            return MPI_SUCCESS;
        }
        if (blocking) {
            pml_progress_wait();
        } else {
            pml_progress();
        }
    }
}

static int waitany_impl(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status,
                        const char *fn)
{
    int flag;
    return any_common(count, array_of_requests, index, &flag, status, 1, fn);
}

static int testany_impl(int count, MPI_Request array_of_requests[], int *index, int *flag,
                        MPI_Status *status, const char *fn)
{
    return any_common(count, array_of_requests, index, flag, status, 0, fn);
}

static int some_common(int incount, MPI_Request reqs[], int *outcount, int indices[],
                       MPI_Status statuses[], int blocking, const char *fn)
{
    if (incount > 0 && indices == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "array_of_indices is NULL");
    }
    for (;;) {
        int nactive = 0, n = 0, failed = 0;
        for (int i = 0; i < incount; i++) {
            compi_request_t *r = req_from_handle(reqs[i]);
            if (is_idle(r)) {
                continue;
            }
            nactive++;
            if (is_done(r)) {
                in_status(statuses, n, finish(&reqs[i], r, status_at(statuses, n), NULL), &failed);
                indices[n++] = i;
            }
        }
        if (nactive == 0) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        if (n > 0 || !blocking) {
            *outcount = n;
            if (failed) {
                return mpi_err_raise(NULL, MPI_ERR_IN_STATUS, fn, "a request failed");
            }
            return MPI_SUCCESS;
        }
        pml_progress_wait();
    }
}

static int waitsome_impl(int incount, MPI_Request array_of_requests[], int *outcount,
                         int array_of_indices[], MPI_Status array_of_statuses[], const char *fn)
{
    return some_common(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, 1,
                       fn);
}

static int testsome_impl(int incount, MPI_Request array_of_requests[], int *outcount,
                         int array_of_indices[], MPI_Status array_of_statuses[], const char *fn)
{
    pml_progress();
    return some_common(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, 0,
                       fn);
}

static int request_free_impl(MPI_Request *request, compi_request_t *request_obj, const char *fn)
{
    compi_request_t *r = request_obj;
    if (r == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_REQUEST, fn, "null request");
    }
    if (r->kind == REQ_GREQ && !r->complete) {
        /* keep the handle: the user still calls MPI_Grequest_complete with it */
        r->user_freed = 1;
    } else {
        int err = r->kind == REQ_GREQ ? mpi_greq_free(r) : MPI_SUCCESS;
        mpi_req_dispose(request, r);
        if (err != MPI_SUCCESS) {
            return mpi_err_raise(NULL, err, fn, "free_fn returned error %d", err);
        }
        return MPI_SUCCESS;
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* a request's state, left as it is: *flag whether it is done, then its status (all but
   MPI_ERROR) and its error, raised when `raise_fn` is not NULL (MPI_Request_get_status),
   returned else (get_status_all and _some put it in the status) */
static int peek(compi_request_t *r, int *flag, MPI_Status *status, const char *raise_fn)
{
    if (!is_done(r)) {
        pml_progress();
    }
    *flag = is_done(r);
    if (!*flag) {
        return MPI_SUCCESS;
    }
    if (is_idle(r)) {
        mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    if (r->kind == REQ_GREQ) {
        int err = greq_status(r, status);
        if (err != MPI_SUCCESS && raise_fn != NULL) {
            return mpi_err_raise(NULL, err, raise_fn, "query_fn returned error %d", err);
        }
        return err;
    }
    mpi_status_set(status, &r->result);
    if (r->result.error != COMPI_OK) {
        /* as MPI_Test would: the error is returned, not stored in the status */
        return raise_fn != NULL ? raise_result(r, raise_fn) : result_code(r);
    }
    return MPI_SUCCESS;
}

static int request_get_status_impl(compi_request_t *request, int *flag, MPI_Status *status,
                                   const char *fn)
{
    return peek(request, flag, status, fn);
}

/*
 * MPI_Request_get_status_all, _any and _some (MPI 4.1): what MPI_Testall, _any and _some
 * tell, without freeing or deactivating a request.  As in the test functions, a null
 * handle and an inactive persistent request are idle: complete at once with an empty
 * status for _all, skipped by _any and _some, which answer MPI_UNDEFINED when every
 * request is idle.  A request's error: _any returns it, as MPI_Testany; _all and _some
 * return MPI_ERR_IN_STATUS with each status's MPI_ERROR set, as MPI_Testall and
 * MPI_Testsome (in_status).  The entry points check the count and the arrays.
 */
static int request_get_status_all_impl(int count, const MPI_Request array_of_requests[], int *flag,
                                       MPI_Status array_of_statuses[], const char *fn)
{
    int failed = 0;
    *flag = 1;
    for (int i = 0; i < count; i++) {
        int done = 0;
        int err = peek(req_from_handle(array_of_requests[i]), &done,
                       status_at(array_of_statuses, i), NULL);
        in_status(array_of_statuses, i, err, &failed);
        *flag = *flag && done;
    }
    if (failed) {
        return mpi_err_raise(NULL, MPI_ERR_IN_STATUS, fn, "a request failed (see statuses)");
    }
    return MPI_SUCCESS;
}

static int request_get_status_any_impl(int count, const MPI_Request array_of_requests[], int *index,
                                       int *flag, MPI_Status *status, const char *fn)
{
    int active = 0;
    *index = MPI_UNDEFINED;
    *flag = 0;
    for (int i = 0; i < count; i++) {
        compi_request_t *r = req_from_handle(array_of_requests[i]);
        if (is_idle(r)) {
            continue;
        }
        active = 1;
        int rc = peek(r, flag, status, fn);
        if (rc != MPI_SUCCESS || *flag) {
            *index = rc == MPI_SUCCESS ? i : MPI_UNDEFINED;
            return rc;
        }
    }
    if (!active) {
        *flag = 1;
        mpi_status_empty(status);
    }
    return MPI_SUCCESS;
}

static int request_get_status_some_impl(int incount, const MPI_Request array_of_requests[],
                                        int *outcount, int array_of_indices[],
                                        MPI_Status array_of_statuses[], const char *fn)
{
    int active = 0, n = 0, failed = 0;
    for (int i = 0; i < incount; i++) {
        compi_request_t *r = req_from_handle(array_of_requests[i]);
        if (is_idle(r)) {
            continue;
        }
        active = 1;
        int done = 0;
        int err = peek(r, &done, status_at(array_of_statuses, n), NULL);
        if (done) {
            in_status(array_of_statuses, n, err, &failed);
            array_of_indices[n++] = i;
        }
    }
    *outcount = active ? n : MPI_UNDEFINED;
    if (failed) {
        return mpi_err_raise(NULL, MPI_ERR_IN_STATUS, fn, "a request failed (see statuses)");
    }
    return MPI_SUCCESS;
}

static int cancel_impl(MPI_Request *request, compi_request_t *request_obj, const char *fn)
{
    compi_request_t *r = request_obj;
    if (r == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_REQUEST, fn, "null request");
    }
    if (r->kind == REQ_GREQ) {
        return mpi_greq_cancel(r);
    }
    /* a send, or a receive already matched, stays: the status then says not cancelled */
    pml_cancel(r);
    return MPI_SUCCESS;
}

static int start_impl(MPI_Request *request, compi_request_t *request_obj, const char *fn)
{
    compi_request_t *r = request_obj;
    if (r == NULL || !r->persistent || r->active) {
        return mpi_err_raise(r != NULL ? r->comm : NULL, MPI_ERR_REQUEST, fn,
                             "request is not an inactive persistent request");
    }
    pml_start(r);
    return MPI_SUCCESS;
}

static int startall_impl(int count, MPI_Request array_of_requests[], const char *fn)
{
    for (int i = 0; i < count; i++) {
        compi_request_t *r = req_from_handle(array_of_requests[i]);
        if (r == NULL || !r->persistent || r->active) {
            return mpi_err_raise(r != NULL ? r->comm : NULL, MPI_ERR_REQUEST, fn,
                                 "request %d is not an inactive persistent request", i);
        }
    }
    for (int i = 0; i < count; i++) {
        pml_start(req_from_handle(array_of_requests[i]));
    }
    return MPI_SUCCESS;
}

static int grequest_start_impl(MPI_Grequest_query_function *query_fn,
                               MPI_Grequest_free_function *free_fn,
                               MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                               MPI_Request *request, const char *fn)
{
    compi_request_t *r = mpi_greq_new(query_fn, free_fn, cancel_fn, extra_state);
    if (r == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    return mpi_req_expose(NULL, r, request, fn);
}

static int grequest_complete_impl(MPI_Request request, compi_request_t *request_obj, const char *fn)
{
    compi_request_t *r = request_obj;
    if (r == NULL || r->kind != REQ_GREQ) {
        return mpi_err_raise(NULL, MPI_ERR_REQUEST, fn, "not a generalized request: 0x%x",
                             (unsigned)request);
    }
    if (r->user_freed) {
        /* MPI_Request_free came first: nobody will wait, so end it here */
        r->user_freed = 0;
        r->complete = 1;
        mpi_greq_free(r);
        mpi_req_dispose(&request, r);
        return MPI_SUCCESS;
    }
    pml_request_complete(r);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/request.c"
#include "core/mpi/gen/request_status.c"
