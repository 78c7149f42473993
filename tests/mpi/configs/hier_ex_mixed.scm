;;; hier_ex_mixed.scm -- for coll_hier.sh, with rte_hostname a,b,c,a,b,c,a,b: hosts hold
;;; interleaved ranks ({0 3 6} {1 4 7} {2 5}).  Allgather over hierarchical trees;
;;; allreduce by the exchange for commutative ops, while non-commutative ones must go to
;;; the next creator (group order is not rank order).
(install-hierarchical! (by-host) #:shapes '(flat chain) #:kinds '(allgather))
(install-allreduce-exchange! (by-host))
;; up to 3 ranks the hosts a, b, c still hold consecutive ranks
(define (noncomm-exchange? call) (<= (call-size call) 3))

(include "hier_ex_checks.scm")
