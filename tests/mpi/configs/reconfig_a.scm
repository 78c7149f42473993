;;; The first of the configs coll_reconfig.c switches between in the middle of a run (through
;;; the MPI_T control variable coll_config): blocking bcast by a binomial tree, blocking
;;; allreduce by recursive doubling.  reconfig_b.scm chooses otherwise, so the summary file
;;; (coll_summary) shows which config served which phase.
(use-modules (compi))

(define (binomial-bcast call next)
  (if (eq? (call-mode call) 'blocking) (native 'bcast 'binomial) (next call)))
(define (doubling-allreduce call next)
  (if (eq? (call-mode call) 'blocking) (native 'allreduce 'recursive-doubling) (next call)))

(install-creator! 'bcast binomial-bcast)
(install-creator! 'allreduce doubling-allreduce)
