#!/usr/bin/env python3
"""cgen -- compi's C entry points (PMPI_x and the weak MPI_x), generated from the MPI
Forum's description of the standard (pympistandard) and include/mpi.h.

    python3 tools/mpigen/cgen.py [--top SRCDIR] [--out DIR]

For every procedure of the table below it writes, into core/mpi/gen/<unit>.c:

  - `#pragma weak MPI_x = PMPI_x` and PMPI_x with mpi.h's prototype, for the int form
    and for the large-count form (MPI_x_c) where the standard has one;
  - the initialization check (COMPI_CHECK_INIT, which also takes the library's lock at
    MPI_THREAD_MULTIPLE), or the lock alone for the procedures the standard allows
    before MPI_Init and after MPI_Finalize (CALLABLE_ANY_TIME), whose checks raise on
    MPI_ERR_ANY_TIME (core/mpi/errors.h: the class returned outside that time); for the
    tool information interface (MPI_T_*), the lock and the interface's own state
    (MPI_T_ERR_NOT_INITIALIZED), its checks returning their class (see mpit_rule); and
    neither for the calls that start or end the library or read nothing it shares
    (UNLOCKED_PROCS: MPI_Init, MPI_Abort, MPI_Wtime... see init_rule);
  - the argument checks that the kind and direction of each parameter in the standard's
    description call for, in the one vocabulary of core/mpi/args.h (mpi_arg_*), each
    with the error class the standard names: a communicator (MPI_ERR_COMM), a datatype
    (MPI_ERR_TYPE; committed where it describes a buffer), a count that must not be
    negative (MPI_ERR_COUNT), the buffer of a count and a datatype (MPI_ERR_BUFFER), a
    destination or source rank with MPI_PROC_NULL and MPI_ANY_SOURCE (MPI_ERR_RANK), a
    tag with MPI_ANY_TAG on the receiving side (MPI_ERR_TAG), a buffer of a size in
    bytes (MPI_ERR_BUFFER: not NULL with bytes), the pointer of an output request, flag,
    message, index, buffer or count (MPI_ERR_ARG), a status to read or update that is
    NULL or MPI_STATUS_IGNORE (MPI_ERR_ARG), a request handle or an array of them
    (MPI_ERR_REQUEST; MPI_REQUEST_NULL passes, an array's length is a count).  Errors
    are raised on the procedure's communicator once it is converted, so the
    communicator is checked first; the rest follow in the order of the parameters.
    Every handle is converted to compi's object once, here;
  - a call of the procedure's one hand-written implementation, which both forms share.

The implementation contract.  MPI_Foo_bar of unit U is implemented by

    static int foo_bar_impl(<parameters>, const char *fn)

defined in U's hand-written file (UNITS[U][0]) before its last line,
`#include "core/mpi/gen/U.c"`: the entry points are compiled in the same unit as the
implementations, so the checks and the call inline as a hand-written entry would.  Its
parameters are the procedure's, in order and with their names, but for

    MPI_Comm h          -> compi_comm_t *h        (checked, converted)
    MPI_Datatype h      -> compi_datatype_t *h    (checked, converted; committed when
                                                   it describes a buffer)
    a count (int or MPI_Count, the "POLY" kinds) -> MPI_Count (checked non-negative
                           where its kind says so: "_NNI")
    an output count (int * or MPI_Count *, "POLY") -> MPI_Count * (checked not NULL;
                           the int form gets MPI_UNDEFINED for a count beyond int)
    MPI_Request h       -> compi_request_t *h     (checked; NULL for MPI_REQUEST_NULL)
    MPI_Request *h      -> MPI_Request *h, compi_request_t *h_obj  (a request the call
                           completes, frees, starts or cancels: the pointer checked, the
                           handle converted, NULL for MPI_REQUEST_NULL: what a null
                           request means is the procedure's)

(the handles of groups, ops and error handlers, info hints, keyvals, strings and the
other kinds of the calls on such objects: see obj_rule and the table above it) and `fn`
is the name of the MPI function called ("MPI_Send" or "MPI_Send_c"), for the
messages of the errors it raises (an MPI_T procedure, which raises none, has no `fn`:
MPI_T_cvar_read is implemented by t_cvar_read_impl(handle, buf)).  A handle's
conversions (HANDLE_CONV_PROCS: _c2f, _f2c, _toint, _fromint), the timers and the address
arithmetic (VALUE_PROCS) return what the procedure returns, their implementations too; a
variadic procedure's `...` (MPI_Pcontrol's) is not passed on.  The int form passes its int counts as MPI_Count, so
a count above INT_MAX works through the _c form with no narrowing.  What no kind
describes (an MPI_Message's handle, the semantics of MPI_PROC_NULL in a matched probe,
a communicator's topology) stays in the implementation.  The generated file declares
each implementation after the code that calls it, so a mismatch fails to compile.

To convert a procedure: add its name (MPI_x, without _c) to its unit's list in UNITS
(a new unit: a new entry, and the #include at the end of its file), write x_impl as
above, delete the hand-written PMPI_x (and PMPI_x_c, wherever it was) and run
`make mpigen` in the build folder.  A parameter whose kind has no rule here
(KIND_RULES) stops the generator with the procedure and the parameter named: give the
kind a rule (and args.h its check), or keep the procedure by hand.

Collectives (COLL_UNITS).  A collective's forms -- blocking, nonblocking (MPI_Ibcast),
persistent (MPI_Bcast_init), each int and large-count -- share the blocking procedure's
implementation:

    static int bcast_impl(<parameters>, MPI_Request *request, coll_mode_t mode,
                          const char *fn)

its parameters the blocking form's, converted as above but for

    a count (int or MPI_Count)        -> MPI_Count, not checked here
    an array of counts or displacements (int, MPI_Count or MPI_Aint [])
                                      -> coll_vec_t (core/coll/coll.h), a view of the
                                         program's array: coll_vec_int(a),
                                         coll_vec_count(a) or coll_vec_aint(a)
    a buffer, a datatype (or an array of them), an op, the root
                                      -> as the program passed them

then the request pointer (checked not NULL; NULL in the blocking form, whose table entry
has none) and the mode (COLL_MODE_BLOCKING, _NONBLOCKING, _PERSISTENT); a persistent
form's MPI_Info is not passed (no hint is read).  Only the communicator and the request
pointer are checked here: which buffers, counts and datatypes are significant depends on
the rank (the root's side, MPI_IN_PLACE, MPI_ROOT and MPI_PROC_NULL on an
intercommunicator), which the description does not say, so the implementation checks
them (core/mpi/args.h's block for collectives).  To add a collective: its blocking name
in COLL_UNITS, its x_impl as above.

Files (into the source tree, or under --out; tests/tools/mpigen.sh compares a run into a
temporary folder with the committed files, `make mpigen` regenerates them):

  core/mpi/gen/<unit>.c   the entry points of each unit
  core/mpi/gen/report.txt what is generated, the functions removed from the standard
                          that compi keeps as calls of their replacements (REMOVED), what
                          is still written by hand in core/mpi, and what of the standard
                          compi does not implement
"""

import argparse
import os
import re
import sys

import pympistandard as std

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abigen import c_decl, compi_procedures, split_proto  # noqa: E402

