! lang_f08.f90: the Fortran half of the Fortran-against-C comparison (run-fortran.sh): the
! loops of lang_c.c through `use mpi_f08`, so the difference is what the Fortran bindings
! cost.  Output on rank 0: "f08,pingpong,bytes,usec" and "f08,allreduce,bytes,usec" lines,
! each the median over TRIALS of the average of ITERS repetitions; results are checked.
program lang_f08
    use mpi_f08
    implicit none
    integer, parameter :: trials = 7, iters = 2000, max_bytes = 65536
    integer :: rank, nprocs, bytes, n, tr, it, i, j
    double precision :: t(trials), t0, tmp
    double precision, allocatable :: sbuf(:), rbuf(:)

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    allocate(sbuf(max_bytes / 8), rbuf(max_bytes / 8))
    bytes = 8
    do while (bytes <= max_bytes)
        n = bytes / 8
        sbuf(1:n) = rank + 1
        do tr = 1, trials
            call MPI_Barrier(MPI_COMM_WORLD)
            t0 = MPI_Wtime()
            do it = 1, iters
                if (rank == 0) then
                    call MPI_Send(sbuf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD)
                    call MPI_Recv(rbuf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
                else if (rank == 1) then
                    call MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
                    call MPI_Send(sbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD)
                end if
            end do
            t(tr) = (MPI_Wtime() - t0) * 1d6 / (2d0 * iters)
        end do
        if (rank < 2) then
            if (rbuf(n) /= 2 - rank) then
                print *, 'lang_f08: ping-pong of', bytes, 'bytes delivered', rbuf(n)
                call MPI_Abort(MPI_COMM_WORLD, 1)
            end if
        end if
        call sort(t)
        if (rank == 0) write (*, '(a,i0,a,f0.4)') 'f08,pingpong,', bytes, ',', t(trials / 2 + 1)
        do tr = 1, trials
            call MPI_Barrier(MPI_COMM_WORLD)
            t0 = MPI_Wtime()
            do it = 1, iters
                call MPI_Allreduce(sbuf, rbuf, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
            end do
            t(tr) = (MPI_Wtime() - t0) * 1d6 / iters
        end do
        if (rbuf(n) /= dble(nprocs) * (nprocs + 1) / 2) then
            print *, 'lang_f08: allreduce of', bytes, 'bytes gave', rbuf(n)
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
        call sort(t)
        if (rank == 0) write (*, '(a,i0,a,f0.4)') 'f08,allreduce,', bytes, ',', t(trials / 2 + 1)
        bytes = bytes * 4
    end do
    deallocate(sbuf, rbuf)
    call MPI_Finalize()
contains
    subroutine sort(a)
        double precision, intent(inout) :: a(:)
        do i = 2, size(a)
            tmp = a(i)
            j = i - 1
            do while (j >= 1)
                if (a(j) <= tmp) exit
                a(j + 1) = a(j)
                j = j - 1
            end do
            a(j + 1) = tmp
        end do
    end subroutine sort
end program lang_f08
