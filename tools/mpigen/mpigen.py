#!/usr/bin/env python3
"""mpigen -- compi's Fortran bindings, generated from the MPI Forum's machine-readable
description of the standard (the Python package pympistandard, which carries the
standard's apis.json).

    python3 tools/mpigen/mpigen.py [--header include/mpi.h] [--out fortran/gen]

Reads every procedure of the standard and compi's include/mpi.h (which procedures compi
implements, which constants it defines) and writes into the output folder:

  glue.c          C functions with gfortran's names (mpi_send_, ...) that take the
                  Fortran arguments (everything by reference, INTEGER handles, LOGICALs,
                  hidden string lengths, the sentinels MPI_BOTTOM, MPI_IN_PLACE,
                  MPI_STATUS(ES)_IGNORE, ... as addresses of common blocks) and call the
                  C function; procedures whose arguments need more than a rule (callbacks,
                  attribute values, argument vectors) are written by hand in
                  fortran/glue_manual.c and only named here
  mpif_consts.c   a C program that prints mpif.h (and the constants of the modules mpi
                  and mpi_f08) with the values of compi's mpi.h: make compiles it against
                  the header and runs it, so the Fortran constants never drift from C's
  mpi_interfaces.f90  the explicit interfaces of the module mpi (use mpi)
  mpi_f08_types.f90, mpi_f08.f90  the module mpi_f08: derived types (TYPE(MPI_Comm),
                  TYPE(MPI_Status), ...) and a procedure per MPI procedure that calls the
                  glue above, and one per large-count form compi has in C (MPI_Send_c,
                  under the generic MPI_Send)
  mpi_sizeof.F90  the module compi_mpi_sizeof (MPI_SIZEOF), used by mpi and mpi_f08
  gaps.txt        the report: procedures of the standard compi does not implement, and
                  those it implements in C that have no Fortran binding yet, each with
                  the reason

The output is committed; tests/tools/mpigen.sh regenerates it into a temporary folder and
compares.  Nothing here depends on the time, the machine or the order of a dict.
"""

import argparse
import os
import re
import sys

import pympistandard as std

# ---- what compi has --------------------------------------------------------------------


# The MPI_ functions compi's mpi.h declares, by their name without MPI_: read through the
# preprocessor (the large-count collectives are declared by macros), as the standard ABI's
# generator reads them.
from abigen import compi_procedures  # noqa: E402


def compi_constants(header):
    """The integer constants of mpi.h: #define MPI_X <value> whose value is no pointer and
    no string, and the members of its enums, in the order of the header."""
    text = open(header).read()
    names = []
    skip_value = re.compile(r"\*|\"|void|_fn\b|_function")
    for m in re.finditer(r"^#define\s+(MPI[X]?_[A-Z0-9_]+)\s+(.+?)\s*(?:/\*.*)?$", text, re.M):
        name, value = m.group(1), m.group(2)
        if skip_value.search(value) or name.endswith("_FN"):
            continue
        names.append(name)
    for body in re.findall(r"enum\s*\{([^}]*)\}", text):
        for item in body.split(","):
            item = item.split("=")[0].strip()
            if re.match(r"^MPI_[A-Z0-9_]+$", item):
                names.append(item)
    seen = set()
    out = []
    for n in names:
        # Fortran names are case-blind and no longer than 63 characters
        if n.upper() in seen or len(n) > 63:
            continue
        seen.add(n.upper())
        out.append(n)
    return out


# ---- the procedures written by hand (fortran/glue_manual.c) -----------------------------

# name -> what the hand-written glue does that no rule here can
MANUAL = {
    "MPI_Init": "argc/argv do not exist in Fortran",
    "MPI_Init_thread": "argc/argv do not exist in Fortran",
    "MPI_Comm_create_keyval": "Fortran copy/delete callbacks take their arguments by reference",
    "MPI_Type_create_keyval": "Fortran copy/delete callbacks take their arguments by reference",
    "MPI_Win_create_keyval": "Fortran copy/delete callbacks take their arguments by reference",
    "MPI_Keyval_create": "Fortran copy/delete callbacks take their arguments by reference",
    "MPI_Comm_get_attr": "an attribute value set as an integer reads as the integer",
    "MPI_Type_get_attr": "an attribute value set as an integer reads as the integer",
    "MPI_Win_get_attr": "an attribute value set as an integer reads as the integer",
    "MPI_Attr_get": "an attribute value set as an integer reads as the integer",
    "MPI_Comm_set_attr": "an integer value, which C reads through a pointer",
    "MPI_Type_set_attr": "an integer value, which C reads through a pointer",
    "MPI_Win_set_attr": "an integer value, which C reads through a pointer",
    "MPI_Attr_put": "an integer value, which C reads through a pointer",
    "MPI_Comm_create_errhandler": "a Fortran error handler is called as a C one",
    "MPI_Win_create_errhandler": "a Fortran error handler is called as a C one",
    "MPI_Session_create_errhandler": "a Fortran error handler is called as a C one",
    "MPI_File_create_errhandler": "a Fortran file handler gets the file's INTEGER handle",
    "MPI_Op_create": "a Fortran user function is called as a C one",
    "MPI_Buffer_detach": "the buffer's address has no Fortran meaning",
    "MPI_Comm_detach_buffer": "the buffer's address has no Fortran meaning",
    "MPI_Session_detach_buffer": "the buffer's address has no Fortran meaning",
    "MPI_Comm_spawn": "argument vectors of blank-padded strings",
    "MPI_Comm_spawn_multiple": "argument vectors of blank-padded strings",
    "MPI_Grequest_start": "Fortran query/free/cancel callbacks take their arguments by reference",
    "MPI_Pcontrol": "C's takes more arguments (varargs)",
    "MPI_Info_get_string": "BUFLEN counts characters without C's terminating null",
}

# the standard's Fortran-only procedures fortran/glue_manual.c has (the same interface in
# the three bindings: no IERROR)
FORTRAN_ONLY_MANUAL = {"MPI_F_sync_reg": "a call the compiler cannot see through"}

# the standard's Fortran-only procedures the generator writes as module procedures of
# their own module (gen/mpi_sizeof.F90), which use mpi and use mpi_f08 both use
FORTRAN_ONLY_MODULE = {"MPI_Sizeof": "gen/mpi_sizeof.F90"}

# MPI_SIZEOF's specific procedures: the intrinsic types and kinds gfortran has, the
# optional ones under the macro gfortran's preprocessor defines when the kind exists
SIZEOF_TYPES = [("INTEGER(KIND=%d)" % k, "i%d" % k, "__GFC_INT_%d__" % k if k > 8 else None)
                for k in (1, 2, 4, 8, 16)]
SIZEOF_TYPES += [("%s(KIND=%d)" % (t, k), "%s%d" % (t[0].lower(), k),
                  "__GFC_REAL_%d__" % k if k > 8 else None)
                 for t in ("REAL", "COMPLEX") for k in (4, 8, 10, 16)]
SIZEOF_TYPES += [("LOGICAL(KIND=%d)" % k, "l%d" % k, None) for k in (1, 2, 4, 8)]
SIZEOF_TYPES += [("CHARACTER(LEN=*)", "ch", None)]


