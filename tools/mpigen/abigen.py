#!/usr/bin/env python3
"""abigen -- compi's MPI-5 standard ABI layer (libmpi_abi.so.1), generated from the MPI
Forum's description of the standard (pympistandard) and the two headers: include/mpi_abi.h
(the standard ABI, written by hand) and include/mpi.h (compi's native ABI, MPICH's).

    python3 tools/mpigen/abigen.py [--top SRCDIR] [--out DIR]

For every C procedure of the standard that compi implements (less the Fortran handle
conversions, which the standard ABI replaces with
MPI_<Handle>_toint/_fromint) it writes a wrapper that converts the arguments from the
standard ABI to compi's native one by the kind the standard gives each parameter (a
handle, a status, a rank, a tag, an error code, an enumeration, a buffer that may be
MPI_IN_PLACE, ...), calls compi's PMPI_ function and converts the results back.  The
few procedures whose arguments no rule covers (callbacks, handle arrays sized by the
communicator) are written by hand in abi/abi_manual.c; the report names them.

Files (into the source tree, or under --out; tests/tools/mpigen.sh compares a run into a
temporary folder with the committed files, `make mpigen` regenerates them):

  include/mpi_abi.h   its prototype section (between the two markers), MPI_ and PMPI_
  abi/gen/abi_wrap.c  the wrappers (PMPI_x, MPI_x a weak alias)
  abi/gen/abi_native.h  compi's native functions as a table of pointers, and the code
                      that fills it (abi/abi_core.c resolves them in libmpi.so.12)
  abi/gen/abi_names.h mpi_abi.h's types and constants renamed ABI_*, so that one C file
                      can see both ABIs (abi/gen/abi_tables.c)
  abi/gen/abi_tables.c  the predefined handles (indexed by the standard's value), the
                      error classes and the enumerations, mapped by name
  abi/gen/gaps.txt    what the layer leaves out, and why
"""

import argparse
import os
import re
import subprocess
import sys

import pympistandard as std

HANDLE_KINDS = {
    "COMMUNICATOR": "Comm", "DATATYPE": "Datatype", "GROUP": "Group", "OPERATION": "Op",
    "REQUEST": "Request", "ERRHANDLER": "Errhandler", "INFO": "Info", "WINDOW": "Win",
    "MESSAGE": "Message", "SESSION": "Session",
}
HANDLE_TYPES = set(HANDLE_KINDS.values())

# scalar integer kinds whose values the two ABIs spell differently: kind -> map group
ENUM_KINDS = {
    "RANK": "rank", "RANK_NNI": "rank", "TAG": "tag", "THREAD_LEVEL": "thread", "ORDER": "order",
    "COMBINER": "combiner", "COMM_COMPARISON": "compare", "GROUP_COMPARISON": "compare",
    "TOPOLOGY_TYPE": "topo", "SPLIT_TYPE": "split", "LOCK_TYPE": "lock",
    "TYPECLASS": "typeclass", "KEYVAL": "keyval", "COLOR": "undefined",
    "ASSERT": "mode", "ERROR_CODE": "err", "ERROR_CLASS": "err", "INDEX": "undefined",
    "TOOL_VAR_VERBOSITY": "verbosity", "BIND_TYPE": "bind", "VARIABLE_SCOPE": "scope",
    "CALLBACK_SAFETY": "cbsafety", "SOURCE_ORDERING": "sourceorder",
    "PVAR_CLASS": "pvarclass", "ACCESS_MODE": "mode", "UPDATE_MODE": "seek",
}

# the tool interface's handles: pointers in both ABIs, passed as they are (the native
# functions take them as void *), but for MPI_T_PVAR_ALL_HANDLES
TOOL_HANDLE_KINDS = {"TOOLS_ENUM": "MPI_T_enum", "CVAR": "MPI_T_cvar_handle",
                     "PVAR": "MPI_T_pvar_handle", "PVAR_SESSION": "MPI_T_pvar_session",
                     "EVENT_REGISTRATION": "MPI_T_event_registration",
                     "EVENT_INSTANCE": "MPI_T_event_instance"}