# unit -> (the hand-written file that includes core/mpi/gen/<unit>.c, its procedures)
UNITS = {
    "pt2pt": ("core/mpi/pt2pt_api.c", [
        "MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend",
        "MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend",
        "MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init",
        "MPI_Recv", "MPI_Irecv", "MPI_Recv_init",
        "MPI_Sendrecv", "MPI_Sendrecv_replace",
        "MPI_Buffer_attach", "MPI_Buffer_detach", "MPI_Buffer_flush", "MPI_Buffer_iflush",
    ]),
    "probe": ("core/mpi/probe_api.c", [
        "MPI_Probe", "MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv", "MPI_Imrecv",
    ]),
    "isendrecv": ("core/mpi/isendrecv_api.c", [
        "MPI_Isendrecv", "MPI_Isendrecv_replace",
    ]),
    "request": ("core/mpi/request_api.c", [
        "MPI_Wait", "MPI_Test", "MPI_Waitall", "MPI_Testall", "MPI_Waitany", "MPI_Testany",
        "MPI_Waitsome", "MPI_Testsome", "MPI_Request_free", "MPI_Request_get_status",
        "MPI_Cancel", "MPI_Start", "MPI_Startall",
        "MPI_Grequest_start", "MPI_Grequest_complete",
    ]),
    "status": ("core/mpi/status_api.c", [
        "MPI_Get_count", "MPI_Get_elements", "MPI_Get_elements_x", "MPI_Status_set_elements",
        "MPI_Status_set_elements_x", "MPI_Status_set_cancelled", "MPI_Test_cancelled",
    ]),
    # datatypes: constructors, queries, packing
    "dt": ("core/mpi/dt_api.c", [
        "MPI_Type_contiguous", "MPI_Type_vector", "MPI_Type_create_hvector", "MPI_Type_indexed",
        "MPI_Type_create_hindexed", "MPI_Type_create_indexed_block",
        "MPI_Type_create_hindexed_block", "MPI_Type_create_struct", "MPI_Type_create_subarray",
        "MPI_Type_create_darray", "MPI_Type_create_resized", "MPI_Type_dup", "MPI_Type_commit",
        "MPI_Type_free", "MPI_Get_address", "MPI_Aint_add", "MPI_Aint_diff",
    ]),
    "dt_query": ("core/mpi/dt_query_api.c", [
        "MPI_Type_size", "MPI_Type_size_x", "MPI_Type_get_extent", "MPI_Type_get_extent_x",
        "MPI_Type_get_true_extent", "MPI_Type_get_true_extent_x", "MPI_Type_get_envelope",
        "MPI_Type_get_contents", "MPI_Type_set_name", "MPI_Type_get_name", "MPI_Type_match_size",
        "MPI_Type_create_f90_real", "MPI_Type_create_f90_complex", "MPI_Type_create_f90_integer",
    ]),
    "pack": ("core/mpi/pack_api.c", [
        "MPI_Pack", "MPI_Unpack", "MPI_Pack_size", "MPI_Pack_external", "MPI_Unpack_external",
        "MPI_Pack_external_size",
    ]),
    # groups, communicators, info, attributes, error handlers, ops (obj_rule below)
    "comm": ("core/mpi/comm_api.c", [
        "MPI_Comm_size", "MPI_Comm_rank", "MPI_Comm_compare", "MPI_Comm_dup",
        "MPI_Comm_dup_with_info", "MPI_Comm_split", "MPI_Comm_split_type", "MPI_Comm_create",
        "MPI_Comm_create_group", "MPI_Comm_free", "MPI_Comm_group", "MPI_Comm_set_name",
        "MPI_Comm_get_name",
    ]),
    "comm_info": ("core/mpi/comm_info_api.c", ["MPI_Comm_set_info", "MPI_Comm_get_info"]),
    "comm_idup": ("core/mpi/comm_idup_api.c", ["MPI_Comm_idup", "MPI_Comm_idup_with_info"]),
    "intercomm": ("core/mpi/intercomm_api.c", [
        "MPI_Comm_test_inter", "MPI_Comm_remote_size", "MPI_Comm_remote_group",
        "MPI_Intercomm_create", "MPI_Intercomm_merge",
    ]),
    "op": ("core/mpi/op_api.c", ["MPI_Op_create", "MPI_Op_free", "MPI_Op_commutative",
                                 "MPI_Reduce_local"]),
    "attr": ("core/mpi/attr_api.c", [
        "MPI_Comm_create_keyval", "MPI_Comm_free_keyval", "MPI_Keyval_create", "MPI_Keyval_free",
        "MPI_Type_create_keyval", "MPI_Type_free_keyval", "MPI_Comm_set_attr",
        "MPI_Comm_get_attr", "MPI_Comm_delete_attr", "MPI_Attr_put", "MPI_Attr_get",
        "MPI_Attr_delete", "MPI_Type_set_attr", "MPI_Type_get_attr", "MPI_Type_delete_attr",
    ]),
    "errhandler": ("core/mpi/errhandler_api.c", [
        "MPI_Comm_create_errhandler", "MPI_Comm_set_errhandler", "MPI_Comm_get_errhandler",
        "MPI_Comm_call_errhandler", "MPI_Errhandler_free",
        "MPI_Win_create_errhandler", "MPI_Session_create_errhandler",
    ]),
    "group": ("core/mpi/group_api.c", [
        "MPI_Group_size", "MPI_Group_rank", "MPI_Group_translate_ranks", "MPI_Group_compare",
        "MPI_Group_union", "MPI_Group_intersection", "MPI_Group_difference",
        "MPI_Group_incl", "MPI_Group_excl", "MPI_Group_range_incl", "MPI_Group_range_excl",
        "MPI_Group_free",
    ]),
    # one-sided communication: errors raised on the window (onesided_checks)
    "rma": ("core/mpi/rma_api.c", [
        "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
        "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget", "MPI_Raccumulate",
        "MPI_Rget_accumulate",
    ]),
    "win_sync": ("core/mpi/win_sync_api.c", [
        "MPI_Win_fence", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_lock_all",
        "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all", "MPI_Win_flush_local",
        "MPI_Win_flush_local_all", "MPI_Win_sync", "MPI_Win_post", "MPI_Win_start",
        "MPI_Win_complete", "MPI_Win_wait", "MPI_Win_test",
    ]),
    # process topologies: errors raised on the communicator (topo_rule)
    "topo": ("core/mpi/topo_api.c", [
        "MPI_Cart_create", "MPI_Dims_create", "MPI_Cartdim_get", "MPI_Cart_get",
        "MPI_Cart_rank", "MPI_Cart_coords", "MPI_Cart_shift", "MPI_Cart_sub", "MPI_Cart_map",
        "MPI_Graph_create", "MPI_Graph_map", "MPI_Graphdims_get", "MPI_Graph_get",
        "MPI_Graph_neighbors_count", "MPI_Graph_neighbors", "MPI_Dist_graph_create_adjacent",
        "MPI_Dist_graph_create", "MPI_Dist_graph_neighbors_count", "MPI_Dist_graph_neighbors",
        "MPI_Topo_test",
    ]),
    # partitioned communication and memory (partmem_rule)
    "part": ("core/mpi/part_api.c", [
        "MPI_Psend_init", "MPI_Precv_init", "MPI_Pready", "MPI_Pready_range", "MPI_Pready_list",
        "MPI_Parrived",
    ]),
    "mem": ("core/mpi/mem_api.c", ["MPI_Alloc_mem", "MPI_Free_mem"]),
    # sessions: errors raised on the session (onesided_checks, with the session as the
    # object); MPI_Session_init and the communicators made from groups: session_init below
    "session": ("core/mpi/session_api.c", [
        "MPI_Session_finalize", "MPI_Session_get_num_psets", "MPI_Session_get_nth_pset",
        "MPI_Session_get_pset_info", "MPI_Session_get_info", "MPI_Group_from_session_pset",
        "MPI_Session_set_errhandler", "MPI_Session_get_errhandler",
        "MPI_Session_call_errhandler",
    ]),
    "win": ("core/mpi/win_api.c", [
        "MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_create_dynamic",
        "MPI_Win_free", "MPI_Win_attach", "MPI_Win_detach", "MPI_Win_shared_query",
        "MPI_Win_get_group", "MPI_Win_set_name", "MPI_Win_get_name", "MPI_Win_set_info",
        "MPI_Win_get_info", "MPI_Win_set_attr", "MPI_Win_get_attr", "MPI_Win_delete_attr",
        "MPI_Win_set_errhandler", "MPI_Win_get_errhandler", "MPI_Win_call_errhandler",
        "MPI_Win_create_keyval", "MPI_Win_free_keyval",
    ]),
    # the MPI 4.1 queries of datatypes and hardware
    "dt_value_index": ("core/mpi/dt_value_index_api.c", ["MPI_Type_get_value_index"]),
    "hw_info": ("core/mpi/hw_info_api.c", ["MPI_Get_hw_resource_info"]),
    # statuses between C and Fortran, their fields (status_rule)
    # handles and statuses between C and Fortran, handles as ints (HANDLE_CONV_PROCS)
    "f2c": ("core/mpi/f2c_api.c", [
        "MPI_Status_c2f", "MPI_Status_f2c",
        "MPI_Comm_c2f", "MPI_Comm_f2c", "MPI_Type_c2f", "MPI_Type_f2c", "MPI_Group_c2f",
        "MPI_Group_f2c", "MPI_Request_c2f", "MPI_Request_f2c", "MPI_Op_c2f", "MPI_Op_f2c",
        "MPI_Info_c2f", "MPI_Info_f2c", "MPI_Errhandler_c2f", "MPI_Errhandler_f2c",
        "MPI_Message_c2f", "MPI_Message_f2c", "MPI_Win_c2f", "MPI_Win_f2c", "MPI_File_c2f",
        "MPI_File_f2c", "MPI_Session_c2f", "MPI_Session_f2c",
    ]),
    "handle_int": ("core/mpi/handle_int_api.c", [
        "MPI_Comm_toint", "MPI_Comm_fromint", "MPI_Type_toint", "MPI_Type_fromint",
        "MPI_Group_toint", "MPI_Group_fromint", "MPI_Request_toint", "MPI_Request_fromint",
        "MPI_Op_toint", "MPI_Op_fromint", "MPI_Info_toint", "MPI_Info_fromint",
        "MPI_Errhandler_toint", "MPI_Errhandler_fromint", "MPI_Message_toint",
        "MPI_Message_fromint", "MPI_Win_toint", "MPI_Win_fromint", "MPI_File_toint",
        "MPI_File_fromint", "MPI_Session_toint", "MPI_Session_fromint",
    ]),
    "status_f08": ("core/mpi/status_f08_api.c", [
        "MPI_Status_c2f08", "MPI_Status_f082c", "MPI_Status_f082f", "MPI_Status_f2f08",
        "MPI_Status_get_source", "MPI_Status_get_tag", "MPI_Status_get_error",
        "MPI_Status_set_source", "MPI_Status_set_tag", "MPI_Status_set_error",
    ]),
    "buffer": ("core/mpi/buffer_api.c", [
        "MPI_Comm_attach_buffer", "MPI_Comm_detach_buffer", "MPI_Comm_flush_buffer",
        "MPI_Comm_iflush_buffer",
    ]),
    "request_status": ("core/mpi/request_api.c", [
        "MPI_Request_get_status_all", "MPI_Request_get_status_any",
        "MPI_Request_get_status_some",
    ]),
    # info objects and error classes and codes: callable at any time (infoerr_rule)
    "info": ("core/mpi/info_api.c", [
        "MPI_Info_create", "MPI_Info_create_env", "MPI_Info_delete", "MPI_Info_dup",
        "MPI_Info_free", "MPI_Info_get", "MPI_Info_get_nkeys", "MPI_Info_get_nthkey",
        "MPI_Info_get_string", "MPI_Info_get_valuelen", "MPI_Info_set",
    ]),
    "errors_user": ("core/mpi/errors_user.c", [
        "MPI_Add_error_class", "MPI_Add_error_code", "MPI_Add_error_string",
        "MPI_Remove_error_class", "MPI_Remove_error_code", "MPI_Remove_error_string",
        "MPI_Error_class", "MPI_Error_string",
    ]),
    # the tool information interface (MPI_T_*: mpit_rule, and the entry's own state check)
    "mpit": ("core/mpi/mpit_api.c", [
        "MPI_T_init_thread", "MPI_T_finalize", "MPI_T_cvar_get_num", "MPI_T_cvar_get_info",
        "MPI_T_cvar_get_index", "MPI_T_cvar_handle_alloc", "MPI_T_cvar_handle_free",
        "MPI_T_cvar_read", "MPI_T_cvar_write",
    ]),
    "mpit_cat": ("core/mpi/mpit_cat.c", [
        "MPI_T_enum_get_info", "MPI_T_enum_get_item", "MPI_T_category_get_num",
        "MPI_T_category_get_info", "MPI_T_category_get_index", "MPI_T_category_get_cvars",
        "MPI_T_category_get_pvars", "MPI_T_category_get_categories", "MPI_T_category_changed",
    ]),
    "mpit_pvar": ("core/mpi/mpit_pvar.c", [
        "MPI_T_pvar_get_num", "MPI_T_pvar_get_info", "MPI_T_pvar_get_index",
        "MPI_T_pvar_session_create", "MPI_T_pvar_session_free", "MPI_T_pvar_handle_alloc",
        "MPI_T_pvar_handle_free", "MPI_T_pvar_start", "MPI_T_pvar_stop", "MPI_T_pvar_reset",
        "MPI_T_pvar_read", "MPI_T_pvar_write", "MPI_T_pvar_readreset",
    ]),
    "mpit_event": ("core/mpi/mpit_event.c", [
        "MPI_T_event_get_num", "MPI_T_source_get_num", "MPI_T_category_get_num_events",
        "MPI_T_category_get_events", "MPI_T_event_get_index", "MPI_T_event_get_info",
        "MPI_T_event_handle_alloc", "MPI_T_source_get_info", "MPI_T_source_get_timestamp",
        "MPI_T_event_handle_set_info", "MPI_T_event_handle_get_info",
        "MPI_T_event_register_callback", "MPI_T_event_callback_set_info",
        "MPI_T_event_callback_get_info", "MPI_T_event_handle_free",
        "MPI_T_event_set_dropped_handler", "MPI_T_event_read", "MPI_T_event_copy",
        "MPI_T_event_get_timestamp", "MPI_T_event_get_source",
    ]),
    # starting and ending MPI, the environment's queries, the timers (init_rule)
    "init": ("core/mpi/init_api.c", [
        "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Initialized", "MPI_Finalized",
        "MPI_Abort", "MPI_Query_thread", "MPI_Is_thread_main", "MPI_Wtime", "MPI_Wtick",
        "MPI_Get_processor_name", "MPI_Get_version", "MPI_Get_library_version",
        "MPI_Pcontrol",
    ]),
    # dynamic processes: spawn, ports, names, join (dynproc_rule)
    "dynproc": ("core/mpi/dynproc_api.c", [
        "MPI_Comm_spawn", "MPI_Comm_spawn_multiple", "MPI_Comm_get_parent", "MPI_Comm_disconnect",
        "MPI_Open_port", "MPI_Close_port", "MPI_Comm_accept", "MPI_Comm_connect",
        "MPI_Publish_name", "MPI_Unpublish_name", "MPI_Lookup_name", "MPI_Comm_join",
    ]),
    # sessions begun, communicators from groups (fromgroup_rule)
    "session_init": ("core/mpi/session_api.c", [
        "MPI_Session_init", "MPI_Comm_create_from_group", "MPI_Intercomm_create_from_groups",
    ]),
    # a session's buffer for buffered sends: errors raised on the session (session_buffer_rule)
    "session_buffer": ("core/mpi/buffer_api.c", [
        "MPI_Session_attach_buffer", "MPI_Session_detach_buffer", "MPI_Session_flush_buffer",
        "MPI_Session_iflush_buffer",
    ]),
}


# the collectives: unit -> (the hand-written file, the blocking procedures); each brings its
# nonblocking (MPI_I...) and persistent (..._init) forms, all calling the blocking one's
# x_impl (see "Collectives" above)
COLL_UNITS = {
    "coll": ("core/mpi/coll_api.c", [
        "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan",
        "MPI_Reduce_scatter_block", "MPI_Reduce_scatter",
    ]),
    "coll_move": ("core/mpi/coll_move_api.c", [
        "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Allgather",
        "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw",
    ]),
    "neighbor": ("core/mpi/neighbor_api.c", [
        "MPI_Neighbor_allgather", "MPI_Neighbor_allgatherv", "MPI_Neighbor_alltoall",
        "MPI_Neighbor_alltoallv", "MPI_Neighbor_alltoallw",
    ]),
}


# the functions of mpi.h that MPI-3 removed from the standard (so its description has no
# entry for them), each kept in core/mpi/removed_api.c as a call of its replacement:
# removed -> replacement
REMOVED = {
    "MPI_Address": "MPI_Get_address", "MPI_Type_extent": "MPI_Type_get_extent",
    "MPI_Type_lb": "MPI_Type_get_extent", "MPI_Type_ub": "MPI_Type_get_extent",
    "MPI_Type_hindexed": "MPI_Type_create_hindexed",
    "MPI_Type_hvector": "MPI_Type_create_hvector", "MPI_Type_struct": "MPI_Type_create_struct",
    "MPI_Errhandler_create": "MPI_Comm_create_errhandler",
    "MPI_Errhandler_get": "MPI_Comm_get_errhandler",
    "MPI_Errhandler_set": "MPI_Comm_set_errhandler",
}


def coll_forms(name):
    """(form, mode) of a blocking collective: itself, MPI_I..., ..._init"""
    return [(name, "COLL_MODE_BLOCKING"),
            ("MPI_I" + name[4].lower() + name[5:], "COLL_MODE_NONBLOCKING"),
            (name + "_init", "COLL_MODE_PERSISTENT")]


# the procedures the standard lets a program call before MPI_Init and after MPI_Finalize
# (MPI-4.1, 11.4.1 and 11.3): they take the lock but check no state
CALLABLE_ANY_TIME = {
    "MPI_Initialized", "MPI_Finalized", "MPI_Get_version", "MPI_Get_library_version",
    "MPI_Info_create", "MPI_Info_create_env", "MPI_Info_set", "MPI_Info_delete",
    "MPI_Info_get_string", "MPI_Info_get_nkeys", "MPI_Info_get_nthkey", "MPI_Info_dup",
    "MPI_Info_free", "MPI_Info_c2f", "MPI_Info_f2c", "MPI_Session_init",
    "MPI_Session_finalize", "MPI_Session_create_errhandler", "MPI_Session_call_errhandler",
    "MPI_Errhandler_free", "MPI_Errhandler_c2f", "MPI_Errhandler_f2c", "MPI_Error_class",
    "MPI_Error_string", "MPI_Add_error_class", "MPI_Add_error_code",
    "MPI_Add_error_string", "MPI_Remove_error_class", "MPI_Remove_error_code",
    "MPI_Remove_error_string",
}

GEN_HEAD = """\
/* Generated by tools/mpigen/cgen.py from pympistandard %s and include/mpi.h: do not
   edit (`make mpigen` regenerates it).  The MPI entry points of %s, which
   includes this file last: each checks its arguments and calls its x_impl there. */
"""