def sizeof_module(version):
    """The module compi_mpi_sizeof: the generic MPI_SIZEOF(X, SIZE, IERROR), one specific
    per intrinsic type and kind, X of any rank (assumed rank: a scalar too), SIZE the
    bytes of one element (of a CHARACTER: of one character).  IERROR is optional, as
    mpi_f08 has it; use mpi's callers pass it."""
    m = ["! Generated by tools/mpigen/mpigen.py (pympistandard %s): do not edit." % version,
         "! MPI_SIZEOF for use mpi and use mpi_f08: the size in bytes of one element of X.",
         "MODULE compi_mpi_sizeof",
         "  IMPLICIT NONE",
         "  PRIVATE",
         "  PUBLIC :: MPI_SIZEOF",
         "  INTERFACE MPI_SIZEOF"]
    body = []
    for t, tag, macro in SIZEOF_TYPES:
        f = "compi_sizeof_" + tag
        size = "STORAGE_SIZE(' ') / 8" if tag == "ch" else "STORAGE_SIZE(x) / 8"
        if macro:
            m.append("#ifdef " + macro)
            body.append("#ifdef " + macro)
        m.append("    MODULE PROCEDURE " + f)
        body += ["  SUBROUTINE %s(x, size, ierror)" % f,
                 "    %s, DIMENSION(..), INTENT(IN) :: x" % t,
                 "    INTEGER, INTENT(OUT) :: size",
                 "    INTEGER, OPTIONAL, INTENT(OUT) :: ierror",
                 "    size = %s" % size,
                 "    IF (PRESENT(ierror)) ierror = 0",
                 "  END SUBROUTINE " + f]
        if macro:
            m.append("#endif")
            body.append("#endif")
    m += ["  END INTERFACE MPI_SIZEOF", "CONTAINS"] + body + ["END MODULE compi_mpi_sizeof"]
    return "\n".join(m) + "\n"


# kinds of parameters no rule below binds (a procedure with one needs MANUAL)
UNBOUND_KINDS = {
    "FUNCTION": "a callback",
    "FUNCTION_SMALL": "a callback",
    "POLYFUNCTION": "a callback",
    "EXTRA_STATE": "extra state of a callback",
    "EXTRA_STATE2": "extra state of a callback",
    "STRING_ARRAY": "an array of strings",
    "STRING_2DARRAY": "an array of arrays of strings",
    "C_BUFFER2": "a buffer's address",
    "C_BUFFER3": "a buffer's address",
    "C_BUFFER4": "a buffer's address",
    "TOOL_MPI_OBJ": "a tool interface object",
}

# C base types and the Fortran INTEGER kind that has their size on compi's targets
C_INT_TYPES = {
    "int", "MPI_Fint", "MPI_Comm", "MPI_Group", "MPI_Datatype", "MPI_Op", "MPI_Request",
    "MPI_Errhandler", "MPI_Message", "MPI_Info", "MPI_Win", "MPI_File", "MPI_Session",
}
F_KIND_OF_C = {"MPI_Aint": "MPI_ADDRESS_KIND", "MPI_Count": "MPI_COUNT_KIND",
               "MPI_Offset": "MPI_OFFSET_KIND"}

# the handle types of mpi_f08, C type -> derived type (each with one INTEGER, MPI_VAL)
F08_HANDLES = ["MPI_Comm", "MPI_Datatype", "MPI_Group", "MPI_Op", "MPI_Request",
               "MPI_Errhandler", "MPI_Message", "MPI_Info", "MPI_Win", "MPI_File",
               "MPI_Session"]


class Unbound(Exception):
    """A parameter no rule binds; the message says why."""


def f90_kind_of(ftype):
    m = re.match(r"INTEGER\(KIND=(\w+)\)", ftype)
    return m.group(1) if m else None


class Param:
    """One parameter of one procedure: its C and its Fortran sides."""

    def __init__(self, cparam, fparam):
        ps = cparam._parseset
        self.name = ps["name"]
        self.kind = ps["kind"]
        self.direction = ps["param_direction"]
        self.length = ps["length"]
        self.const = bool(ps["constant"])
        self.cbase = cparam.base_type
        self.cptr = cparam.pointer_level
        self.carray = cparam.array
        self.ftype = fparam.type if fparam is not None else None
        self.fdims = fparam.dimensions if fparam is not None else ""

    @property
    def is_pointer(self):
        return self.cptr > 0 or self.carray != ""


def glue_param(p, code):
    """Adds to code (a dict of lists: args, lens, pre, call, post) what one parameter
    needs; raises Unbound when no rule fits."""
    n = p.name
    if p.kind in UNBOUND_KINDS:
        raise Unbound("%s (%s)" % (n, UNBOUND_KINDS[p.kind]))
    if p.ftype is None:
        # argc/argv and the like: no Fortran argument
        code["call"].append("0" if not p.is_pointer else "NULL")
        return
    ft = p.ftype
    if p.kind == "F08_STATUS":
        # TYPE(MPI_Status) of use mpi_f08 (use mpi has it too): C's MPI_F08_status, word
        # for word (mpi_f08_types.f90)
        code["args"].append("MPI_Fint *" + n)
        code["call"].append("(MPI_F08_status *)" + n)
        return
    if ft == "<type>":
        code["args"].append("void *" + n)
        code["call"].append("compi_f_buf(%s)" % n)
        return
    if ft.startswith("CHARACTER"):
        code["args"].append("char *" + n)
        code["lens"].append("size_t %s_len" % n)
        if p.direction == "in":
            code["pre"].append("char *c_%s = compi_f_str_in(%s, %s_len);" % (n, n, n))
            code["call"].append("c_" + n)
            code["post"].append("free(c_%s);" % n)
        elif p.direction == "out":
            code["pre"].append("char *c_%s = compi_f_str_buf(%s_len);" % (n, n))
            code["call"].append("c_" + n)
            code["post"].append("compi_f_str_out(c_%s, %s, %s_len);" % (n, n, n))
        else:
            raise Unbound("%s (a string both read and written)" % n)
        return
    if ft == "LOGICAL":
        code["args"].append("MPI_Fint *" + n)
        if p.carray or p.length is not None:
            # arrays of LOGICAL: gfortran's .TRUE. is 1, .FALSE. 0, like C's flags
            code["call"].append(n)
        elif not p.is_pointer:
            code["call"].append("(*%s != 0)" % n)
        elif p.direction == "out":
            code["pre"].append("int c_%s = 0;" % n)
            code["call"].append("&c_" + n)
            code["post"].append("*%s = c_%s ? 1 : 0;" % (n, n))
        else:
            raise Unbound("%s (a LOGICAL read and written)" % n)
        return
    if ft.startswith("INTEGER"):
        fkind = f90_kind_of(ft)
        base = p.cbase
        if p.kind == "STATUS":
            code["args"].append("MPI_Fint *" + n)
            code["call"].append("compi_f_status(%s)" % n)
            return
        if p.kind in ("ATTRIBUTE_VAL", "ATTRIBUTE_VAL_10"):
            if p.direction != "in":
                raise Unbound("%s (an attribute value written back)" % n)
            t = "MPI_Aint" if p.kind == "ATTRIBUTE_VAL" else "MPI_Fint"
            code["args"].append("%s *%s" % (t, n))
            code["call"].append("(void *)(MPI_Aint)*%s" % n)
            return
        if p.kind == "C_BUFFER":
            # a base address returned into an INTEGER(KIND=MPI_ADDRESS_KIND)
            if fkind != "MPI_ADDRESS_KIND":
                raise Unbound("%s (an address in an INTEGER of another kind)" % n)
            code["args"].append("MPI_Aint *" + n)
            code["call"].append(n if p.direction != "in" else "(void *)*%s" % n)
            return
        if fkind is None:
            if base not in C_INT_TYPES:
                raise Unbound("%s (C %s in a default INTEGER)" % (n, base))
        elif F_KIND_OF_C.get(base) != fkind:
            raise Unbound("%s (C %s in INTEGER(KIND=%s))" % (n, base, fkind))
        if base == "MPI_File":
            # a file is a pointer in C (as in MPICH): Fortran holds its MPI_File_c2f handle
            code["args"].append("MPI_Fint *" if p.is_pointer else "const MPI_Fint *")
            code["args"][-1] += n
            if not p.is_pointer:
                code["call"].append("MPI_File_f2c(*%s)" % n)
                return
            code["pre"].append("MPI_File c_%s = %s;" % (
                n, "MPI_FILE_NULL" if p.direction == "out" else "MPI_File_f2c(*%s)" % n))
            code["call"].append("&c_" + n)
            code["post"].append("*%s = MPI_File_c2f(c_%s);" % (n, n))
            return
        if not p.is_pointer:
            code["args"].append("const %s *%s" % (base, n))
            code["call"].append("*" + n)
            return
        if p.carray.startswith("[]["):
            code["args"].append("%s (*%s)%s" % (base, n, p.carray[2:]))
            code["call"].append(n)
            return
        code["args"].append("%s *%s" % (base, n))
        if p.kind == "ERROR_CODE" and p.carray:
            code["call"].append("compi_f_errcodes(%s)" % n)
        elif p.kind == "WEIGHT":
            code["call"].append("compi_f_weights(%s)" % n)
        else:
            code["call"].append(n)
        return
    raise Unbound("%s (Fortran type %s)" % (n, ft))


