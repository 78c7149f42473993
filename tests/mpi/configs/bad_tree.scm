;;; A creator that returns an invalid tree: one rank short of the communicator, so the
;;; last rank is in no tree.  Expected: a clear error naming this file, the creator
;;; (short-bcast) and the call, a non-zero exit, and no hang.
(use-modules (compi) (compi trees))

(define (short-bcast call next)
  (tree-closure 'bcast (binomial-tree (- (call-size call) 1) (call-root call))))

(install-creator! 'bcast short-bcast)
