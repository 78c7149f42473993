/*
 * mpi.h -- the public face of compi, an MPI implementation whose collectives are
 * configured at run time in Scheme.
 *
 * Handles are plain ints.  Every handle value, constant, limit and the layout of
 * MPI_Status are MPICH's, so that a program built with MPICH's mpi.h runs on compi's
 * library unchanged (README, "Programs built for MPICH").  Only MPI_, PMPI_ and MPIX_
 * functions leave libmpi.so, and the few objects and the function MPIR_Dup_fn that
 * MPICH's mpi.h names (core/mpi/abi_objects.c).
 *
 * This header identifies itself as compi (COMPI_* macros), never as Open MPI or MPICH,
 * so tools probe for features instead of assuming.
 */
#ifndef COMPI_MPI_H
#define COMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#define COMPI 1
#define COMPI_VERSION_MAJOR 0
#define COMPI_VERSION_MINOR 1
#define COMPI_VERSION_RELEASE 0
#define COMPI_VERSION_STRING "0.1.0"

/* MPI 4.0: compi has MPI-4's procedures (large counts carried down, sessions, partitioned
   and persistent collective communication, MPI_Isendrecv, MPI_Comm_idup, MPI-IO, the tool
   interface's events, none of them an event) and most of MPI 4.1's and 5.0's
   (fortran/gen/gaps.txt lists what is missing); it does not say 4.1, whose semantics it
   lacks in places (names of null handles, MPI_COMM_TYPE_RESOURCE_GUIDED; docs/architecture.md,
   "MPI-4"). */
#define MPI_VERSION 4
#define MPI_SUBVERSION 0

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- basic types ----------------------------------------------------------------
 * The sizes, handle values, constants and MPI_Status layout below are MPICH's (its
 * mpi.h on x86-64 and aarch64 Linux), so a program compiled against MPICH's header runs
 * on this library unchanged (tests/abi/consts.sh compares the two headers). */
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Errhandler;
typedef int MPI_Message;
typedef int MPI_Info;
typedef int MPI_Win;
/* a pointer, as in MPICH (MPI-IO: core/io) */
typedef struct compi_file *MPI_File;

/* count_lo and the low 31 bits of count_hi_and_cancelled hold the bytes received; its top
   bit is the cancelled flag */
typedef struct MPI_Status {
    int count_lo;
    int count_hi_and_cancelled;
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
} MPI_Status;

/*
 * Handles are ints laid out as MPICH's: bits 30..31 say how the handle was made (0 a null
 * handle, 1 and 2 a predefined object, 3 an object created at run time), bits 26..29 the
 * kind of object, the bits below an index (a predefined datatype also has its size in
 * bytes in bits 8..15).  Private to the library: the kinds of its handle tables are the
 * object kind times two, plus one for messages (requests and messages share MPICH's
 * object kind; bit 25 of a message made at run time tells them apart).
 */
#define COMPI_HKIND_SHIFT 25
#define COMPI_HKIND_COMM 0x2
#define COMPI_HKIND_GROUP 0x4
#define COMPI_HKIND_DATATYPE 0x6
#define COMPI_HKIND_FILE 0x8
#define COMPI_HKIND_ERRHANDLER 0xa
#define COMPI_HKIND_OP 0xc
#define COMPI_HKIND_INFO 0xe
#define COMPI_HKIND_WIN 0x10
#define COMPI_HKIND_REQUEST 0x16
#define COMPI_HKIND_MESSAGE 0x17
#define COMPI_HKIND_SESSION 0x1c

/* ---- null and predefined handles ---------------------------------------------- */
#define MPI_COMM_NULL ((MPI_Comm)0x04000000)
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_COMM_SELF ((MPI_Comm)0x44000001)

#define MPI_GROUP_NULL ((MPI_Group)0x08000000)
#define MPI_GROUP_EMPTY ((MPI_Group)0x48000000)

#define MPI_REQUEST_NULL ((MPI_Request)0x2c000000)
#define MPI_MESSAGE_NULL ((MPI_Message)0x2c000000)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x6c000000)
#define MPI_INFO_NULL ((MPI_Info)0x1c000000)
#define MPI_INFO_ENV ((MPI_Info)0x5c000001)
#define MPI_WIN_NULL ((MPI_Win)0x20000000)
#define MPI_FILE_NULL ((MPI_File)0)

#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x14000000)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x54000000)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)0x54000001)
#define MPI_ERRORS_ABORT ((MPI_Errhandler)0x54000003)

/* datatypes (MPI_LONG_LONG and MPI_C_COMPLEX are other names of one of them, as in
   MPICH) */
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x0c000000)
#define MPI_CHAR ((MPI_Datatype)0x4c000101)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x4c000118)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x4c000102)
#define MPI_BYTE ((MPI_Datatype)0x4c00010d)
#define MPI_WCHAR ((MPI_Datatype)0x4c00040e)
#define MPI_SHORT ((MPI_Datatype)0x4c000203)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)0x4c000204)
#define MPI_INT ((MPI_Datatype)0x4c000405)
#define MPI_UNSIGNED ((MPI_Datatype)0x4c000406)
#define MPI_LONG ((MPI_Datatype)0x4c000807)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)0x4c000808)
#define MPI_LONG_LONG_INT ((MPI_Datatype)0x4c000809)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x4c000819)
#define MPI_FLOAT ((MPI_Datatype)0x4c00040a)
#define MPI_DOUBLE ((MPI_Datatype)0x4c00080b)
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x4c00100c)
#define MPI_INT8_T ((MPI_Datatype)0x4c000137)
#define MPI_INT16_T ((MPI_Datatype)0x4c000238)
#define MPI_INT32_T ((MPI_Datatype)0x4c000439)
#define MPI_INT64_T ((MPI_Datatype)0x4c00083a)
#define MPI_UINT8_T ((MPI_Datatype)0x4c00013b)
#define MPI_UINT16_T ((MPI_Datatype)0x4c00023c)
#define MPI_UINT32_T ((MPI_Datatype)0x4c00043d)
#define MPI_UINT64_T ((MPI_Datatype)0x4c00083e)
#define MPI_C_BOOL ((MPI_Datatype)0x4c00013f)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)0x4c000840)
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x4c001041)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c002042)
#define MPI_PACKED ((MPI_Datatype)0x4c00010f)
#define MPI_AINT ((MPI_Datatype)0x4c000843)
#define MPI_OFFSET ((MPI_Datatype)0x4c000844)
#define MPI_COUNT ((MPI_Datatype)0x4c000845)
#define MPI_FLOAT_INT ((MPI_Datatype)0x8c000000)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x8c000001)
#define MPI_LONG_INT ((MPI_Datatype)0x8c000002)
#define MPI_2INT ((MPI_Datatype)0x4c000816)
#define MPI_SHORT_INT ((MPI_Datatype)0x8c000003)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)0x8c000004)
#define MPI_UB ((MPI_Datatype)0x4c000011) /* deprecated markers, kept for old codes */
#define MPI_LB ((MPI_Datatype)0x4c000010)
#define MPI_CXX_BOOL ((MPI_Datatype)0x4c000133)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)0x4c000834)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)0x4c001035)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c002036)
/* Fortran types, usable from C as MPI requires; sizes as gfortran lays them out on
   LP64 targets (INTEGER, REAL and LOGICAL 4 bytes, DOUBLE PRECISION 8, CHARACTER 1) */
#define MPI_INTEGER ((MPI_Datatype)0x4c00041b)
#define MPI_REAL ((MPI_Datatype)0x4c00041c)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)0x4c00081f)
#define MPI_COMPLEX ((MPI_Datatype)0x4c00081e)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)0x4c001022)
#define MPI_LOGICAL ((MPI_Datatype)0x4c00041d)
#define MPI_CHARACTER ((MPI_Datatype)0x4c00011a)
#define MPI_2INTEGER ((MPI_Datatype)0x4c000820)
#define MPI_2REAL ((MPI_Datatype)0x4c000821)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)0x4c001023)
#define MPI_INTEGER1 ((MPI_Datatype)0x4c00012d)
#define MPI_INTEGER2 ((MPI_Datatype)0x4c00022f)
#define MPI_INTEGER4 ((MPI_Datatype)0x4c000430)
#define MPI_INTEGER8 ((MPI_Datatype)0x4c000831)
#define MPI_REAL4 ((MPI_Datatype)0x4c000427)
#define MPI_REAL8 ((MPI_Datatype)0x4c000829)
#define MPI_COMPLEX8 ((MPI_Datatype)0x4c000828)
#define MPI_COMPLEX16 ((MPI_Datatype)0x4c00102a)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
/* gfortran's REAL(16) and COMPLEX(16) (IEEE binary128), and the C half-precision float
   (_Float16): no reduction operations on them */
#define MPI_REAL16 ((MPI_Datatype)0x4c00102b)
#define MPI_COMPLEX32 ((MPI_Datatype)0x4c00202c)
#define MPIX_C_FLOAT16 ((MPI_Datatype)0x4c000246)
/* gfortran's INTEGER(16) (a 128-bit integer): no reduction operations on it */
#define MPI_INTEGER16 ((MPI_Datatype)0x4c001032)
/* private: the library's table of predefined datatypes has this many entries */
#define COMPI_DT_NUM_PREDEFINED 68