RET_TYPES = {"DOUBLE PRECISION": "double", "INTEGER(KIND=MPI_ADDRESS_KIND)": "MPI_Aint"}


class FParam:
    """A Fortran dummy argument as the rules read it: name, type, dimensions."""

    def __init__(self, name, ftype, dims):
        self.name = name
        self.type = ftype
        self.dimensions = dims


def big_changes(proc):
    """The parameters whose C type a procedure's large-count form (MPI_Send_c) changes:
    lower-case name -> (C type, the large-count form's C type); a parameter the other
    form lacks (MPI_Type_get_envelope_c's num_large_counts): (None, its C type)."""
    c = {p._parseset["name"].lower(): p.base_type for p in proc.express.iso_c.parameters}
    out = {}
    for p in proc.express.embiggen.iso_c.parameters:
        n = p._parseset["name"].lower()
        if c.get(n) != p.base_type:
            out[n] = (c.get(n), p.base_type)
    return out


def big_distinct(proc):
    """Whether the large-count form is told apart from the other by its arguments' kinds
    alone: some default INTEGER becomes MPI_COUNT_KIND or MPI_ADDRESS_KIND.  When only
    MPI_ADDRESS_KIND ones become MPI_COUNT_KIND (MPI_Type_get_extent_c), the two kinds may
    be one, and the standard names the large-count form apart."""
    return any(old in C_INT_TYPES for old, _ in big_changes(proc).values())


def f_params(proc, big=False):
    """lower-case name -> the Fortran dummy arguments of use mpi's binding of a procedure;
    with big, of its large-count form: the INTEGERs whose C type it changes take the kind
    of their new C type (MPI_Count: MPI_COUNT_KIND, MPI_Aint: MPI_ADDRESS_KIND)."""
    changes = big_changes(proc) if big else {}
    for n, (old, _) in changes.items():
        if old is None:
            raise Unbound("%s (not in the procedure's other form)" % n)
    out = {}
    for fp in proc.express.f90.parameters:
        n = fp.name.lower()
        t = fp.type
        if n in changes:
            kind = F_KIND_OF_C.get(changes[n][1])
            if kind is None or not t.startswith("INTEGER"):
                raise Unbound("%s (C %s in Fortran %s)" % (n, changes[n][1], t))
            t = "INTEGER(KIND=%s)" % kind
        out[n] = FParam(fp.name, t, fp.dimensions)
    return out


# the procedures that return indices into an array of requests: from 0 in C, from 1 in
# Fortran (MPI_UNDEFINED, negative, stays; nothing was written when the call failed)
_INDEX_ONE = "if (rc == MPI_SUCCESS && *index >= 0) {\n        *index += 1;\n    }"
_INDEX_SOME = ("if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {\n"
               "        for (int i = 0; i < *outcount; i++) {\n"
               "            array_of_indices[i] += 1;\n"
               "        }\n    }")
FORTRAN_INDEX = {"MPI_Waitany": _INDEX_ONE, "MPI_Testany": _INDEX_ONE,
                 "MPI_Request_get_status_any": _INDEX_ONE,
                 "MPI_Waitsome": _INDEX_SOME, "MPI_Testsome": _INDEX_SOME,
                 "MPI_Request_get_status_some": _INDEX_SOME}


def procedure_glue(proc, big=False):
    """(C source of the glue, None) or (None, reason); with big, of the large-count form
    (mpi_send_c_ calls MPI_Send_c)."""
    c = proc.express.embiggen.iso_c if big else proc.express.iso_c
    f = proc.express.f90
    code = {"args": [], "lens": [], "pre": [], "call": [], "post": []}
    try:
        fparams = f_params(proc, big)
        for cp in c.parameters:
            if cp._parseset["kind"] == "VARARGS":
                raise Unbound("varargs")
            glue_param(Param(cp, fparams.get(cp._parseset["name"].lower())), code)
    except Unbound as e:
        return None, "parameter " + str(e)
    cname = c.name
    fname = cname.lower() + "_"
    if cname in FORTRAN_INDEX:
        code["post"].append(FORTRAN_INDEX[cname])
    if cname.startswith("MPI_Info_"):
        # info keys and values lose their leading blanks too in Fortran (the standard)
        code["pre"] = [x.replace("compi_f_str_in(", "compi_f_info_str_in(") for x in code["pre"]]
    if "int c_flag = 0;" in code["pre"]:
        # a string out with a flag (MPI_INFO_GET's value): left alone when flag is false
        code["post"] = [re.sub(r"^compi_f_str_out\((c_\w+), (.*)\);$",
                               r"if (c_flag) {\n        compi_f_str_out(\1, \2);\n"
                               r"    } else {\n        free(\1);\n    }", x)
                        for x in code["post"]]
    ret = f.return_type
    lines = []
    has_ierror = any(fp.name == "IERROR" for fp in f.parameters)
    if ret is None:
        args = code["args"] + (["MPI_Fint *ierror"] if has_ierror else []) + code["lens"]
        lines.append("COMPI_F_EXPORT void %s(%s)" % (fname, ", ".join(args)))
        lines.append("{")
        for s in code["pre"]:
            lines.append("    " + s)
        lines.append("    int rc = %s(%s);" % (cname, ", ".join(code["call"])))
        for s in code["post"]:
            lines.append("    " + s)
        lines.append("    *ierror = rc;" if has_ierror else "    (void)rc;")
        lines.append("}")
        lines.append("COMPI_F_ALIAS(p%s, %s);" % (fname, fname))
    else:
        if ret not in RET_TYPES or code["pre"] or code["lens"]:
            return None, "returns %s" % ret
        args = code["args"] or ["void"]
        t = RET_TYPES[ret]
        lines.append("COMPI_F_EXPORT %s %s(%s)" % (t, fname, ", ".join(args)))
        lines.append("{")
        lines.append("    return %s(%s);" % (cname, ", ".join(code["call"])))
        lines.append("}")
        lines.append("COMPI_F_ALIAS(p%s, %s);" % (fname, fname))
    return "\n".join(lines) + "\n", None


# ---- Fortran interfaces (use mpi) --------------------------------------------------------

def f_wrap(line, indent):
    """Free-form line continuation at 100 columns."""
    out = []
    while len(line) > 100:
        cut = line.rfind(", ", 0, 96) + 1
        out.append(line[:cut] + " &")
        line = indent + "    " + line[cut:].lstrip()
    out.append(line)
    return out


def f90_decl(fp):
    """The declaration of one dummy argument of the mpi module's interfaces."""
    t = fp.type
    name = fp.name
    dims = fp.dimensions
    pre = []
    if t == "<type>":
        pre.append("!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s" % name)
        return pre + ["TYPE(*), DIMENSION(*) :: %s" % name]
    if t == "EXTERNAL":
        return ["EXTERNAL :: %s" % name]
    if t.startswith("CHARACTER"):
        t = "CHARACTER(LEN=*)"
    if dims:
        return ["%s, DIMENSION%s :: %s" % (t, dims, name)]
    return ["%s :: %s" % (t, name)]


