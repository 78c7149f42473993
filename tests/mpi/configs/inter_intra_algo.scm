;;; A creator that answers every bcast with the binomial tree, intercommunicators too
;;; (it never looks at (call-inter? call)).  An intracommunicator algorithm cannot serve
;;; a call on an intercommunicator, whose ranks name the other group.
;;; Expected: the job exits non-zero at the first MPI_Bcast on an intercommunicator, and
;;; the message names this file, the creator (binomial-always) and says the algorithm
;;; serves intracommunicator calls only.
(use-modules (compi))

(define (binomial-always call next)
  (native 'bcast 'binomial))

(install-creator! 'bcast binomial-always)