# the names of each map group (the same name in both headers)
GROUPS = {
    "rank": ["MPI_ANY_SOURCE", "MPI_PROC_NULL", "MPI_ROOT", "MPI_UNDEFINED"],
    "tag": ["MPI_ANY_TAG"],
    "undefined": ["MPI_UNDEFINED"],
    "thread": ["MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
               "MPI_THREAD_MULTIPLE"],
    "order": ["MPI_ORDER_C", "MPI_ORDER_FORTRAN"],
    "compare": ["MPI_IDENT", "MPI_CONGRUENT", "MPI_SIMILAR", "MPI_UNEQUAL"],
    "topo": ["MPI_CART", "MPI_GRAPH", "MPI_DIST_GRAPH", "MPI_UNDEFINED"],
    "split": ["MPI_COMM_TYPE_SHARED", "MPI_COMM_TYPE_HW_UNGUIDED", "MPI_COMM_TYPE_HW_GUIDED",
              "MPI_COMM_TYPE_RESOURCE_GUIDED", "MPI_UNDEFINED"],
    "lock": ["MPI_LOCK_EXCLUSIVE", "MPI_LOCK_SHARED"],
    "typeclass": ["MPI_TYPECLASS_INTEGER", "MPI_TYPECLASS_REAL", "MPI_TYPECLASS_COMPLEX"],
    "keyval": ["MPI_KEYVAL_INVALID", "MPI_TAG_UB", "MPI_IO", "MPI_HOST", "MPI_WTIME_IS_GLOBAL",
               "MPI_APPNUM", "MPI_LASTUSEDCODE", "MPI_UNIVERSE_SIZE", "MPI_WIN_BASE",
               "MPI_WIN_DISP_UNIT", "MPI_WIN_SIZE", "MPI_WIN_CREATE_FLAVOR", "MPI_WIN_MODEL"],
    "distribute": ["MPI_DISTRIBUTE_NONE", "MPI_DISTRIBUTE_BLOCK", "MPI_DISTRIBUTE_CYCLIC",
                   "MPI_DISTRIBUTE_DFLT_DARG"],
    "combiner": ["MPI_COMBINER_" + c for c in (
        "NAMED DUP CONTIGUOUS VECTOR HVECTOR INDEXED HINDEXED INDEXED_BLOCK HINDEXED_BLOCK "
        "STRUCT SUBARRAY DARRAY F90_REAL F90_COMPLEX F90_INTEGER RESIZED VALUE_INDEX").split()],
    "flavor": ["MPI_WIN_FLAVOR_CREATE", "MPI_WIN_FLAVOR_ALLOCATE", "MPI_WIN_FLAVOR_DYNAMIC",
               "MPI_WIN_FLAVOR_SHARED"],
    "model": ["MPI_WIN_UNIFIED", "MPI_WIN_SEPARATE"],
    "seek": ["MPI_SEEK_SET", "MPI_SEEK_CUR", "MPI_SEEK_END"],
    "verbosity": ["MPI_T_VERBOSITY_%s_%s" % (w, l) for w in ("USER", "TUNER", "MPIDEV")
                  for l in ("BASIC", "DETAIL", "ALL")],
    "bind": ["MPI_T_BIND_NO_OBJECT"] + ["MPI_T_BIND_MPI_" + k for k in (
        "COMM DATATYPE ERRHANDLER FILE GROUP OP REQUEST WIN MESSAGE INFO SESSION").split()],
    "scope": ["MPI_T_SCOPE_" + k for k in (
        "CONSTANT READONLY LOCAL GROUP GROUP_EQ ALL ALL_EQ").split()],
    "cbsafety": ["MPI_T_CB_REQUIRE_" + k for k in (
        "NONE MPI_RESTRICTED THREAD_SAFE ASYNC_SIGNAL_SAFE").split()],
    "sourceorder": ["MPI_T_SOURCE_ORDERED", "MPI_T_SOURCE_UNORDERED"],
    "pvarclass": ["MPI_T_PVAR_CLASS_" + k for k in (
        "STATE LEVEL SIZE PERCENTAGE HIGHWATERMARK LOWWATERMARK COUNTER AGGREGATE TIMER "
        "GENERIC").split()],
}
# bit sets: each bit is mapped alone
BIT_GROUPS = {"mode": ["MPI_MODE_NOCHECK", "MPI_MODE_NOPRECEDE", "MPI_MODE_NOPUT",
                       "MPI_MODE_NOSTORE", "MPI_MODE_NOSUCCEED", "MPI_MODE_APPEND",
                       "MPI_MODE_CREATE", "MPI_MODE_DELETE_ON_CLOSE", "MPI_MODE_EXCL",
                       "MPI_MODE_RDONLY", "MPI_MODE_RDWR", "MPI_MODE_SEQUENTIAL",
                       "MPI_MODE_UNIQUE_OPEN", "MPI_MODE_WRONLY"]}