def procedure_interface(proc, cptr=False, pmpi=False):
    """The interface body of a procedure of use mpi; with cptr, of its _CPTR twin (the
    base address a TYPE(C_PTR), for MPI_ALLOC_MEM and the windows' allocations); with
    pmpi, of its profiling name (PMPI_WTIME)."""
    f = proc.express.f90
    names = [fp.name for fp in f.parameters]
    ret = f.return_type
    name = ("P" if pmpi else "") + f.name + ("_CPTR" if cptr else "")
    lines = []
    kw = "SUBROUTINE" if ret is None else "FUNCTION"
    head = "%s %s(%s)" % (kw, name, ", ".join(names))
    lines += f_wrap("  " + head, "  ")
    if cptr:
        lines.append("    USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR")
    lines.append("    IMPORT")
    lines.append("    IMPLICIT NONE")
    if ret is not None:
        lines.append("    %s :: %s" % (ret, name))
    for fp in f.parameters:
        if cptr and fp.kind.name == "C_BUFFER":
            lines.append("    TYPE(C_PTR) :: %s" % fp.name)
            continue
        for d in f90_decl(fp):
            lines += f_wrap("    " + d, "    ")
    lines.append("  END %s %s" % (kw, name))
    return "\n".join(lines) + "\n"


def has_cptr(proc):
    return proc.express._has_cptr()


# ---- mpi_f08 ------------------------------------------------------------------------------

def f08_wrapper(proc, big=False):
    """({spec, iface, src}, None) or (None, reason): the procedure's specific procedures
    of mpi_f08 under the standard's names (spec: MPI_Send_f08ts, or MPI_Comm_rank_f08
    without a choice buffer), external so that a tool can define them: src has
    MPI_..._f08(ts), which hands its arguments on to PMPI_..._f08(ts), which hands them on
    to the mpif.h glue through an interface of its own; iface is the interface body both
    share (with spec's name).  The dummy arguments are as the standard's f08 binding has
    them (handles as derived types, statuses as TYPE(MPI_Status), optional ierror).  With
    big, the large-count form's (MPI_Send_c_f08ts, counts of MPI_COUNT_KIND, calling
    mpi_send_c_)."""
    c = proc.express.embiggen.iso_c if big else proc.express.iso_c
    f = proc.express.f90
    try:
        fparams = f_params(proc, big)
    except Unbound as e:
        return None, "parameter " + str(e)
    dummies = []  # declarations
    cptr = False
    names = []
    actuals = []
    glue_decls = []  # the glue's dummies, as this wrapper passes them
    params = {}  # name -> (Fortran type, dimensions, C base type)
    choices = []  # the choice buffers
    for cp in c.parameters:
        ps = cp._parseset
        fp = fparams.get(ps["name"].lower())
        if fp is None:
            continue
        name = fp.name.lower()
        base = cp.base_type
        t = fp.type
        dims = fp.dimensions
        intent = {"in": "IN", "out": "OUT", "inout": "INOUT"}[ps["param_direction"]]
        names.append(name)
        params[name] = (t, dims, base)
        if t == "<type>":
            # assumed rank: a descriptor, which compi_f08_choice turns into an address
            # (and, for a section, a datatype)
            dummies.append("TYPE(*), DIMENSION(..) :: %s" % name)
            glue_decls.append("TYPE(C_PTR), VALUE :: %s" % name)
            actuals.append("c_" + name)
            choices.append(name)
            continue
        if ps["kind"] in ("STATUS", "F08_STATUS"):
            one = dims == "(MPI_STATUS_SIZE)" or ps["kind"] == "F08_STATUS"
            arr = "" if one else "(*)"
            dummies.append("TYPE(MPI_Status), INTENT(%s) :: %s%s" % (intent, name, arr))
            glue_decls.append("!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s" % name)
            glue_decls.append("TYPE(*), DIMENSION(*) :: %s" % name)
            actuals.append(name)
        elif ps["kind"] == "C_BUFFER" and has_cptr(proc):
            # the standard's f08 binding has the base address as a TYPE(C_PTR)
            cptr = True
            dummies.append("TYPE(C_PTR), INTENT(%s) :: %s" % (intent, name))
            glue_decls.append("TYPE(C_PTR) :: %s" % name)
            actuals.append(name)
        elif base in F08_HANDLES and t == "INTEGER" and dims:
            # an array of handles is an array of INTEGERs, word for word (its size is
            # not known here, so it cannot be taken apart as array%MPI_VAL)
            dummies.append("TYPE(%s), INTENT(%s) :: %s(*)" % (base, intent, name))
            glue_decls.append("!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s" % name)
            glue_decls.append("TYPE(*), DIMENSION(*) :: %s" % name)
            actuals.append(name)
        elif base in F08_HANDLES and t == "INTEGER":
            dummies.append("TYPE(%s), INTENT(%s) :: %s" % (base, intent, name))
            glue_decls.append("INTEGER :: %s" % name)
            actuals.append(name + "%MPI_VAL")
        elif t == "EXTERNAL":
            dummies.append("EXTERNAL :: %s" % name)
            glue_decls.append("EXTERNAL :: %s" % name)
            actuals.append(name)
        elif t.startswith("CHARACTER"):
            dummies.append("CHARACTER(LEN=*), INTENT(%s) :: %s%s" % (intent, name, dims))
            glue_decls.append("CHARACTER(LEN=*) :: %s%s" % (name, dims))
            actuals.append(name)
        elif t == "LOGICAL" or t.startswith("INTEGER"):
            dummies.append("%s, INTENT(%s) :: %s%s" % (t, intent, name, dims))
            glue_decls.append("%s :: %s%s" % (t, name, dims))
            actuals.append(name)
        else:
            return None, "parameter %s (Fortran type %s)" % (name, t)
    gname = f.name + ("_C" if big else "")
    # (MPI_PCONTROL has no IERROR)
    ierr = ["ierr"] if any(fp.name == "IERROR" for fp in f.parameters) else []
    pre, post, locals_ = choice_code(choices, params, names, actuals, bool(ierr))
    # the standard's specific names (MPI 4.1, 19.1.5): _f08ts with a choice buffer of
    # TS 29113 (assumed type and rank), _f08 without one; the profiling name PMPI_...
    spec = c.name + ("_f08ts" if choices else "_f08")
    args = ", ".join(names + ["ierror"] * len(ierr))
    decls = []  # the dummies' declarations, shared by the procedures and the interfaces
    for d in dummies:
        decls += f_wrap("  " + d, "  ")
    if ierr:
        decls.append("  INTEGER, OPTIONAL, INTENT(OUT) :: ierror")
    iface = f_wrap("SUBROUTINE %s(%s)" % (spec, args), "")
    if cptr:
        iface.append("  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR")
    iface += ["  IMPORT", "  IMPLICIT NONE"] + decls + ["END SUBROUTINE %s" % spec]
    # MPI_Send_f08ts hands its arguments on to PMPI_Send_f08ts, which does the work: a tool
    # that defines MPI_Send_f08ts and calls PMPI_Send_f08ts sees every call
    fwd = f_wrap("SUBROUTINE %s(%s)" % (spec, args), "")
    fwd.append("  USE mpi_f08_types")
    fwd.append("  USE mpi_f08, ONLY : P%s" % spec)
    if cptr:
        fwd.append("  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR")
    fwd.append("  IMPLICIT NONE")
    fwd += decls
    fwd += f_wrap("  CALL P%s(%s)" % (spec, args), "  ")
    fwd.append("END SUBROUTINE %s" % spec)
    lines = []
    lines += f_wrap("SUBROUTINE P%s(%s)" % (spec, args), "")
    lines.append("  USE mpi_f08_types")
    if choices:
        lines.append("  USE compi_f08_choice")
        lines.append("  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR, C_LONG_LONG")
    elif cptr:
        lines.append("  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR")
    lines.append("  IMPLICIT NONE")
    lines += decls
    if ierr:
        lines.append("  INTEGER :: ierr")
    lines += ["  " + x for x in locals_]
    lines.append("  INTERFACE")
    lines += f_wrap("    SUBROUTINE %s(%s)" % (gname, ", ".join(names + ierr)), "    ")
    lines.append("      IMPORT")
    lines.append("      IMPLICIT NONE")
    for d in glue_decls:
        lines += f_wrap("      " + d, "      ")
    if ierr:
        lines.append("      INTEGER :: ierr")
    lines.append("    END SUBROUTINE %s" % gname)
    lines.append("  END INTERFACE")
    lines += ["  " + x for x in pre]
    lines += f_wrap("  CALL %s(%s)" % (gname, ", ".join(actuals + ierr)), "  ")
    lines += ["  " + x for x in post]
    if ierr:
        lines.append("  IF (PRESENT(ierror)) ierror = ierr")
    lines.append("END SUBROUTINE P%s" % spec)
    return {"spec": spec, "iface": iface,
            "src": "\n".join(fwd) + "\n" + "\n".join(lines) + "\n"}, None


