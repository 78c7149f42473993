;;; magpie_blocks.scm -- MagPIe trees over "clusters" of 3 ranks (groups by rank block):
;;; the root sends straight to each other cluster's coordinator, clusters finish locally.
;;; As in hier_blocks.scm, a checking creator fails the job if a tree kind got no tree.
(install-magpie! (by-block 3))
(define (must-be-tree call next)
  (let ((d (next call)))
    (unless (tree-closure? d)
      (error "MagPIe creator did not answer" (call-kind call)))
    d))
(for-each (lambda (k) (install-creator! k must-be-tree))
          '(barrier bcast reduce allreduce gather scatter allgather))
