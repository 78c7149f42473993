;;; A creator that fails on the last world rank only, for an allreduce or a bcast on an
;;; intercommunicator; the other ranks, and every other call, get the defaults.  Expected
;;; with the default settings, for MPI_Iallreduce, MPI_Ibcast and their persistent forms:
;;; the call fails on every rank of both groups with the creator's message (its name,
;;; file:line, the rank); the other group does not wait for the failed one.  Run by
;;; coll_agree.c (inter).
(use-modules (compi))

(define (inter-picky call next)
  (if (and (call-inter? call) (= (compi-world-rank) (- (compi-world-size) 1)))
      (error "inter-picky refuses an intercommunicator call on world rank" (compi-world-rank))
      (next call)))

(install-creator! 'allreduce inter-picky)
(install-creator! 'bcast inter-picky)
