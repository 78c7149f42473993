;;; A creator that chooses by the communicator's name (call-comm): "flat-please" gets the
;;; linear bcast, every other name a binomial tree.  coll_reconfig.c renames a communicator
;;; between two bcasts: MPI_Comm_set_name flushes its closures, so the second one chooses
;;; again.
(use-modules (compi))

(define (bcast-by-name call next)
  (cond ((not (eq? (call-mode call) 'blocking)) (next call))
        ((string=? (call-comm call) "flat-please") (native 'bcast 'linear))
        (else (native 'bcast 'binomial))))

(install-creator! 'bcast bcast-by-name)
