;;; A creator that answers every bcast with the shared-memory algorithm, which has no
;;; schedule: blocking bcasts work, a nonblocking one (MPI_Ibcast) cannot.
;;; Expected: the job exits non-zero, and the message names this file, the creator
;;; (shm-always), the call (nonblocking bcast) and the algorithms that can serve it (the
;;; trees among them).
(use-modules (compi))

(define (shm-always call next)
  (native 'bcast 'shm))

(install-creator! 'bcast shm-always)
