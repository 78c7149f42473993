;;; magpie_blocks.scm -- MagPIe trees over "clusters" of 3 ranks (groups by rank block):
;;; the root sends straight to each other cluster's coordinator, clusters finish locally.
;;; As in hier_blocks.scm, a checking creator fails the job if a tree kind got no tree, in
;;; every mode; only a reduction with a non-commutative op may go on to the defaults.
(install-magpie! (by-block 3))
(define (must-be-tree call next)
  (let ((d (next call)))
    (unless (or (tree-closure? d)
                (and (memq (call-kind call) '(reduce allreduce))
                     (not (call-commutative? call))))
      (error "MagPIe creator did not answer" (call-kind call)))
    d))
(for-each (lambda (k) (install-creator! k must-be-tree))
          '(barrier bcast reduce allreduce gather scatter allgather))
