/*
 * dt_query_api.c -- what the datatype calls tell about a type: size and extents (and
 * their _x forms), the envelope and contents of its construction, its name; and the
 * types found by size and kind (MPI_Type_match_size, MPI_Type_create_f90_*).
 *
 * The entry points (core/mpi/gen/dt_query.c) check the arguments and call the x_impl
 * here; the engine (core/dt) trusts its callers.
 */
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int type_size_impl(compi_datatype_t *datatype, MPI_Count *size, const char *fn)
{
    (void)fn;
    *size = (MPI_Count)datatype->size;
    return MPI_SUCCESS;
}

static int type_size_x_impl(compi_datatype_t *datatype, MPI_Count *size, const char *fn)
{
    return type_size_impl(datatype, size, fn);
}

static int type_get_extent_impl(compi_datatype_t *datatype, MPI_Count *lb, MPI_Count *extent,
                                const char *fn)
{
    (void)fn;
    *lb = datatype->lb;
    *extent = datatype->extent;
    return MPI_SUCCESS;
}

static int type_get_extent_x_impl(compi_datatype_t *datatype, MPI_Count *lb, MPI_Count *extent,
                                  const char *fn)
{
    return type_get_extent_impl(datatype, lb, extent, fn);
}

static int type_get_true_extent_impl(compi_datatype_t *datatype, MPI_Count *true_lb,
                                     MPI_Count *true_extent, const char *fn)
{
    (void)fn;
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_extent;
    return MPI_SUCCESS;
}

static int type_get_true_extent_x_impl(compi_datatype_t *datatype, MPI_Count *true_lb,
                                       MPI_Count *true_extent, const char *fn)
{
    return type_get_true_extent_impl(datatype, true_lb, true_extent, fn);
}

/* A type made by a large-count constructor has large counts, which the int forms of the
   envelope and contents calls cannot return: they raise MPI_ERR_TYPE for it (the int form
   passes num_large_counts NULL, max_large_counts 0). */
static int dt__no_large_counts(const compi_datatype_t *dt, const char *fn)
{
    return mpi_err_raise(NULL, MPI_ERR_TYPE, fn,
                         "%s was made by a large-count constructor: its %d large counts need "
                         "the _c form",
                         dt_name(dt), dt->n_counts);
}

static int type_get_envelope_impl(compi_datatype_t *datatype, MPI_Count *num_integers,
                                  MPI_Count *num_addresses, MPI_Count *num_large_counts,
                                  MPI_Count *num_datatypes, int *combiner, const char *fn)
{
    if (num_large_counts == NULL && datatype->n_counts > 0) {
        return dt__no_large_counts(datatype, fn);
    }
    *num_integers = datatype->n_ints;
    *num_addresses = datatype->n_addrs;
    if (num_large_counts != NULL) {
        *num_large_counts = datatype->n_counts;
    }
    *num_datatypes = datatype->n_types;
    *combiner = datatype->combiner;
    return MPI_SUCCESS;
}

static int type_get_contents_impl(compi_datatype_t *datatype, MPI_Count max_integers,
                                  MPI_Count max_addresses, MPI_Count max_large_counts,
                                  MPI_Count max_datatypes, int array_of_integers[],
                                  MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                  MPI_Datatype array_of_datatypes[], const char *fn)
{
    compi_datatype_t *dt = datatype;

    if (dt->combiner == MPI_COMBINER_NAMED) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "%s is a named type: it has no contents",
                             dt_name(dt));
    }
    if (!mpi_fn_large(fn) && dt->n_counts > 0) {
        return dt__no_large_counts(dt, fn);
    }
    if (max_integers < dt->n_ints || max_addresses < dt->n_addrs ||
        max_large_counts < dt->n_counts || max_datatypes < dt->n_types) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                             "room for %lld/%lld/%lld/%lld integers/addresses/large counts/"
                             "datatypes, %d/%d/%d/%d needed",
                             (long long)max_integers, (long long)max_addresses,
                             (long long)max_large_counts, (long long)max_datatypes, dt->n_ints,
                             dt->n_addrs, dt->n_counts, dt->n_types);
    }
    if ((dt->n_ints > 0 && array_of_integers == NULL) ||
        (dt->n_addrs > 0 && array_of_addresses == NULL) ||
        (dt->n_counts > 0 && array_of_large_counts == NULL) ||
        (dt->n_types > 0 && array_of_datatypes == NULL)) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "an output array is NULL");
    }
    /* derived constituents come back as new types the caller frees (MPI-3.1 4.1.13) */
    for (int i = 0; i < dt->n_types; i++) {
        compi_datatype_t *t = dt->env_types[i], *copy;
        compi_status_t st;

        if (t->predefined) {
            array_of_datatypes[i] = t->handle;
            continue;
        }
        st = dt_clone(t, &copy);
        if (st != COMPI_OK) {
            while (i-- > 0) {
                compi_datatype_t *made = dt_from_handle(array_of_datatypes[i]);
                if (made != NULL && !made->predefined) {
                    dt_forget_handle(made);
                    dt_release(made);
                }
            }
            return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot copy a constituent: %s",
                                 compi_status_string(st));
        }
        array_of_datatypes[i] = copy->handle;
    }
    if (dt->n_ints > 0) {
        memcpy(array_of_integers, dt->env_ints, (size_t)dt->n_ints * sizeof(int));
    }
    if (dt->n_addrs > 0) {
        memcpy(array_of_addresses, dt->env_addrs, (size_t)dt->n_addrs * sizeof(MPI_Aint));
    }
    if (dt->n_counts > 0) {
        memcpy(array_of_large_counts, dt->env_counts, (size_t)dt->n_counts * sizeof(MPI_Count));
    }
    return MPI_SUCCESS;
}

