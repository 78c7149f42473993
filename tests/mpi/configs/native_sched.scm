;;; The native algorithms that run as schedules through builders of their own (not the
;;; tree executors), for every call they can serve, blocking, nonblocking and persistent
;;; alike, so that the MPI_I* and MPI_*_init calls run their schedules:
;;;   barrier    recursive-doubling
;;;   bcast      scatter-allgather
;;;   reduce     rabenseifner (commutative ops), linear (the others)
;;;   allgather  neighbor-exchange (an even number of ranks), bruck (odd)
;;;   allgatherv linear
;;;   alltoall   bruck (under 4 KiB), pairwise; alltoallv and alltoallw pairwise
;;;   reduce-scatter, reduce-scatter-block   pairwise
;;;   scan, exscan                           recursive-doubling
;;; Each creator picks one that can serve the call (the op, the number of ranks);
;;; intercommunicator calls and the other kinds keep the defaults.
(use-modules (compi))

;; a creator of `kind' answering (native kind (pick call)) on intracommunicators
(define (intra kind pick)
  (lambda (call next)
    (if (call-inter? call)
        (next call)
        (native kind (pick call)))))

(define (always algo) (lambda (call) algo))

(install-creator! 'barrier (intra 'barrier (always 'recursive-doubling)))
(install-creator! 'bcast (intra 'bcast (always 'scatter-allgather)))
(install-creator! 'reduce
                  (intra 'reduce
                         (lambda (call)
                           (if (call-commutative? call) 'rabenseifner 'linear))))
(install-creator! 'allgather
                  (intra 'allgather
                         (lambda (call)
                           (if (even? (call-size call)) 'neighbor-exchange 'bruck))))
(install-creator! 'allgatherv (intra 'allgatherv (always 'linear)))
(install-creator! 'alltoall
                  (intra 'alltoall
                         (lambda (call)
                           (if (< (call-bytes call) 4096) 'bruck 'pairwise))))
(install-creator! 'alltoallv (intra 'alltoallv (always 'pairwise)))
(install-creator! 'alltoallw (intra 'alltoallw (always 'pairwise)))
(install-creator! 'reduce-scatter (intra 'reduce-scatter (always 'pairwise)))
(install-creator! 'reduce-scatter-block (intra 'reduce-scatter-block (always 'pairwise)))
(install-creator! 'scan (intra 'scan (always 'recursive-doubling)))
(install-creator! 'exscan (intra 'exscan (always 'recursive-doubling)))
