;;; A Scheme wrapper that raises while it runs, on the last rank only, for a bcast of 12
;;; bytes, before it runs what `next' gave it (which the other ranks are running).  Run by
;;; coll_agree.c under MPI_ERRORS_RETURN: every rank gets the error of the first such
;;; call (at coll_check_determinism 2, of every such call), naming the closure, the
;;; creator, where it was installed and the rank; nothing printed, no rank left waiting.
(use-modules (compi))

(define (touchy call next)
  (let ((inner (next call)))
    (define (touchy-run c)
      (when (and (= (call-bytes c) 12) (= (call-rank c) (- (call-size c) 1)))
        (error "touchy-run refuses a bcast of 12 bytes on rank" (call-rank c)))
      (run-closure inner c))
    (if (eq? (call-mode call) 'blocking) touchy-run inner)))

(install-creator! 'bcast touchy)