# kinds passed unchanged (counts, sizes, displacements, addresses, strings, flags, ...)
PASS_KINDS = {
    "ALLOC_MEM_NUM_BYTES", "ARGUMENT_COUNT", "ARGUMENT_LIST", "ARRAY_LENGTH",
    "ARRAY_LENGTH_NNI", "ARRAY_LENGTH_PI", "ATTRIBUTE_VAL", "ATTRIBUTE_VAL_10", "C_BUFFER",
    "C_BUFFER2", "COMM_SIZE", "COMM_SIZE_PI", "COORDINATE", "DEGREE", "DIMENSION",
    "DISPLACEMENT", "DTYPE_DISTRIBUTION", "FILE_DESCRIPTOR", "GENERIC_DTYPE_COUNT",
    "GENERIC_DTYPE_INT", "INFO_VALUE_LENGTH", "KEY", "KEY_INDEX", "LOCATION_SMALL", "LOGICAL",
    "MATH", "NUM_BYTES", "NUM_DIMS", "PARTITION", "POLYDISPLACEMENT",
    "POLYDISPLACEMENT_AINT_COUNT", "POLYDISPLACEMENT_COUNT", "POLYDTYPE_NUM_ELEM",
    "POLYDTYPE_NUM_ELEM_NNI", "POLYDTYPE_NUM_ELEM_PI", "POLYDTYPE_PACK_SIZE",
    "POLYDTYPE_STRIDE_BYTES", "POLYLOCATION", "POLYNUM_BYTES", "POLYNUM_BYTES_NNI",
    "POLYNUM_PARAM_VALUES", "POLYRMA_DISPLACEMENT", "POLYXFER_NUM_ELEM",
    "POLYXFER_NUM_ELEM_NNI", "PROCESS_GRID_SIZE", "PROFILE_LEVEL",
    "RMA_DISPLACEMENT_NNI", "STRING", "STRING_2DARRAY", "STRING_ARRAY", "STRING_LENGTH",
    "VERSION", "WINDOW_SIZE", "WIN_ATTACH_SIZE", "XFER_NUM_ELEM", "XFER_NUM_ELEM_NNI",
    "EXTRA_STATE", "EXTRA_STATE2", "TYPECLASS_SIZE",
    # the tool interface's indices, counts and values
    "UPDATE_NUMBER", "CAT_INDEX", "CVAR_INDEX", "CVAR_INDEX_SPECIAL", "PVAR_INDEX",
    "TOOLS_NUM_ELEM_SMALL", "TOOLENUM_SIZE", "TOOLENUM_INDEX", "TOOL_VAR_VALUE",
    "LOGICAL_OPTIONAL",
    # the events' and sources' indices and timestamps; their callbacks pass as they are:
    # compi has no events, so the native library never calls one
    "EVENT_INDEX", "SOURCE_INDEX", "TOOLS_TICK_COUNT", "EVENT_CB_FUNCTION",
    "EVENT_FREE_CB_FUNCTION", "EVENT_DROP_CB_FUNCTION",
    # MPI-IO's offsets, sizes and extents, data representations' names
    "OFFSET", "POLYDISPOFFSET",
}

# parameters of one procedure that a rule of their own converts: (procedure, parameter)
# -> the C function applied to it on the way in
SPECIAL_IN = {
    ("MPI_File_set_view", "disp"): "abi_disp_in",  # MPI_DISPLACEMENT_CURRENT
}
# MPI_BUFFER_AUTOMATIC, attached and detached
SPECIAL_IN.update({(p + s, "buffer"): "abi_bsend_buf_in" for p in (
    "MPI_Buffer_attach", "MPI_Comm_attach_buffer", "MPI_Session_attach_buffer")
    for s in ("", "_c")})
# parameters passed as they are and converted after a successful call:
# (procedure, parameter) -> the function that converts it
SPECIAL_OUT = {(p + s, "buffer_addr"): "abi_bsend_addr_out" for p in (
    "MPI_Buffer_detach", "MPI_Comm_detach_buffer", "MPI_Session_detach_buffer")
    for s in ("", "_c")}

# array lengths the description leaves open ("*"): (procedure, parameter) -> C expression
LENGTHS = {
    ("MPI_Waitall", "array_of_statuses"): "count",
    ("MPI_Testall", "array_of_statuses"): "count",
    ("MPI_Waitsome", "array_of_statuses"): "incount",
    ("MPI_Testsome", "array_of_statuses"): "incount",
    ("MPI_Request_get_status_all", "array_of_statuses"): "count",
    ("MPI_Request_get_status_some", "array_of_statuses"): "incount",
}

