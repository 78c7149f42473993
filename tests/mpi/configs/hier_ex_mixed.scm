;;; hier_ex_mixed.scm -- for coll_hier.sh, with rte_hostname a,b,c,a,b,c,a,b: hosts hold
;;; interleaved ranks ({0 3 6} {1 4 7} {2 5}).  Allgather over hierarchical trees;
;;; allreduce by the exchange for commutative ops, while non-commutative ones must go to
;;; the next creator (group order is not rank order).
(install-hierarchical! (by-host) #:shapes '(flat chain) #:kinds '(allgather))
(install-allreduce-exchange! (by-host))
;; up to 3 ranks the hosts a, b, c still hold consecutive ranks
(define (noncomm-exchange? call) (<= (call-size call) 3))

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