/* reduction operations */
#define MPI_OP_NULL ((MPI_Op)0x18000000)
#define MPI_MAX ((MPI_Op)0x58000001)
#define MPI_MIN ((MPI_Op)0x58000002)
#define MPI_SUM ((MPI_Op)0x58000003)
#define MPI_PROD ((MPI_Op)0x58000004)
#define MPI_LAND ((MPI_Op)0x58000005)
#define MPI_BAND ((MPI_Op)0x58000006)
#define MPI_LOR ((MPI_Op)0x58000007)
#define MPI_BOR ((MPI_Op)0x58000008)
#define MPI_LXOR ((MPI_Op)0x58000009)
#define MPI_BXOR ((MPI_Op)0x5800000a)
#define MPI_MINLOC ((MPI_Op)0x5800000b)
#define MPI_MAXLOC ((MPI_Op)0x5800000c)
#define MPI_REPLACE ((MPI_Op)0x5800000d)
#define MPI_NO_OP ((MPI_Op)0x5800000e)

/* ---- constants ------------------------------------------------------------------ */
#define MPI_ANY_SOURCE (-2)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0x24000000
#define MPI_BSEND_OVERHEAD 96
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_PORT_NAME 256
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
/* objects of the library, as in MPICH (core/mpi/abi_objects.c) */
extern int *const MPI_UNWEIGHTED;
extern int *const MPI_WEIGHTS_EMPTY;
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)

/* thread levels */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* results of the compare functions */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Comm_split_type */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3

/* predefined attribute keys */
#define MPI_TAG_UB 0x64400001
#define MPI_HOST 0x64400003
#define MPI_IO 0x64400005
#define MPI_WTIME_IS_GLOBAL 0x64400007
#define MPI_APPNUM 0x6440000d
#define MPI_UNIVERSE_SIZE 0x64400009
#define MPI_LASTUSEDCODE 0x6440000b

/* datatype combiners (MPICH's values; the MPI-1 constructors MPI_Type_hvector,
   _hindexed and _struct report the MPI-2 combiners) */
enum {
    MPI_COMBINER_NAMED = 1,
    MPI_COMBINER_DUP = 2,
    MPI_COMBINER_CONTIGUOUS = 3,
    MPI_COMBINER_VECTOR = 4,
    MPI_COMBINER_HVECTOR = 6,
    MPI_COMBINER_INDEXED = 7,
    MPI_COMBINER_HINDEXED = 9,
    MPI_COMBINER_INDEXED_BLOCK = 10,
    MPI_COMBINER_STRUCT = 12,
    MPI_COMBINER_SUBARRAY = 13,
    MPI_COMBINER_DARRAY = 14,
    MPI_COMBINER_F90_REAL = 15,
    MPI_COMBINER_F90_COMPLEX = 16,
    MPI_COMBINER_F90_INTEGER = 17,
    MPI_COMBINER_RESIZED = 18,
    MPI_COMBINER_HINDEXED_BLOCK = 19
};
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
/* MPI_Type_create_darray */
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* ---- error classes --------------------------------------------------------------
 * MPICH's values; MPI_T_ERR_* are the tool information interface's (MPI_T_*, below) */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_ROOT 7
#define MPI_ERR_GROUP 8
#define MPI_ERR_OP 9
#define MPI_ERR_TOPOLOGY 10
#define MPI_ERR_DIMS 11
#define MPI_ERR_ARG 12
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_REQUEST 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_BAD_FILE 22
#define MPI_ERR_CONVERSION 23
#define MPI_ERR_DUP_DATAREP 24
#define MPI_ERR_FILE_EXISTS 25
#define MPI_ERR_FILE_IN_USE 26
#define MPI_ERR_FILE 27
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_IO 32
#define MPI_ERR_NAME 33
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_NOT_SAME 35
#define MPI_ERR_NO_SPACE 36
#define MPI_ERR_NO_SUCH_FILE 37
#define MPI_ERR_PORT 38
#define MPI_ERR_QUOTA 39
#define MPI_ERR_READ_ONLY 40
#define MPI_ERR_SERVICE 41
#define MPI_ERR_SPAWN 42
#define MPI_ERR_UNSUPPORTED_DATAREP 43
#define MPI_ERR_UNSUPPORTED_OPERATION 44
#define MPI_ERR_WIN 45
#define MPI_ERR_BASE 46
#define MPI_ERR_LOCKTYPE 47
#define MPI_ERR_KEYVAL 48
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_SIZE 51
#define MPI_ERR_DISP 52
#define MPI_ERR_ASSERT 53
#define MPI_ERR_RMA_RANGE 55
#define MPI_ERR_RMA_ATTACH 56
#define MPI_ERR_RMA_SHARED 57
#define MPI_ERR_RMA_FLAVOR 58
#define MPI_T_ERR_MEMORY 59
#define MPI_T_ERR_NOT_INITIALIZED 60
#define MPI_T_ERR_CANNOT_INIT 61
#define MPI_T_ERR_INVALID_INDEX 62
#define MPI_T_ERR_INVALID_ITEM 63
#define MPI_T_ERR_INVALID_HANDLE 64
#define MPI_T_ERR_OUT_OF_HANDLES 65
#define MPI_T_ERR_OUT_OF_SESSIONS 66
#define MPI_T_ERR_INVALID_SESSION 67
#define MPI_T_ERR_CVAR_SET_NOT_NOW 68
#define MPI_T_ERR_CVAR_SET_NEVER 69
#define MPI_T_ERR_PVAR_NO_STARTSTOP 70
#define MPI_T_ERR_PVAR_NO_WRITE 71
#define MPI_T_ERR_PVAR_NO_ATOMIC 72
#define MPI_T_ERR_INVALID_NAME 73
#define MPI_T_ERR_INVALID 74
#define MPI_ERR_SESSION 75
#define MPI_ERR_PROC_ABORTED 76
#define MPI_ERR_VALUE_TOO_LARGE 77
#define MPI_T_ERR_NOT_SUPPORTED 78
/* MPI 4.1's and 5.0's, MPICH 5's numbers */
#define MPI_T_ERR_NOT_ACCESSIBLE 79
#define MPI_ERR_ERRHANDLER 80
#define MPI_ERR_ABI 81
#define MPI_ERR_LASTCODE 0x3fffffff

/* ---- callback types ------------------------------------------------------------- */
typedef void(MPI_Comm_errhandler_function)(MPI_Comm *, int *, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void(MPI_Handler_function)(MPI_Comm *, int *, ...);
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm, int, void *, void *, void *, int *);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm, int, void *, void *);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype, int, void *, void *, void *, int *);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype, int, void *, void *);
typedef int(MPI_Copy_function)(MPI_Comm, int, void *, void *, void *, int *);
typedef int(MPI_Delete_function)(MPI_Comm, int, void *, void *);
typedef void(MPI_User_function)(void *, void *, int *, MPI_Datatype *);
typedef int(MPI_Grequest_query_function)(void *, MPI_Status *);
typedef int(MPI_Grequest_free_function)(void *);
typedef int(MPI_Grequest_cancel_function)(void *, int);

#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_NULL_COPY_FN ((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function *)0)
int MPI_COMM_DUP_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_TYPE_DUP_FN(MPI_Datatype, int, void *, void *, void *, int *);
#define MPI_DUP_FN MPI_COMM_DUP_FN

/*
 * Prototypes.  Every MPI_X has a PMPI_X twin; MPI_X is a weak alias of PMPI_X so a
 * profiling library can define MPI_X and call PMPI_X.  COMPI_PROTO declares both.
 */
#define COMPI_PROTO(ret, name, args) ret MPI_##name args; ret PMPI_##name args

/* environment */
COMPI_PROTO(int, Init, (int *argc, char ***argv));
COMPI_PROTO(int, Init_thread, (int *argc, char ***argv, int required, int *provided));
COMPI_PROTO(int, Finalize, (void));
COMPI_PROTO(int, Initialized, (int *flag));
COMPI_PROTO(int, Finalized, (int *flag));
COMPI_PROTO(int, Abort, (MPI_Comm comm, int errorcode));
COMPI_PROTO(int, Query_thread, (int *provided));
COMPI_PROTO(int, Is_thread_main, (int *flag));
COMPI_PROTO(double, Wtime, (void));
COMPI_PROTO(double, Wtick, (void));
COMPI_PROTO(int, Get_processor_name, (char *name, int *resultlen));
COMPI_PROTO(int, Get_version, (int *version, int *subversion));
COMPI_PROTO(int, Get_library_version, (char *version, int *resultlen));
COMPI_PROTO(int, Pcontrol, (const int level, ...));

/* errors */
COMPI_PROTO(int, Error_string, (int errorcode, char *string, int *resultlen));
COMPI_PROTO(int, Error_class, (int errorcode, int *errorclass));
COMPI_PROTO(int, Comm_create_errhandler,
            (MPI_Comm_errhandler_function * fn, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler));
COMPI_PROTO(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode));
COMPI_PROTO(int, Errhandler_free, (MPI_Errhandler * errhandler));
COMPI_PROTO(int, Errhandler_create,
            (MPI_Handler_function * function, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler));
COMPI_PROTO(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Add_error_class, (int *errorclass));
COMPI_PROTO(int, Add_error_code, (int errorclass, int *errorcode));
COMPI_PROTO(int, Add_error_string, (int errorcode, const char *string));
COMPI_PROTO(int, Remove_error_class, (int errorclass));
COMPI_PROTO(int, Remove_error_code, (int errorcode));
COMPI_PROTO(int, Remove_error_string, (int errorcode));

