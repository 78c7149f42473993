;;; hier_ex_subnets.scm -- for coll_hier.sh, with rte_addresses 10.1.0.1/24;10.1.0.2/24;
;;; 10.2.0.1/24;10.2.0.2/24;10.3.0.1/24;... and rte_hostname a,b,c,d,...: three clusters
;;; by subnet (the CoMPI paper's).  Allgather over hierarchical trees (flat between
;;; clusters, binomial between hosts) pipelined in 4 KiB segments; allreduce by the
;;; exchange with chains inside the clusters, its local phases in 4 KiB segments too.
(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
(install-hierarchical! (nested clusters (by-host)) #:shapes '(flat binomial) #:segsize 4096
                       #:kinds '(allgather))
(install-allreduce-exchange! clusters #:shapes 'chain #:segsize 4096)
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
