;;; hier_tree_check.scm -- not a config of its own: hier_ex_checks.scm and hier_lanes.scm
;;; take it in with (include "hier_tree_check.scm").  Fails the job unless every
;;; allgather is served by a tree.
(define (must-be-tree call next)
  (let ((d (next call)))
    (unless (tree-closure? d)
      (error "allgather not served by a tree:" (description->string d)))
    d))
(install-creator! 'allgather must-be-tree)
