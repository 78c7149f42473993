;;; A creator whose tree is invalid on the last rank only (one rank short of the
;;; communicator there), meant to sit behind a Scheme wrapper (loaded before
;;; timing-wrapper.scm): the wrapper's inner description is built at the miss, so the last
;;; rank fails there and the agreement fails the call on every rank, naming the creator,
;;; this file and the rank.  Run by coll_agree.c.
(use-modules (compi) (compi trees))

(define (short-on-last call next)
  (let ((n (call-size call)))
    (tree-closure 'bcast (binomial-tree (if (= (call-rank call) (- n 1)) (- n 1) n)
                                        (call-root call)))))

(install-creator! 'bcast short-on-last)