/* point-to-point */
COMPI_PROTO(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm));
COMPI_PROTO(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm));
COMPI_PROTO(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm));
COMPI_PROTO(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm));
COMPI_PROTO(int, Buffer_attach, (void *buffer, int size));
COMPI_PROTO(int, Buffer_detach, (void *buffer_addr, int *size));
/* MPI-4.1: wait, or start waiting, until every buffered send has left the buffer */
COMPI_PROTO(int, Buffer_flush, (void));
COMPI_PROTO(int, Buffer_iflush, (MPI_Request * request));
COMPI_PROTO(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                         MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Sendrecv,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
             MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Sendrecv_replace,
            (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
             int recvtag, MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status));
COMPI_PROTO(int, Mprobe,
            (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status));
COMPI_PROTO(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                           MPI_Status *status));
COMPI_PROTO(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                         MPI_Status *status));
COMPI_PROTO(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                          MPI_Request *request));
COMPI_PROTO(int, Wait, (MPI_Request * request, MPI_Status *status));
COMPI_PROTO(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status *statuses));
COMPI_PROTO(int, Waitany,
            (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status));
COMPI_PROTO(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                            int array_of_indices[], MPI_Status *array_of_statuses));
COMPI_PROTO(int, Test, (MPI_Request * request, int *flag, MPI_Status *status));
COMPI_PROTO(int, Testall, (int count, MPI_Request array_of_requests[], int *flag,
                           MPI_Status *array_of_statuses));
COMPI_PROTO(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag,
                           MPI_Status *status));
COMPI_PROTO(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                            int array_of_indices[], MPI_Status *array_of_statuses));
COMPI_PROTO(int, Request_free, (MPI_Request * request));
COMPI_PROTO(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status));
COMPI_PROTO(int, Request_get_status_all,
            (int count, const MPI_Request array_of_requests[], int *flag,
             MPI_Status *array_of_statuses));
COMPI_PROTO(int, Request_get_status_any,
            (int count, const MPI_Request array_of_requests[], int *index, int *flag,
             MPI_Status *status));
COMPI_PROTO(int, Request_get_status_some,
            (int incount, const MPI_Request array_of_requests[], int *outcount,
             int array_of_indices[], MPI_Status *array_of_statuses));
COMPI_PROTO(int, Cancel, (MPI_Request * request));
COMPI_PROTO(int, Test_cancelled, (const MPI_Status *status, int *flag));
COMPI_PROTO(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count));
COMPI_PROTO(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count));
COMPI_PROTO(int, Get_elements_x,
            (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count));
COMPI_PROTO(int, Status_set_elements, (MPI_Status * status, MPI_Datatype datatype, int count));
COMPI_PROTO(int, Status_set_elements_x,
            (MPI_Status * status, MPI_Datatype datatype, MPI_Count count));
COMPI_PROTO(int, Status_set_cancelled, (MPI_Status * status, int flag));
/* MPI 5.0's accessors of a status's MPI_SOURCE, MPI_TAG and MPI_ERROR */
COMPI_PROTO(int, Status_get_source, (const MPI_Status *status, int *source));
COMPI_PROTO(int, Status_get_tag, (const MPI_Status *status, int *tag));
COMPI_PROTO(int, Status_get_error, (const MPI_Status *status, int *err));
COMPI_PROTO(int, Status_set_source, (MPI_Status * status, int source));
COMPI_PROTO(int, Status_set_tag, (MPI_Status * status, int tag));
COMPI_PROTO(int, Status_set_error, (MPI_Status * status, int err));
COMPI_PROTO(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
                             int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
                              int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
                              int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
                              int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                             MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Start, (MPI_Request * request));
COMPI_PROTO(int, Startall, (int count, MPI_Request array_of_requests[]));
COMPI_PROTO(int, Grequest_start,
            (MPI_Grequest_query_function * query_fn, MPI_Grequest_free_function *free_fn,
             MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request));
COMPI_PROTO(int, Grequest_complete, (MPI_Request request));

/* datatypes */
COMPI_PROTO(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride,
                                       MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_hvector, (int count, int blocklength, MPI_Aint stride,
                                MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_indexed,
            (int count, const int array_of_blocklengths[], const int array_of_displacements[],
             MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_hindexed,
            (int count, const int array_of_blocklengths[],
             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_indexed_block,
            (int count, int blocklength, const int array_of_displacements[],
             MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_hindexed_block,
            (int count, int blocklength, const MPI_Aint array_of_displacements[],
             MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_struct,
            (int count, const int array_of_blocklengths[],
             const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_hindexed,
            (int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
             MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_struct,
            (int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
             MPI_Datatype array_of_types[], MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_subarray,
            (int ndims, const int array_of_sizes[], const int array_of_subsizes[],
             const int array_of_starts[], int order, MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_darray,
            (int size, int rank, int ndims, const int array_of_gsizes[],
             const int array_of_distribs[], const int array_of_dargs[],
             const int array_of_psizes[], int order, MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_resized,
            (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_commit, (MPI_Datatype * datatype));
COMPI_PROTO(int, Type_free, (MPI_Datatype * datatype));
COMPI_PROTO(int, Type_size, (MPI_Datatype datatype, int *size));
COMPI_PROTO(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size));
COMPI_PROTO(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent));
COMPI_PROTO(int, Type_get_extent_x,
            (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
COMPI_PROTO(int, Type_get_true_extent,
            (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent));
COMPI_PROTO(int, Type_get_true_extent_x,
            (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent));
COMPI_PROTO(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent));
COMPI_PROTO(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement));
COMPI_PROTO(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement));
COMPI_PROTO(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers,
                                     int *num_addresses, int *num_datatypes, int *combiner));
COMPI_PROTO(int, Type_get_contents,
            (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
             int array_of_integers[], MPI_Aint array_of_addresses[],
             MPI_Datatype array_of_datatypes[]));
COMPI_PROTO(int, Type_set_name, (MPI_Datatype datatype, const char *type_name));
COMPI_PROTO(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen));
COMPI_PROTO(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                        int outsize, int *position, MPI_Comm comm));
COMPI_PROTO(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf,
                          int outcount, MPI_Datatype datatype, MPI_Comm comm));
COMPI_PROTO(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size));
/* the portable representation "external32": big-endian, sizes fixed by the standard */
COMPI_PROTO(int, Pack_external,
            (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
             void *outbuf, MPI_Aint outsize, MPI_Aint *position));
COMPI_PROTO(int, Unpack_external,
            (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
             void *outbuf, int outcount, MPI_Datatype datatype));
COMPI_PROTO(int, Pack_external_size,
            (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size));
COMPI_PROTO(int, Get_address, (const void *location, MPI_Aint *address));
COMPI_PROTO(int, Address, (void *location, MPI_Aint *address));
COMPI_PROTO(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp));
COMPI_PROTO(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2));
COMPI_PROTO(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype));
/* the predefined pair type (MPI_FLOAT_INT, MPI_2INT, ...) of a value and an index type;
   MPI_DATATYPE_NULL when there is none (MPI 4.1) */
COMPI_PROTO(int, Type_get_value_index,
            (MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type));
/* the type of Fortran's selected_real_kind(p, r) and selected_int_kind(r) (gfortran's
   kinds): predefined, never freed */
COMPI_PROTO(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype));
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* groups */
COMPI_PROTO(int, Group_size, (MPI_Group group, int *size));
COMPI_PROTO(int, Group_rank, (MPI_Group group, int *rank));
COMPI_PROTO(int, Group_translate_ranks,
            (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]));
COMPI_PROTO(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result));
COMPI_PROTO(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
COMPI_PROTO(int, Group_intersection,
            (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
COMPI_PROTO(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
COMPI_PROTO(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
COMPI_PROTO(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
COMPI_PROTO(int, Group_range_incl,
            (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup));
COMPI_PROTO(int, Group_range_excl,
            (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup));
COMPI_PROTO(int, Group_free, (MPI_Group * group));

/* communicators */
COMPI_PROTO(int, Comm_size, (MPI_Comm comm, int *size));
COMPI_PROTO(int, Comm_rank, (MPI_Comm comm, int *rank));
COMPI_PROTO(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result));
COMPI_PROTO(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_split_type,
            (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_free, (MPI_Comm * comm));
COMPI_PROTO(int, Comm_set_info, (MPI_Comm comm, MPI_Info info));
COMPI_PROTO(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used));
COMPI_PROTO(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
COMPI_PROTO(int, Comm_test_inter, (MPI_Comm comm, int *flag));
COMPI_PROTO(int, Comm_remote_size, (MPI_Comm comm, int *size));
COMPI_PROTO(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));
COMPI_PROTO(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                    int remote_leader, int tag, MPI_Comm *newintercomm));
COMPI_PROTO(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm));

/* dynamic processes: under compi's mpirun, on one host (README) */
COMPI_PROTO(int, Comm_spawn,
            (const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
             MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]));
COMPI_PROTO(int, Comm_spawn_multiple,
            (int count, char *array_of_commands[], char **array_of_argv[],
             const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
             MPI_Comm *intercomm, int array_of_errcodes[]));
COMPI_PROTO(int, Comm_get_parent, (MPI_Comm * parent));
COMPI_PROTO(int, Comm_disconnect, (MPI_Comm * comm));
COMPI_PROTO(int, Open_port, (MPI_Info info, char *port_name));
COMPI_PROTO(int, Close_port, (const char *port_name));
COMPI_PROTO(int, Comm_accept,
            (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm));
COMPI_PROTO(int, Comm_connect,
            (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm));
COMPI_PROTO(int, Publish_name, (const char *service_name, MPI_Info info, const char *port_name));
COMPI_PROTO(int, Unpublish_name, (const char *service_name, MPI_Info info, const char *port_name));
COMPI_PROTO(int, Lookup_name, (const char *service_name, MPI_Info info, char *port_name));
COMPI_PROTO(int, Comm_join, (int fd, MPI_Comm *intercomm));
COMPI_PROTO(int, Comm_set_name, (MPI_Comm comm, const char *comm_name));
COMPI_PROTO(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen));
COMPI_PROTO(int, Comm_create_keyval,
            (MPI_Comm_copy_attr_function * comm_copy_attr_fn,
             MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
             void *extra_state));
COMPI_PROTO(int, Comm_free_keyval, (int *comm_keyval));
COMPI_PROTO(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val));
COMPI_PROTO(int, Comm_get_attr,
            (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag));
