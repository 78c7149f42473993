;;; A Scheme wrapper that runs two closures for a bcast of 12 bytes -- what `next' gave
;;; it, then a binomial tree of its own -- and, on the root only, raises between them
;;; from its second run on (the other ranks then wait for the root in the tree).  Its
;;; first run is agreed on (every rank runs both); the later ones are not
;;; (coll_check_determinism 1).  Expected: the root gets the error, naming the closure
;;; and the rank, and runs its part of the tree it skipped, as its first run did, so the
;;; other ranks complete their bcasts with the right data; nothing printed, no hang.  Run
;;; by coll_agree.c (later).
(use-modules (compi) (compi trees))

(define (raise-later call next)
  (let ((inner (next call))
        (tree (tree-closure 'bcast (binomial-tree (call-size call) (call-root call))))
        (runs 0))
    (define (raise-later-run c)
      (set! runs (+ runs 1))
      (run-closure inner c)
      (when (and (> runs 1) (= (call-bytes c) 12) (= (call-rank c) (call-root c)))
        (error "raise-later-run refuses a later bcast of 12 bytes on its root, rank" (call-rank c)))
      (run-closure tree c))
    (if (eq? (call-mode call) 'blocking) raise-later-run inner)))

(install-creator! 'bcast raise-later)