# the kinds of counts of elements or bytes (POLY: MPI_Count in the large-count form; _NNI:
# not negative)
COUNT_KINDS = {"POLYXFER_NUM_ELEM", "POLYXFER_NUM_ELEM_NNI", "XFER_NUM_ELEM",
               "XFER_NUM_ELEM_NNI", "POLYDTYPE_NUM_ELEM", "POLYDTYPE_NUM_ELEM_NNI",
               "NUM_BYTES", "NUM_BYTES_NNI", "POLYNUM_BYTES", "POLYNUM_BYTES_NNI"}
# those that count bytes
BYTE_KINDS = {"NUM_BYTES", "NUM_BYTES_NNI", "POLYNUM_BYTES", "POLYNUM_BYTES_NNI"}


class Unbound(Exception):
    pass


class Param:
    """one parameter of a procedure's C form, and what the generator makes of it"""

    def __init__(self, decl, p):
        self.decl = c_decl(decl)
        self.name = p.name
        self.kind = p.kind.name
        self.dir = p.direction.name  # IN, OUT, INOUT
        self.ptr = p.pointer_level
        self.array = bool(p.array)
        self.length = p._parseset.get("length")  # an array's: the parameter that counts it
        self.impl_decl = self.decl  # the parameter as the implementation takes it
        self.arg = self.name        # what the entry point passes for it
        self.skip = False           # a collective's info and request: not in the impl's list


def param_side(params, i):
    """'send' or 'recv': the side of the rank before params[i] (a tag goes with it)"""
    for p in reversed(params[:i]):
        if p.kind == "RANK":
            return "recv" if p.name == "source" else "send"
    if params[0].kind == "COMMUNICATOR":
        return "send"  # a communicator constructor's tag (MPI_Comm_create_group)
    raise Unbound("%s (a tag with no rank before it)" % params[i].name)


def checks(name, params):
    """the checks of one entry point, as lines of C, the declarations they need and what
    runs after a successful call of the implementation; each Param's impl_decl and arg
    are set"""
    decls, lines, post = [], [], []
    if name in HANDLE_CONV_PROCS:
        return decls, lines, post
    if re.sub("_c$", "", name) in FILE_PROCS:
        return file_checks(name, params)

    def check(call):
        lines.append("    rc = %s;" % call)
        lines.append("    if (compi_unlikely(rc != MPI_SUCCESS)) {")
        lines.append("        return rc;")
        lines.append("    }")

    comms = [p for p in params if p.kind == "COMMUNICATOR" and p.dir == "IN" and not p.ptr
             and p.name not in LEADER_ONLY and name not in INIT_PROCS]
    wins = [p for p in params if p.kind in ERR_TARGETS and (
        (p.dir == "IN" and not p.ptr) or (p.dir == "INOUT" and p.ptr == 1))]
    if wins and not comms:
        return onesided_checks(name, params, wins[0])
    errc = "NULL"
    if re.sub("_c$", "", name) in CALLABLE_ANY_TIME:
        errc = "MPI_ERR_ANY_TIME"  # the class returned outside MPI_Init..MPI_Finalize
    # the communicator first: the other checks raise their errors on it
    for p in comms:
        decls.append("    compi_comm_t *c_%s = NULL;" % p.name)
        check('mpi_arg_comm(%s, fn, &c_%s)' % (p.name, p.name))
        p.impl_decl = "compi_comm_t *%s" % p.name
        p.arg = "c_" + p.name
        if errc == "NULL":
            errc = "c_" + p.name
    for i, p in enumerate(params):
        k = p.kind
        if p in comms:
            continue
        if any(re.sub("_c$", "", name) in procs and rule(p, params, errc, check, decls)
               for procs, rule in FAMILY_RULES):
            continue
        if k == "DATATYPE" and p.dir == "IN" and not p.ptr and not p.array:
            # the datatype of a buffer (buf, count, datatype) must be committed; one that
            # only describes (a status's count, a constructor's old type) need not
            data = i >= 2 and params[i - 2].kind == "BUFFER" and params[i - 1].kind in COUNT_KINDS
            decls.append("    compi_datatype_t *dt_%s = NULL;" % p.name)
            check('mpi_arg_type%s(%s, %s, "%s", fn, &dt_%s)' % (
                "" if data else "_valid", errc, p.name, p.name, p.name))
            p.impl_decl = "compi_datatype_t *%s" % p.name
            p.arg = "dt_" + p.name
            if data:
                b, n = params[i - 2], params[i - 1]
                check('mpi_arg_buf(%s, %s, (size_t)%s, dt_%s, "%s", fn)' %
                      (errc, b.name, n.name, p.name, b.name))
        elif k in COUNT_KINDS and p.dir == "IN" and not p.ptr and not p.array:
            if k.endswith("_NNI"):
                check('mpi_arg_count(%s, %s, "%s", fn)' % (errc, p.name, p.name))
            if k in BYTE_KINDS and i >= 1 and params[i - 1].kind == "BUFFER":
                # a buffer of `size` bytes (MPI_Buffer_attach)
                b = params[i - 1]
                check('mpi_arg_bytes(%s, %s, (size_t)%s, "%s", fn)' % (errc, b.name, p.name,
                                                                        b.name))
            if k.startswith("POLY"):
                p.impl_decl = "MPI_Count %s" % p.name
        elif k in COUNT_KINDS and p.dir == "OUT" and p.ptr == 1 and not p.array:
            check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
            if k.startswith("POLY"):
                p.impl_decl = "MPI_Count *%s" % p.name
                if p.decl.startswith("int *"):
                    # the int form: MPI_UNDEFINED for a count beyond int
                    decls.append("    MPI_Count %s_c = 0;" % p.name)
                    p.arg = "&%s_c" % p.name
                    post.append("        *%s = mpi_count_int(%s_c);" % (p.name, p.name))
        elif k == "BUFFER" and not p.array:
            # checked with its datatype (above); passed as it is
            if not ((i + 2 < len(params) and params[i + 2].kind == "DATATYPE") or
                    (i + 1 < len(params) and params[i + 1].kind in BYTE_KINDS) or
                    (i + 1 < len(params) and params[i + 1].kind in ("POLYDTYPE_PACK_SIZE",
                                                                    "DISPLACEMENT"))):
                raise Unbound("%s (a buffer without a count and a datatype or a size)" % p.name)
        elif k == "RANK" and p.dir == "IN" and not p.ptr and p.name in ("dest", "source"):
            if errc == "NULL":
                raise Unbound("%s (a rank without a communicator)" % p.name)
            check('mpi_arg_%s_rank(%s, %s, fn)' % (p.name, errc, p.name))
        elif k == "TAG" and p.dir == "IN" and not p.ptr:
            side = param_side(params, i)
            check('mpi_arg_%s_tag(%s, %s, fn)' % (side, errc, p.name))
        elif k == "REQUEST" and p.ptr == 1 and not p.array and (
                p.dir == "INOUT" or (p.dir == "IN" and not p.decl.startswith("const"))):
            # a request the call completes, frees, starts or cancels: its handle (which the
            # implementation may set to MPI_REQUEST_NULL) and its object (NULL for
            # MPI_REQUEST_NULL)
            check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
            decls.append("    compi_request_t *r_%s = NULL;" % p.name)
            check('mpi_arg_request(%s, *%s, fn, &r_%s)' % (errc, p.name, p.name))
            p.impl_decl = "MPI_Request *%s, compi_request_t *%s_obj" % (p.name, p.name)
            p.arg = "%s, r_%s" % (p.name, p.name)
        elif k == "REQUEST" and p.dir == "IN" and not p.ptr and not p.array:
            decls.append("    compi_request_t *r_%s = NULL;" % p.name)
            check('mpi_arg_request(%s, %s, fn, &r_%s)' % (errc, p.name, p.name))
            p.impl_decl = "compi_request_t *%s" % p.name
            p.arg = "r_" + p.name
        elif k == "REQUEST" and p.dir == "INOUT" and p.array and p.length not in (None, "*"):
            check('mpi_arg_requests(%s, %s, %s, "%s", fn)' % (errc, p.length, p.name, p.name))
        elif k == "ARRAY_LENGTH_NNI" and p.dir == "IN" and not p.ptr and not p.array:
            check('mpi_arg_count(%s, %s, "%s", fn)' % (errc, p.name, p.name))
        elif k in ("REQUEST", "MESSAGE", "LOGICAL", "INDEX", "ARRAY_LENGTH", "C_BUFFER2") and \
                p.dir in ("OUT", "INOUT") and p.ptr == 1 and not p.array:
            check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
        elif k in ("STATUS", "INDEX") and p.dir == "OUT" and p.array:
            pass  # the statuses may be MPI_STATUSES_IGNORE; the indices are the call's
        elif k == "STATUS" and p.dir == "OUT" and not p.array:
            pass  # may be MPI_STATUS_IGNORE
        elif k == "STATUS" and p.dir in ("IN", "INOUT") and p.ptr == 1 and not p.array:
            check('mpi_arg_status(%s, %s, "%s", fn)' % (errc, p.name, p.name))
        elif k == "LOGICAL" and p.dir == "IN" and not p.ptr and not p.array:
            pass
        elif datatype_rule(p, errc, check, decls, lines, post):
            pass
        elif obj_rule(p, params, errc, check, decls):
            pass
        else:
            raise Unbound("%s (kind %s, %s%s)" % (p.name, k, p.dir.lower(),
                                                   ", an array" if p.array else ""))
    return decls, lines, post


def coll_checks(name, params):
    """the checks of a collective's entry point (see "Collectives" above): its
    communicator and its request pointer; each Param's impl_decl and arg are set, the
    info and the request marked skip"""
    decls, lines = [], []

    def check(call):
        lines.append("    rc = %s;" % call)
        lines.append("    if (compi_unlikely(rc != MPI_SUCCESS)) {")
        lines.append("        return rc;")
        lines.append("    }")

    comm = [p for p in params if p.kind == "COMMUNICATOR"]
    if len(comm) != 1 or comm[0].dir != "IN" or comm[0].ptr:
        raise Unbound("comm (a collective without one communicator)")
    c = comm[0]
    decls.append("    compi_comm_t *c_%s = NULL;" % c.name)
    check("mpi_arg_comm(%s, fn, &c_%s)" % (c.name, c.name))
    c.impl_decl = "compi_comm_t *%s" % c.name
    c.arg = "c_" + c.name
    for p in params:
        k = p.kind
        if p is c:
            continue
        if k in COUNT_KINDS and p.dir == "IN" and not p.ptr and p.array:
            wide = not p.decl.startswith("const int ")
            p.impl_decl = "coll_vec_t %s" % p.name
            p.arg = "coll_vec_%s(%s)" % ("count" if wide else "int", p.name)
        elif k in COUNT_KINDS and p.dir == "IN" and not p.ptr:
            if k.startswith("POLY"):
                p.impl_decl = "MPI_Count %s" % p.name
        elif k in ("DISPLACEMENT", "POLYDISPLACEMENT") and p.dir == "IN" and p.array:
            wide = not p.decl.startswith("const int ")
            p.impl_decl = "coll_vec_t %s" % p.name
            p.arg = "coll_vec_%s(%s)" % ("aint" if wide else "int", p.name)
        elif k in ("BUFFER", "DATATYPE", "OPERATION") and not (k != "BUFFER" and p.ptr):
            pass  # significant on some ranks only: the implementation checks them
        elif k == "RANK" and p.name == "root" and p.dir == "IN" and not p.ptr:
            pass
        elif k == "INFO" and p.dir == "IN" and not p.ptr:
            p.skip = True  # no hint is read
        elif k == "REQUEST" and p.dir == "OUT" and p.ptr == 1 and not p.array:
            check('mpi_arg_ptr(c_%s, %s, "%s", fn)' % (c.name, p.name, p.name))
            p.skip = True  # passed after the others, NULL in the blocking form
        else:
            raise Unbound("%s (kind %s, %s%s)" % (p.name, k, p.dir.lower(),
                                                   ", an array" if p.array else ""))
    return decls, lines, []


# ---- the kinds of the datatype calls (constructors, queries, packing) ----

# arrays of counts or displacements: int (or MPI_Aint) in the int form, MPI_Count in the
# large-count form; the implementation reads either through an mpi_counts_t (args.h),
# and the smallest value each element may have (None: any)
POLY_ARRAY_KINDS = {"POLYDTYPE_NUM_ELEM_NNI": 0, "POLYDTYPE_NUM_ELEM_PI": 1,
                    "POLYDISPLACEMENT_COUNT": None, "POLYDISPLACEMENT_AINT_COUNT": None}
# what the implementation checks itself (the rules of one constructor, a representation's
# name) or what it fills (the arrays of MPI_Type_get_contents)
IMPL_KINDS = {"ORDER", "COMM_SIZE_PI", "RANK_NNI", "ARRAY_LENGTH_PI", "DISTRIB_ENUM",
              "DTYPE_DISTRIBUTION", "PROCESS_GRID_SIZE", "STRING", "GENERIC_DTYPE_INT",
              "GENERIC_DTYPE_COUNT", "DISPLACEMENT", "TYPECLASS", "TYPECLASS_SIZE", "MATH"}