# the count and datatype that go with a choice buffer, by the buffer's name: the first of
# these pairs (stem: sendbuf -> send, origin_addr -> origin, ...) that the procedure has
CHOICE_STEMS = {"buf": "", "sendbuf": "send", "recvbuf": "recv", "origin_addr": "origin",
                "result_addr": "result", "inbuf": "in", "outbuf": "out"}


def choice_pair(b, params):
    """(count, datatype) of choice buffer b, both scalars of the procedure, or None"""
    stem = CHOICE_STEMS.get(b)
    cands = [] if stem is None else [(stem + "count", stem + "type"),
                                     (stem + "_count", stem + "_datatype"),
                                     (stem + "count", "datatype")]
    cands.append(("count", "datatype"))
    for cn, dn in cands:
        if cn in params and dn in params:
            (ct, cdims, _), (dt, ddims, dbase) = params[cn], params[dn]
            if ct.startswith("INTEGER") and not cdims and dbase == "MPI_Datatype" and not ddims:
                return cn, dn
    return None


def choice_code(choices, params, names, actuals, has_ierr):
    """What an mpi_f08 procedure does around its call for its choice buffers: (lines
    before, lines after, local declarations).  Each buffer's address comes from
    compi_f08_choice1 (or _choice2 for two of one count and datatype); where it made a
    datatype for a section, the call takes it with a count of 1 and frees it after."""
    if not choices:
        return [], [], []
    pre, post = [], []
    locals_ = ["INTEGER :: c_err"] + ["TYPE(C_PTR) :: c_%s" % b for b in choices]
    groups = {}
    for b in choices:
        groups.setdefault(choice_pair(b, params), []).append(b)
    fail = ["IF (c_err /= 0) THEN"] + (["  IF (PRESENT(ierror)) ierror = c_err"] if has_ierr
                                       else []) + ["  RETURN", "END IF"]
    for pair, bufs in groups.items():
        if pair is None or len(bufs) > 2:
            locals_.append("INTEGER :: c_nodt, c_nomade")
            for b in bufs:
                pre.append("CALL compi_f08_choice1(%s, -1_C_LONG_LONG, c_nodt, c_%s, c_nomade, "
                           "c_err)" % (b, b))
                pre += fail
            continue
        cn, dn = pair
        ct = params[cn][0]
        locals_.append("%s :: c_%s" % (ct, cn))
        locals_.append("INTEGER :: c_%s, c_made_%s" % (dn, dn))
        pre.append("c_%s = %s" % (cn, cn))
        pre.append("c_%s = %s%%MPI_VAL" % (dn, dn))
        args = ", ".join(bufs) + ", INT(%s, C_LONG_LONG), c_%s, " % (cn, dn)
        args += ", ".join("c_" + b for b in bufs) + ", c_made_%s, c_err" % dn
        pre += f_wrap("CALL compi_f08_choice%d(%s)" % (len(bufs), args), "")
        pre += fail
        pre.append("IF (c_made_%s /= 0) c_%s = 1" % (dn, cn))
        post.append("IF (c_made_%s /= 0) CALL compi_f08_type_free(c_%s)" % (dn, dn))
        for i, a in enumerate(actuals):
            if a == cn:
                actuals[i] = "c_" + cn
            elif a == dn + "%MPI_VAL":
                actuals[i] = "c_" + dn
    return pre, post, locals_


# the interfaces of fortran/f08_section.c's helpers, in mpi_f08
CHOICE_INTERFACES = """\
  SUBROUTINE compi_f08_choice1(buf, count, datatype, base, made, ierr) BIND(C)
    USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR, C_LONG_LONG
    TYPE(*), DIMENSION(..) :: buf
    INTEGER(C_LONG_LONG), VALUE :: count
    INTEGER :: datatype, made, ierr
    TYPE(C_PTR) :: base
  END SUBROUTINE compi_f08_choice1
  SUBROUTINE compi_f08_choice2(buf1, buf2, count, datatype, base1, base2, made, ierr) BIND(C)
    USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR, C_LONG_LONG
    TYPE(*), DIMENSION(..) :: buf1, buf2
    INTEGER(C_LONG_LONG), VALUE :: count
    INTEGER :: datatype, made, ierr
    TYPE(C_PTR) :: base1, base2
  END SUBROUTINE compi_f08_choice2
  SUBROUTINE compi_f08_type_free(datatype) BIND(C)
    INTEGER :: datatype
  END SUBROUTINE compi_f08_type_free
"""


def f08_abstract_interfaces():
    """The standard's ABSTRACT INTERFACEs of use mpi_f08 for the callbacks a program writes
    (PROCEDURE(MPI_User_function), PROCEDURE(MPI_File_errhandler_function), ...): each
    callback of the description that has one, and its large-count twin (_c), rendered by
    pympistandard and written as an interface body (IMPORT brings in the handle types and
    kinds).  compi calls such a callback as C calls its own: every argument by reference,
    the C_PTR ones by value, a handle as its one INTEGER."""
    out = []
    for name in sorted(std.CALLBACKS):
        cb = std.CALLBACKS[name]
        attrs = cb._parseset["attributes"]
        if not (attrs.get("f08_abstract_interface") and attrs.get("f08_expressible")):
            continue
        renders = [cb.express.f08]
        if cb.has_embiggenment():
            renders.append(cb.express.embiggen.f08)
        for r in renders:
            lines = [line.strip() for line in str(r).splitlines() if line.strip()]
            if not lines or lines[0] != "ABSTRACT INTERFACE":
                raise SystemExit("mpigen: %s: unexpected f08 rendering" % name)
            sig, decls = lines[1], lines[2:]
            uses = [d for d in decls if d.startswith("USE")]
            rest = [d for d in decls if not d.startswith("USE")]
            out.append("  ABSTRACT INTERFACE")
            out += f_wrap("    SUBROUTINE %s" % sig, "    ")
            out += ["      " + u for u in uses]
            out.append("      IMPORT")
            out.append("      IMPLICIT NONE")
            for d in rest:
                out += f_wrap("      " + d, "      ")
            out.append("    END SUBROUTINE %s" % sig.split("(")[0])
            out.append("  END INTERFACE")
    return out


