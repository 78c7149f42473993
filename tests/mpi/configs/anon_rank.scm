;;; An anonymous Scheme closure made differently on each rank: the lambda closes over
;;; its rank and runs a binomial tree on rank 0, a flat one on the others.  Its own
;;; signature is the same on every rank (one procedure, one creator); what it runs is not.
;;; Expected with the default settings: its first run is agreed on, closure by closure,
;;; so every rank fails the bcast naming what each was about to run; no wrong result, no
;;; hang.  Run by coll_agree.c.
(use-modules (compi) (compi trees))

(define (moody-lambda call next)
  (let* ((n (call-size call))
         (root (call-root call))
         (tree (if (= (call-rank call) 0) (binomial-tree n root) (flat-tree n root))))
    (lambda (c) (run-closure (tree-closure 'bcast tree) c))))

(install-creator! 'bcast moody-lambda)