# procedures written by hand in abi/abi_manual.c (name -> why no rule does)
MANUAL = {
    "MPI_Op_create": "the user function gets the standard ABI's datatype handle",
    "MPI_Op_create_c": "the user function gets the standard ABI's datatype handle",
    "MPI_Comm_create_keyval": "copy and delete callbacks get standard ABI handles",
    "MPI_Type_create_keyval": "copy and delete callbacks get standard ABI handles",
    "MPI_Win_create_keyval": "copy and delete callbacks get standard ABI handles",
    "MPI_Keyval_create": "copy and delete callbacks get standard ABI handles",
    "MPI_Comm_create_errhandler": "the handler gets standard ABI handles and error codes",
    "MPI_Win_create_errhandler": "the handler gets standard ABI handles and error codes",
    "MPI_Session_create_errhandler": "the handler gets standard ABI handles and error codes",
    "MPI_Grequest_start": "the query callback fills a standard ABI status",
    "MPI_Alltoallw": "datatype arrays as long as the communicator",
    "MPI_Ialltoallw": "datatype arrays as long as the communicator",
    "MPI_Neighbor_alltoallw": "datatype arrays as long as the neighbourhood",
    "MPI_Neighbor_alltoallw_c": "datatype arrays as long as the neighbourhood",
    "MPI_Ineighbor_alltoallw": "datatype arrays as long as the neighbourhood",
    "MPI_Ineighbor_alltoallw_c": "datatype arrays as long as the neighbourhood",
    "MPI_Neighbor_alltoallw_init": "datatype arrays as long as the neighbourhood",
    "MPI_Neighbor_alltoallw_init_c": "datatype arrays as long as the neighbourhood",
    "MPI_Alltoallw_c": "datatype arrays as long as the communicator",
    "MPI_Ialltoallw_c": "datatype arrays as long as the communicator",
    "MPI_Alltoallw_init": "datatype arrays as long as the communicator",
    "MPI_Alltoallw_init_c": "datatype arrays as long as the communicator",
    "MPI_Comm_get_attr": "predefined attributes whose values are enumerations",
    "MPI_Win_get_attr": "predefined attributes whose values are enumerations",
    "MPI_Attr_get": "predefined attributes whose values are enumerations",
    "MPI_Pcontrol": "a variadic function (compi's takes only the level)",
    "MPI_Comm_spawn": "error codes in an array of the children's size",
    "MPI_Comm_spawn_multiple": "error codes in an array of the children's size",
    "MPI_Type_create_darray": "distributions in an array, MPI_DISTRIBUTE_DFLT_DARG in another",
    "MPI_Type_create_darray_c": "distributions in an array, MPI_DISTRIBUTE_DFLT_DARG in another",
    "MPI_T_cvar_handle_alloc": "the object handle's kind is the variable's binding",
    "MPI_T_pvar_handle_alloc": "the object handle's kind is the variable's binding",
    "MPI_T_event_handle_alloc": "the object handle's kind is the event's binding",
    "MPI_T_event_get_info": "the element types, a handle array of *num_elements",
    "MPI_File_create_errhandler": "the handler gets standard ABI handles and error codes",
}
# hand-written procedures the description of pympistandard 0.2.0 lacks or compi's native
# library has no twin of: only their prototypes are generated from these lines
EXTRA_PROTOS = [
    "int MPI_Abi_get_version(int *abi_major, int *abi_minor)",
    "int MPI_Abi_get_info(MPI_Info *info)",
] + ["MPI_%s MPI_%s_fromint(int %s)\nint MPI_%s_toint(MPI_%s %s)" % (
    t, n, t.lower(), n, t, t.lower()) for n, t in [
        ("Comm", "Comm"), ("Errhandler", "Errhandler"), ("Group", "Group"), ("Info", "Info"),
        ("Message", "Message"), ("Op", "Op"), ("Request", "Request"), ("Session", "Session"),
        ("Type", "Datatype"), ("Win", "Win")]]
# procedures of the standard in compi's native library that the layer leaves out
LEFT_OUT = {
    "MPI_Register_datarep": "data representations' callbacks get native datatypes: not yet",
    "MPI_Register_datarep_c": "data representations' callbacks get native datatypes: not yet",
}


class Unbound(Exception):
    pass


def compi_procedures(header):
    """The procedures compi's mpi.h declares, by their name without MPI_: the header
    through the preprocessor, since some are declared by macros (the large-count
    collectives)"""
    cc = os.environ.get("CC", "cc").split()
    text = subprocess.run(cc + ["-E", "-P", header], check=True, capture_output=True,
                          text=True).stdout
    return set(re.findall(r"\bPMPI_(\w+)\s*\(", text))


def split_proto(proto):
    """'int MPI_X(a, b)' -> ('int', 'MPI_X', ['a', 'b'])"""
    m = re.match(r"^(.*?)\s*\b(MPI_\w+)\((.*)\)$", proto)
    ret, name, args = m.group(1), m.group(2), m.group(3)
    params = [] if args.strip() in ("", "void") else [a.strip() for a in args.split(",")]
    return ret.strip(), name, params


def c_decl(decl):
    """pympistandard writes 'const void* buf': compi's style is 'const void *buf'"""
    return re.sub(r"(\w)(\*+) ", r"\1 \2", decl.replace("\\ldots", "..."))


