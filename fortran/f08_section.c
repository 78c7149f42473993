/*
 * f08_section.c -- the choice buffers of use mpi_f08: TYPE(*), DIMENSION(..), so each
 * arrives as a descriptor (ISO_Fortran_binding.h's CFI_cdesc_t) and may be a
 * non-contiguous array section such as A(1:N:2) (MPI_SUBARRAYS_SUPPORTED is .TRUE.).
 *
 * mpi_f08's procedure (fortran/gen/mpi_f08.f90) asks compi_f08_choice1 (one buffer) or
 * compi_f08_choice2 (two sharing a count and a datatype: a reduction's sendbuf and
 * recvbuf) for the address to hand on to mpif.h's glue, which passes it to C:
 *   - a contiguous buffer, a scalar (MPI_IN_PLACE and MPI_BOTTOM among them): its address,
 *     the count and datatype unchanged;
 *   - a section: the address of its first element and a new datatype, one of
 *     MPI_Type_create_hindexed_block over the datatype the program named, each element of
 *     the section holding elem_len / size of them, as many elements as the count fills;
 *     the procedure calls with it and a count of 1, then frees it (compi_f08_type_free:
 *     a nonblocking operation keeps the type until it completes, as MPI_Type_free allows).
 * Where a section cannot be described so, MPI_ERR_BUFFER is returned (and the error
 * handler of MPI_COMM_WORLD called), never a wrong transfer: a datatype whose size is not
 * its extent or does not divide the section's element, a count that ends inside an
 * element or beyond the section, a section where no count and datatype go with the buffer
 * (the v and w collectives' arrays, windows, attached buffers), two buffers of one
 * datatype laid out differently.
 *
 * Ownership: the displacements are freed before return; the datatype made is the
 * procedure's, freed right after its call.
 */
#include "fortran/glue.h"

#include <ISO_Fortran_binding.h>
#include <stdint.h>

/* the elements of the section, in Fortran's array element order: n of them, each
   elem_len bytes at displs[i] from the first (malloc'ed, the caller frees) */
static MPI_Aint *section_displs(const CFI_cdesc_t *d, MPI_Count n)
{
    MPI_Aint *displs = malloc((size_t)(n > 0 ? n : 1) * sizeof(*displs));
    CFI_index_t idx[CFI_MAX_RANK] = {0};
    for (MPI_Count i = 0; displs != NULL && i < n; i++) {
        MPI_Aint off = 0;
        for (int r = 0; r < d->rank; r++) {
            off += (MPI_Aint)idx[r] * (MPI_Aint)d->dim[r].sm;
        }
        displs[i] = off;
        for (int r = 0; r < d->rank && ++idx[r] == d->dim[r].extent; r++) {
            idx[r] = 0;
        }
    }
    return displs;
}

static MPI_Count section_elements(const CFI_cdesc_t *d)
{
    MPI_Count n = 1;
    for (int r = 0; r < d->rank; r++) {
        n *= d->dim[r].extent;
    }
    return n;
}

static int section_contiguous(const CFI_cdesc_t *d)
{
    return d->rank == 0 || d->base_addr == NULL || CFI_is_contiguous(d);
}

static int section_error(void)
{
    PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_BUFFER);
    return MPI_ERR_BUFFER;
}

/* a datatype over the section d for count elements of datatype *dt; 0 or an error */
static int section_type(const CFI_cdesc_t *d, long long count, MPI_Fint *dt)
{
    MPI_Datatype t = MPI_Type_f2c(*dt), made;
    MPI_Count size, lb, extent;
    if (count < 0 || PMPI_Type_size_c(t, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent_c(t, &lb, &extent) != MPI_SUCCESS || size <= 0 || lb != 0 ||
        extent != size || d->elem_len % (size_t)size != 0) {
        return section_error();
    }
    MPI_Count per = (MPI_Count)d->elem_len / size;
    if (count % per != 0 || count / per > section_elements(d)) {
        return section_error();
    }
    MPI_Count n = count / per;
    MPI_Aint *displs = section_displs(d, n);
    if (displs == NULL || n > INT32_MAX || per > INT32_MAX) {
        free(displs);
        return section_error();
    }
    int rc = PMPI_Type_create_hindexed_block((int)n, (int)per, displs, t, &made);
    free(displs);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_commit(&made);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *dt = MPI_Type_c2f(made);
    return MPI_SUCCESS;
}

/* one choice buffer; count < 0: no count and datatype go with it (a section is an error) */
COMPI_F_EXPORT void compi_f08_choice1(CFI_cdesc_t *d, long long count, MPI_Fint *dt, void **base,
                                      MPI_Fint *made, MPI_Fint *ierr)
{
    *base = d->base_addr;
    *made = 0;
    *ierr = MPI_SUCCESS;
    if (section_contiguous(d)) {
        return;
    }
    *ierr = count < 0 ? section_error() : section_type(d, count, dt);
    *made = *ierr == MPI_SUCCESS;
}

/* two buffers of one count and datatype: both contiguous, or the sections laid out alike
   (one of them may be a sentinel, MPI_IN_PLACE, which the datatype does not describe) */
COMPI_F_EXPORT void compi_f08_choice2(CFI_cdesc_t *d1, CFI_cdesc_t *d2, long long count,
                                      MPI_Fint *dt, void **base1, void **base2, MPI_Fint *made,
                                      MPI_Fint *ierr)
{
    *base1 = d1->base_addr;
    *base2 = d2->base_addr;
    *made = 0;
    *ierr = MPI_SUCCESS;
    int c1 = section_contiguous(d1), c2 = section_contiguous(d2);
    if (c1 && c2) {
        return;
    }
    const CFI_cdesc_t *sec = c1 ? d2 : d1, *other = c1 ? d1 : d2;
    int sentinel = other->rank == 0 && (compi_f_buf(other->base_addr) == MPI_IN_PLACE ||
                                        compi_f_buf(other->base_addr) == MPI_BOTTOM);
    int alike = !c1 && !c2 && d1->rank == d2->rank && d1->elem_len == d2->elem_len;
    for (int r = 0; alike && r < d1->rank; r++) {
        alike = d1->dim[r].extent == d2->dim[r].extent && d1->dim[r].sm == d2->dim[r].sm;
    }
    if (!sentinel && !alike) {
        *ierr = section_error();
        return;
    }
    *ierr = section_type(sec, count, dt);
    *made = *ierr == MPI_SUCCESS;
}

/* the datatype compi_f08_choice made, after the call that used it */
COMPI_F_EXPORT void compi_f08_type_free(MPI_Fint *dt)
{
    MPI_Datatype t = MPI_Type_f2c(*dt);
    PMPI_Type_free(&t);
}
