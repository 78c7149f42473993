;;; A non-deterministic creator: rank 0 builds a binomial tree, the other ranks a flat
;;; one, so the ranks would wait for messages that never come.  Expected, with the default
;;; settings: the agreement at the miss fails the bcast on every rank, one message names
;;; the ranks and both closures, and the job exits non-zero instead of hanging.
(use-modules (compi) (compi trees))

(define (moody-bcast call next)
  (tree-closure 'bcast
                (if (= (call-rank call) 0)
                    (binomial-tree (call-size call) (call-root call))
                    (flat-tree (call-size call) (call-root call)))))

(install-creator! 'bcast moody-bcast)