def native_decl(decl):
    """a parameter's type in compi's native ABI: handles are ints, statuses its own, the
    tool interface's handles void pointers"""
    d = re.sub(r"\bMPI_\w+_function(_c)? \*", "void *", decl)
    d = re.sub(r"\bMPI_(%s)\b" % "|".join(sorted(HANDLE_TYPES)), "int", d)
    tools = "|".join(sorted(TOOL_HANDLE_KINDS.values()))
    d = re.sub(r"\b(%s) \*" % tools, "void **", d)
    d = re.sub(r"\b(%s) " % tools, "void *", d)
    # files are pointers natively too (MPI_FILE_NULL is 0 there)
    d = re.sub(r"\bMPI_File \*", "void **", d)
    d = re.sub(r"\bMPI_File ", "void *", d)
    return d.replace("MPI_Status", "abi_nstatus_t")


def param_name(decl):
    return re.search(r"(\w+)(\[\]|\[\]\[3\])?$", decl).group(1)


def procedures(have):
    """(C expression of the standard, its parseset) for every C procedure with a native twin"""
    out = []
    for key in sorted(std.PROCEDURES):
        proc = std.PROCEDURES[key]
        exps = [proc.express.iso_c]
        emb = getattr(proc.express, "embiggen", None)
        if emb is not None:
            exps.append(emb.iso_c)
        for c in exps:
            if c is None:
                continue
            out.append(c)
    return out