COMPI_PROTO(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval));
COMPI_PROTO(int, Keyval_create, (MPI_Copy_function * copy_fn, MPI_Delete_function *delete_fn,
                                 int *keyval, void *extra_state));
COMPI_PROTO(int, Keyval_free, (int *keyval));
COMPI_PROTO(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val));
COMPI_PROTO(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag));
COMPI_PROTO(int, Attr_delete, (MPI_Comm comm, int keyval));
COMPI_PROTO(int, Type_create_keyval,
            (MPI_Type_copy_attr_function * type_copy_attr_fn,
             MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
             void *extra_state));
COMPI_PROTO(int, Type_free_keyval, (int *type_keyval));
COMPI_PROTO(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val));
COMPI_PROTO(int, Type_get_attr,
            (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag));
COMPI_PROTO(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval));

/* info (keys are stored and returned; none changes behaviour yet) */
COMPI_PROTO(int, Info_create, (MPI_Info * info));
COMPI_PROTO(int, Info_set, (MPI_Info info, const char *key, const char *value));
COMPI_PROTO(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag));
COMPI_PROTO(int, Info_get_nkeys, (MPI_Info info, int *nkeys));
COMPI_PROTO(int, Info_get_nthkey, (MPI_Info info, int n, char *key));
COMPI_PROTO(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag));
COMPI_PROTO(int, Info_delete, (MPI_Info info, const char *key));
COMPI_PROTO(int, Info_dup, (MPI_Info info, MPI_Info *newinfo));
COMPI_PROTO(int, Info_free, (MPI_Info * info));
COMPI_PROTO(int, Info_get_string,
            (MPI_Info info, const char *key, int *buflen, char *value, int *flag));
COMPI_PROTO(int, Info_create_env, (int argc, char *argv[], MPI_Info *info));
/* a new info object with what the process knows of its hardware place (hwloc's logical
   indices: docs/architecture.md, "Hardware resources") */
COMPI_PROTO(int, Get_hw_resource_info, (MPI_Info * hw_info));

/* memory for one-sided and shared use; here plain aligned memory */
COMPI_PROTO(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr));
COMPI_PROTO(int, Free_mem, (void *base));

/* collectives and reduction operations */
COMPI_PROTO(int, Barrier, (MPI_Comm comm));
COMPI_PROTO(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm));
COMPI_PROTO(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm));
COMPI_PROTO(int, Allreduce, (const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
COMPI_PROTO(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm));
COMPI_PROTO(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm));
COMPI_PROTO(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm));
COMPI_PROTO(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm));
COMPI_PROTO(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm));
COMPI_PROTO(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm));
COMPI_PROTO(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
COMPI_PROTO(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
COMPI_PROTO(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm));
COMPI_PROTO(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
COMPI_PROTO(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
COMPI_PROTO(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm));
COMPI_PROTO(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm));
/* nonblocking collectives: the same arguments, and a request that MPI_Wait/Test complete */
COMPI_PROTO(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request));
COMPI_PROTO(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request));
COMPI_PROTO(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                             MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request));
COMPI_PROTO(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request));
COMPI_PROTO(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm,
                              MPI_Request *request));
COMPI_PROTO(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *request));
COMPI_PROTO(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                         MPI_Request *request));
COMPI_PROTO(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request));
/* persistent collectives (MPI-4): the nonblocking forms' arguments and an info (no
   hints are read); the request is inactive until MPI_Start */
COMPI_PROTO(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Bcast_init,
            (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Reduce_init,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Allreduce_init,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Gather_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Gatherv_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
             MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Scatter_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Scatterv_init,
            (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
             MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Allgather_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Allgatherv_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Alltoall_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Alltoallv_init,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Alltoallw_init,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Reduce_scatter_init,
            (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
             MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Reduce_scatter_block_init,
            (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Scan_init,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Exscan_init,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count,
                                MPI_Datatype datatype, MPI_Op op));
COMPI_PROTO(int, Op_create, (MPI_User_function * user_fn, int commute, MPI_Op *op));
COMPI_PROTO(int, Op_free, (MPI_Op * op));
COMPI_PROTO(int, Op_commutative, (MPI_Op op, int *commute));

/* process topologies (ranks are never reordered).  The weight arguments are pointers,
   not arrays, so that compilers do not take MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY for
   arrays of no element they would read. */
COMPI_PROTO(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                               int reorder, MPI_Comm *comm_cart));
COMPI_PROTO(int, Dims_create, (int nnodes, int ndims, int dims[]));
COMPI_PROTO(int, Cartdim_get, (MPI_Comm comm, int *ndims));
COMPI_PROTO(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]));
COMPI_PROTO(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
COMPI_PROTO(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]));
COMPI_PROTO(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source,
                              int *rank_dest));
COMPI_PROTO(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm));
COMPI_PROTO(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[],
                            int *newrank));
COMPI_PROTO(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[],
                                const int edges[], int reorder, MPI_Comm *comm_graph));
COMPI_PROTO(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[],
                             int edges[]));
COMPI_PROTO(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
COMPI_PROTO(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors));
COMPI_PROTO(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]));
COMPI_PROTO(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[],
                             int *newrank));
COMPI_PROTO(int, Dist_graph_create_adjacent,
            (MPI_Comm comm_old, int indegree, const int sources[], const int *sourceweights,
             int outdegree, const int destinations[], const int *destweights, MPI_Info info,
             int reorder, MPI_Comm *comm_dist_graph));
COMPI_PROTO(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[],
                                     const int degrees[], const int destinations[],
                                     const int *weights, MPI_Info info, int reorder,
                                     MPI_Comm *comm_dist_graph));
COMPI_PROTO(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree,
                                              int *weighted));
COMPI_PROTO(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[],
                                        int *sourceweights, int maxoutdegree,
                                        int destinations[], int *destweights));
COMPI_PROTO(int, Topo_test, (MPI_Comm comm, int *status));

/* neighbourhood collectives (blocking) on communicators with a process topology */
COMPI_PROTO(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm));
COMPI_PROTO(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void *recvbuf,
                                       const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm));
COMPI_PROTO(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm));
COMPI_PROTO(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
                                      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm));
COMPI_PROTO(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
                                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                      void *recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                      MPI_Comm comm));
/* nonblocking and persistent neighbourhood collectives */
COMPI_PROTO(int, Ineighbor_allgather,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ineighbor_allgatherv,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Request *request));
COMPI_PROTO(int, Ineighbor_alltoall,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ineighbor_alltoallv,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ineighbor_alltoallw,
            (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
             MPI_Request *request));
COMPI_PROTO(int, Neighbor_allgather_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Neighbor_allgatherv_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Neighbor_alltoall_init,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
             MPI_Request *request));
COMPI_PROTO(int, Neighbor_alltoallv_init,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Neighbor_alltoallw_init,
            (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
             MPI_Request *request));

/* handle conversion (handles are ints, so these are identities) */
COMPI_PROTO(MPI_Fint, Comm_c2f, (MPI_Comm comm));
COMPI_PROTO(MPI_Comm, Comm_f2c, (MPI_Fint comm));
COMPI_PROTO(MPI_Fint, Type_c2f, (MPI_Datatype datatype));
COMPI_PROTO(MPI_Datatype, Type_f2c, (MPI_Fint datatype));
COMPI_PROTO(MPI_Fint, Group_c2f, (MPI_Group group));
COMPI_PROTO(MPI_Group, Group_f2c, (MPI_Fint group));
COMPI_PROTO(MPI_Fint, Request_c2f, (MPI_Request request));
COMPI_PROTO(MPI_Request, Request_f2c, (MPI_Fint request));
COMPI_PROTO(MPI_Fint, Op_c2f, (MPI_Op op));
COMPI_PROTO(MPI_Op, Op_f2c, (MPI_Fint op));
COMPI_PROTO(MPI_Fint, Info_c2f, (MPI_Info info));
COMPI_PROTO(MPI_Info, Info_f2c, (MPI_Fint info));
COMPI_PROTO(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler));
COMPI_PROTO(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler));
COMPI_PROTO(MPI_Fint, Message_c2f, (MPI_Message message));
COMPI_PROTO(MPI_Message, Message_f2c, (MPI_Fint message));
COMPI_PROTO(MPI_Fint, Win_c2f, (MPI_Win win));
COMPI_PROTO(MPI_Win, Win_f2c, (MPI_Fint win));
COMPI_PROTO(MPI_Fint, File_c2f, (MPI_File file));
COMPI_PROTO(MPI_File, File_f2c, (MPI_Fint file));
/* a Fortran status is MPI_F_STATUS_SIZE INTEGERs holding the C status word for word;
   MPI_SOURCE, MPI_TAG and MPI_ERROR are its words MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR
   (from 0) */
