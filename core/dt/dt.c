/*
 * dt.c -- datatype objects: the predefined table, refcounts, names and envelopes.
 *
 * Predefined types live in a static array (their index is the basic type, dt->basic;
 * dt_basic_handle gives the handle of mpi.h); their size,
 * alignment and layout come from the C compiler (sizeof, _Alignof, offsetof), so they
 * match what the application's compiler lays out.  The pair types of MINLOC/MAXLOC are
 * two blocks, {T v; int i;}, tagged with the basic types of their members, so that
 * MPI_Get_elements counts two basic elements per pair.
 */
#include "core/dt/dt.h"
#include "core/dt/dt_internal.h"

#include <complex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

handle_table_t dt_table = HANDLE_TABLE_INIT(COMPI_HKIND_DATATYPE, COMPI_DT_NUM_PREDEFINED);

/* the C layouts MPI's pair types must match */
typedef struct {
    float v;
    int i;
} dt__float_int_t;
typedef struct {
    double v;
    int i;
} dt__double_int_t;
typedef struct {
    long v;
    int i;
} dt__long_int_t;
typedef struct {
    int v;
    int i;
} dt__2int_t;
typedef struct {
    short v;
    int i;
} dt__short_int_t;
typedef struct {
    long double v;
    int i;
} dt__long_double_int_t;

typedef struct dt__predef_desc {
    const char *name;
    int handle; /* its value in mpi.h */
    size_t size, extent, align;
    int nblocks; /* 0 (markers, null), 1 (plain) or 2 (pairs) */
    int basic0;  /* basic type of the first block (the value of a pair) */
    size_t len0;
    ptrdiff_t disp1; /* pairs: where the int lies */
    int marker;      /* 1: MPI_LB, 2: MPI_UB */
    int twin;        /* Fortran pairs (MPI_2REAL): value and index of one type, one block */
} dt__predef_desc_t;

#define DT_PLAIN(idx, nm, T)                                                                       \
    [idx] = {.name = #nm,                                                                          \
             .handle = nm,                                                                         \
             .size = sizeof(T),                                                                    \
             .extent = sizeof(T),                                                                  \
             .align = _Alignof(T),                                                                 \
             .nblocks = 1,                                                                         \
             .basic0 = idx,                                                                        \
             .len0 = sizeof(T)}
#define DT_PAIR(idx, nm, S, vbasic)                                                                \
    [idx] = {.name = #nm,                                                                          \
             .handle = nm,                                                                         \
             .size = sizeof(((S *)0)->v) + sizeof(int),                                            \
             .extent = sizeof(S),                                                                  \
             .align = _Alignof(S),                                                                 \
             .nblocks = 2,                                                                         \
             .basic0 = vbasic,                                                                     \
             .len0 = sizeof(((S *)0)->v),                                                          \
             .disp1 = offsetof(S, i)}

/* a Fortran pair type: two `T`s, both of basic type `vbasic`, as one block */
#define DT_TWIN(idx, nm, T, vbasic)                                                                \
    [idx] = {.name = #nm,                                                                          \
             .handle = nm,                                                                         \
             .size = 2 * sizeof(T),                                                                \
             .extent = 2 * sizeof(T),                                                              \
             .align = _Alignof(T),                                                                 \
             .nblocks = 1,                                                                         \
             .basic0 = vbasic,                                                                     \
             .len0 = 2 * sizeof(T),                                                                \
             .twin = 1}

enum { DT_INT_IDX = 8 };