def wrapper(c, native_name):
    """(C source of a wrapper, None) or (None, reason)"""
    ret, name, decls = split_proto(str(c))
    if len(decls) != len(c.parameters):
        raise Unbound("parameters do not split")
    args, call, pre, post, cleanup = [], [], [], [], []
    for decl, prm in zip(decls, c.parameters):
        ps = prm._parseset
        kind, direction, n = ps["kind"], ps["param_direction"], param_name(decl)
        length = LENGTHS.get((name, n), ps["length"])
        is_array = ps["length"] is not None
        args.append(c_decl(decl))
        if kind in HANDLE_KINDS:
            t = HANDLE_KINDS[kind]
            # a NULL pointer goes to the native call as NULL, which reports it
            if not is_array:
                if direction == "in" and ps["pointer"]:
                    pre.append("int n_%s = %s != NULL ? abi_h2n(*%s) : 0;" % (n, n, n))
                    call.append("%s != NULL ? &n_%s : NULL" % (n, n))
                elif direction == "in":
                    call.append("abi_h2n(%s)" % n)
                elif direction == "out":
                    # written back whenever the native call wrote it (MPI_COMM_NULL on errors)
                    pre.append("int n_%s = ABI_N_UNSET;" % n)
                    call.append("%s != NULL ? &n_%s : NULL" % (n, n))
                    post.append("if (%s != NULL && n_%s != ABI_N_UNSET) {\n        *%s = "
                                "abi_n2h(%s, n_%s);\n    }" % (n, n, n, t, n))
                else:
                    pre.append("int n_%s = %s != NULL ? abi_h2n(*%s) : 0;" % (n, n, n))
                    call.append("%s != NULL ? &n_%s : NULL" % (n, n))
                    post.append("if (%s != NULL) {\n        *%s = abi_n2h(%s, n_%s);\n    }"
                                % (n, n, t, n))
            else:
                if length == "*" or length is None or not re.match(r"^\w+$", length):
                    raise Unbound("%s: a handle array of length %s" % (n, length))
                pre.append("ABI_TMP(int, n_%s, %s != NULL ? %s : 0);" % (n, n, length))
                cleanup.append("ABI_TMP_FREE(n_%s);" % n)
                call.append("%s != NULL ? n_%s : NULL" % (n, n))
                if direction in ("in", "inout"):
                    pre.append("for (int i = 0; %s != NULL && i < (int)(%s); i++) {\n        "
                               "n_%s[i] = abi_h2n(%s[i]);\n    }" % (n, length, n, n))
                if direction in ("out", "inout"):
                    # an output array only when the call succeeded; requests always (some
                    # may have completed before an error)
                    cond = "%s != NULL%s" % (n, " && rc == 0" if direction == "out" else "")
                    post.append("for (int i = 0; %s && i < (int)(%s); i++) {\n        %s[i] = "
                                "abi_n2h(%s, n_%s[i]);\n    }" % (cond, length, n, t, n))
        elif (name, n) in SPECIAL_IN:
            call.append("%s(%s)" % (SPECIAL_IN[(name, n)], n))
        elif (name, n) in SPECIAL_OUT:
            call.append(n)
            post.append("if (rc == 0) {\n        %s(%s);\n    }" % (SPECIAL_OUT[(name, n)], n))
        elif kind == "FILE":
            if is_array:
                raise Unbound("%s: an array of files" % n)
            if "*" not in decl:
                call.append("abi_file_in(%s)" % n)
            elif direction == "out":
                pre.append("void *n_%s = ABI_N_FILE_UNSET;" % n)
                call.append("%s != NULL ? &n_%s : NULL" % (n, n))
                post.append("if (%s != NULL && n_%s != ABI_N_FILE_UNSET) {\n        *%s = "
                            "abi_file_out(n_%s);\n    }" % (n, n, n, n))
            else:
                pre.append("void *n_%s = %s != NULL ? abi_file_in(*%s) : NULL;" % (n, n, n))
                call.append("%s != NULL ? &n_%s : NULL" % (n, n))
                post.append("if (%s != NULL) {\n        *%s = abi_file_out(n_%s);\n    }"
                            % (n, n, n))
        elif kind in TOOL_HANDLE_KINDS:
            if is_array:
                raise Unbound("%s: an array of %s" % (n, kind))
            if "*" in decl:
                call.append("(void **)%s" % n)
            elif kind == "PVAR":
                call.append("abi_pvar_in(%s)" % n)
            else:
                call.append("(void *)%s" % n)
        elif kind == "STATUS":
            if not is_array:
                pre.append("abi_nstatus_t n_%s;" % n)
                if direction == "out":
                    pre.append("n_%s.error = ABI_N_ERROR_UNSET;" % n)
                if direction in ("in", "inout"):
                    pre.append("abi_status_a2n(%s, &n_%s);" % (n, n))
                call.append("%s == MPI_STATUS_IGNORE ? ABI_N_STATUS_IGNORE : &n_%s" % (n, n))
                if direction in ("out", "inout"):
                    post.append("if (%s != MPI_STATUS_IGNORE) {\n        abi_status_n2a(&n_%s, "
                                "%s);\n    }" % (n, n, n))
            else:
                if length == "*" or not re.match(r"^\w+$", length or ""):
                    raise Unbound("%s: a status array of length %s" % (n, length))
                pre.append("ABI_TMP(abi_nstatus_t, n_%s, %s == MPI_STATUSES_IGNORE ? 0 : %s);"
                           % (n, n, length))
                cleanup.append("ABI_TMP_FREE(n_%s);" % n)
                pre.append("for (int i = 0; %s != MPI_STATUSES_IGNORE && i < (int)(%s); i++) "
                           "{\n        n_%s[i].error = ABI_N_ERROR_UNSET;\n    }" % (n, length, n))
                call.append("%s == MPI_STATUSES_IGNORE ? ABI_N_STATUSES_IGNORE : n_%s" % (n, n))
                post.append("if (%s != MPI_STATUSES_IGNORE) {\n        for (int i = 0; "
                            "i < (int)(%s); i++) {\n            abi_status_n2a(&n_%s[i], "
                            "&%s[i]);\n        }\n    }" % (n, length, n, n))
        elif kind == "BUFFER":
            call.append("abi_buf(%s)" % n)
        elif kind == "WEIGHT":
            call.append("abi_weights(%s)" % n)
        elif kind in ENUM_KINDS:
            group = ENUM_KINDS[kind]
            if name == "MPI_Abort" and kind == "ERROR_CODE":
                call.append(n)  # the exit status, not an MPI error code
                continue
            if is_array:
                simple = isinstance(length, str) and re.match(r"^\w+$", length)
                if kind in ("RANK", "RANK_NNI") and not simple:
                    call.append(n)  # the edges of a graph, neighbours: never a sentinel
                    continue
                if kind in ("RANK", "RANK_NNI") and direction == "in":
                    # MPI_PROC_NULL may be among them (MPI_Group_translate_ranks)
                    pre.append("ABI_TMP(int, n_%s, %s != NULL ? %s : 0);" % (n, n, length))
                    pre.append("for (int i = 0; %s != NULL && i < (int)(%s); i++) {\n        "
                               "n_%s[i] = abi_rank_in(%s[i]);\n    }" % (n, length, n, n))
                    cleanup.append("ABI_TMP_FREE(n_%s);" % n)
                    call.append("%s != NULL ? n_%s : NULL" % (n, n))
                    continue
                if kind in ("RANK", "RANK_NNI") and direction == "out":
                    call.append(n)
                    post.append("for (int i = 0; rc == 0 && %s != NULL && i < (int)(%s); i++) "
                                "{\n        %s[i] = abi_rank_out(%s[i]);\n    }"
                                % (n, length, n, n))
                    continue
                if kind == "INDEX":
                    call.append(n)  # indices into arrays
                    continue
                raise Unbound("%s: an array of %s" % (n, kind))
            if direction == "in":
                call.append("abi_%s_in(%s)" % (group, n))
            elif direction == "out":
                call.append(n)
                post.append("if (rc == 0 && %s != NULL) {\n        *%s = abi_%s_out(*%s);\n    }"
                            % (n, n, group, n))
            else:
                pre.append("int n_%s = abi_%s_in(*%s);" % (n, group, n))
                call.append("&n_%s" % n)
                post.append("*%s = abi_%s_out(n_%s);" % (n, group, n))
        elif kind in PASS_KINDS:
            call.append(n)
        else:
            raise Unbound("%s: kind %s" % (n, kind))
    lines = ["%s P%s(%s)" % (ret, name, ", ".join(args) or "void"), "{"]
    if ret == "int":
        body = pre + ["int rc = abi_n.%s(%s);" % (native_name, ", ".join(call))] + post
        body += cleanup + ["return abi_err_out(rc);"]
    elif ret in ("double", "MPI_Aint") and not pre and not post:
        body = ["return abi_n.%s(%s);" % (native_name, ", ".join(call))]
    else:
        raise Unbound("returns %s" % ret)
    for s in body:
        lines.append("    " + s)
    lines.append("}")
    lines.append("#pragma weak %s = P%s" % (name, name))
    return "\n".join(lines) + "\n"


