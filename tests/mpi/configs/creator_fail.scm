;;; A creator that fails on one rank only: the last rank refuses a bcast of exactly 12
;;; bytes; every other call, and every other rank, gets the defaults.  The other ranks
;;; build a closure, so without the agreement at the miss they would wait in the bcast
;;; for ever.  Run by coll_creator_fail.c under MPI_ERRORS_RETURN.
(use-modules (compi))

(define (picky-bcast call next)
  (if (and (= (call-bytes call) 12) (= (call-rank call) (- (call-size call) 1)))
      (error "picky-bcast refuses a bcast of 12 bytes on rank" (call-rank call))
      (next call)))

(install-creator! 'bcast picky-bcast)
