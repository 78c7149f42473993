;;; hier_ex_hosts.scm -- for coll_hier.sh, with rte_hostname a,a,b,b,b,c,c,d: one group
;;; per host name.  Allgather over MagPIe trees; allreduce by the exchange with the
;;; highest rank of each host as its coordinator.  Hosts hold consecutive ranks, so
;;; non-commutative ops take the exchange too.
(install-magpie! (by-host) #:kinds '(allgather))
(install-allreduce-exchange! (by-host) #:coordinator 'highest)
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