def skip_reason(cname, c):
    if re.search(r"_(c2f|f2c|c2f08|f082c|f082f|f2f08)$", cname) or cname.startswith(
            "MPI_Status_f") or cname.startswith("MPI_Status_c"):
        return "Fortran handle and status conversions: the standard ABI has _toint/_fromint"
    return None


GEN_HEAD = """/* Generated by tools/mpigen/abigen.py from pympistandard %s, include/mpi_abi.h and
   include/mpi.h: do not edit (make mpigen regenerates it). */
"""


def abi_decls(abi_h):
    """mpi_abi.h above its prototypes, every MPI_/MPIX_ name renamed ABI_"""
    text = open(abi_h).read()
    head = text.split("/* ---- prototypes")[0]
    head = head.split("#ifdef __cplusplus")[1].split("#endif", 1)[1]
    return re.sub(r"\bMPIX?_", "ABI_", head)


def abi_handle_consts(abi_h):
    """[(name, ABI type, value)] of the predefined handles"""
    text = open(abi_h).read()
    return [(m.group(1), m.group(2), int(m.group(3), 16)) for m in re.finditer(
        r"^#define (MPI_\w+) \(\((MPI_\w+)\)(0x[0-9a-f]+)\)", text, re.M)
        if m.group(2)[4:] in HANDLE_TYPES]


def defined_names(header):
    text = open(header).read()
    names = set(re.findall(r"^#define\s+(MPIX?_\w+)", text, re.M))
    for body in re.findall(r"enum\s*\w*\s*\{([^}]*)\}", text):
        names.update(re.findall(r"\b(MPIX?_\w+)\s*=", body))
    names.update(re.findall(r"^extern [^;]*\b(MPI_\w+);", text, re.M))
    return names