#define MPI_F_STATUS_SIZE 5
#define MPI_F_SOURCE 2
#define MPI_F_TAG 3
#define MPI_F_ERROR 4
/* objects of the library, as in MPICH (core/mpi/abi_objects.c) */
extern MPI_Fint *MPI_F_STATUS_IGNORE;
extern MPI_Fint *MPI_F_STATUSES_IGNORE;
COMPI_PROTO(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status));
COMPI_PROTO(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status));
/* use mpi_f08's TYPE(MPI_Status) as C sees it: the words of MPI_Status, in its order
   (fortran/gen/mpi_f08_types.f90) */
typedef struct {
    MPI_Fint count_lo;
    MPI_Fint count_hi_and_cancelled;
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
} MPI_F08_status;
extern MPI_F08_status *MPI_F08_STATUS_IGNORE;
extern MPI_F08_status *MPI_F08_STATUSES_IGNORE;
COMPI_PROTO(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status));
COMPI_PROTO(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status));
COMPI_PROTO(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status));
COMPI_PROTO(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status));

/* MPI 5.0's conversions of handles to and from ints (a handle's Fortran INTEGER, as
   the _c2f and _f2c functions) */
COMPI_PROTO(int, Comm_toint, (MPI_Comm comm));
COMPI_PROTO(MPI_Comm, Comm_fromint, (int comm));
COMPI_PROTO(int, Type_toint, (MPI_Datatype datatype));
COMPI_PROTO(MPI_Datatype, Type_fromint, (int datatype));
COMPI_PROTO(int, Group_toint, (MPI_Group group));
COMPI_PROTO(MPI_Group, Group_fromint, (int group));
COMPI_PROTO(int, Request_toint, (MPI_Request request));
COMPI_PROTO(MPI_Request, Request_fromint, (int request));
COMPI_PROTO(int, Op_toint, (MPI_Op op));
COMPI_PROTO(MPI_Op, Op_fromint, (int op));
COMPI_PROTO(int, Info_toint, (MPI_Info info));
COMPI_PROTO(MPI_Info, Info_fromint, (int info));
COMPI_PROTO(int, Errhandler_toint, (MPI_Errhandler errhandler));
COMPI_PROTO(MPI_Errhandler, Errhandler_fromint, (int errhandler));
COMPI_PROTO(int, Message_toint, (MPI_Message message));
COMPI_PROTO(MPI_Message, Message_fromint, (int message));
COMPI_PROTO(int, Win_toint, (MPI_Win win));
COMPI_PROTO(MPI_Win, Win_fromint, (int win));
COMPI_PROTO(int, File_toint, (MPI_File file));
COMPI_PROTO(MPI_File, File_fromint, (int file));

/* ---- the tool information interface (docs/mpi_t.md) -------------------------------
 * Control variables: every run-time parameter of compi (compi_info lists them) is one,
 * read-only, integers as MPI_INT and strings as MPI_CHAR (those with a fixed set of values
 * as MPI_INT with an enumeration); coll_config and coll_flush, bound to a communicator,
 * are written collectively over it to reconfigure or flush the collectives.  Performance
 * variables: the closure cache's hits and misses per communicator, the PML's queues and
 * the peak of its unexpected one, the bytes each BTL moved.  Categories group both by layer.  MPI_T functions return their
 * error codes; they never call an error handler. */
typedef struct compi_t_enum *MPI_T_enum;
typedef struct compi_t_cvar_handle *MPI_T_cvar_handle;
typedef struct compi_t_pvar_handle *MPI_T_pvar_handle;
typedef struct compi_t_pvar_session *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)

#define MPI_T_VERBOSITY_USER_BASIC 221
#define MPI_T_VERBOSITY_USER_DETAIL 222
#define MPI_T_VERBOSITY_USER_ALL 223
#define MPI_T_VERBOSITY_TUNER_BASIC 224
#define MPI_T_VERBOSITY_TUNER_DETAIL 225
#define MPI_T_VERBOSITY_TUNER_ALL 226
#define MPI_T_VERBOSITY_MPIDEV_BASIC 227
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 228
#define MPI_T_VERBOSITY_MPIDEV_ALL 229

#define MPI_T_BIND_NO_OBJECT 9700
#define MPI_T_BIND_MPI_COMM 9701
#define MPI_T_BIND_MPI_DATATYPE 9702
#define MPI_T_BIND_MPI_ERRHANDLER 9703
#define MPI_T_BIND_MPI_FILE 9704
#define MPI_T_BIND_MPI_GROUP 9705
#define MPI_T_BIND_MPI_OP 9706
#define MPI_T_BIND_MPI_REQUEST 9707
#define MPI_T_BIND_MPI_WIN 9708
#define MPI_T_BIND_MPI_MESSAGE 9709
#define MPI_T_BIND_MPI_INFO 9710
#define MPI_T_BIND_MPI_SESSION 9711

#define MPI_T_SCOPE_CONSTANT 60438
#define MPI_T_SCOPE_READONLY 60439
#define MPI_T_SCOPE_LOCAL 60440
#define MPI_T_SCOPE_GROUP 60441
#define MPI_T_SCOPE_GROUP_EQ 60442
#define MPI_T_SCOPE_ALL 60443
#define MPI_T_SCOPE_ALL_EQ 60444

#define MPI_T_PVAR_CLASS_STATE 240
#define MPI_T_PVAR_CLASS_LEVEL 241
#define MPI_T_PVAR_CLASS_SIZE 242
#define MPI_T_PVAR_CLASS_PERCENTAGE 243
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 244
#define MPI_T_PVAR_CLASS_LOWWATERMARK 245
#define MPI_T_PVAR_CLASS_COUNTER 246
#define MPI_T_PVAR_CLASS_AGGREGATE 247
#define MPI_T_PVAR_CLASS_TIMER 248
#define MPI_T_PVAR_CLASS_GENERIC 249
/* every handle of a session, for MPI_T_pvar_start, _stop and _reset */
/* an object of the library, as in MPICH (core/mpi/abi_objects.c) */
extern MPI_T_pvar_handle const MPI_T_PVAR_ALL_HANDLES;

COMPI_PROTO(int, T_init_thread, (int required, int *provided));
COMPI_PROTO(int, T_finalize, (void));
COMPI_PROTO(int, T_cvar_get_num, (int *num_cvar));
COMPI_PROTO(int, T_cvar_get_info,
            (int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
             MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope));
COMPI_PROTO(int, T_cvar_get_index, (const char *name, int *cvar_index));
COMPI_PROTO(int, T_cvar_handle_alloc,
            (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count));
COMPI_PROTO(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle));
COMPI_PROTO(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf));
COMPI_PROTO(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf));
COMPI_PROTO(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len));
COMPI_PROTO(int, T_enum_get_item,
            (MPI_T_enum enumtype, int index, int *value, char *name, int *name_len));
COMPI_PROTO(int, T_pvar_get_num, (int *num_pvar));
COMPI_PROTO(int, T_pvar_get_info,
            (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
             MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
             int *readonly, int *continuous, int *atomic));
COMPI_PROTO(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index));
COMPI_PROTO(int, T_pvar_session_create, (MPI_T_pvar_session * session));
COMPI_PROTO(int, T_pvar_session_free, (MPI_T_pvar_session * session));
COMPI_PROTO(int, T_pvar_handle_alloc,
            (MPI_T_pvar_session session, int pvar_index, void *obj_handle,
             MPI_T_pvar_handle *handle, int *count));
COMPI_PROTO(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle));
COMPI_PROTO(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
COMPI_PROTO(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
COMPI_PROTO(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf));
COMPI_PROTO(int, T_pvar_write,
            (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf));
COMPI_PROTO(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
COMPI_PROTO(int, T_pvar_readreset,
            (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf));
COMPI_PROTO(int, T_category_get_num, (int *num_cat));
COMPI_PROTO(int, T_category_get_info,
            (int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
             int *num_pvars, int *num_categories));
COMPI_PROTO(int, T_category_get_index, (const char *name, int *cat_index));
COMPI_PROTO(int, T_category_get_cvars, (int cat_index, int len, int indices[]));
COMPI_PROTO(int, T_category_get_pvars, (int cat_index, int len, int indices[]));
COMPI_PROTO(int, T_category_get_categories, (int cat_index, int len, int indices[]));
COMPI_PROTO(int, T_category_changed, (int *stamp));

/* The events and their sources (MPI 4.0): compi has none of either, so the numbers are 0,
   an index or name is MPI_T_ERR_INVALID_INDEX or _NAME, and no registration or instance
   exists to be valid (MPI_T_ERR_INVALID_HANDLE; core/mpi/mpit_event.c). */
typedef struct compi_t_event_registration *MPI_T_event_registration;
typedef struct compi_t_event_instance *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;
/* no verbosity, binding, scope or class is this (MPICH's values) */
#define MPI_T_VERBOSITY_INVALID 0
#define MPI_T_BIND_INVALID 0
#define MPI_T_SCOPE_INVALID 0
#define MPI_T_PVAR_CLASS_INVALID 0
typedef void(MPI_T_event_cb_function)(MPI_T_event_instance event_instance,
                                      MPI_T_event_registration event_registration,
                                      MPI_T_cb_safety cb_safety, void *user_data);
typedef void(MPI_T_event_free_cb_function)(MPI_T_event_registration event_registration,
                                           MPI_T_cb_safety cb_safety, void *user_data);
typedef void(MPI_T_event_dropped_cb_function)(MPI_Count count,
                                              MPI_T_event_registration event_registration,
                                              int source_index, MPI_T_cb_safety cb_safety,
                                              void *user_data);
COMPI_PROTO(int, T_source_get_num, (int *num_sources));
COMPI_PROTO(int, T_source_get_info,
            (int source_index, char *name, int *name_len, char *desc, int *desc_len,
             MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
             MPI_Info *info));
COMPI_PROTO(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp));
COMPI_PROTO(int, T_event_get_num, (int *num_events));
COMPI_PROTO(int, T_event_get_info,
            (int event_index, char *name, int *name_len, int *verbosity,
             MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
             int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len,
             int *bind));
COMPI_PROTO(int, T_event_get_index, (const char *name, int *event_index));
COMPI_PROTO(int, T_event_handle_alloc,
            (int event_index, void *obj_handle, MPI_Info info,
             MPI_T_event_registration *event_registration));
COMPI_PROTO(int, T_event_handle_set_info,
            (MPI_T_event_registration event_registration, MPI_Info info));
COMPI_PROTO(int, T_event_handle_get_info,
            (MPI_T_event_registration event_registration, MPI_Info *info_used));
COMPI_PROTO(int, T_event_register_callback,
            (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info,
             void *user_data, MPI_T_event_cb_function *event_cb_function));
COMPI_PROTO(int, T_event_callback_set_info,
            (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
             MPI_Info info));
COMPI_PROTO(int, T_event_callback_get_info,
            (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
             MPI_Info *info_used));
COMPI_PROTO(int, T_event_handle_free,
            (MPI_T_event_registration event_registration, void *user_data,
             MPI_T_event_free_cb_function *free_cb_function));
COMPI_PROTO(int, T_event_set_dropped_handler,
            (MPI_T_event_registration event_registration,
             MPI_T_event_dropped_cb_function *dropped_cb_function));
COMPI_PROTO(int, T_event_read,
            (MPI_T_event_instance event_instance, int element_index, void *buffer));
COMPI_PROTO(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer));
COMPI_PROTO(int, T_event_get_timestamp,
            (MPI_T_event_instance event_instance, MPI_Count *event_timestamp));
