;;; A creator that answers every bcast with the intercommunicator algorithm, on
;;; intracommunicators too (it never looks at (call-inter? call)).
;;; Expected: the job exits non-zero at the first MPI_Bcast, and the message names this
;;; file, the creator (inter-always) and says the algorithm serves intercommunicator calls
;;; only.
(use-modules (compi))

(define (inter-always call next)
  (native 'bcast 'inter))

(install-creator! 'bcast inter-always)
