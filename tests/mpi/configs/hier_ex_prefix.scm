;;; hier_ex_prefix.scm -- for coll_hier.sh, with the addresses of hier_ex_subnets.scm:
;;; clusters found by (by-subnet-prefix 24) instead of listed.  Allgather over MagPIe
;;; trees; allreduce by the exchange with the default binomial local trees.
(install-magpie! (by-subnet-prefix 24) #:kinds '(allgather))
(install-allreduce-exchange! (by-subnet-prefix 24))
(define (noncomm-exchange? call) #t)

(include "hier_ex_checks.scm")