def datatype_rule(p, errc, check, decls, lines, post):
    """the rules of the datatype kinds; False for a kind they do not cover"""
    k, n = p.kind, p.name
    elem = p.decl.split()[-2] if p.decl.startswith("const") else p.decl.split()[0]
    if k in POLY_ARRAY_KINDS and p.dir == "IN" and p.array and p.length:
        width = {"int": "int", "MPI_Aint": "aint", "MPI_Count": "count"}[elem]
        low = POLY_ARRAY_KINDS[k]
        decls.append("    mpi_counts_t v_%s = mpi_counts_%s(%s);" % (n, width, n))
        check('mpi_arg_count_array(%s, %s, v_%s, %s, "%s", fn)' % (
            errc, p.length, n, "MPI_ARG_ANY" if low is None else low, n))
        p.impl_decl = "mpi_counts_t %s" % n
        p.arg = "v_" + n
    elif k.startswith("POLY") and p.dir == "IN" and not p.ptr and not p.array:
        p.impl_decl = "MPI_Count %s" % n  # a stride, a displacement, a size, a maximum
    elif k.startswith("POLY") and p.dir in ("OUT", "INOUT") and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
        p.impl_decl = "MPI_Count *%s" % n
        if elem != "MPI_Count":
            # the int form: its int or MPI_Aint through an MPI_Count
            decls.append("    MPI_Count %s_c = 0;" % n)
            if p.dir == "INOUT":
                lines.append("    %s_c = *%s;" % (n, n))
            p.arg = "&%s_c" % n
            post.append("        *%s = %s;" % (n, "mpi_count_int(%s_c)" % n if elem == "int"
                                                 else "(MPI_Aint)%s_c" % n))
    elif k == "DATATYPE" and p.dir == "IN" and p.array and p.length:
        check('mpi_arg_types(%s, %s, %s, "%s", fn)' % (errc, p.length, n, n))
    elif k in ("DATATYPE", "COMBINER") and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
    elif k == "DATATYPE" and p.dir == "INOUT" and p.ptr == 1 and not p.array:
        # a type the call commits or frees: its handle and its object
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
        decls.append("    compi_datatype_t *dt_%s = NULL;" % n)
        check('mpi_arg_type_valid(%s, *%s, "%s", fn, &dt_%s)' % (errc, n, n, n))
        p.impl_decl = "MPI_Datatype *%s, compi_datatype_t *%s_obj" % (n, n)
        p.arg = "%s, dt_%s" % (n, n)
    elif k == "DATATYPE" and p.dir == "OUT" and p.array:
        pass
    elif k in ("STRING", "STRING_LENGTH", "DISPLACEMENT") and p.ptr == 1 and not p.array:
        # a name to read or fill, its length, an address to fill
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
    elif k in IMPL_KINDS:
        pass
    else:
        return False
    return True


# The kinds of groups, communicators' outputs, info objects, keyvals, error handlers and
# ops: handles converted to compi's objects (or checked and passed), output pointers,
# strings and arrays with their lengths.
#
#   MPI_Group h    -> compi_group_t *h      (MPI_ERR_GROUP)
#   MPI_Group *h (a group the call frees) -> MPI_Group *h, compi_group_t *h_obj
#   an output handle, size, rank, comparison... (a pointer) -> as it is (MPI_ERR_ARG if NULL)
#   an array length (ARRAY_LENGTH) -> as it is (MPI_ERR_ARG if negative)
#   an array of ranks with its length -> as it is (MPI_ERR_ARG if NULL with elements); its
#                     values are the implementation's (what a rank may be is the call's)

#   MPI_Comm *h (a communicator the call frees) -> MPI_Comm *h, compi_comm_t *h_obj
#                     (MPI_ERR_ARG if NULL, MPI_ERR_COMM)
#   MPI_Info h     -> as it is: MPI_ERR_INFO unless an info object, or MPI_INFO_NULL where
#                     it is a hint (not the call's first parameter, the object it works on)
#   MPI_Op h       -> compi_op_t *h         (MPI_ERR_OP)
#   MPI_Op *h (an op the call frees) -> MPI_Op *h, compi_op_t *h_obj
#   a user function of both forms (MPI_Op_create's) -> MPI_User_function *f,
#                     MPI_User_function_c *f_c: the form's, the other NULL (MPI_ERR_ARG
#                     if NULL)
#   MPI_Errhandler h -> compi_errhandler_t *h (MPI_ERR_ARG: the standard has no class of
#                     its own for it)
#   MPI_Errhandler *h (one the call frees) -> MPI_Errhandler *h, compi_errhandler_t *h_obj
#   a function (an error handler's) -> as it is (MPI_ERR_ARG if NULL); an attribute's
#                     copy or delete function may be NULL (MPI_COMM_NULL_COPY_FN...)
#   a keyval       -> as it is: what keys are valid is the attribute's kind's
#                     (MPI_ERR_KEYVAL, core/comm/attr.c); through a pointer, MPI_ERR_ARG
#                     if NULL
#   an attribute's value and a keyval's extra state -> as they are
#   a color        -> as it is (MPI_ERR_ARG unless >= 0 or MPI_UNDEFINED)
#   a string to read (a name, a key, a value) -> as it is (MPI_ERR_ARG if NULL)

#   a communicator significant at one rank only (MPI_Intercomm_create's peer_comm) and a
#   leader's rank -> as they are: the implementation checks them where they count

# the handles converted to compi's objects: kind -> (the object's type, the prefix of its
# variable in the entry point, its check in args.h)
OBJ_HANDLES = {
    "GROUP": ("compi_group_t", "g", "mpi_arg_group"),
    "OPERATION": ("compi_op_t", "o", "mpi_arg_op_handle"),
    "ERRHANDLER": ("compi_errhandler_t", "e", "mpi_arg_errh"),
}
# the communicators significant at one rank only
LEADER_ONLY = {"peer_comm"}
# the kinds of outputs through a pointer the call writes (MPI_ERR_ARG when NULL)
OBJ_OUT_KINDS = {"GROUP", "COMM_SIZE", "RANK", "GROUP_COMPARISON", "COMM_COMPARISON",
                 "COMMUNICATOR", "INFO", "STRING", "STRING_LENGTH", "OPERATION",
                 "ERRHANDLER", "KEYVAL", "ATTRIBUTE_VAL", "ATTRIBUTE_VAL_10"}
# the kinds passed as they are, unchecked here: what values they may have is the call's
OBJ_FREE_KINDS = {"KEY", "SPLIT_TYPE", "ERROR_CODE", "KEYVAL"}
# the same, pointers
OBJ_FREE_PTR_KINDS = {"ATTRIBUTE_VAL", "ATTRIBUTE_VAL_10", "EXTRA_STATE", "EXTRA_STATE2"}