def f08_types_module(version):
    """The module mpi_f08_types: a derived type per handle, holding the INTEGER handle of
    mpif.h and use mpi (MPI_VAL), so that converting between the bindings is taking or
    setting MPI_VAL and MPI_Comm_f2c/c2f agree with both; MPI_Status with MPI_SOURCE,
    MPI_TAG and MPI_ERROR where mpif.h's INTEGER array has them (word for word C's
    MPI_Status); == and /= on handles; the constants (mpif-f08.h, printed at build time
    from mpi.h by mpif_consts)."""
    m = ["! Generated by tools/mpigen/mpigen.py (pympistandard %s): do not edit." % version,
         "! The types and constants of use mpi_f08: handles hold the INTEGER handle of",
         "! mpif.h and use mpi (MPI_VAL); MPI_Status is word for word C's MPI_Status.",
         "MODULE mpi_f08_types",
         "  IMPLICIT NONE"]
    for h in F08_HANDLES:
        m += ["  TYPE, BIND(C) :: %s" % h, "    INTEGER :: MPI_VAL", "  END TYPE %s" % h]
    # mpi.h's MPI_Status (MPICH's layout): the count's two words, then MPI_SOURCE,
    # MPI_TAG and MPI_ERROR (MPI_F_SOURCE ... say where; tests/abi/consts.sh keeps mpi.h
    # to it)
    m += ["  TYPE, BIND(C) :: MPI_Status",
          "    INTEGER :: compi_private(2)",
          "    INTEGER :: MPI_SOURCE, MPI_TAG, MPI_ERROR",
          "  END TYPE MPI_Status",
          "  INCLUDE 'mpif-f08.h'"]
    for op, fn in (("==", "eq"), ("/=", "ne")):
        m.append("  INTERFACE OPERATOR(%s)" % op)
        for h in F08_HANDLES:
            m.append("    MODULE PROCEDURE compi_%s_%s" % (h[4:].lower(), fn))
        m.append("  END INTERFACE")
    m.append("CONTAINS")
    for op, fn in (("==", "eq"), ("/=", "ne")):
        for h in F08_HANDLES:
            f = "compi_%s_%s" % (h[4:].lower(), fn)
            m += ["  ELEMENTAL LOGICAL FUNCTION %s(a, b)" % f,
                  "    TYPE(%s), INTENT(IN) :: a, b" % h,
                  "    %s = a%%MPI_VAL %s b%%MPI_VAL" % (f, op),
                  "  END FUNCTION %s" % f]
    m.append("END MODULE mpi_f08_types")
    return "\n".join(m) + "\n"


def handle_types(header):
    """name -> the handle type (MPI_Comm, ...) of each constant of mpi.h that is a handle,
    from the cast in its value (`((MPI_Comm)0x44000000)`; a constant defined as another
    constant: that one's type)."""
    text = open(header).read()
    defs = dict(re.findall(r"^#define\s+(MPI[X]?_[A-Z0-9_]+)\s+(.+?)\s*(?:/\*.*)?$", text, re.M))
    out = {}
    for name, value in defs.items():
        v = value
        for _ in range(4):
            if v in defs:
                v = defs[v]
        m = re.match(r"\(\s*\((MPI_[A-Za-z]+)\)\s*(0x[0-9a-fA-F]+|[0-9]+)\s*\)$", v)
        if m and m.group(1) in F08_HANDLES:
            out[name] = m.group(1)
    return out


# ---- the files ----------------------------------------------------------------------------

GLUE_HEAD = """\
/* Generated by tools/mpigen/mpigen.py from the MPI standard's description
   (pympistandard %s) and include/mpi.h: do not edit. */
#include "fortran/glue.h"

"""


def mpif_program(consts, htypes, externals):
    """The C program that prints mpif.h (argument "header"), the constants the module mpi
    includes ("module") or those of mpi_f08_types ("f08": handles as derived types)."""
    out = []
    out.append("/* Generated by tools/mpigen/mpigen.py from include/mpi.h: do not edit.")
    out.append("   Prints mpif.h (mpif_consts header), mpif-module.h (module) or mpif-f08.h")
    out.append("   (f08) with the values of the constants of the mpi.h it is compiled with. */")
    out.append("#include <mpi.h>")
    out.append("#include <stdio.h>")
    out.append("#include <string.h>")
    out.append("")
    out.append("static int f08;")
    out.append("")
    out.append("/* one constant: an INTEGER, or in mpi_f08 a handle of type t when t is not NULL */")
    out.append("static void k(const char *name, const char *t, long long v)")
    out.append("{")
    out.append("    if (!f08) {")
    out.append("        printf(\"      INTEGER %s\\n      PARAMETER (%s=%lld)\\n\", name, name, v);")
    out.append("    } else if (t != NULL) {")
    out.append("        printf(\"  TYPE(%s), PARAMETER :: %s = %s(%lld)\\n\", t, name, t, v);")
    out.append("    } else {")
    out.append("        printf(\"  INTEGER, PARAMETER :: %s = %lld\\n\", name, v);")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("/* one constant of kind MPI_OFFSET_KIND (OFFSET_CONSTS) */")
    out.append("static void ko(const char *name, long long v)")
    out.append("{")
    out.append("    if (!f08) {")
    out.append("        printf(\"      INTEGER(KIND=MPI_OFFSET_KIND) %s\\n\"")
    out.append("               \"      PARAMETER (%s=%lld)\\n\", name, name, v);")
    out.append("    } else {")
    out.append("        printf(\"  INTEGER(KIND=MPI_OFFSET_KIND), PARAMETER :: %s = %lld\\n\", name, v);")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("static void line(const char *s) { printf(\"%s\\n\", s); }")
    out.append("")
    out.append("int main(int argc, char **argv)")
    out.append("{")
    out.append("    const char *mode = argc > 1 ? argv[1] : \"header\";")
    out.append("    f08 = strcmp(mode, \"f08\") == 0;")
    out.append("    line(\"! compi's constants for Fortran (printed by mpif_consts from mpi.h)\");")
    for name, value in EXTRA_CONSTS:
        out.append("    k(\"%s\", NULL, (long long)(%s));" % (name, value))
    for name in consts:
        if name in OFFSET_CONSTS:
            out.append("    ko(\"%s\", (long long)(%s));" % (name, name))
            continue
        t = htypes.get(name)
        out.append("    k(\"%s\", %s, (long long)(%s));"
                   % (name, '"%s"' % t if t else "NULL", name))
    for name, value, value08 in LOGICAL_CONSTS:
        v = ".TRUE." if value else ".FALSE."
        v08 = ".TRUE." if value08 else ".FALSE."
        out.append("    if (f08) {")
        out.append("        line(\"  LOGICAL, PARAMETER :: %s = %s\");" % (name, v08))
        out.append("    } else {")
        out.append("        line(\"      LOGICAL %s\");" % name)
        out.append("        line(\"      PARAMETER (%s=%s)\");" % (name, v))
        out.append("    }")
    out.append("    if (f08) {")
    for s in SENTINEL_LINES_F08:
        out.append("        line(\"%s\");" % s)
    # the predefined callbacks, the glue's Fortran-callable functions (their handles are
    # the words TYPE(MPI_Comm) and the others hold)
    for name in PREDEFINED_FNS:
        out.append("        line(\"  EXTERNAL :: %s\");" % name)
    out.append("        return 0;")
    out.append("    }")
    for s in SENTINEL_LINES:
        out.append("    line(\"%s\");" % s)
    for name in PREDEFINED_FNS:
        out.append("    line(\"      EXTERNAL %s\");" % name)
    out.append("    if (strcmp(mode, \"header\") == 0) {")
    for s in externals:
        out.append("        line(\"%s\");" % s)
    out.append("    }")
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


# Fortran's names for the values compi's glue recognises by their address (fortran/glue.c
# defines the common blocks); each in a common block of its own; MPI_STATUS_SIZE and
# the kinds come from the constants above (mpif_consts.c prints them first)
EXTRA_CONSTS = [
    ("MPI_STATUS_SIZE", "(int)(sizeof(MPI_Status) / sizeof(MPI_Fint))"),
    # Fortran's indices (from 1) of the words of mpi.h's MPI_Status
    ("MPI_SOURCE", "MPI_F_SOURCE + 1"),
    ("MPI_TAG", "MPI_F_TAG + 1"),
    ("MPI_ERROR", "MPI_F_ERROR + 1"),
    ("MPI_ADDRESS_KIND", "(int)sizeof(MPI_Aint)"),
    ("MPI_OFFSET_KIND", "(int)sizeof(MPI_Offset)"),
    ("MPI_COUNT_KIND", "(int)sizeof(MPI_Count)"),
    ("MPI_INTEGER_KIND", "(int)sizeof(MPI_Fint)"),
    # MPI-1's Fortran-only combiners of MPI_TYPE_HVECTOR, _HINDEXED and _STRUCT with
    # INTEGER displacements (removed in MPI-3.0; MPICH's values, which mpi.h leaves free:
    # compi's constructors report the MPI-2 combiners), for programs that still test them
    ("MPI_COMBINER_HVECTOR_INTEGER", "5"),
    ("MPI_COMBINER_HINDEXED_INTEGER", "8"),
    ("MPI_COMBINER_STRUCT_INTEGER", "11"),
]

