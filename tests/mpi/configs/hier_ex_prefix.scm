;;; hier_ex_prefix.scm -- for coll_hier.sh, with the addresses of hier_ex_subnets.scm:
;;; clusters found by (by-subnet-prefix 24) instead of listed.  Allgather over MagPIe
;;; trees; allreduce by the exchange with the default binomial local trees.
(install-magpie! (by-subnet-prefix 24) #:kinds '(allgather))
(install-allreduce-exchange! (by-subnet-prefix 24))
(define (noncomm-exchange? call) #t)

;; Fail the job unless allgather got a tree and allreduce the exchange (for a
;; non-commutative op only when (noncomm-exchange? call) says the groups allow it).
(define (must-be-tree call next)
  (let ((d (next call)))
    (unless (tree-closure? d)
      (error "allgather not served by a tree:" (description->string d)))
    d))
(define (must-be-exchange call next)
  (let ((d (next call)))
    (unless (eq? (exchange-closure? d)
                 (or (call-commutative? call) (noncomm-exchange? call)))
      (error "allreduce served by the wrong closure:" (description->string d)
             (call->string call)))
    d))
(install-creator! 'allgather must-be-tree)
(install-creator! 'allreduce must-be-exchange)