static int type_set_name_impl(compi_datatype_t *datatype, const char *type_name, const char *fn)
{
    (void)fn;
    /* longer names are cut, as the standard allows */
    snprintf(datatype->name, sizeof(datatype->name), "%s", type_name);
    return MPI_SUCCESS;
}

static int type_get_name_impl(compi_datatype_t *datatype, char *type_name, int *resultlen,
                              const char *fn)
{
    (void)fn;
    snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", datatype->name);
    *resultlen = (int)strlen(type_name);
    return MPI_SUCCESS;
}

static int type_match_size_impl(int typeclass, int size, MPI_Datatype *datatype, const char *fn)
{
    static const struct {
        int tclass, size;
        MPI_Datatype dt;
    } match[] = {
        /* the sized Fortran types where they exist, as the standard intends (the
           arguments come from Fortran's kind queries), then the C types */
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, sizeof(long double), MPI_LONG_DOUBLE},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
        {MPI_TYPECLASS_COMPLEX, 2 * sizeof(long double), MPI_C_LONG_DOUBLE_COMPLEX},
    };

    for (size_t i = 0; i < COMPI_ARRAY_SIZE(match); i++) {
        if (match[i].tclass == typeclass && match[i].size == size) {
            *datatype = match[i].dt;
            return MPI_SUCCESS;
        }
    }
    return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "no datatype of class %d and size %d", typeclass,
                         size);
}

/* ---- Fortran 90 parameterised types ---------------------------------------------- */

/*
 * gfortran's kinds on x86-64: INTEGER(1,2,4,8,16) hold 2, 4, 9, 18 and 38 decimal
 * digits; REAL(4) has precision 6 and range 37, REAL(8) 15 and 307, REAL(10) (the x87
 * long double) 18 and 4931.  REAL(16) (software quad) has no C type here, so larger requests fail.
 */
static int dt__f90(const char *fn, int combiner, int p, int r, MPI_Datatype *newtype)
{
    static const struct {
        int p, r;
        MPI_Datatype real, cplx;
    } reals[] = {
        {6, 37, MPI_REAL4, MPI_COMPLEX8},
        {15, 307, MPI_REAL8, MPI_COMPLEX16},
        {18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX},
    };
    static const struct {
        int r;
        MPI_Datatype t;
    } ints[] = {{2, MPI_INTEGER1},
                {4, MPI_INTEGER2},
                {9, MPI_INTEGER4},
                {18, MPI_INTEGER8},
                {38, MPI_INTEGER16}};
    MPI_Datatype base = MPI_DATATYPE_NULL;
    int args[2] = {p, r}, n = 2;
    compi_datatype_t *dt;
    compi_status_t st;

    if (combiner == MPI_COMBINER_F90_INTEGER) {
        args[0] = r;
        n = 1;
        for (size_t i = 0; i < COMPI_ARRAY_SIZE(ints) && base == MPI_DATATYPE_NULL; i++) {
            if (r <= ints[i].r) {
                base = ints[i].t;
            }
        }
    } else if (p != MPI_UNDEFINED || r != MPI_UNDEFINED) {
        int pp = p == MPI_UNDEFINED ? 0 : p, rr = r == MPI_UNDEFINED ? 0 : r;
        for (size_t i = 0; i < COMPI_ARRAY_SIZE(reals) && base == MPI_DATATYPE_NULL; i++) {
            if (pp <= reals[i].p && rr <= reals[i].r) {
                base = combiner == MPI_COMBINER_F90_REAL ? reals[i].real : reals[i].cplx;
            }
        }
    }
    if (base == MPI_DATATYPE_NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "no Fortran kind has precision %d and range %d",
                             p, r);
    }
    st = dt_f90_type(combiner, n, args, dt_from_handle(base), &dt);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot make the type: %s",
                             compi_status_string(st));
    }
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

static int type_create_f90_real_impl(int p, int r, MPI_Datatype *newtype, const char *fn)
{
    return dt__f90(fn, MPI_COMBINER_F90_REAL, p, r, newtype);
}

static int type_create_f90_complex_impl(int p, int r, MPI_Datatype *newtype, const char *fn)
{
    return dt__f90(fn, MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

static int type_create_f90_integer_impl(int r, MPI_Datatype *newtype, const char *fn)
{
    return dt__f90(fn, MPI_COMBINER_F90_INTEGER, 0, r, newtype);
}

#include "core/mpi/gen/dt_query.c"