# the constants whose Fortran type is INTEGER(KIND=MPI_OFFSET_KIND) in the standard (a
# displacement of MPI_FILE_SET_VIEW)
OFFSET_CONSTS = {"MPI_DISPLACEMENT_CURRENT"}

# the standard's LOGICAL constants of mpif.h and use mpi, and of use mpi_f08, as compi's
# bindings are: a choice buffer of mpif.h and use mpi is TYPE(*), DIMENSION(*), so a
# non-contiguous section is copied into a temporary by the compiler (no subarrays); one of
# mpi_f08 is TYPE(*), DIMENSION(..), a section described by a datatype
# (fortran/f08_section.c).  No buffer is ASYNCHRONOUS (the compiler may move code across
# a nonblocking call's completion: MPI_F_SYNC_REG is the remedy).
LOGICAL_CONSTS = [("MPI_SUBARRAYS_SUPPORTED", False, True),
                  ("MPI_ASYNC_PROTECTS_NONBLOCKING", False, False)]

SENTINEL_LINES = [
    "      INTEGER MPI_BOTTOM, MPI_IN_PLACE",
    "      COMMON /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM",
    "      COMMON /MPI_FORTRAN_IN_PLACE/ MPI_IN_PLACE",
    "      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
    "      COMMON /MPI_FORTRAN_STATUS_IGNORE/ MPI_STATUS_IGNORE",
    "      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE, 1)",
    "      COMMON /MPI_FORTRAN_STATUSES_IGNORE/ MPI_STATUSES_IGNORE",
    "      INTEGER MPI_ERRCODES_IGNORE(1)",
    "      COMMON /MPI_FORTRAN_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE",
    "      INTEGER MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)",
    "      COMMON /MPI_FORTRAN_UNWEIGHTED/ MPI_UNWEIGHTED",
    "      COMMON /MPI_FORTRAN_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY",
    "      CHARACTER*1 MPI_ARGV_NULL(1)",
    "      COMMON /MPI_FORTRAN_ARGV_NULL/ MPI_ARGV_NULL",
    "      CHARACTER*1 MPI_ARGVS_NULL(1, 1)",
    "      COMMON /MPI_FORTRAN_ARGVS_NULL/ MPI_ARGVS_NULL",
    "      INTEGER MPI_BUFFER_AUTOMATIC",
    "      COMMON /MPI_FORTRAN_BUFFER_AUTOMATIC/ MPI_BUFFER_AUTOMATIC",
    "      SAVE /MPI_FORTRAN_BOTTOM/, /MPI_FORTRAN_IN_PLACE/",
    "      SAVE /MPI_FORTRAN_STATUS_IGNORE/, /MPI_FORTRAN_STATUSES_IGNORE/",
    "      SAVE /MPI_FORTRAN_ERRCODES_IGNORE/, /MPI_FORTRAN_UNWEIGHTED/",
    "      SAVE /MPI_FORTRAN_WEIGHTS_EMPTY/, /MPI_FORTRAN_ARGV_NULL/",
    "      SAVE /MPI_FORTRAN_ARGVS_NULL/, /MPI_FORTRAN_BUFFER_AUTOMATIC/",
]

# the same common blocks in mpi_f08 (free form, statuses as TYPE(MPI_Status))
SENTINEL_LINES_F08 = [
    "  INTEGER :: MPI_BOTTOM, MPI_IN_PLACE, MPI_ERRCODES_IGNORE(1)",
    "  INTEGER :: MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)",
    "  TYPE(MPI_Status) :: MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE(1)",
    "  CHARACTER(LEN=1) :: MPI_ARGV_NULL(1), MPI_ARGVS_NULL(1, 1)",
    "  COMMON /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM",
    "  COMMON /MPI_FORTRAN_IN_PLACE/ MPI_IN_PLACE",
    "  COMMON /MPI_FORTRAN_STATUS_IGNORE/ MPI_STATUS_IGNORE",
    "  COMMON /MPI_FORTRAN_STATUSES_IGNORE/ MPI_STATUSES_IGNORE",
    "  COMMON /MPI_FORTRAN_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE",
    "  COMMON /MPI_FORTRAN_UNWEIGHTED/ MPI_UNWEIGHTED",
    "  COMMON /MPI_FORTRAN_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY",
    "  COMMON /MPI_FORTRAN_ARGV_NULL/ MPI_ARGV_NULL",
    "  COMMON /MPI_FORTRAN_ARGVS_NULL/ MPI_ARGVS_NULL",
    "  INTEGER :: MPI_BUFFER_AUTOMATIC",
    "  COMMON /MPI_FORTRAN_BUFFER_AUTOMATIC/ MPI_BUFFER_AUTOMATIC",
    "  SAVE :: /MPI_FORTRAN_BOTTOM/, /MPI_FORTRAN_IN_PLACE/, /MPI_FORTRAN_STATUS_IGNORE/",
    "  SAVE :: /MPI_FORTRAN_STATUSES_IGNORE/, /MPI_FORTRAN_ERRCODES_IGNORE/",
    "  SAVE :: /MPI_FORTRAN_UNWEIGHTED/, /MPI_FORTRAN_WEIGHTS_EMPTY/",
    "  SAVE :: /MPI_FORTRAN_ARGV_NULL/, /MPI_FORTRAN_ARGVS_NULL/",
    "  SAVE :: /MPI_FORTRAN_BUFFER_AUTOMATIC/",
]

