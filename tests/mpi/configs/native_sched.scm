;;; The native algorithms that run as schedules through builders of their own (not the
;;; tree executors), for every call they can serve, blocking, nonblocking and persistent
;;; alike, so that the MPI_I* and MPI_*_init calls run their schedules:
;;;   bcast      scatter-allgather
;;;   reduce     rabenseifner (commutative ops), linear (the others)
;;;   allgather  neighbor-exchange (an even number of ranks), bruck (odd)
;;;   allgatherv linear
;;;   alltoall   bruck (under 4 KiB), pairwise; alltoallv and alltoallw pairwise
;;; A call an algorithm cannot serve goes to the defaults.
(use-modules (compi))

(define (sched-bcast call next) (native 'bcast 'scatter-allgather))
(define (sched-reduce call next)
  (native 'reduce (if (call-commutative? call) 'rabenseifner 'linear)))
(define (sched-allgather call next)
  (native 'allgather (if (even? (call-size call)) 'neighbor-exchange 'bruck)))
(define (sched-allgatherv call next) (native 'allgatherv 'linear))
(define (sched-alltoall call next)
  (native 'alltoall (if (< (call-bytes call) 4096) 'bruck 'pairwise)))
(define (sched-alltoallv call next) (native 'alltoallv 'pairwise))
(define (sched-alltoallw call next) (native 'alltoallw 'pairwise))

(install-creator! 'bcast sched-bcast)
(install-creator! 'reduce sched-reduce)
(install-creator! 'allgather sched-allgather)
(install-creator! 'allgatherv sched-allgatherv)
(install-creator! 'alltoall sched-alltoall)
(install-creator! 'alltoallv sched-alltoallv)
(install-creator! 'alltoallw sched-alltoallw)
