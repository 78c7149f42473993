;;; A creator that answers every bcast with scatter-allgather, which has no schedule:
;;; blocking bcasts work, a nonblocking one (MPI_Ibcast) cannot.
;;; Expected: the job exits non-zero, and the message names this file, the creator
;;; (scatter-allgather-always), the call (nonblocking bcast) and the algorithms that can
;;; serve it (the trees among them).
(use-modules (compi))

(define (scatter-allgather-always call next)
  (native 'bcast 'scatter-allgather))

(install-creator! 'bcast scatter-allgather-always)
