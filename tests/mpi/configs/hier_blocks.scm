;;; hier_blocks.scm -- hierarchical trees over "hosts" of 2 ranks inside "clusters" of 4
;;; (groups by rank block, so no host or address overrides are needed): a flat tree
;;; between cluster coordinators, binomial below.  A checking creator installed on top
;;; makes the job fail if a tree kind was not served by a tree, in every mode (tree
;;; closures run nonblocking and persistent calls as schedules); only a reduction with a
;;; non-commutative op may go on to the defaults, when the tree is not ordered, and so
;;; may a call on an intercommunicator (the hierarchical creators pass those on).
(define topo (nested (by-block 4) (by-block 2)))
(install-hierarchical! topo #:shapes '(flat binomial binomial))
(define (must-be-tree call next)
  (let ((d (next call)))
    (unless (or (tree-closure? d)
                (call-inter? call)
                (and (memq (call-kind call) '(reduce allreduce))
                     (not (call-commutative? call))))
      (error "hierarchical creator did not answer" (call-kind call)))
    d))
(for-each (lambda (k) (install-creator! k must-be-tree))
          '(barrier bcast reduce allreduce gather scatter allgather))