def tables(abi_h, native_h, version):
    nat = defined_names(native_h)
    abi = defined_names(abi_h)
    out = [GEN_HEAD % version, '#include "abi/abi_tables.h"\n']
    out.append("/* the native handle of each predefined handle, indexed by its standard value */")
    out.append("const int abi_pre[ABI_NPRE] = {")
    for name, t, v in abi_handle_consts(abi_h):
        if name in nat and t != "MPI_File" and name != "MPI_FILE_NULL":
            out.append("    [0x%03x] = %s," % (v, name))
    out.append("};\n")
    errs = sorted(n for n in abi & nat if re.match(r"^MPI_(T_)?ERR_", n) and
                  n != "MPI_ERR_LASTCODE")
    out.append("/* the standard's error class of each native one */")
    out.append("const int abi_err_n2a_tab[ABI_NERR] = {")
    for n in errs:
        out.append("    [%s] = ABI_%s," % (n, n[4:]))
    out.append("};\n")
    out.append("/* the native error class of each of the standard's, MPI_ERR_* then MPI_T_ERR_* */")
    out.append("const int abi_err_a2n_tab[ABI_NERR] = {")
    for n in errs:
        if not n.startswith("MPI_T_"):
            out.append("    [ABI_%s] = %s," % (n[4:], n))
    out.append("};")
    out.append("const int abi_terr_a2n_tab[ABI_NTERR] = {")
    for n in errs:
        if n.startswith("MPI_T_"):
            out.append("    [ABI_%s - ABI_T_ERR_CANNOT_INIT] = %s," % (n[4:], n))
    out.append("};\n")
    # each group both ways: a switch of its values, or for a bit set, each bit alone
    groups = [(g, n, False) for g, n in sorted(GROUPS.items())]
    groups += [(g, n, True) for g, n in sorted(BIT_GROUPS.items())]
    for g, names, bits in groups:
        names = [n for n in names if n in nat and n in abi]
        for d, from_abi in (("in", True), ("out", False)):
            pairs = [("ABI_" + n[4:], n) if from_abi else (n, "ABI_" + n[4:]) for n in names]
            if bits:
                out.append("int abi_%s_%s(int v)\n{\n    int r = v & ~(%s);" % (
                    g, d, " | ".join(a for a, b in pairs)))
                out += ["    r |= (v & %s) ? %s : 0;" % p for p in pairs]
                out.append("    return r;\n}\n")
            else:
                out.append("int abi_map_%s_%s(int v)\n{\n    switch (v) {" % (g, d))
                out += ["    case %s:\n        return %s;" % p for p in pairs]
                out.append("    default:\n        return v;\n    }\n}\n")
    return "\n".join(out) + "\n"


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
    native_h = os.path.join(top, "include", "mpi.h")
    abi_h = os.path.join(top, "include", "mpi_abi.h")
    have = compi_procedures(native_h)

    wraps = [GEN_HEAD % version, '#include "abi/abi.h"\n']
    natives = []   # (name, native prototype)
    protos = []    # standard ABI prototypes
    gaps_rule, gaps_left = [], []
    done = set()
    for c in procedures(have):
        ret, cname, decls = split_proto(str(c))
        if cname in done:
            continue
        done.add(cname)
        if cname[4:] not in have:
            continue
        if re.search(r"_(toint|fromint)$", cname):
            # the standard ABI's own conversions (abi/abi_core.c; EXTRA_PROTOS), not the
            # native library's
            continue
        why = skip_reason(cname, c)
        if why:
            gaps_left.append((cname, why))
            continue
        if cname in LEFT_OUT:
            gaps_left.append((cname, LEFT_OUT[cname]))
            continue
        nname = cname[4:]
        natives.append((nname, "%s (*%s)(%s)" % (
            ret, nname, ", ".join(native_decl(c_decl(d)) for d in decls) or "void")))
        protos.append("%s %s(%s)" % (ret, cname, ", ".join(c_decl(d) for d in decls) or "void"))
        if cname in MANUAL:
            gaps_rule.append((cname, MANUAL[cname]))
            continue
        try:
            wraps.append(wrapper(c, nname))
        except Unbound as e:
            gaps_left.append((cname, "no rule for " + str(e)))
            protos.pop()

    # the prototypes, MPI_ then PMPI_, into mpi_abi.h between its markers
    allp = sorted(protos + "\n".join(EXTRA_PROTOS).split("\n"),
                  key=lambda p: split_proto(p)[1])
    block = "".join("%s;\n" % p for p in allp)
    block += "\n" + "".join("%s;\n" % re.sub(r"\bMPI_(\w+)\(", r"PMPI_\1(", p) for p in allp)
    text = open(abi_h).read()
    begin = text.index("/* ---- prototypes")
    begin = text.index("\n", begin) + 1
    end = text.index("/* ---- end of prototypes")
    new_h = text[:begin] + block + text[end:]

    nat_h = [GEN_HEAD % version, "#ifndef ABI_GEN_NATIVE_H\n#define ABI_GEN_NATIVE_H\n",
             "/* compi's native functions (PMPI_), as libmpi.so.12 defines them */",
             "struct abi_native {"]
    for nname, p in sorted(natives):
        nat_h.append("    %s;" % p)
    nat_h.append("};\n")
    nat_h.append("/* fills the table: look(\"PMPI_x\") gives the native function's address */")
    nat_h.append("#define ABI_NATIVE_FILL(t, look) \\")
    for nname, p in sorted(natives):
        nat_h.append("    *(void **)&(t)->%s = look(\"PMPI_%s\"); \\" % (nname, nname))
    nat_h.append("    do { } while (0)\n")
    nat_h.append("#endif")

    names_h = [GEN_HEAD % version, "#ifndef ABI_GEN_NAMES_H\n#define ABI_GEN_NAMES_H",
               "#include <stdint.h>", abi_decls(abi_h), "#endif"]

    gaps = ["# The standard ABI layer (libmpi_abi.so.1): procedures compi's native library has",
            "# that the generated wrappers do not cover.  Generated by tools/mpigen/abigen.py.",
            "", "## written by hand (abi/abi_manual.c)"]
    gaps += ["%s: %s" % g for g in sorted(gaps_rule)]
    gaps += ["", "## not in the layer"]
    gaps += ["%s: %s" % g for g in sorted(gaps_left)]

    files = {
        os.path.join("include", "mpi_abi.h"): new_h,
        os.path.join("abi", "gen", "abi_wrap.c"): "\n".join(wraps),
        os.path.join("abi", "gen", "abi_native.h"): "\n".join(nat_h) + "\n",
        os.path.join("abi", "gen", "abi_names.h"): "\n".join(names_h) + "\n",
        os.path.join("abi", "gen", "abi_tables.c"): tables(abi_h, native_h, version),
        os.path.join("abi", "gen", "gaps.txt"): "\n".join(gaps) + "\n",
    }
    for rel, body in files.items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(body)
    print("abigen: %d wrappers generated, %d by hand, %d left out (abi/gen/gaps.txt)"
          % (len(wraps) - 2, len(gaps_rule), len(gaps_left)))


if __name__ == "__main__":
    sys.exit(main())
