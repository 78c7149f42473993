;;; A non-deterministic creator on intercommunicators: world rank 1 wraps the allreduce
;;; and bcast that the defaults build for an intercommunicator in (profiling ...), the
;;; other ranks take them as they are, so the ranks of one group build different closures
;;; (the other group agrees).  Expected with the default settings, for MPI_Iallreduce,
;;; MPI_Ibcast and their persistent forms: the group of world rank 1 finds it in its
;;; agreement, the groups tell each other, and every rank of both groups fails the call
;;; with the same message; no hang, no wrong result.  Run by coll_agree.c (inter).
(use-modules (compi))

(define (inter-moody call next)
  (if (and (call-inter? call) (= (compi-world-rank) 1))
      (profiling (next call))
      (next call)))

(install-creator! 'allreduce inter-moody)
(install-creator! 'bcast inter-moody)