COMPI_PROTO(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index));
COMPI_PROTO(int, T_category_get_num_events, (int cat_index, int *num_events));
COMPI_PROTO(int, T_category_get_events, (int cat_index, int len, int indices[]));

/* ---- one-sided communication (RMA) ------------------------------------------------
 * Windows of ranks on one host (docs/rma.md): memory of MPI_Win_allocate(_shared) lies in
 * one shared segment, that of MPI_Win_create and dynamic windows is reached by single
 * copy (process_vm_readv/writev).  Transfers complete inside the call that starts them. */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
/* predefined window attribute keys (negative: never a keyval MPI_Win_create_keyval makes) */
#define MPI_WIN_BASE 0x66000001
#define MPI_WIN_SIZE 0x66000003
#define MPI_WIN_DISP_UNIT 0x66000005
#define MPI_WIN_CREATE_FLAVOR 0x66000007
#define MPI_WIN_MODEL 0x66000009
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

typedef void(MPI_Win_errhandler_function)(MPI_Win *, int *, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef int(MPI_Win_copy_attr_function)(MPI_Win, int, void *, void *, void *, int *);
typedef int(MPI_Win_delete_attr_function)(MPI_Win, int, void *, void *);
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)0)
int MPI_WIN_DUP_FN(MPI_Win, int, void *, void *, void *, int *);

COMPI_PROTO(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                              MPI_Comm comm, MPI_Win *win));
COMPI_PROTO(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                void *baseptr, MPI_Win *win));
COMPI_PROTO(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info,
                                       MPI_Comm comm, void *baseptr, MPI_Win *win));
COMPI_PROTO(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win));
COMPI_PROTO(int, Win_free, (MPI_Win * win));
COMPI_PROTO(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
COMPI_PROTO(int, Win_detach, (MPI_Win win, const void *base));
COMPI_PROTO(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
                                    void *baseptr));
COMPI_PROTO(int, Win_get_group, (MPI_Win win, MPI_Group *group));
COMPI_PROTO(int, Win_set_name, (MPI_Win win, const char *win_name));
COMPI_PROTO(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen));
COMPI_PROTO(int, Win_set_info, (MPI_Win win, MPI_Info info));
COMPI_PROTO(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
COMPI_PROTO(int, Win_create_keyval,
            (MPI_Win_copy_attr_function * win_copy_attr_fn,
             MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
             void *extra_state));
COMPI_PROTO(int, Win_free_keyval, (int *win_keyval));
COMPI_PROTO(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val));
COMPI_PROTO(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag));
COMPI_PROTO(int, Win_delete_attr, (MPI_Win win, int win_keyval));
COMPI_PROTO(int, Win_create_errhandler,
            (MPI_Win_errhandler_function * win_errhandler_fn, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler));
COMPI_PROTO(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Win_call_errhandler, (MPI_Win win, int errorcode));

