;;; A Scheme wrapper on the upper group of an intercommunicator only (world ranks from
;;; size / 2 on; the lower group runs what the defaults build, so the groups' closures
;;; make different numbers of rounds), for its allreduce and bcast of 12 bytes, that
;;; raises on the last world rank while it runs: an allreduce before what it wraps (the
;;; other ranks of its group do not run it either, and the lower group, already in the
;;; collective, waits for them), a bcast after it (the lower group has completed it).
;;; Expected with the default settings, for MPI_Allreduce and MPI_Bcast: every rank of
;;; both groups fails the call with the same code naming the closure, its creator and
;;; the rank; no hang; nothing of the abandoned collective is left to spoil the next
;;; calls of other sizes.  Run by coll_agree.c (inter).
(use-modules (compi))

(define (upper-group?)
  (>= (compi-world-rank) (quotient (compi-world-size) 2)))

(define (inter-touchy call next)
  (let ((inner (next call)))
    (define (inter-touchy-run c)
      (define (touchy)
        (when (and (= (call-bytes c) 12) (= (compi-world-rank) (- (compi-world-size) 1)))
          (error "inter-touchy-run refuses an intercommunicator call on world rank"
                 (compi-world-rank))))
      (when (eq? (call-kind c) 'allreduce)
        (touchy))
      (run-closure inner c)
      (touchy))
    (if (and (call-inter? call) (eq? (call-mode call) 'blocking) (upper-group?))
        inter-touchy-run
        inner)))

(install-creator! 'allreduce inter-touchy)
(install-creator! 'bcast inter-touchy)
