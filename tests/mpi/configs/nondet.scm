;;; A non-deterministic creator: rank 0 builds a binomial tree, the other ranks a flat
;;; one, so the ranks would wait for messages that never come.  Run with
;;; --mca coll_check_determinism 1; expected: a clear error instead of a deadlock.
(use-modules (compi) (compi trees))

(define (moody-bcast call next)
  (tree-closure 'bcast
                (if (= (call-rank call) 0)
                    (binomial-tree (call-size call) (call-root call))
                    (flat-tree (call-size call) (call-root call)))))

(install-creator! 'bcast moody-bcast)