COMPI_PROTO(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Win win));
COMPI_PROTO(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Win win));
COMPI_PROTO(int, Accumulate, (const void *origin_addr, int origin_count,
                              MPI_Datatype origin_datatype, int target_rank,
                              MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
COMPI_PROTO(int, Get_accumulate, (const void *origin_addr, int origin_count,
                                  MPI_Datatype origin_datatype, void *result_addr,
                                  int result_count, MPI_Datatype result_datatype,
                                  int target_rank, MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
COMPI_PROTO(int, Fetch_and_op, (const void *origin_addr, void *result_addr,
                                MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                                MPI_Op op, MPI_Win win));
COMPI_PROTO(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr,
                                    void *result_addr, MPI_Datatype datatype, int target_rank,
                                    MPI_Aint target_disp, MPI_Win win));
COMPI_PROTO(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
COMPI_PROTO(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
COMPI_PROTO(int, Raccumulate, (const void *origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                               MPI_Request *request));
COMPI_PROTO(int, Rget_accumulate, (const void *origin_addr, int origin_count,
                                   MPI_Datatype origin_datatype, void *result_addr,
                                   int result_count, MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                   MPI_Request *request));

/* one-sided communication's large-count forms (MPI-4.0) */
COMPI_PROTO(int, Win_create_c,
            (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
             MPI_Win *win));
COMPI_PROTO(int, Win_allocate_c,
            (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
             MPI_Win *win));
COMPI_PROTO(int, Win_allocate_shared_c,
            (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
             MPI_Win *win));
COMPI_PROTO(int, Win_shared_query_c,
            (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr));
COMPI_PROTO(int, Put_c,
            (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Win win));
COMPI_PROTO(int, Get_c,
            (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Win win));
COMPI_PROTO(int, Accumulate_c,
            (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
COMPI_PROTO(int, Get_accumulate_c,
            (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
COMPI_PROTO(int, Rput_c,
            (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
COMPI_PROTO(int, Rget_c,
            (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
COMPI_PROTO(int, Raccumulate_c,
            (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));
COMPI_PROTO(int, Rget_accumulate_c,
            (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
             void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));

COMPI_PROTO(int, Win_fence, (int assert, MPI_Win win));
COMPI_PROTO(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win));
COMPI_PROTO(int, Win_unlock, (int rank, MPI_Win win));
COMPI_PROTO(int, Win_lock_all, (int assert, MPI_Win win));
COMPI_PROTO(int, Win_unlock_all, (MPI_Win win));
COMPI_PROTO(int, Win_flush, (int rank, MPI_Win win));
COMPI_PROTO(int, Win_flush_all, (MPI_Win win));
COMPI_PROTO(int, Win_flush_local, (int rank, MPI_Win win));
COMPI_PROTO(int, Win_flush_local_all, (MPI_Win win));
COMPI_PROTO(int, Win_sync, (MPI_Win win));
COMPI_PROTO(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
COMPI_PROTO(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
COMPI_PROTO(int, Win_complete, (MPI_Win win));
COMPI_PROTO(int, Win_wait, (MPI_Win win));
COMPI_PROTO(int, Win_test, (MPI_Win win, int *flag));

/* ---- MPI-4: large counts, MPI_Isendrecv, sessions --------------------------------------
 * The _c functions take MPI_Count counts and MPI_Aint displacements (MPI_Count for the
 * datatype constructors).  Point-to-point and the collectives (their count and
 * displacement arrays included) carry them whole; where compi keeps an int inside (a
 * datatype's envelope, external32 packing) a count beyond int gives
 * MPI_ERR_COUNT (a displacement beyond int: MPI_ERR_ARG) -- never a silent truncation.
 * Datatype sizes and extents are computed in 64 bits, so MPI_Type_size_c and the extent
 * queries report values above INT_MAX. */
typedef void(MPI_User_function_c)(void *, void *, MPI_Count *, MPI_Datatype *);

/* point to point */
COMPI_PROTO(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm));
COMPI_PROTO(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm));
COMPI_PROTO(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm));
COMPI_PROTO(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm));
COMPI_PROTO(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
                                int dest, int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
                                int dest, int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype,
                                int dest, int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                           int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                               int tag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Message *message, MPI_Status *status));
COMPI_PROTO(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Message *message, MPI_Request *request));
COMPI_PROTO(int, Sendrecv_c,
            (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
             int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
             int recvtag, MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Sendrecv_replace_c,
            (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
             int source, int recvtag, MPI_Comm comm, MPI_Status *status));
COMPI_PROTO(int, Isendrecv,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
             MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Isendrecv_replace,
            (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
             int recvtag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Isendrecv_c,
            (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
             int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
             int recvtag, MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Isendrecv_replace_c,
            (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
             int source, int recvtag, MPI_Comm comm, MPI_Request *request));
/* partitioned communication (MPI-4.0 chapter 4) */
COMPI_PROTO(int, Psend_init,
            (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Precv_init,
            (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
             int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request));
COMPI_PROTO(int, Pready, (int partition, MPI_Request request));
COMPI_PROTO(int, Pready_range, (int partition_low, int partition_high, MPI_Request request));
COMPI_PROTO(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request));
COMPI_PROTO(int, Parrived, (MPI_Request request, int partition, int *flag));
COMPI_PROTO(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count));
COMPI_PROTO(int, Get_elements_c,
            (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count));
COMPI_PROTO(int, Status_set_elements_c,
            (MPI_Status * status, MPI_Datatype datatype, MPI_Count count));
COMPI_PROTO(int, Buffer_attach_c, (void *buffer, MPI_Count size));
COMPI_PROTO(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size));
COMPI_PROTO(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                          void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm));
COMPI_PROTO(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position,
                            void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
                            MPI_Comm comm));
COMPI_PROTO(int, Pack_size_c,
            (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size));
COMPI_PROTO(int, Pack_external_c,
            (const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
             void *outbuf, MPI_Count outsize, MPI_Count *position));
COMPI_PROTO(int, Unpack_external_c,
            (const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
             void *outbuf, MPI_Count outcount, MPI_Datatype datatype));
COMPI_PROTO(int, Pack_external_size_c,
            (const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size));

/* datatypes and operations */
COMPI_PROTO(int, Type_contiguous_c,
            (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                 MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength,
                                         MPI_Count stride, MPI_Datatype oldtype,
                                         MPI_Datatype *newtype));
COMPI_PROTO(int, Type_indexed_c,
            (MPI_Count count, const MPI_Count array_of_blocklengths[],
             const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_hindexed_c,
            (MPI_Count count, const MPI_Count array_of_blocklengths[],
             const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_indexed_block_c,
            (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
             MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_hindexed_block_c,
            (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
             MPI_Datatype oldtype, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_struct_c,
            (MPI_Count count, const MPI_Count array_of_blocklengths[],
             const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_subarray_c,
            (int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
             const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_darray_c,
            (int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
             const int array_of_distribs[], const int array_of_dargs[],
             const int array_of_psizes[], int order, MPI_Datatype oldtype,
             MPI_Datatype *newtype));
COMPI_PROTO(int, Type_create_resized_c,
            (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype));
COMPI_PROTO(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size));
COMPI_PROTO(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
COMPI_PROTO(int, Type_get_true_extent_c,
            (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent));
COMPI_PROTO(int, Type_get_envelope_c,
            (MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner));
COMPI_PROTO(int, Type_get_contents_c,
            (MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
             MPI_Datatype array_of_datatypes[]));
COMPI_PROTO(int, Op_create_c, (MPI_User_function_c * user_fn, int commute, MPI_Op *op));
COMPI_PROTO(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count,
                                  MPI_Datatype datatype, MPI_Op op));

/* collectives: blocking, nonblocking (I..., + request) and persistent (..._init, + info,
   request) forms share one parameter list each */
#define COMPI_BC_NB , MPI_Request *request
#define COMPI_BC_PI , MPI_Info info, MPI_Request *request
#define COMPI_BC_BCAST(xp, x)                                                         \
    COMPI_PROTO(int, x, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,     \
                         MPI_Comm comm xp))
#define COMPI_BC_ALL3(shape, b, i, p)                                                        \
    shape(, b##_c);                                                                          \
    shape(COMPI_BC_NB, i##_c);                                                               \
    shape(COMPI_BC_PI, p##_c)
#define COMPI_BC_REDUCE(xp, x)                                                        \
    COMPI_PROTO(int, x, (const void *sendbuf, void *recvbuf, MPI_Count count,               \
                         MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm xp))
#define COMPI_BC_ALLREDUCE(xp, x)                                                     \
    COMPI_PROTO(int, x, (const void *sendbuf, void *recvbuf, MPI_Count count,               \
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm xp))
#define COMPI_BC_GATHER(xp, x)                                                        \
    COMPI_PROTO(int, x, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,   \
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, \
                         MPI_Comm comm xp))
#define COMPI_BC_ALLGATHER(xp, x)                                                     \
    COMPI_PROTO(int, x, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,   \
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,          \
                         MPI_Comm comm xp))
#define COMPI_BC_GATHERV(xp, x)                                                       \
    COMPI_PROTO(int, x, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,   \
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], \
                         MPI_Datatype recvtype, int root, MPI_Comm comm xp))
#define COMPI_BC_SCATTERV(xp, x)                                                      \
    COMPI_PROTO(int, x, (const void *sendbuf, const MPI_Count sendcounts[],                 \
                         const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,      \
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm xp))
#define COMPI_BC_ALLGATHERV(xp, x)                                                    \
    COMPI_PROTO(int, x, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,   \
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], \
                         MPI_Datatype recvtype, MPI_Comm comm xp))
#define COMPI_BC_ALLTOALLV(xp, x)                                                     \
    COMPI_PROTO(int, x, (const void *sendbuf, const MPI_Count sendcounts[],                 \
                         const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,     \
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],             \
                         MPI_Datatype recvtype, MPI_Comm comm xp))
#define COMPI_BC_ALLTOALLW(xp, x)                                                     \
    COMPI_PROTO(int, x, (const void *sendbuf, const MPI_Count sendcounts[],                 \
                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],           \
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], \
                         const MPI_Datatype recvtypes[], MPI_Comm comm xp))
#define COMPI_BC_REDUCE_SCATTER(xp, x)                                                \
    COMPI_PROTO(int, x, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],  \
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm xp))
#define COMPI_BC_REDUCE_SCATTER_BLOCK(xp, x)                                          \
    COMPI_PROTO(int, x, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,           \
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm xp))
COMPI_BC_ALL3(COMPI_BC_BCAST, Bcast, Ibcast, Bcast_init);
COMPI_BC_ALL3(COMPI_BC_REDUCE, Reduce, Ireduce, Reduce_init);
COMPI_BC_ALL3(COMPI_BC_ALLREDUCE, Allreduce, Iallreduce, Allreduce_init);
COMPI_BC_ALL3(COMPI_BC_ALLREDUCE, Scan, Iscan, Scan_init);
COMPI_BC_ALL3(COMPI_BC_ALLREDUCE, Exscan, Iexscan, Exscan_init);
COMPI_BC_ALL3(COMPI_BC_GATHER, Gather, Igather, Gather_init);
COMPI_BC_ALL3(COMPI_BC_GATHER, Scatter, Iscatter, Scatter_init);
COMPI_BC_ALL3(COMPI_BC_ALLGATHER, Allgather, Iallgather, Allgather_init);
COMPI_BC_ALL3(COMPI_BC_ALLGATHER, Alltoall, Ialltoall, Alltoall_init);
COMPI_BC_ALL3(COMPI_BC_GATHERV, Gatherv, Igatherv, Gatherv_init);
COMPI_BC_ALL3(COMPI_BC_SCATTERV, Scatterv, Iscatterv, Scatterv_init);
COMPI_BC_ALL3(COMPI_BC_ALLGATHERV, Allgatherv, Iallgatherv, Allgatherv_init);
COMPI_BC_ALL3(COMPI_BC_ALLTOALLV, Alltoallv, Ialltoallv, Alltoallv_init);
COMPI_BC_ALL3(COMPI_BC_ALLTOALLW, Alltoallw, Ialltoallw, Alltoallw_init);
COMPI_BC_ALL3(COMPI_BC_REDUCE_SCATTER, Reduce_scatter, Ireduce_scatter, Reduce_scatter_init);
COMPI_BC_ALL3(COMPI_BC_REDUCE_SCATTER_BLOCK, Reduce_scatter_block, Ireduce_scatter_block,
              Reduce_scatter_block_init);
COMPI_BC_ALL3(COMPI_BC_ALLGATHER, Neighbor_allgather, Ineighbor_allgather,
              Neighbor_allgather_init);
COMPI_BC_ALL3(COMPI_BC_ALLGATHER, Neighbor_alltoall, Ineighbor_alltoall, Neighbor_alltoall_init);
COMPI_BC_ALL3(COMPI_BC_ALLGATHERV, Neighbor_allgatherv, Ineighbor_allgatherv,
              Neighbor_allgatherv_init);
COMPI_BC_ALL3(COMPI_BC_ALLTOALLV, Neighbor_alltoallv, Ineighbor_alltoallv,
              Neighbor_alltoallv_init);
COMPI_BC_ALL3(COMPI_BC_ALLTOALLW, Neighbor_alltoallw, Ineighbor_alltoallw,
              Neighbor_alltoallw_init);
#undef COMPI_BC_ALL3
#undef COMPI_BC_ALLGATHER
#undef COMPI_BC_ALLGATHERV
#undef COMPI_BC_ALLREDUCE
#undef COMPI_BC_ALLTOALLV
#undef COMPI_BC_ALLTOALLW
#undef COMPI_BC_BCAST
#undef COMPI_BC_GATHER
#undef COMPI_BC_GATHERV
#undef COMPI_BC_NB
#undef COMPI_BC_PI
#undef COMPI_BC_REDUCE
#undef COMPI_BC_REDUCE_SCATTER
#undef COMPI_BC_REDUCE_SCATTER_BLOCK
#undef COMPI_BC_SCATTERV

/* communicators */
COMPI_PROTO(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request));
COMPI_PROTO(int, Comm_idup_with_info,
            (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request));

/* sessions (MPI-4 chapter 11).  Process sets: "mpi://WORLD" and "mpi://SELF". */
typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0x38000000)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
typedef void(MPI_Session_errhandler_function)(MPI_Session *, int *, ...);
COMPI_PROTO(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session));
COMPI_PROTO(int, Session_finalize, (MPI_Session * session));
COMPI_PROTO(MPI_Fint, Session_c2f, (MPI_Session session));
COMPI_PROTO(MPI_Session, Session_f2c, (MPI_Fint session));
COMPI_PROTO(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names));
COMPI_PROTO(int, Session_get_nth_pset,
            (MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name));
