;;; hier_lanes.scm -- for coll_hier.sh: ranks grouped in blocks of 2.  Allgather over
;;; hierarchical trees; allreduce by the lanes schedule (each rank exchanges with its
;;; counterparts in the other blocks, then each block finishes inside), which serves
;;; commutative ops over blocks of one size: at an odd count of ranks the last block is
;;; smaller, and every allreduce goes to the defaults, as non-commutative ones always do.
(define blocks (by-block 2))
(install-hierarchical! blocks #:kinds '(allgather))
(install-allreduce-lanes! blocks)

;; Fail the job unless allgather got a tree (hier_tree_check.scm) and allreduce the
;; lanes exactly when the op is commutative and the blocks are of one size.
(include "hier_tree_check.scm")
(define (must-be-lanes call next)
  (let ((d (next call))
        (lanes? (and (call-commutative? call) (even? (call-size call)))))
    (unless (eq? lanes? (and (schedule? d) #t))
      (error "allreduce served by the wrong closure:" (description->string d)
             (call->string call)))
    d))
(install-creator! 'allreduce must-be-lanes)
