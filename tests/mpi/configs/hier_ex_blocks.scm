;;; hier_ex_blocks.scm -- for coll_hier.sh: ranks grouped by block, no overrides.
;;; Allgather over hierarchical trees (clusters of 4, hosts of 2: flat between cluster
;;; coordinators, binomial below); allreduce by the exchange over clusters of 3 split
;;; into hosts of 2 (flat between host coordinators inside a cluster, binomial inside a
;;; host).  The groups are contiguous: non-commutative ops take the exchange too.
(install-hierarchical! (nested (by-block 4) (by-block 2)) #:shapes '(flat binomial binomial)
                       #:kinds '(allgather))
(install-allreduce-exchange! (nested (by-block 3) (by-block 2)) #:shapes '(flat binomial))
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