COMPI_PROTO(int, Session_get_pset_info,
            (MPI_Session session, const char *pset_name, MPI_Info *info));
COMPI_PROTO(int, Session_get_info, (MPI_Session session, MPI_Info *info_used));
COMPI_PROTO(int, Group_from_session_pset,
            (MPI_Session session, const char *pset_name, MPI_Group *newgroup));
COMPI_PROTO(int, Comm_create_from_group,
            (MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
             MPI_Comm *newcomm));
COMPI_PROTO(int, Intercomm_create_from_groups,
            (MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader,
             const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
             MPI_Comm *newintercomm));
COMPI_PROTO(int, Session_create_errhandler,
            (MPI_Session_errhandler_function * session_errhandler_fn,
             MPI_Errhandler *errhandler));
COMPI_PROTO(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler));
COMPI_PROTO(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler));
COMPI_PROTO(int, Session_call_errhandler, (MPI_Session session, int errorcode));
COMPI_PROTO(int, Session_toint, (MPI_Session session));
COMPI_PROTO(MPI_Session, Session_fromint, (int session));

/* buffers for MPI_Bsend attached to a communicator or a session (MPI 4.1): a buffered
   send on a communicator takes the communicator's buffer, else that of the session the
   communicator was made from, else the process's (MPI_Buffer_attach).  MPI_BUFFER_AUTOMATIC
   attached: the library allocates what each buffered send needs. */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)
COMPI_PROTO(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size));
COMPI_PROTO(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size));
COMPI_PROTO(int, Comm_flush_buffer, (MPI_Comm comm));
COMPI_PROTO(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request));
COMPI_PROTO(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size));
COMPI_PROTO(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size));
COMPI_PROTO(int, Session_flush_buffer, (MPI_Session session));
COMPI_PROTO(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request));
COMPI_PROTO(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size));
COMPI_PROTO(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size));
COMPI_PROTO(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size));
COMPI_PROTO(int, Session_detach_buffer_c,
            (MPI_Session session, void *buffer_addr, MPI_Count *size));

/* ---- MPI-IO (docs/architecture.md, "MPI-IO") ----------------------------------------
 * Files are POSIX files every rank opens itself.  A nonblocking access (MPI_File_iwrite,
 * MPI_File_iread_all, ...) does its I/O inside the call that starts it and returns a
 * request that is already complete; a split collective's _begin does the same, its _end
 * gives the status.  The default error handler of a file is MPI_ERRORS_RETURN. */
/* ROMIO's older names for the requests of nonblocking I/O, as MPICH's mpio.h keeps them
   (programs written for ROMIO use them): they are MPI_Requests */
#define MPIO_Request MPI_Request
#define MPIO_USES_MPI_REQUEST
#define MPIO_Wait MPI_Wait
#define MPIO_Test MPI_Test
#define PMPIO_Wait PMPI_Wait
#define PMPIO_Test PMPI_Test
#define MPIO_REQUEST_DEFINED
#define MPIO_REQUEST_NULL ((MPIO_Request)0)
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)
#define MPI_MAX_DATAREP_STRING 128

typedef void(MPI_File_errhandler_function)(MPI_File *, int *, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int(MPI_Datarep_conversion_function)(void *userbuf, MPI_Datatype datatype, int count,
                                             void *filebuf, MPI_Offset position, void *extra_state);
typedef int(MPI_Datarep_conversion_function_c)(void *userbuf, MPI_Datatype datatype,
                                               MPI_Count count, void *filebuf, MPI_Offset position,
                                               void *extra_state);
typedef int(MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint *extent,
                                         void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

COMPI_PROTO(int, File_open,
            (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh));
COMPI_PROTO(int, File_close, (MPI_File * fh));
COMPI_PROTO(int, File_delete, (const char *filename, MPI_Info info));
COMPI_PROTO(int, File_set_size, (MPI_File fh, MPI_Offset size));
COMPI_PROTO(int, File_preallocate, (MPI_File fh, MPI_Offset size));
COMPI_PROTO(int, File_get_size, (MPI_File fh, MPI_Offset *size));
COMPI_PROTO(int, File_get_group, (MPI_File fh, MPI_Group *group));
COMPI_PROTO(int, File_get_amode, (MPI_File fh, int *amode));
COMPI_PROTO(int, File_set_info, (MPI_File fh, MPI_Info info));
COMPI_PROTO(int, File_get_info, (MPI_File fh, MPI_Info *info_used));
COMPI_PROTO(int, File_set_view,
            (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
             const char *datarep, MPI_Info info));
COMPI_PROTO(int, File_get_view,
            (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
             char *datarep));
COMPI_PROTO(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence));
COMPI_PROTO(int, File_get_position, (MPI_File fh, MPI_Offset *offset));
COMPI_PROTO(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp));
COMPI_PROTO(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence));
COMPI_PROTO(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset));
COMPI_PROTO(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent));
COMPI_PROTO(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype, MPI_Count *extent));
COMPI_PROTO(int, File_set_atomicity, (MPI_File fh, int flag));
COMPI_PROTO(int, File_get_atomicity, (MPI_File fh, int *flag));
COMPI_PROTO(int, File_sync, (MPI_File fh));
COMPI_PROTO(int, File_create_errhandler,
            (MPI_File_errhandler_function * file_errhandler_fn, MPI_Errhandler *errhandler));
COMPI_PROTO(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler));
COMPI_PROTO(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler));
COMPI_PROTO(int, File_call_errhandler, (MPI_File fh, int errorcode));
COMPI_PROTO(int, Register_datarep,
            (const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
             MPI_Datarep_conversion_function *write_conversion_fn,
             MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state));
COMPI_PROTO(int, Register_datarep_c,
            (const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn,
             MPI_Datarep_conversion_function_c *write_conversion_fn,
             MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state));
/* data access; every one has its large-count form (_c) */
COMPI_PROTO(int, File_read_at,
            (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_read_at_all,
            (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_write_at,
            (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_write_at_all,
            (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_iread_at,
            (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_iread_at_all,
            (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_iwrite_at,
            (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_iwrite_at_all,
            (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_read,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_read_all,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_all,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_iread,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iread_all,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iwrite,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iwrite_all,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_read_shared,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_shared,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_iread_shared,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iwrite_shared,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_read_ordered,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_ordered,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_read_at_all_begin,
            (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype));
COMPI_PROTO(int, File_write_at_all_begin,
            (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype));
COMPI_PROTO(int, File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype));
COMPI_PROTO(int, File_write_all_begin,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype));
COMPI_PROTO(int, File_read_ordered_begin,
            (MPI_File fh, void *buf, int count, MPI_Datatype datatype));
COMPI_PROTO(int, File_write_ordered_begin,
            (MPI_File fh, const void *buf, int count, MPI_Datatype datatype));
COMPI_PROTO(int, File_read_at_c,
            (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_read_at_all_c,
            (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_write_at_c,
            (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
             MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_at_all_c,
            (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
             MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_iread_at_c,
            (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_iread_at_all_c,
            (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_iwrite_at_c,
            (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
             MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iwrite_at_all_c,
            (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
             MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_read_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_read_all_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_write_all_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_iread_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iread_all_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iwrite_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_iwrite_all_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_read_shared_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_shared_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_iread_shared_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
COMPI_PROTO(int, File_iwrite_shared_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Request *request));
COMPI_PROTO(int, File_read_ordered_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
COMPI_PROTO(int, File_write_ordered_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
             MPI_Status *status));
COMPI_PROTO(int, File_read_at_all_begin_c,
            (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype));
COMPI_PROTO(int, File_write_at_all_begin_c,
            (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
             MPI_Datatype datatype));
COMPI_PROTO(int, File_read_all_begin_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype));
COMPI_PROTO(int, File_write_all_begin_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype));
COMPI_PROTO(int, File_read_ordered_begin_c,
            (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype));
COMPI_PROTO(int, File_write_ordered_begin_c,
            (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype));
COMPI_PROTO(int, File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status));
COMPI_PROTO(int, File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
COMPI_PROTO(int, File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status));
COMPI_PROTO(int, File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
COMPI_PROTO(int, File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status));
COMPI_PROTO(int, File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status));

#undef COMPI_PROTO

/* ---- compi's extensions (MPIX_; docs/mpi_t.md) --------------------------------------
 * Collective over comm.  MPIX_Coll_reconfigure resets the collective creators to the
 * defaults and loads config_list (colon-separated Scheme files) as MPI_Init loads
 * coll_config, checks that every rank loaded it (if one failed, all fail with the same
 * message and keep the previous configuration), and flushes the closure caches of comm
 * and of every communicator whose members are all in comm.  MPIX_Coll_flush only
 * flushes those caches: the next call of each key asks the creators again. */
int MPIX_Coll_reconfigure(MPI_Comm comm, const char *config_list);
int MPIX_Coll_flush(MPI_Comm comm);
/* MPICH 4.0's names of MPI-4.1's MPI_Remove_error_class, _code and _string, which programs
   built for it call (core/mpi/removed_api.c) */
int MPIX_Delete_error_class(int errorclass);
int MPIX_Delete_error_code(int errorcode);
int MPIX_Delete_error_string(int errorcode);

#ifdef __cplusplus
}
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif /* COMPI_MPI_H */