static const dt__predef_desc_t dt__desc[COMPI_DT_NUM_PREDEFINED] = {
    [0] = {.name = "MPI_DATATYPE_NULL", .handle = MPI_DATATYPE_NULL},
    DT_PLAIN(1, MPI_CHAR, char),
    DT_PLAIN(2, MPI_SIGNED_CHAR, signed char),
    DT_PLAIN(3, MPI_UNSIGNED_CHAR, unsigned char),
    DT_PLAIN(4, MPI_BYTE, unsigned char),
    DT_PLAIN(5, MPI_WCHAR, wchar_t),
    DT_PLAIN(6, MPI_SHORT, short),
    DT_PLAIN(7, MPI_UNSIGNED_SHORT, unsigned short),
    DT_PLAIN(8, MPI_INT, int),
    DT_PLAIN(9, MPI_UNSIGNED, unsigned),
    DT_PLAIN(10, MPI_LONG, long),
    DT_PLAIN(11, MPI_UNSIGNED_LONG, unsigned long),
    DT_PLAIN(12, MPI_LONG_LONG_INT, long long),
    DT_PLAIN(13, MPI_UNSIGNED_LONG_LONG, unsigned long long),
    DT_PLAIN(14, MPI_FLOAT, float),
    DT_PLAIN(15, MPI_DOUBLE, double),
    /* x86-64: 10 significant bytes in 16; all 16 are copied */
    DT_PLAIN(16, MPI_LONG_DOUBLE, long double),
    DT_PLAIN(17, MPI_INT8_T, int8_t),
    DT_PLAIN(18, MPI_INT16_T, int16_t),
    DT_PLAIN(19, MPI_INT32_T, int32_t),
    DT_PLAIN(20, MPI_INT64_T, int64_t),
    DT_PLAIN(21, MPI_UINT8_T, uint8_t),
    DT_PLAIN(22, MPI_UINT16_T, uint16_t),
    DT_PLAIN(23, MPI_UINT32_T, uint32_t),
    DT_PLAIN(24, MPI_UINT64_T, uint64_t),
    DT_PLAIN(25, MPI_C_BOOL, _Bool),
    /* MPI_C_COMPLEX and MPI_C_FLOAT_COMPLEX: one handle in mpi.h, as in MPICH's, named
       MPI_C_COMPLEX as MPICH names it (its tests accept either) */
    DT_PLAIN(26, MPI_C_COMPLEX, float _Complex),
    DT_PLAIN(27, MPI_C_DOUBLE_COMPLEX, double _Complex),
    DT_PLAIN(28, MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    DT_PLAIN(29, MPI_PACKED, unsigned char),
    DT_PLAIN(30, MPI_AINT, MPI_Aint),
    DT_PLAIN(31, MPI_OFFSET, MPI_Offset),
    DT_PLAIN(32, MPI_COUNT, MPI_Count),
    DT_PAIR(33, MPI_FLOAT_INT, dt__float_int_t, 14),
    DT_PAIR(34, MPI_DOUBLE_INT, dt__double_int_t, 15),
    DT_PAIR(35, MPI_LONG_INT, dt__long_int_t, 10),
    DT_PAIR(36, MPI_2INT, dt__2int_t, DT_INT_IDX),
    DT_PAIR(37, MPI_SHORT_INT, dt__short_int_t, 6),
    DT_PAIR(38, MPI_LONG_DOUBLE_INT, dt__long_double_int_t, 16),
    [39] = {.name = "MPI_UB", .handle = MPI_UB, .align = 1, .marker = 2},
    [40] = {.name = "MPI_LB", .handle = MPI_LB, .align = 1, .marker = 1},
    /* C++ bool and std::complex have the layout of the C types on every ABI we target */
    DT_PLAIN(41, MPI_CXX_BOOL, _Bool),
    DT_PLAIN(42, MPI_CXX_FLOAT_COMPLEX, float _Complex),
    DT_PLAIN(43, MPI_CXX_DOUBLE_COMPLEX, double _Complex),
    DT_PLAIN(44, MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex),
    /* Fortran types as gfortran lays them out on x86-64 and aarch64 Linux: default
     * INTEGER, REAL and LOGICAL are 4 bytes, DOUBLE PRECISION 8, COMPLEX two REALs.
     * Each is a basic type of its own (its own name, its own ops: LOGICAL takes only
     * the logical ops), with the layout of the C type of the same size. */
    DT_PLAIN(45, MPI_INTEGER, int32_t),
    DT_PLAIN(46, MPI_REAL, float),
    DT_PLAIN(47, MPI_DOUBLE_PRECISION, double),
    DT_PLAIN(48, MPI_COMPLEX, float _Complex),
    DT_PLAIN(49, MPI_DOUBLE_COMPLEX, double _Complex),
    DT_PLAIN(50, MPI_LOGICAL, int32_t),
    DT_PLAIN(51, MPI_CHARACTER, char),
    DT_TWIN(52, MPI_2INTEGER, int32_t, 45),
    DT_TWIN(53, MPI_2REAL, float, 46),
    DT_TWIN(54, MPI_2DOUBLE_PRECISION, double, 47),
    DT_PLAIN(55, MPI_INTEGER1, int8_t),
    DT_PLAIN(56, MPI_INTEGER2, int16_t),
    DT_PLAIN(57, MPI_INTEGER4, int32_t),
    DT_PLAIN(58, MPI_INTEGER8, int64_t),
    DT_PLAIN(59, MPI_REAL4, float),
    DT_PLAIN(60, MPI_REAL8, double),
    DT_PLAIN(61, MPI_COMPLEX8, float _Complex),
    DT_PLAIN(62, MPI_COMPLEX16, double _Complex),
    /* MPI_C_COMPLEX under its other name: mpi.h gives both one handle, so this entry is
       never reached by its handle */
    DT_PLAIN(63, MPI_C_FLOAT_COMPLEX, float _Complex),
    /* IEEE binary128 (gfortran's REAL(16)), a pair of them, and the C half float */
    DT_PLAIN(64, MPI_REAL16, _Float128),
    DT_PLAIN(65, MPI_COMPLEX32, _Float128 _Complex),
    DT_PLAIN(66, MPIX_C_FLOAT16, _Float16),
    DT_PLAIN(67, MPI_INTEGER16, __int128),
};

/* the types of MPI_Type_create_f90_*: few (one per distinct precision and range asked
   for), kept until dt_finalize */
#define DT_F90_MAX 64
static struct {
    int combiner, ints[2];
    compi_datatype_t *dt;
} dt__f90[DT_F90_MAX];
static int dt__nf90;

static compi_datatype_t dt__predef[COMPI_DT_NUM_PREDEFINED];
static dt_block_t dt__predef_blocks[COMPI_DT_NUM_PREDEFINED][2];
static size_t dt__predef_off[COMPI_DT_NUM_PREDEFINED][3];
static int dt__initialized;

size_t dt_basic_size(int basic)
{
    return dt__desc[basic].size;
}

int dt_basic_handle(int basic)
{
    return dt__desc[basic].handle;
}

static void dt__init_one(int idx)
{
    const dt__predef_desc_t *d = &dt__desc[idx];
    compi_datatype_t *dt = &dt__predef[idx];
    dt_block_t *b = dt__predef_blocks[idx];
    size_t *off = dt__predef_off[idx];

    memset(dt, 0, sizeof(*dt));
    dt->size = d->size;
    dt->extent = (ptrdiff_t)d->extent;
    dt->align = d->align ? d->align : 1;
    dt->blocks = b;
    dt->block_off = off;
    dt->nrep = 1;
    dt->unit_size = d->size;
    dt->nblocks = 0;
    off[0] = 0;
    if (d->nblocks >= 1) {
        b[0] = (dt_block_t){.disp = 0, .len = d->len0, .basic = d->basic0};
        dt->nblocks = 1;
        dt->nbasic = d->twin ? 2 : 1;
    }
    if (d->nblocks == 2) {
        /* MPI_2INT: the two ints are adjacent and alike, so they form one block */
        if (d->basic0 == DT_INT_IDX && (size_t)d->disp1 == d->len0) {
            b[0].len += sizeof(int);
        } else {
            b[1] = (dt_block_t){.disp = d->disp1, .len = sizeof(int), .basic = DT_INT_IDX};
            dt->nblocks = 2;
        }
        dt->nbasic = 2;
    }
    for (int i = 0; i < dt->nblocks; i++) {
        off[i + 1] = off[i] + b[i].len;
    }
    dt->true_lb = 0;
    dt->true_extent = dt->nblocks ? b[dt->nblocks - 1].disp + (ptrdiff_t)b[dt->nblocks - 1].len : 0;
    dt_compute_contig(dt);
    dt->handle = d->handle;
    dt->refcount = 1;
    dt->committed = 1;
    dt->predefined = 1;
    dt->basic = idx;
    dt->combiner = MPI_COMBINER_NAMED;
    dt->lb_marked = d->marker == 1;
    dt->ub_marked = d->marker == 2;
    snprintf(dt->name, sizeof(dt->name), "%s", d->name);
}

compi_status_t dt_init(void)
{
    compi_status_t st;

    if (dt__initialized) {
        return COMPI_OK;
    }
    for (int i = 1; i < COMPI_DT_NUM_PREDEFINED; i++) {
        dt__init_one(i);
        if (handle_get(&dt_table, dt__desc[i].handle) != NULL) {
            continue; /* another name of a type already stored (MPI_C_COMPLEX) */
        }
        st = handle_set_fixed(&dt_table, (unsigned)i, dt__desc[i].handle, &dt__predef[i]);
        if (st != COMPI_OK) {
            goto err;
        }
    }
    dt__initialized = 1;
    return COMPI_OK;
err:
    handle_table_destroy(&dt_table);
    return st;
}

/* releases the datatypes the envelope holds and forgets them */
static void dt__drop_env_types(compi_datatype_t *dt)
{
    for (int i = 0; i < dt->n_types; i++) {
        dt_release(dt->env_types[i]);
    }
    free(dt->env_types);
    dt->env_types = NULL;
    dt->n_types = 0;
}

static void dt__free_object(compi_datatype_t *dt)
{
    dt__drop_env_types(dt);
    free(dt->blocks);
    free(dt->block_off);
    free(dt->env_ints);
    free(dt->env_addrs);
    free(dt->env_counts);
    free(dt);
}

void dt_finalize(void)
{
    if (!dt__initialized) {
        return;
    }
    /* Types the application never freed: their attributes were the application's to
     * delete, so only our memory is released here.  First the references envelopes
     * hold (which frees the freed types only envelopes kept), then the types themselves,
     * whatever their counts. */
    for (unsigned i = dt_table.nfixed; i < dt_table.n; i++) {
        compi_datatype_t *dt = dt_table.objs[i];
        if (dt != NULL && !dt->predefined) {
            dt__drop_env_types(dt);
        }
    }
    for (unsigned i = dt_table.nfixed; i < dt_table.n; i++) {
        compi_datatype_t *dt = dt_table.objs[i];
        if (dt != NULL && !dt->predefined) {
            dt__free_object(dt);
        }
    }
    for (int i = 0; i < dt__nf90; i++) {
        dt__free_object(dt__f90[i].dt);
    }
    dt__nf90 = 0;
    handle_table_destroy(&dt_table);
    dt__initialized = 0;
}

compi_status_t dt_alloc(compi_datatype_t **dt_p)
{
    compi_datatype_t *dt = calloc(1, sizeof(*dt));
    compi_status_t st;

    if (dt == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    dt->refcount = 1;
    dt->basic = -1;
    dt->align = 1;
    dt->nrep = 1;
    dt->handle = MPI_DATATYPE_NULL;
    st = handle_alloc(&dt_table, dt, &dt->handle);
    if (st != COMPI_OK) {
        free(dt);
        return st;
    }
    *dt_p = dt;
    return COMPI_OK;
}

void dt_retain(compi_datatype_t *dt)
{
    if (!dt->predefined) {
        dt->refcount++;
    }
}

void dt_forget_handle(compi_datatype_t *dt)
{
    if (dt->predefined || dt->handle == MPI_DATATYPE_NULL) {
        return;
    }
    handle_free(&dt_table, dt->handle);
    dt->handle = MPI_DATATYPE_NULL;
}

void dt_release(compi_datatype_t *dt)
{
    if (dt->predefined || --dt->refcount > 0) {
        return;
    }
    dt_forget_handle(dt);
    dt__free_object(dt);
}

const char *dt_name(const compi_datatype_t *dt)
{
    if (dt == NULL) {
        return "MPI_DATATYPE_NULL";
    }
    return dt->name[0] ? dt->name : "(derived datatype)";
}

compi_status_t dt_set_envelope(compi_datatype_t *dt, const dt_env_t *env)
{
    int *ni = NULL;
    MPI_Aint *na = NULL;
    MPI_Count *nc = NULL;
    compi_datatype_t **nt = NULL;

    if ((env->n_ints > 0 && (ni = malloc((size_t)env->n_ints * sizeof(*ni))) == NULL) ||
        (env->n_addrs > 0 && (na = malloc((size_t)env->n_addrs * sizeof(*na))) == NULL) ||
        (env->n_counts > 0 && (nc = malloc((size_t)env->n_counts * sizeof(*nc))) == NULL) ||
        (env->n_types > 0 && (nt = malloc((size_t)env->n_types * sizeof(*nt))) == NULL)) {
        free(ni);
        free(na);
        free(nc);
        free(nt);
        return COMPI_ERR_NO_MEMORY;
    }
    if (ni != NULL) {
        memcpy(ni, env->ints, (size_t)env->n_ints * sizeof(*ni));
    }
    if (na != NULL) {
        memcpy(na, env->addrs, (size_t)env->n_addrs * sizeof(*na));
    }
    if (nc != NULL) {
        memcpy(nc, env->counts, (size_t)env->n_counts * sizeof(*nc));
    }
    for (int i = 0; i < env->n_types; i++) {
        nt[i] = dt_from_handle(env->types[i]);
        dt_retain(nt[i]);
    }
    free(dt->env_ints);
    free(dt->env_addrs);
    free(dt->env_counts);
    dt__drop_env_types(dt);
    dt->combiner = env->combiner;
    dt->env_ints = ni;
    dt->env_addrs = na;
    dt->env_counts = nc;
    dt->env_types = nt;
    dt->n_ints = ni != NULL ? env->n_ints : 0;
    dt->n_addrs = na != NULL ? env->n_addrs : 0;
    dt->n_counts = nc != NULL ? env->n_counts : 0;
    dt->n_types = nt != NULL ? env->n_types : 0;
    return COMPI_OK;
}

void dt_compute_contig(compi_datatype_t *dt)
{
    int adjacent = 1;

    for (int i = 0; i + 1 < dt->nblocks; i++) {
        if (dt->blocks[i].disp + (ptrdiff_t)dt->blocks[i].len != dt->blocks[i + 1].disp) {
            adjacent = 0;
            break;
        }
    }
    /* the blocks of a unit meet, so a unit spans unit_size bytes: the next one follows
       when the stride is that */
    if (dt->nrep > 1 && dt->rep_stride != (ptrdiff_t)dt->unit_size) {
        adjacent = 0;
    }
    dt->contig = dt->size == 0 || (adjacent && (ptrdiff_t)dt->size == dt->extent);
}

compi_status_t dt_f90_type(int combiner, int n_ints, const int *ints, compi_datatype_t *base,
                           compi_datatype_t **dt_p)
{
    compi_datatype_t *dt;
    compi_status_t st;

    for (int i = 0; i < dt__nf90; i++) {
        if (dt__f90[i].combiner == combiner && dt__f90[i].ints[0] == ints[0] &&
            (n_ints < 2 || dt__f90[i].ints[1] == ints[1])) {
            *dt_p = dt__f90[i].dt;
            return COMPI_OK;
        }
    }
    if (dt__nf90 == DT_F90_MAX) {
        return COMPI_ERR_NO_MEMORY;
    }
    st = dt_dup(base, &dt);
    if (st != COMPI_OK) {
        return st;
    }
    /* the base is predefined: nothing to retain */
    st = dt_set_envelope(dt, &(dt_env_t){.combiner = combiner, .n_ints = n_ints, .ints = ints});
    if (st != COMPI_OK) {
        dt_release(dt);
        return st;
    }
    dt->predefined = 1;
    dt->committed = 1;
    snprintf(dt->name, sizeof(dt->name), "%s", base->name);
    dt__f90[dt__nf90].combiner = combiner;
    dt__f90[dt__nf90].ints[0] = ints[0];
    dt__f90[dt__nf90].ints[1] = n_ints > 1 ? ints[1] : 0;
    dt__f90[dt__nf90].dt = dt;
    dt__nf90++;
    *dt_p = dt;
    return COMPI_OK;
}