# the predefined callbacks Fortran programs pass by name (fortran/glue_manual.c has them)
PREDEFINED_FNS = ["MPI_COMM_NULL_COPY_FN", "MPI_COMM_NULL_DELETE_FN", "MPI_COMM_DUP_FN",
                  "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN",
                  "MPI_WIN_NULL_COPY_FN", "MPI_WIN_NULL_DELETE_FN", "MPI_WIN_DUP_FN",
                  "MPI_NULL_COPY_FN", "MPI_NULL_DELETE_FN", "MPI_DUP_FN"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--header", default=os.path.join(top, "include", "mpi.h"))
    ap.add_argument("--out", default=os.path.join(top, "fortran", "gen"))
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()

    std.use_api_version(1, force_bundled=True)
    version = std.__dict__.get("__version__", "")
    try:
        from importlib.metadata import version as pkg_version
        version = pkg_version("pympistandard")
    except Exception:
        pass
    have = compi_procedures(a.header)
    consts = compi_constants(a.header)

    glue = [GLUE_HEAD % version]
    interfaces = []
    f08 = []
    f08_externals = []
    generics = []
    no_f08 = []
    fortran_only = []
    fortran_module = []  # Fortran only, generated as a module of their own
    missing_c = []   # in the standard, not in compi
    no_fortran = []  # in compi, no Fortran binding here (reason)
    bound = []       # generated glue
    manual = []      # hand-written glue
    externals = []
    big_missing = []  # large-count forms of the standard compi lacks in C
    no_big = []       # large-count forms compi has in C, not bound (reason)
    for key in sorted(std.PROCEDURES):
        proc = std.PROCEDURES[key]
        c = proc.express.iso_c
        if c is None:
            # Fortran only: MPI_F_SYNC_REG by hand, MPI_SIZEOF generated (its module)
            name = proc._parseset["name"]
            if name in FORTRAN_ONLY_MODULE:
                fortran_module.append(name)
            elif name in FORTRAN_ONLY_MANUAL:
                manual.append(name)
                interfaces.append(procedure_interface(proc))
                f08_externals.append(procedure_interface(proc))
            elif proc.express.f90 is not None or proc.express.f08 is not None:
                fortran_only.append(name)
            continue
        cname = c.name
        if not cname.startswith("MPI_") or cname.startswith("MPI_T_"):
            # the tool interface has no Fortran binding
            if cname[4:] not in have:
                missing_c.append(cname)
            continue
        if cname[4:] not in have:
            missing_c.append(cname)
            continue
        f = proc.express.f90
        if f is None or not proc._parseset["attributes"]["f90_expressible"]:
            continue
        if cname in MANUAL:
            manual.append(cname)
        else:
            src, why = procedure_glue(proc)
            if src is None:
                no_fortran.append((cname, why))
                continue
            glue.append(src + "\n")
            bound.append(cname)
        if has_cptr(proc):
            # a generic name for the INTEGER and the TYPE(C_PTR) base address; the glue
            # of the second is the first's (both are an address's 8 bytes)
            generics.append("INTERFACE %s\n%s%sEND INTERFACE %s\n" % (
                f.name, procedure_interface(proc), procedure_interface(proc, True), f.name))
            glue.append("COMPI_F_ALIAS(%s_cptr_, %s_);\nCOMPI_F_ALIAS(p%s_cptr_, %s_);\n\n"
                        % ((cname.lower(),) * 4))
        else:
            interfaces.append(procedure_interface(proc))
        if f.return_type is not None:
            for name in (f.name, "P" + f.name):
                externals.append("      %s %s" % (f.return_type, name))
                externals.append("      EXTERNAL %s" % name)
        if f.return_type is not None:
            # a function's profiling name too (PMPI_WTIME): a program needs its type; the
            # PMPI_ subroutines are called as external procedures, without an interface
            interfaces.append(procedure_interface(proc, pmpi=True))
            f08_externals.append(procedure_interface(proc))
            f08_externals.append(procedure_interface(proc, pmpi=True))
        else:
            w, why = f08_wrapper(proc)
            if w is None:
                no_f08.append((cname, why))
            else:
                f08.append((cname, cname, w))
        if proc.has_embiggenment() and f.return_type is None:
            # the large-count form (MPI_Send_c): in mpi_f08 only, under the same generic
            # name when its kinds tell it apart, else under its own (MPI_Type_get_extent_c)
            bname = proc.express.embiggen.iso_c.name
            if bname[4:] not in have:
                big_missing.append(bname)
                continue
            if cname in MANUAL:
                no_big.append((bname, "written by hand without a large-count form"))
                continue
            src, why = procedure_glue(proc, True)
            w = None
            if src is not None:
                w, why = f08_wrapper(proc, True)
            if w is None:
                no_big.append((bname, why))
                continue
            glue.append(src + "\n")
            f08.append((cname if big_distinct(proc) else bname, bname, w))

    os.makedirs(a.out, exist_ok=True)

    def write(name, text):
        with open(os.path.join(a.out, name), "w") as fh:
            fh.write(text)

    write("glue.c", "".join(glue))
    write("mpif_consts.c", mpif_program(consts, handle_types(a.header), externals))

    iface = ["! Generated by tools/mpigen/mpigen.py from the MPI standard's description",
             "! (pympistandard %s) and include/mpi.h: do not edit." % version,
             "! The explicit interfaces of the module mpi, one per procedure compi binds.",
             "INTERFACE"]
    write("mpi_interfaces.f90", "\n".join(iface) + "\n" + "".join(interfaces) +
          "END INTERFACE\n" + "".join(generics))

    mod = ["! Generated by tools/mpigen/mpigen.py from the MPI standard's description",
           "! (pympistandard %s) and include/mpi.h: do not edit." % version,
           "! The module mpi_f08: the types and constants of mpi_f08_types, and per MPI",
           "! procedure a generic name (and its PMPI_ twin) over the standard's specific",
           "! procedures (MPI_Send_f08ts, PMPI_Send_f08ts, ...), external procedures of",
           "! mpi_f08_procs.f90 that hand their arguments on to mpif.h's (a handle's MPI_VAL",
           "! is the handle of mpif.h and use mpi).",
           "MODULE mpi_f08",
           "  USE mpi_f08_types",
           "  USE compi_mpi_sizeof",
           "  IMPLICIT NONE"]
    generic = {}
    for gname, _, w in f08:
        generic.setdefault(gname, []).append(w)
    for prefix in ("", "P"):
        for gname in sorted(generic):
            mod.append("  INTERFACE %s%s" % (prefix, gname))
            for w in generic[gname]:
                body = list(w["iface"])
                body[0] = body[0].replace("SUBROUTINE ", "SUBROUTINE " + prefix, 1)
                body[-1] = body[-1].replace("SUBROUTINE ", "SUBROUTINE " + prefix, 1)
                mod += ["    " + x for x in body]
            mod.append("  END INTERFACE %s%s" % (prefix, gname))
    mod.append("  INTERFACE")
    mod.append("".join(f08_externals).rstrip("\n"))
    mod.append("  END INTERFACE")
    mod += f08_abstract_interfaces()
    mod.append("END MODULE mpi_f08")
    write("mpi_f08.f90", "\n".join(mod) + "\n")
    procs = ["! Generated by tools/mpigen/mpigen.py from the MPI standard's description",
             "! (pympistandard %s) and include/mpi.h: do not edit." % version,
             "! The specific procedures of use mpi_f08 (its generic names' interfaces):",
             "! MPI_Send_f08ts hands its arguments on to PMPI_Send_f08ts, which calls mpif.h's",
             "! glue; external procedures, so that a tool can define MPI_Send_f08ts itself.",
             "! compi_f08_choice: fortran/f08_section.c, which makes a choice buffer's",
             "! address (and a section's datatype).",
             "MODULE compi_f08_choice",
             "  IMPLICIT NONE",
             "  INTERFACE",
             CHOICE_INTERFACES.rstrip("\n"),
             "  END INTERFACE",
             "END MODULE compi_f08_choice"]
    for _, _, w in f08:
        procs.append(w["src"].rstrip("\n"))
    write("mpi_f08_procs.f90", "\n".join(procs) + "\n")
    write("mpi_f08_types.f90", f08_types_module(version))
    write("mpi_sizeof.F90", sizeof_module(version))

    rep = []
    rep.append("compi and the MPI standard (pympistandard %s): the report of" % version)
    rep.append("tools/mpigen/mpigen.py.  Generated: do not edit.")
    rep.append("")
    rep.append("Fortran (mpif.h, use mpi): %d procedures bound by the generator, %d by hand"
               % (len(bound), len(manual)))
    nbig = sum(1 for _, cname, _ in f08 if cname.endswith("_c"))
    rep.append("(fortran/glue_manual.c), %d with a Fortran binding in use mpi_f08, and %d"
               % (len(f08) - nbig, nbig))
    rep.append("large-count forms (MPI_Send_c: counts of MPI_COUNT_KIND) in use mpi_f08.")
    def section(title, items):
        """A list of the report: its title with the count, then a line per item (a name,
        or a name and why)."""
        rep.append("")
        rep.append(title % len(items))
        for it in items:
            rep.append("  %-36s %s" % it if isinstance(it, tuple) else "  " + it)

    section("Procedures bound in mpif.h and use mpi but not in use mpi_f08 (%d):", no_f08)
    section("Procedures compi implements in C that have no Fortran binding (%d):", no_fortran)
    section("Large-count forms compi implements in C without an mpi_f08 binding (%d):", no_big)
    section("Large-count forms of the standard compi does not implement in C (%d):",
            big_missing)
    section("Procedures of the standard that exist in Fortran only, generated as a module (%d):",
            [(n, FORTRAN_ONLY_MODULE[n]) for n in fortran_module])
    section("Procedures of the standard that exist in Fortran only and are not provided (%d):",
            fortran_only)
    section("Procedures of the standard compi does not implement (%d), in C or Fortran:",
            missing_c)
    write("gaps.txt", "\n".join(rep) + "\n")
    if not a.quiet:
        print("mpigen: %d procedures bound (%d by hand), %d in C only, %d of the standard "
              "not in compi: %s" % (len(bound) + len(manual), len(manual), len(no_fortran),
                                    len(missing_c), os.path.join(a.out, "gaps.txt")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