def obj_rule(p, params, errc, check, decls):
    """the checks of a parameter of OBJ's kinds (True), or False when it has no rule"""
    k = p.kind
    if k in OBJ_HANDLES and p.dir in ("IN", "INOUT") and p.ptr == int(p.dir == "INOUT") \
            and not p.array:
        # a handle converted to its object; through a pointer, a handle the call frees
        ctype, pre, fun = OBJ_HANDLES[k]
        h = p.name
        if p.dir == "INOUT":
            check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
            h = "*" + p.name
        decls.append("    %s *%s_%s = NULL;" % (ctype, pre, p.name))
        check('%s(%s, %s, "%s", fn, &%s_%s)' % (fun, errc, h, p.name, pre, p.name))
        if p.dir == "INOUT":
            p.impl_decl = "%s, %s *%s_obj" % (p.decl, ctype, p.name)
            p.arg = "%s, %s_%s" % (p.name, pre, p.name)
        else:
            p.impl_decl = "%s *%s" % (ctype, p.name)
            p.arg = "%s_%s" % (pre, p.name)
    elif k == "COMMUNICATOR" and p.dir == "INOUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
        decls.append("    compi_comm_t *c_%s = NULL;" % p.name)
        check('mpi_arg_comm(*%s, fn, &c_%s)' % (p.name, p.name))
        p.impl_decl = "MPI_Comm *%s, compi_comm_t *%s_obj" % (p.name, p.name)
        p.arg = "%s, c_%s" % (p.name, p.name)
    elif k == "INFO" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_info(%s, %s, %d, "%s", fn)' % (errc, p.name, int(params[0] is not p),
                                                      p.name))
    elif k == "POLYFUNCTION" and p.dir == "IN" and p.ptr == 1 and \
            p.decl.startswith("MPI_User_function"):
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
        p.impl_decl = "MPI_User_function *%s, MPI_User_function_c *%s_c" % (p.name, p.name)
        big = p.decl.startswith("MPI_User_function_c")
        p.arg = ("NULL, " + p.name) if big else (p.name + ", NULL")
    elif k == "COMMUNICATOR" and p.name in LEADER_ONLY and p.dir == "IN" and not p.ptr:
        pass
    elif k == "RANK" and p.name.endswith("_leader") and p.dir == "IN" and not p.ptr:
        pass
    elif k in OBJ_FREE_PTR_KINDS and p.dir == "IN" and p.ptr == 1 and not p.array:
        pass
    elif k == "KEYVAL" and p.dir == "INOUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "FUNCTION" and p.dir == "IN" and p.ptr == 1 and not p.array:
        if not p.name.endswith(("_attr_fn", "copy_fn", "delete_fn")):
            check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "COLOR" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_color(%s, %s, fn)' % (errc, p.name))
    elif k in OBJ_FREE_KINDS and p.dir == "IN" and not p.ptr and not p.array:
        pass
    elif k == "STRING" and p.dir == "IN" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k in OBJ_OUT_KINDS and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "ARRAY_LENGTH" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_length(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "RANK" and p.array and p.length not in (None, "*"):
        n = p.length[0] if isinstance(p.length, list) else p.length
        check('mpi_arg_array(%s, %s, %s, "%s", fn)' % (errc, n, p.name, p.name))
    else:
        return False
    return True


# Process topologies (their procedures' parameters go to topo_rule first).  What the
# generator checks: output pointers, ndims (MPI_ERR_DIMS), lengths and degrees (not
# negative: MPI_ERR_ARG), the input arrays whose length is a parameter (not NULL with elements: MPI_ERR_ARG) and
# the ranks such an array holds (MPI_ERR_RANK).  The arrays whose length is the
# communicator's topology, the weights (MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY) and the values
# of the scalars that name a node, a dimension or a degree are the implementation's.
TOPO_OUT_KINDS = {"COMMUNICATOR", "RANK", "NUM_DIMS", "DEGREE", "TOPOLOGY_TYPE"}
TOPO_ARRAY_KINDS = {"DIMENSION", "LOGICAL", "INDEX", "DEGREE", "RANK_NNI"}
TOPO_LENGTH_KINDS = {"ARRAY_LENGTH", "ARRAY_LENGTH_NNI", "DEGREE"}
TOPO_FREE_KINDS = {"COMM_SIZE", "INDEX", "DIMENSION", "RANK", "INFO", "LOGICAL"}


def topo_rule(p, params, errc, check, decls):
    """the checks of a parameter of a topology's kinds (True), or False when it has none"""
    k = p.kind
    counted = p.array and p.length not in (None, "*") and not isinstance(p.length, list)
    if k in TOPO_OUT_KINDS and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "NUM_DIMS" and p.dir == "IN" and not p.ptr and not p.array:
        check("mpi_arg_ndims(%s, %s, fn)" % (errc, p.name))
    elif k in TOPO_LENGTH_KINDS and p.dir == "IN" and not p.ptr and not p.array:
        # an array's length or a degree (Graph_map's nnodes: at least 1, the call's)
        check('mpi_arg_length(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "RANK_NNI" and p.dir == "IN" and counted:
        check('mpi_arg_ranks(%s, %s, %s, "%s", fn)' % (errc, p.length, p.name, p.name))
    elif k in TOPO_ARRAY_KINDS and p.dir in ("IN", "INOUT") and counted:
        check('mpi_arg_array(%s, %s, %s, "%s", fn)' % (errc, p.length, p.name, p.name))
    elif p.array and (p.dir == "OUT" or p.length == "*" or k == "WEIGHT"):
        pass  # its length or its special values are the call's
    elif k in TOPO_FREE_KINDS and p.dir == "IN" and not p.ptr and not p.array:
        pass
    else:
        return False
    return True


# Partitioned communication and memory (their procedures' parameters go to partmem_rule
# first): a partitioned buffer holds partitions x count elements (the count not negative
# and the product an MPI_Count: MPI_ERR_COUNT; at least one partition: MPI_ERR_ARG); which
# partitions a request has is the request's, checked by the implementation.
PARTMEM_PROCS = set(UNITS["part"][1]) | set(UNITS["mem"][1])


def partmem_rule(p, params, errc, check, decls):
    """the checks of a parameter of partitioned communication or memory (True), or False"""
    k = p.kind
    names = [q.name for q in params]
    if k == "BUFFER" and not p.array:
        pass  # a partitioned buffer: with its datatype; MPI_Free_mem's base: the call's
    elif k == "PARTITION" and p.name == "partitions" and p.dir == "IN" and not p.ptr:
        check("mpi_arg_partitions(%s, %s, fn)" % (errc, p.name))
    elif k == "PARTITION" and p.dir == "IN" and not p.ptr and not p.array:
        pass
    elif k == "PARTITION" and p.dir == "IN" and p.array and p.length not in (None, "*"):
        check('mpi_arg_array(%s, %s, %s, "%s", fn)' % (errc, p.length, p.name, p.name))
    elif k == "XFER_NUM_ELEM_NNI" and "partitions" in names and p.dir == "IN" and not p.ptr:
        check("mpi_arg_part_count(%s, %s, partitions, fn)" % (errc, p.name))
    elif k == "DATATYPE" and "partitions" in names and p.dir == "IN" and not p.ptr:
        decls.append("    compi_datatype_t *dt_%s = NULL;" % p.name)
        check('mpi_arg_type(%s, %s, "%s", fn, &dt_%s)' % (errc, p.name, p.name, p.name))
        check('mpi_arg_buf(%s, buf, (size_t)(count * partitions), dt_%s, "buf", fn)' %
              (errc, p.name))
        p.impl_decl = "compi_datatype_t *%s" % p.name
        p.arg = "dt_" + p.name
    elif k == "ARRAY_LENGTH" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_length(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "INFO" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_info(%s, %s, 1, "%s", fn)' % (errc, p.name, p.name))
    elif k == "ALLOC_MEM_NUM_BYTES" and p.dir == "IN" and not p.ptr:
        check('mpi_arg_size(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "C_BUFFER" and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    else:
        return False
    return True


# The window constructors, whose errors go to their communicator: a size (MPI_ERR_SIZE), a
# displacement unit (MPI_ERR_DISP: positive, and an int, which a window keeps; the
# large-count forms' is an MPI_Aint, the implementation takes that), hints, the pointers
# of the window and of its memory (MPI_ERR_ARG); MPI_Win_create's base is the user's
WINCREATE_PROCS = {"MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared",
                   "MPI_Win_create_dynamic"}


def wincreate_rule(p, params, errc, check, decls):
    """the checks of a parameter of a window constructor (True), or False"""
    k = p.kind
    if k == "BUFFER" and p.dir == "IN" and not p.array:
        pass
    elif k == "WINDOW_SIZE" and p.dir == "IN" and not p.ptr:
        check('mpi_arg_size(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "POLYRMA_DISPLACEMENT" and p.dir == "IN" and not p.ptr:
        check("mpi_arg_disp_unit(%s, %s, fn)" % (errc, p.name))
        p.impl_decl = "MPI_Aint %s" % p.name
    elif k == "INFO" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_info(%s, %s, 1, "%s", fn)' % (errc, p.name, p.name))
    elif k in ("C_BUFFER", "WINDOW") and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    else:
        return False
    return True


# The tool information interface (MPI-4.1, 15.3): its procedures are those whose name
# begins MPI_T_.  Callable before MPI_Init and after MPI_Finalize, each takes the lock and,
# but for MPI_T_init_thread, answers MPI_T_ERR_NOT_INITIALIZED while no MPI_T_init_thread
# is in force (mpit_initialized, core/mpi/mpit.h); they call no error handler, so their
# checks return the class (mpi_arg_t_*) and their implementations take no `fn`.  What is
# checked here: the name a lookup takes and the pointers a count, a lookup or
# MPI_T_init_thread writes through (MPI_T_ERR_INVALID), in the order of the parameters up
# to the first that only the call can judge (an index, a handle, an enumeration: whether
# it names something live is the interface's tables', which grow), so the classes come in
# the order of the standard's parameters.  The rest is the call's (a get_info call's
# outputs, which may be NULL, among them).
# the MPI_T arguments any value of which is valid (a name, a thread level, a class of
# performance variables); the handles the call frees, passed by pointer
MPIT_VALUE_KINDS = {"STRING", "THREAD_LEVEL", "PVAR_CLASS"}
MPIT_FREED_KINDS = {"CVAR", "PVAR_SESSION"}


def is_mpit(name):
    return name.startswith("MPI_T_")


def mpit_rule(p, params, errc, check, decls):
    """the checks of a parameter of an MPI_T procedure: always True (none falls through to
    the rules of MPI's other procedures, which raise errors on an object)"""
    before = params[:params.index(p)]
    judged = any(q.dir != "OUT" and q.kind not in MPIT_VALUE_KINDS for q in before)
    if judged:
        pass  # after an index or a handle (a get_info call's outputs among them): the call's
    elif (p.kind == "STRING" and p.dir == "IN" or p.dir == "OUT" or
          p.kind in MPIT_FREED_KINDS and p.dir == "INOUT") and p.ptr == 1 and not p.array:
        check('mpi_arg_t_ptr(%s)' % p.name)
    return True


MPIT_PROCS = {n for _, names in UNITS.values() for n in names if is_mpit(n)}

# the families whose parameters have rules of their own, tried before the others
FAMILY_RULES = [(set(UNITS["topo"][1]), topo_rule), (PARTMEM_PROCS, partmem_rule),
                (WINCREATE_PROCS, wincreate_rule)]
FAMILY_RULES += [(MPIT_PROCS, mpit_rule)]


# Info objects and error classes and codes (callable at any time: their errors are raised on
# MPI_ERR_ANY_TIME, errors.h), and MPI_Reduce_local.  An info object's handle (MPI_ERR_INFO;
# through a pointer, one the call frees), a key (MPI_ERR_ARG if NULL, MPI_ERR_INFO_KEY if
# empty or longer than MPI_MAX_INFO_KEY), a value to set (MPI_ERR_ARG if NULL,
# MPI_ERR_INFO_VALUE if empty or longer than MPI_MAX_INFO_VAL), a value's length (not
# negative: MPI_ERR_ARG), output pointers (MPI_ERR_ARG); a key's index, an error class or
# code to look up and MPI_Info_create_env's command line are the call's, and so are
# MPI_Info_get_string's value (NULL when *buflen is 0) and MPI_Reduce_local's inbuf (not
# MPI_IN_PLACE, not NULL with elements: the call checks it with inoutbuf's).
# the deprecated MPI_Info_get and MPI_Info_get_valuelen work at any time too in compi, as
# MPI_Info_get_string, which replaces them, does
CALLABLE_ANY_TIME |= {"MPI_Info_get", "MPI_Info_get_valuelen"}
INFOERR_PROCS = set(UNITS["info"][1]) | set(UNITS["errors_user"][1]) | {"MPI_Reduce_local"}


def infoerr_rule(p, params, errc, check, decls):
    """the checks of a parameter of the info, error class and MPI_Reduce_local calls (True),
    or False for the general rules"""
    k, n = p.kind, p.name
    if k == "INFO" and p.dir == "INOUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
        check('mpi_arg_info(%s, *%s, 0, "%s", fn)' % (errc, n, n))
    elif k == "STRING" and p.dir == "IN" and p.ptr == 1 and n in ("key", "value") and \
            params[0].kind == "INFO":
        check("mpi_arg_info_%s(%s, %s, fn)" % (n, errc, n))
    elif k == "INFO_VALUE_LENGTH" and p.dir == "IN" and not p.ptr:
        check('mpi_arg_length(%s, %s, "%s", fn)' % (errc, n, n))
    elif k in ("INFO_VALUE_LENGTH", "KEY_INDEX", "ERROR_CLASS", "ERROR_CODE") and \
            p.dir in ("OUT", "INOUT") and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
    elif k == "STRING" and p.dir == "OUT" and any(q.kind == "INFO_VALUE_LENGTH" and
                                                  q.dir == "INOUT" for q in params):
        pass
    elif k == "ARGUMENT_LIST" and p.dir == "INOUT" and not p.ptr:
        # the description renders MPI_Info_create_env's argv as char argv[]: mpi.h's type
        p.decl = p.impl_decl = "char *%s[]" % n
    elif k in ("KEY_INDEX", "ERROR_CLASS", "ARGUMENT_COUNT") and p.dir in ("IN", "INOUT") and \
            not p.ptr:
        pass
    elif k == "BUFFER" and p.name == "inbuf" and p.dir == "IN":
        pass
    else:
        return False
    return True


FAMILY_RULES += [(INFOERR_PROCS, infoerr_rule)]


# Statuses between C and Fortran and a status's fields: these work before MPI_Init and
# after MPI_Finalize (CALLABLE_ANY_TIME); a status of any form (or a field's output) NULL or
# its form's "ignore" is MPI_ERR_ARG, raised once MPI is initialized, returned before
# (mpi_arg_status_any).  MPI_Request_get_status_all/any/some: the arrays of requests and
# indices not NULL with elements (MPI_ERR_ARG), each request valid or MPI_REQUEST_NULL
# (MPI_ERR_REQUEST).  MPI_Grequest_complete's request:
# its handle and its object.
STATUS_PROCS = {"MPI_Status_c2f", "MPI_Status_f2c"} | set(UNITS["status_f08"][1])
# a handle's conversions: any handle converts (a null one, one not valid here), so they
# check nothing, and return the handle, its Fortran INTEGER or its int (`checks` passes
# their parameters as they are)
HANDLE_CONV_PROCS = (set(UNITS["f2c"][1]) | set(UNITS["handle_int"][1])) - STATUS_PROCS
CALLABLE_ANY_TIME |= STATUS_PROCS | HANDLE_CONV_PROCS
STATUS_IGNORES = {"STATUS": "MPI_STATUS_IGNORE", "F90_STATUS": "MPI_F_STATUS_IGNORE",
                  "F08_STATUS": "MPI_F08_STATUS_IGNORE"}


def status_rule(p, params, errc, check, decls):
    """the checks of a parameter of the status calls (True), or False"""
    k = p.kind
    if k == "STATUS" and p.dir == "OUT" and any(q.kind == "REQUEST" for q in params):
        pass  # a request's status (MPI_Request_get_status_any): MPI_STATUS_IGNORE passes
    elif k in STATUS_IGNORES and p.ptr == 1 and not p.array:
        check('mpi_arg_status_any(%s, %s, "%s", fn)' % (p.name, STATUS_IGNORES[k], p.name))
    elif k in ("RANK", "TAG", "ERROR_CODE") and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_status_any(%s, NULL, "%s", fn)' % (p.name, p.name))
    elif k in ("RANK", "TAG", "ERROR_CODE") and p.dir == "IN" and not p.ptr and not p.array:
        pass
    elif k == "REQUEST" and p.dir == "IN" and p.array and p.length not in (None, "*"):
        check('mpi_arg_requests(%s, %s, %s, "%s", fn)' % (errc, p.length, p.name, p.name))
    elif k == "REQUEST" and p.dir == "IN" and not p.ptr and not p.array:
        # a generalized request to complete: its handle (which the call may free) and its
        # object (NULL for MPI_REQUEST_NULL)
        decls.append("    compi_request_t *r_%s = NULL;" % p.name)
        check('mpi_arg_request(%s, %s, fn, &r_%s)' % (errc, p.name, p.name))
        p.impl_decl = "MPI_Request %s, compi_request_t *%s_obj" % (p.name, p.name)
        p.arg = "%s, r_%s" % (p.name, p.name)
    elif k == "INDEX" and p.dir == "OUT" and p.array:
        # as many indices as requests
        n = next(q.name for q in params if q.kind == "ARRAY_LENGTH_NNI")
        check('mpi_arg_array(%s, %s, %s, "%s", fn)' % (errc, n, p.name, p.name))
    else:
        return False
    return True


FAMILY_RULES += [(STATUS_PROCS | set(UNITS["request_status"][1]) | {"MPI_Grequest_complete"},
                  status_rule)]


# A communicator's buffer for buffered sends: the memory attached and its size in bytes
# (mpi_arg_attach: MPI_ERR_BUFFER for a negative size, one beyond memory, or NULL with
# bytes; MPI_BUFFER_AUTOMATIC passes); the size passed as an MPI_Count
def buffer_rule(p, params, errc, check, decls):
    """the checks of a parameter of MPI_Comm_attach_buffer and its kin (True), or False"""
    if p.kind == "BUFFER" and p.dir == "IN" and not p.array:
        pass  # with its size
    elif p.kind == "POLYNUM_BYTES_NNI" and p.dir == "IN" and not p.ptr:
        check("mpi_arg_attach(%s, buffer, %s, fn)" % (errc, p.name))
        p.impl_decl = "MPI_Count %s" % p.name
    else:
        return False
    return True


FAMILY_RULES += [(set(UNITS["buffer"][1]), buffer_rule)]


# Starting and ending MPI, the environment's queries and the timers (MPI-4.1, 11.2-11.6),
# and address arithmetic.  MPI_Init and MPI_Init_thread judge the library's state
# themselves (called twice, or after MPI_Finalize: MPI_ERR_OTHER, and the job ends), and so
# does MPI_Abort, which ends the job whatever its communicator.  MPI_Initialized,
# MPI_Finalized, MPI_Get_version and MPI_Get_library_version work at any time (11.4.1);
# in compi MPI_Get_processor_name, MPI_Aint_add and MPI_Aint_diff do too (they read no
# state of the library).  The timers return no error class and MPI leaves them undefined
# outside MPI_Init..MPI_Finalize: compi answers at any time, and MPI_Wtime stays one
# clock read (programs time loops with it).  What is checked here: the pointers a query
# writes (MPI_ERR_ARG); MPI_Init_thread's provided may be NULL in compi, as argc and argv
# may in C; the thread level asked, MPI_Abort's communicator and error code, MPI_Pcontrol's
# level and the addresses are the call's, and MPI_Pcontrol's `...` is not passed on.
INIT_PROCS = set(UNITS["init"][1]) | {"MPI_Aint_add", "MPI_Aint_diff"}
CALLABLE_ANY_TIME |= {"MPI_Get_processor_name", "MPI_Aint_add", "MPI_Aint_diff"}
# the entry points that take no lock and check no state: they start or end the library
# (MPI_Init takes the lock itself once the thread level is known), or read nothing shared
# (the clock, the version, the state word of MPI_Initialized)
UNLOCKED_PROCS = {"MPI_Init", "MPI_Init_thread", "MPI_Initialized", "MPI_Finalized",
                  "MPI_Abort", "MPI_Wtime", "MPI_Wtick", "MPI_Get_version",
                  "MPI_Get_library_version", "MPI_Pcontrol"}
# the procedures that return a value, not an error class (a handle's conversions too:
# HANDLE_CONV_PROCS)
VALUE_PROCS = {"MPI_Wtime", "MPI_Wtick", "MPI_Aint_add", "MPI_Aint_diff"}


def init_rule(p, params, errc, check, decls):
    """the checks of a parameter of the calls that start and end MPI, query the
    environment, read the clock or add addresses (True), or False for the general rules"""
    k = p.kind
    if k in ("ARGUMENT_COUNT", "ARGUMENT_LIST") and p.dir == "INOUT":
        pass  # main's argc and argv, or NULL
    elif k == "THREAD_LEVEL" and p.dir == "OUT" and p.ptr == 1 and not p.array:
        if params[0].kind != "ARGUMENT_COUNT":  # MPI_Init_thread's may be NULL
            check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k == "VERSION" and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, p.name, p.name))
    elif k in ("THREAD_LEVEL", "PROFILE_LEVEL", "COMMUNICATOR", "ERROR_CODE", "LOCATION_SMALL",
               "DISPLACEMENT") and p.dir == "IN" and not p.ptr and not p.array:
        pass
    elif k == "VARARGS":
        p.skip = True
    else:
        return False
    return True


# Dynamic processes (MPI-4.1, 11.8): errors raised on the communicator of a spawn, an
# accept or a connect (an intracommunicator, MPI_ERR_COMM, then its root, MPI_ERR_ROOT:
# mpi_arg_intra_root), elsewhere on MPI_COMM_WORLD's handler.  The parameters before the
# root (a spawn's commands, arguments, numbers of processes and hints, an accept's or a
# connect's port name and hints) are significant only at the root: they are not checked
# here, the implementation checks them at the root, which fails everywhere alike after the
# meeting.  array_of_errcodes may be MPI_ERRCODES_IGNORE, and has as many elements as
# processes started: the call's.  A port name to read (MPI_ERR_PORT: NULL, or not a string
# of fewer than MPI_MAX_PORT_NAME characters; what it names is the call's), a service name
# (MPI_ERR_ARG: NULL, empty or too long), hints (MPI_INFO_NULL or valid: MPI_ERR_INFO), a
# file descriptor (not negative: MPI_ERR_ARG); the output pointers as everywhere.
def dynproc_rule(p, params, errc, check, decls):
    """the checks of a parameter of the dynamic processes' calls (True), or False"""
    k, n = p.kind, p.name
    names = [q.name for q in params]
    if "root" in names and params.index(p) < names.index("root"):
        pass  # significant at the root only
    elif k == "RANK" and n == "root" and p.dir == "IN" and not p.ptr:
        check("mpi_arg_intra_root(%s, %s, fn)" % (errc, n))
    elif k == "ERROR_CODE" and p.dir == "OUT" and p.array:
        pass
    elif k == "STRING" and n == "port_name" and p.dir == "IN" and p.ptr == 1:
        check("mpi_arg_port(%s, %s, fn)" % (errc, n))
    elif k == "STRING" and n == "service_name" and p.dir == "IN" and p.ptr == 1:
        check("mpi_arg_service(%s, %s, fn)" % (errc, n))
    elif k == "INFO" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_info(%s, %s, 1, "%s", fn)' % (errc, n, n))
    elif k == "FILE_DESCRIPTOR" and p.dir == "IN" and not p.ptr:
        check("mpi_arg_fd(%s, %s, fn)" % (errc, n))
    else:
        return False
    return True


FAMILY_RULES += [(INIT_PROCS, init_rule)]

FAMILY_RULES += [(set(UNITS["dynproc"][1]), dynproc_rule)]


# MPI_Session_init (callable at any time: its errors on MPI_ERR_ANY_TIME) and the
# communicators made from groups (on MPI_COMM_WORLD's handler): hints (MPI_INFO_NULL or
# valid: MPI_ERR_INFO), an error handler or MPI_ERRHANDLER_NULL, the default (MPI_ERR_ARG,
# mpi_arg_errh_null: the implementation gets NULL for it; MPI_Session_init's is checked by
# the call, once it has started the library), a string tag (MPI_ERR_ARG: NULL or
# not shorter than MPI_MAX_STRINGTAG_LEN), the session made (not NULL: MPI_ERR_ARG).  The
# groups and their leaders: obj_rule's.
def fromgroup_rule(p, params, errc, check, decls):
    """the checks of a parameter of MPI_Session_init and the constructors from groups (True),
    or False"""
    k, n = p.kind, p.name
    if k == "INFO" and p.dir == "IN" and not p.ptr and not p.array:
        check('mpi_arg_info(%s, %s, 1, "%s", fn)' % (errc, n, n))
    elif k == "ERRHANDLER" and any(q.kind == "SESSION" for q in params):
        pass  # MPI_Session_init's: error handlers exist once the library is up, the call's
    elif k == "ERRHANDLER" and p.dir == "IN" and not p.ptr and not p.array:
        decls.append("    compi_errhandler_t *e_%s = NULL;" % n)
        check('mpi_arg_errh_null(%s, %s, "%s", fn, &e_%s)' % (errc, n, n, n))
        p.impl_decl = "compi_errhandler_t *%s" % n
        p.arg = "e_" + n
    elif k == "STRING" and n == "stringtag" and p.dir == "IN" and p.ptr == 1:
        check("mpi_arg_stringtag(%s, %s, fn)" % (errc, n))
    elif k == "SESSION" and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_ptr(%s, %s, "%s", fn)' % (errc, n, n))
    else:
        return False
    return True


FAMILY_RULES += [(set(UNITS["session_init"][1]), fromgroup_rule)]


# One-sided communication: a procedure with a window (and no communicator) raises its
# errors on the window's error handler, in the vocabulary of core/mpi/win_args.h
# (mpi_arg_win*, args.h's checks raised on a window).  A session's procedures the same,
# on the session (mpi_arg_session*, core/mpi/session_api.c).

# the synchronization calls with an assertion: core/mpi/win_args.h names the bits each
# takes (MPI_ARG_WIN_MODES_<call>); any other bit is MPI_ERR_ASSERT
WIN_ASSERTS = {"MPI_Win_fence", "MPI_Win_lock", "MPI_Win_lock_all", "MPI_Win_post",
               "MPI_Win_start"}


# what a window's or a session's procedure gives back through a pointer (not NULL:
# MPI_ERR_ARG)
WIN_OUT_KINDS = {"LOGICAL", "GROUP", "INFO", "ERRHANDLER", "STRING", "STRING_LENGTH",
                 "WINDOW_SIZE", "C_BUFFER", "ATTRIBUTE_VAL", "ARRAY_LENGTH_NNI", "REQUEST"}
# the objects whose error handler gets the errors of their procedures, when no
# communicator does: kind -> (the checks' infix, compi's type, the handle's type)
ERR_TARGETS = {"WINDOW": ("win", "mpi_win_t", "MPI_Win"),
               "SESSION": ("session", "session_t", "MPI_Session")}


def onesided_checks(name, params, win):
    """checks() of procedure `name`, whose errors go to the window or session `win`"""
    decls, lines = [], []

    def check(call, unless=None):
        lines.append("    rc = %s;" % (call if unless is None else
                                        "%s ? MPI_SUCCESS : %s" % (unless, call)))
        lines.append("    if (compi_unlikely(rc != MPI_SUCCESS)) {")
        lines.append("        return rc;")
        lines.append("    }")

    def convert(p, ctype, prefix, func):
        """a handle checked and converted: the implementation gets compi's object"""
        decls.append("    %s *%s_%s = NULL;" % (ctype, prefix, p.name))
        check("%s(%s, %s, fn, &%s_%s)" % (func, w, p.name, prefix, p.name))
        p.impl_decl = "%s *%s" % (ctype, p.name)
        p.arg = "%s_%s" % (prefix, p.name)

    obj, ctype, htype = ERR_TARGETS[win.kind]
    w = "w_" + win.name
    decls.append("    %s *%s = NULL;" % (ctype, w))
    if win.ptr:
        # an object the call frees: the pointer (no object yet to raise on), then the
        # object; the implementation gets both
        check('mpi_arg_ptr(NULL, %s, "%s", fn)' % (win.name, win.name))
        check("mpi_arg_%s(*%s, fn, &%s)" % (obj, win.name, w))
        win.impl_decl = "%s *%s, %s *%s_obj" % (htype, win.name, ctype, win.name)
        win.arg = "%s, %s" % (win.name, w)
    else:
        check("mpi_arg_%s(%s, fn, &%s)" % (obj, win.name, w))
        win.impl_decl = "%s *%s" % (ctype, win.name)
        win.arg = w
    post = []
    names = [p.name for p in params]
    rank = next((p.name for p in params if p.kind == "RANK_NNI" and p.name == "target_rank"),
                None)
    # the origin of a get-accumulate is not used with MPI_NO_OP (MPI-4.1, 12.3.4)
    noop = "op == MPI_NO_OP" if "op" in names and "result_addr" in names else None
    for i, p in enumerate(params):
        k = p.kind
        if p is win:
            continue
        if any(re.sub("_c$", "", name) in procs and rule(p, params, w, check, decls)
               for procs, rule in FAMILY_RULES):
            continue
        unless = noop if p.name.startswith("origin_") else None
        if k in COUNT_KINDS and k.endswith("_NNI") and p.dir == "IN" and not p.ptr:
            check('mpi_arg_win_count(%s, %s, "%s", fn)' % (w, p.name, p.name), unless)
            if k.startswith("POLY"):
                p.impl_decl = "MPI_Count %s" % p.name
        elif k == "DATATYPE" and p.dir == "IN" and not p.ptr and not p.array:
            decls.append("    compi_datatype_t *dt_%s = NULL;" % p.name)
            check('mpi_arg_win_type(%s, %s, "%s", fn, &dt_%s)' % (w, p.name, p.name, p.name),
                  unless)
            p.impl_decl = "compi_datatype_t *%s" % p.name
            p.arg = "dt_" + p.name
            if i >= 2 and params[i - 2].kind == "BUFFER" and params[i - 1].kind in COUNT_KINDS:
                if rank is None:
                    raise Unbound("%s (a buffer without a target rank)" % params[i - 2].name)
                b, n = params[i - 2], params[i - 1]
                check('mpi_arg_win_buf(%s, %s, (size_t)%s, dt_%s, %s, "%s", fn)' %
                      (w, b.name, n.name, p.name, rank, b.name), unless)
        elif k == "BUFFER" and not p.array:
            pass  # with its count and datatype (above); one element of a datatype: the call's
        elif k == "RANK_NNI" and p.name in ("target_rank", "rank") and p.dir == "IN" and \
                not p.ptr:
            check("mpi_arg_win_rank(%s, %s, fn)" % (w, p.name))
        elif k == "LOCK_TYPE" and p.dir == "IN" and not p.ptr:
            check("mpi_arg_win_lock_type(%s, %s, fn)" % (w, p.name))
        elif k == "ASSERT" and p.dir == "IN" and not p.ptr:
            if name not in WIN_ASSERTS:
                raise Unbound("%s (no assertions listed in WIN_ASSERTS)" % p.name)
            check("mpi_arg_win_assert(%s, %s, MPI_ARG_WIN_MODES_%s, fn)" % (
                w, p.name, name[len("MPI_Win_"):].upper()))
        elif k == "GROUP" and p.dir == "IN" and not p.ptr and not p.array:
            convert(p, "compi_group_t", "g", "mpi_arg_win_group")
        elif k == "POLYRMA_DISPLACEMENT" and p.dir == "OUT" and p.ptr == 1 and not p.array:
            # a displacement unit: MPI_Aint in the large-count form, an int that holds it in
            # the other (compi keeps it as an int)
            check('mpi_arg_win_ptr(%s, %s, "%s", fn)' % (w, p.name, p.name))
            p.impl_decl = "MPI_Aint *%s" % p.name
            if p.decl.startswith("int *"):
                decls.append("    MPI_Aint %s_c = 0;" % p.name)
                p.arg = "&%s_c" % p.name
                post.append("        *%s = (int)%s_c;" % (p.name, p.name))
        elif k == "STRING" and p.dir == "OUT" and any(
                q.kind == "STRING_LENGTH" and q.dir == "INOUT" for q in params):
            pass  # NULL when the length asked is 0: the call's
        elif (k in WIN_OUT_KINDS and p.dir == "OUT" or k == "STRING_LENGTH" and p.dir == "INOUT"
              or k == "STRING" and p.dir == "IN") and p.ptr == 1 and not p.array:
            check('mpi_arg_%s_ptr(%s, %s, "%s", fn)' % (obj, w, p.name, p.name))
        elif k == "WIN_ATTACH_SIZE" and p.dir == "IN" and not p.ptr:
            check('mpi_arg_win_size(%s, %s, "%s", fn)' % (w, p.name, p.name))
        elif k == "INFO" and p.dir == "IN" and not p.ptr and not p.array:
            check("mpi_arg_%s_info(%s, %s, fn)" % (obj, w, p.name))
        elif k == "ERRHANDLER" and p.dir == "IN" and not p.ptr and not p.array:
            convert(p, "compi_errhandler_t", "e", "mpi_arg_%s_errhandler" % obj)
        elif k in ("KEYVAL", "ERROR_CODE", "ATTRIBUTE_VAL", "INDEX") and p.dir == "IN" and \
                not p.array:
            pass  # what a keyval, an error code or an index names is the call's to find
        elif k == "RMA_DISPLACEMENT_NNI" and p.dir == "IN" and not p.ptr:
            if rank is None:
                raise Unbound("%s (a displacement without a target rank)" % p.name)
            check("mpi_arg_win_disp(%s, %s, %s, fn)" % (w, rank, p.name))
        elif k == "OPERATION" and p.dir == "IN" and not p.ptr and not p.array:
            convert(p, "compi_op_t", "o", "mpi_arg_win_op")
        elif k in COUNT_KINDS and k.startswith("POLY") and p.dir == "OUT" and p.ptr == 1 and \
                not p.array:
            # a count given back: MPI_Count in both forms, the int form's MPI_UNDEFINED for
            # one beyond int (as checks() does)
            check('mpi_arg_%s_ptr(%s, %s, "%s", fn)' % (obj, w, p.name, p.name))
            p.impl_decl = "MPI_Count *%s" % p.name
            if p.decl.startswith("int *"):
                decls.append("    MPI_Count %s_c = 0;" % p.name)
                p.arg = "&%s_c" % p.name
                post.append("        *%s = mpi_count_int(%s_c);" % (p.name, p.name))
        else:
            raise Unbound("%s (kind %s, %s%s, of a window's procedure)" % (
                p.name, k, p.dir.lower(), ", an array" if p.array else ""))
    return decls, lines, post


# A session's buffer for buffered sends (onesided_checks, with the session as the object;
# core/mpi/buffer_api.c): the memory attached and its size in bytes (MPI_ERR_BUFFER, as
# mpi_arg_attach: mpi_arg_session_attach), the pointer the memory detached is given back
# through (MPI_ERR_ARG); the size given back and the request as the other outputs of a
# session's procedures.
def session_buffer_rule(p, params, errc, check, decls):
    """the checks of a parameter of MPI_Session_attach_buffer and its kin (True), or False"""
    k, n = p.kind, p.name
    if k == "BUFFER" and p.dir == "IN" and not p.array:
        pass  # with its size
    elif k == "POLYNUM_BYTES_NNI" and p.dir == "IN" and not p.ptr:
        check("mpi_arg_session_attach(%s, buffer, %s, fn)" % (errc, n))
        p.impl_decl = "MPI_Count %s" % n
    elif k == "C_BUFFER2" and p.dir == "OUT" and p.ptr == 1 and not p.array:
        check('mpi_arg_session_ptr(%s, %s, "%s", fn)' % (errc, n, n))
    else:
        return False
    return True


FAMILY_RULES += [(set(UNITS["session_buffer"][1]), session_buffer_rule)]


# MPI-IO (file_checks): a file's procedure raises its errors on the file's error handler,
# in the vocabulary of core/mpi/file_args.h (mpi_arg_file*, args.h's checks raised on a
# file); MPI_File_open, MPI_File_delete and MPI_Register_datarep, which have no file, and a
# call on MPI_FILE_NULL's handler raise on MPI_FILE_NULL's (MPI_ERRORS_RETURN until set).
#
#   MPI_File h     -> compi_file_t *h       (MPI_ERR_FILE, on MPI_FILE_NULL's handler)
#   MPI_File *h (the file the call closes) -> MPI_File *h, compi_file_t *h_obj
#   MPI_Comm h (MPI_File_open's) -> compi_comm_t *h (an intracommunicator: MPI_ERR_COMM)
#   an offset, a position, a size (MPI_Offset) -> as it is (not negative: MPI_ERR_ARG), but
#                     a seek's (relative) and a view's displacement (MPI_DISPLACEMENT_CURRENT):
#                     the call's
#   a count, a datatype, a buffer -> MPI_Count, compi_datatype_t * (MPI_ERR_COUNT,
#                     MPI_ERR_TYPE: committed, MPI_ERR_BUFFER); a view's etype and filetype
#                     too (MPI_ERR_TYPE)
#   whence (MPI_ERR_ARG), an access mode (MPI_ERR_AMODE), hints (MPI_ERR_INFO unless
#                     MPI_INFO_NULL), an error handler (MPI_ERR_ARG), the name of a
#                     representation to register (MPI_ERR_ARG: NULL, empty, too long)
#   output pointers, a file name, an extent function -> as they are (MPI_ERR_ARG if NULL)
#   a conversion function of both forms -> MPI_Datarep_conversion_function *f,
#                     MPI_Datarep_conversion_function_c *f_c: the form's, the other NULL
#   a view's representation name -> as it is: whether one is registered is the call's
#                     (MPI_ERR_UNSUPPORTED_DATAREP)
#
# Data access (FILE_ACCESS): the read and write procedures share three implementations,
#
#   static int file_at_impl(compi_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
#                           compi_datatype_t *datatype, MPI_Status *status,
#                           MPI_Request *request, int where, int how, const char *fn)
#   static int file_ptr_impl(... as file_at_impl without the offset ...)
#   static int file_end_impl(compi_file_t *fh, void *buf, MPI_Status *status, int where,
#                            int how, const char *fn)
#
# file_at_impl for explicit offsets, file_ptr_impl for the file pointers, file_end_impl for
# the end of a split collective; `where` the pointer (FA_EXPLICIT, FA_INDIV, FA_SHARED,
# FA_ORDERED), `how` FILE_WRITE, FILE_COLL, FILE_NB and FILE_SPLIT or'ed (0: an independent
# blocking read); status NULL in a form that has none, request NULL in a blocking one; the
# large-count forms the same (count an MPI_Count).
UNITS["file"] = ("core/mpi/file_api.c", [
    "MPI_File_open", "MPI_File_close", "MPI_File_delete", "MPI_File_set_size",
    "MPI_File_preallocate", "MPI_File_get_size", "MPI_File_get_group", "MPI_File_get_amode",
    "MPI_File_set_info", "MPI_File_get_info", "MPI_File_set_atomicity",
    "MPI_File_get_atomicity", "MPI_File_sync", "MPI_File_create_errhandler",
    "MPI_File_set_errhandler", "MPI_File_get_errhandler", "MPI_File_call_errhandler",
])
UNITS["file_view"] = ("core/mpi/file_view_api.c", [
    "MPI_File_set_view", "MPI_File_get_view", "MPI_File_get_type_extent",
    "MPI_Register_datarep",
])


def file_access_table():
    """MPI_File_<read or write procedure> -> (its implementation, where, how)"""
    t = {}
    for d, w in (("read", []), ("write", ["FILE_WRITE"])):
        for ptr, where, forms in (("_at", "FA_EXPLICIT", "b c i ic begin end"),
                                  ("", "FA_INDIV", "b c i ic begin end"),
                                  ("_shared", "FA_SHARED", "b i"),
                                  ("_ordered", "FA_ORDERED", "b begin end")):
            coll = ["FILE_COLL"] if ptr == "_ordered" else []
            split = "" if ptr == "_ordered" else "_all"
            for form in forms.split():
                name, how = {
                    "b": ("%s%s" % (d, ptr), coll),
                    "c": ("%s%s_all" % (d, ptr), ["FILE_COLL"]),
                    "i": ("i%s%s" % (d, ptr), ["FILE_NB"]),
                    "ic": ("i%s%s_all" % (d, ptr), ["FILE_NB", "FILE_COLL"]),
                    "begin": ("%s%s%s_begin" % (d, ptr, split), ["FILE_COLL", "FILE_SPLIT"]),
                    "end": ("%s%s%s_end" % (d, ptr, split), ["FILE_COLL", "FILE_SPLIT"]),
                }[form]
                impl = "file_end_impl" if form == "end" else \
                    "file_at_impl" if ptr == "_at" else "file_ptr_impl"
                t["MPI_File_" + name] = (impl, where, " | ".join(w + how) or "0")
    return t


FILE_ACCESS = file_access_table()
UNITS["file_rw"] = ("core/mpi/file_rw_api.c", list(FILE_ACCESS) + [
    "MPI_File_seek", "MPI_File_get_position", "MPI_File_get_byte_offset",
    "MPI_File_seek_shared", "MPI_File_get_position_shared",
])
# the procedures that raise on a file (MPI_File_create_errhandler makes a handler: its
# errors go where an error handler constructor's do)
FILE_PROCS = (set(UNITS["file"][1]) | set(UNITS["file_view"][1]) |
              set(UNITS["file_rw"][1])) - {"MPI_File_create_errhandler"}
# the calls on a file's error handler, which take MPI_FILE_NULL too
FILE_NULL_OK = {"MPI_File_set_errhandler", "MPI_File_get_errhandler",
                "MPI_File_call_errhandler"}
# the offsets that may be negative: a seek's, relative to where whence says; a view's
# displacement (MPI_DISPLACEMENT_CURRENT)
FILE_FREE_OFFSETS = {"MPI_File_seek", "MPI_File_seek_shared", "MPI_File_set_view"}
# what a file's procedure gives back through a pointer (not NULL: MPI_ERR_ARG)
FILE_OUT_KINDS = {"OFFSET", "ACCESS_MODE", "LOGICAL", "GROUP", "INFO", "ERRHANDLER", "STRING",
                  "DATATYPE", "REQUEST", "FILE"}


class FileExtra:
    """a parameter that a data access procedure lacks and its shared implementation takes
    (a status, a request): passed as NULL"""

    def __init__(self, decl):
        self.impl_decl, self.arg, self.skip = decl, "NULL", False


def file_access_params(params):
    """the parameters of a data access procedure as its shared implementation takes them:
    the buffer not const, a status and a request (NULL when the procedure has none; an
    end has no request)"""
    out = [p for p in params if p.kind not in ("STATUS", "REQUEST")]
    for p in out:
        if p.kind == "BUFFER" and p.decl.startswith("const"):
            p.impl_decl, p.arg = "void *%s" % p.name, "(void *)%s" % p.name
    st = [p for p in params if p.kind == "STATUS"]
    out += st or [FileExtra("MPI_Status *status")]
    if any(p.kind == "DATATYPE" for p in params):
        out += [p for p in params if p.kind == "REQUEST"] or [FileExtra("MPI_Request *request")]
    return out


def file_checks(name, params):
    """checks() of procedure `name`, whose errors go to its file (or MPI_FILE_NULL's)"""
    decls, lines, post = [], [], []
    proc = re.sub("_c$", "", name)

    def check(call):
        lines.append("    rc = %s;" % call)
        lines.append("    if (compi_unlikely(rc != MPI_SUCCESS)) {")
        lines.append("        return rc;")
        lines.append("    }")

    f = "NULL"
    fh = next((p for p in params if p.kind == "FILE" and p.dir in ("IN", "INOUT")), None)
    if fh is not None:
        f = "f_" + fh.name
        decls.append("    compi_file_t *%s = NULL;" % f)
        if fh.dir == "INOUT":
            check('mpi_arg_file_ptr(NULL, %s, "%s", fn)' % (fh.name, fh.name))
            check("mpi_arg_file(*%s, fn, &%s)" % (fh.name, f))
            fh.impl_decl = "MPI_File *%s, compi_file_t *%s_obj" % (fh.name, fh.name)
            fh.arg = "%s, %s" % (fh.name, f)
        else:
            check("mpi_arg_file%s(%s, fn, &%s)" % ("_or_null" if proc in FILE_NULL_OK else "",
                                                    fh.name, f))
            fh.impl_decl = "compi_file_t *%s" % fh.name
            fh.arg = f
    for i, p in enumerate(params):
        k, n = p.kind, p.name
        scalar = not p.ptr and not p.array
        if p is fh:
            continue
        if k == "COMMUNICATOR" and p.dir == "IN" and scalar:
            decls.append("    compi_comm_t *c_%s = NULL;" % n)
            check("mpi_arg_file_comm(%s, fn, &c_%s)" % (n, n))
            p.impl_decl, p.arg = "compi_comm_t *%s" % n, "c_" + n
        elif k == "OFFSET" and p.dir == "IN" and scalar:
            if proc not in FILE_FREE_OFFSETS:
                check('mpi_arg_file_offset(%s, %s, "%s", fn)' % (f, n, n))
        elif k in COUNT_KINDS and p.dir == "IN" and scalar:
            check('mpi_arg_file_count(%s, %s, "%s", fn)' % (f, n, n))
            if k.startswith("POLY"):
                p.impl_decl = "MPI_Count %s" % n
        elif k == "DATATYPE" and p.dir == "IN" and scalar:
            decls.append("    compi_datatype_t *dt_%s = NULL;" % n)
            check('mpi_arg_file_type(%s, %s, "%s", fn, &dt_%s)' % (f, n, n, n))
            p.impl_decl, p.arg = "compi_datatype_t *%s" % n, "dt_" + n
            if i >= 2 and params[i - 2].kind == "BUFFER" and params[i - 1].kind in COUNT_KINDS:
                b, c = params[i - 2], params[i - 1]
                check('mpi_arg_file_buf(%s, %s, (size_t)%s, dt_%s, "%s", fn)' %
                      (f, b.name, c.name, n, b.name))
        elif k == "BUFFER" and not p.array:
            pass  # with its count and datatype; a split collective's end: the call's
        elif k == "STATUS" and p.dir == "OUT" and not p.array:
            pass  # may be MPI_STATUS_IGNORE
        elif k == "UPDATE_MODE" and p.dir == "IN" and scalar:
            check("mpi_arg_file_whence(%s, %s, fn)" % (f, n))
        elif k == "ACCESS_MODE" and p.dir == "IN" and scalar:
            check("mpi_arg_file_amode(%s, %s, fn)" % (f, n))
        elif k == "INFO" and p.dir == "IN" and scalar:
            check("mpi_arg_file_info(%s, %s, fn)" % (f, n))
        elif k == "ERRHANDLER" and p.dir == "IN" and scalar:
            decls.append("    compi_errhandler_t *e_%s = NULL;" % n)
            check('mpi_arg_file_errh(%s, %s, "%s", fn, &e_%s)' % (f, n, n, n))
            p.impl_decl, p.arg = "compi_errhandler_t *%s" % n, "e_" + n
        elif k in ("LOGICAL", "ERROR_CODE") and p.dir == "IN" and scalar:
            pass
        elif k == "STRING" and p.dir == "IN" and p.ptr == 1 and n == "datarep":
            if proc == "MPI_Register_datarep":
                check("mpi_arg_file_datarep(%s, %s, fn)" % (f, n))
        elif k in ("STRING", "FUNCTION") and p.dir == "IN" and p.ptr == 1 and not p.array:
            check('mpi_arg_file_ptr(%s, %s, "%s", fn)' % (f, n, n))
        elif k == "POLYFUNCTION" and p.dir == "IN" and p.ptr == 1:
            # a conversion function (MPI_CONVERSION_FN_NULL passes): the form's, the other NULL
            p.impl_decl = ("MPI_Datarep_conversion_function *%s, "
                           "MPI_Datarep_conversion_function_c *%s_c" % (n, n))
            p.arg = ("NULL, " + n) if "function_c" in p.decl else (n + ", NULL")
        elif k == "EXTRA_STATE" and p.dir == "IN":
            pass
        elif k == "POLYDISPOFFSET" and p.dir == "OUT" and p.ptr == 1 and not p.array:
            # an extent: MPI_Aint in the int form, MPI_Count in the large-count one
            check('mpi_arg_file_ptr(%s, %s, "%s", fn)' % (f, n, n))
            p.impl_decl = "MPI_Count *%s" % n
            if not p.decl.startswith("MPI_Count"):
                decls.append("    MPI_Count %s_c = 0;" % n)
                p.arg = "&%s_c" % n
                post.append("        *%s = (MPI_Aint)%s_c;" % (n, n))
        elif k in FILE_OUT_KINDS and p.dir == "OUT" and p.ptr == 1 and not p.array:
            check('mpi_arg_file_ptr(%s, %s, "%s", fn)' % (f, n, n))
        else:
            raise Unbound("%s (kind %s, %s%s, of a file's procedure)" % (
                n, k, p.dir.lower(), ", an array" if p.array else ""))
    return decls, lines, post


def impl_name(name):
    if name in FILE_ACCESS:
        return FILE_ACCESS[name][0]
    return name[len("MPI_"):].lower() + "_impl"


def entry(c, name, impl, proc_name, mode=None, big=None):
    """(C source of PMPI_<name>, the implementation's prototype); mode: a collective's
    (COLL_MODE_...); `big`, the large-count form of an int form `c` with parameters of
    its own (num_large_counts): the implementation takes those too, and the int form
    passes 0 or NULL for them"""
    ret, cname, decls = split_proto(str(c))
    if ret != "int" and name not in HANDLE_CONV_PROCS | VALUE_PROCS:
        raise Unbound("the return type %s" % ret)
    params = [Param(d, p) for d, p in zip(decls, c.parameters)]
    try:
        access = isinstance(mode, tuple)  # a file's data access: (impl, where, how)
        cdecls, lines, post = (coll_checks if mode and not access else checks)(name, params)
    except Unbound as e:
        raise Unbound("%s: parameter %s" % (name, e))
    extra_args, extra_decls = [], []
    if access:
        extra_args, extra_decls = list(mode[1:]), ["int where", "int how"]
    elif mode:
        extra_args = ["request" if any(p.name == "request" for p in params) else "NULL", mode]
        extra_decls = ["MPI_Request *request", "coll_mode_t mode"]
    pname = "P" + name
    out = ["#pragma weak %s = %s" % (name, pname)]
    out.append("%s %s(%s)" % (ret, pname, ", ".join(p.decl for p in params) or "void"))
    out.append("{")
    if proc_name in UNLOCKED_PROCS:
        pass
    elif proc_name in CALLABLE_ANY_TIME or is_mpit(name):
        out.append("    COMPI_API_LOCK();")
    else:
        out.append('    COMPI_CHECK_INIT("%s");' % name)
    if is_mpit(name) and name != "MPI_T_init_thread":
        out.append("    if (compi_unlikely(!mpit_initialized())) {")
        out.append("        return MPI_T_ERR_NOT_INITIALIZED;")
        out.append("    }")
    if not is_mpit(name):
        out.append('    static const char fn[] = "%s";' % name)
    if lines or post:
        out += cdecls
        out.append("    int rc;")
        out += lines
    if big is not None:
        full = [Param(d, q) for d, q in zip(split_proto(str(big))[2], big.parameters)]
        checks(name, full)
        mine = {p.name: p for p in params}
        for p in full:
            if p.name in mine:
                p.arg = mine[p.name].arg
            else:
                p.arg = "NULL" if "*" in p.impl_decl or p.array else "0"
        params = full
    if access:
        params = file_access_params(params)
    fn = [] if is_mpit(name) else ["fn"]  # MPI_T raises no error: no name to raise it with
    call = "%s(%s)" % (impl, ", ".join([p.arg for p in params if not p.skip] + extra_args +
                                       fn))
    if post:
        out.append("    rc = %s;" % call)
        out.append("    if (rc == MPI_SUCCESS) {")
        out += post
        out.append("    }")
        out.append("    return rc;")
    else:
        out.append("    return %s;" % call)
    out.append("}")
    proto = "static %s %s(%s)" % (ret, impl, ", ".join(
        [p.impl_decl for p in params if not p.skip] + extra_decls +
        [("const char *" + a) for a in fn]) or "void")
    return "\n".join(out) + "\n", proto


def wrap_c(line, width=100):
    """a prototype or call broken at commas to fit `width` (clang-format's style)"""
    if len(line) <= width or "(" not in line:
        return line
    open_at = line.index("(") + 1
    pad = " " * open_at
    parts = line[open_at:].split(", ")
    out, cur = [], line[:open_at]
    for j, part in enumerate(parts):
        piece = part + ("," if j < len(parts) - 1 else "")
        if len(cur) + len(piece) + (0 if cur.endswith("(") else 1) > width and \
                not cur.endswith("("):
            out.append(cur)
            cur = pad + piece
        else:
            cur += ("" if cur.endswith("(") else " ") + piece
    out.append(cur)
    return "\n".join(out)


def wrap_lines(text):
    """the long prototypes and calls of `text` broken at commas"""
    return "\n".join(wrap_c(ln) if ln.startswith(("int PMPI_", "static int ", "    return ",
                                                   "    rc = "))
                     else ln for ln in text.split("\n"))


def standard_forms():
    """name -> (int form, large-count form or None) of every C procedure of the standard"""
    forms = {}
    for key in sorted(std.PROCEDURES):
        proc = std.PROCEDURES[key]
        c = proc.express.iso_c
        if c is None:
            continue
        emb = getattr(proc.express, "embiggen", None)
        big = emb.iso_c if emb is not None else None
        forms[split_proto(str(c))[1]] = (c, big)
    return forms


def removed_procs(have, forms):
    """[(removed function, its replacement)] of REMOVED, each checked: declared by
    include/mpi.h, no procedure of the standard, its replacement one"""
    out = []
    for name, repl in sorted(REMOVED.items()):
        if name[4:] not in have:
            sys.exit("cgen: include/mpi.h does not declare %s (REMOVED)" % name)
        if name in forms or repl not in forms:
            sys.exit("cgen: %s is a procedure of the standard, or %s is not (REMOVED)" %
                     (name, repl))
        out.append((name, repl))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--top", default=top)
    ap.add_argument("--out", default=None, help="write into this folder instead of the tree")
    a = ap.parse_args()
    top = a.top
    out = a.out or top
    std.use_api_version(1, force_bundled=True)
    try:
        from importlib.metadata import version as pkg_version
        version = pkg_version("pympistandard")
    except Exception:
        version = "?"
    have = compi_procedures(os.path.join(top, "include", "mpi.h"))
    forms = standard_forms()

    files = {}
    generated = []  # (unit, MPI_x) of every entry point made
    # (unit, its hand-written file, [(procedure, its implementation, a collective's mode)])
    tables = [(unit, hand, [(n, impl_name(n), FILE_ACCESS.get(n)) for n in names])
              for unit, (hand, names) in sorted(UNITS.items())]
    tables += [(unit, hand, [(n, impl_name(b), m) for b in names for n, m in coll_forms(b)])
               for unit, (hand, names) in sorted(COLL_UNITS.items())]
    for unit, hand, procs in tables:
        body = [GEN_HEAD % (version, hand)]
        protos = []
        for name, impl, mode in procs:
            if name not in forms:
                sys.exit("cgen: %s is not a procedure of the standard" % name)
            c, big = forms[name]
            for form in (c, big):
                if form is None:
                    continue
                fname = split_proto(str(form))[1]
                if fname[4:] not in have:
                    sys.exit("cgen: include/mpi.h does not declare %s" % fname)
                extra = big if form is c and big is not None and \
                    len(big.parameters) > len(c.parameters) else None
                try:
                    src, proto = entry(form, fname, impl, name, mode, extra)
                except Unbound as e:
                    sys.exit("cgen: no rule for %s" % e)
                body.append(src)
                generated.append((unit, fname))
                if proto not in protos:
                    protos.append(proto)
        body.append("/* the implementations this file calls, as %s defines them */" % hand)
        body += [p + ";" for p in protos]
        files[os.path.join("core", "mpi", "gen", unit + ".c")] = wrap_lines("\n".join(body) + "\n")

    gen_names = {n for _, n in generated}
    removed = removed_procs(have, forms)
    by_hand = sorted("MPI_" + n for n in have if "MPI_" + n not in gen_names and
                     "MPI_" + n not in REMOVED)
    std_names = set()
    for c, big in forms.values():
        for f in (c, big):
            if f is not None:
                std_names.add(split_proto(str(f))[1])
    missing = sorted(n for n in std_names if n[4:] not in have)
    rep = ["compi's C entry points and the MPI standard (pympistandard %s): the report of"
           % version, "tools/mpigen/cgen.py.  Generated: do not edit.", "",
           "Entry points generated into core/mpi/gen (%d, from %d procedures of the table):"
           % (len(generated), sum(len(v[1]) for v in UNITS.values()) +
              sum(3 * len(v[1]) for v in COLL_UNITS.values()))]
    for unit, (hand, names) in sorted(list(UNITS.items()) + list(COLL_UNITS.items())):
        rep.append("  %s (gen/%s.c, implementations in %s):" % (unit, unit, hand))
        made = [n for u, n in generated if u == unit]
        for j in range(0, len(made), 4):
            rep.append("    " + " ".join(made[j:j + 4]))
    rep += ["", "Functions removed from the standard, kept as calls of their replacements "
            "(%d, core/mpi/removed_api.c):" % len(removed)]
    rep += ["  %s -> %s" % nr for nr in removed]
    rep += ["", "Functions of include/mpi.h still written by hand in core/mpi (%d):" % len(by_hand)]
    for j in range(0, len(by_hand), 4):
        rep.append("  " + " ".join(by_hand[j:j + 4]))
    rep += ["", "Functions of the standard compi does not implement (%d, a large-count form "
            "counted apart; fortran/gen/gaps.txt lists them by procedure):" % len(missing)]
    for j in range(0, len(missing), 4):
        rep.append("  " + " ".join(missing[j:j + 4]))
    files[os.path.join("core", "mpi", "gen", "report.txt")] = "\n".join(rep) + "\n"

    for rel, text in files.items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    print("cgen: %d entry points generated (core/mpi/gen), %d functions of mpi.h still by "
          "hand, %d of the standard not implemented (core/mpi/gen/report.txt)"
          % (len(generated), len(by_hand), len(missing)))


if __name__ == "__main__":
    sys.exit(main())
