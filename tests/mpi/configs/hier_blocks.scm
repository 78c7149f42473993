;;; hier_blocks.scm -- hierarchical trees over "hosts" of 2 ranks inside "clusters" of 4
;;; (groups by rank block, so no host or address overrides are needed): a flat tree
;;; between cluster coordinators, binomial below.  A checking creator installed on top
;;; makes the job fail if a tree kind was not served by a tree (commutative ops only:
;;; coll_basic's reductions are sums).  Nonblocking calls are not served by trees (no
;;; schedules for them yet): the hierarchical creators pass them on to the defaults.
(define topo (nested (by-block 4) (by-block 2)))
(install-hierarchical! topo #:shapes '(flat binomial binomial))
(define (must-be-tree call next)
  (let ((d (next call)))
    (unless (or (eq? (call-mode call) 'nonblocking) (tree-closure? d))
      (error "hierarchical creator did not answer" (call-kind call)))
    d))
(for-each (lambda (k) (install-creator! k must-be-tree))
          '(barrier bcast reduce allreduce gather scatter allgather))
