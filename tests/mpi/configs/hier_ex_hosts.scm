;;; hier_ex_hosts.scm -- for coll_hier.sh, with rte_hostname a,a,b,b,b,c,c,d: one group
;;; per host name.  Allgather over MagPIe trees; allreduce by the exchange with the
;;; highest rank of each host as its coordinator.  Hosts hold consecutive ranks, so
;;; non-commutative ops take the exchange too.
(install-magpie! (by-host) #:kinds '(allgather))
(install-allreduce-exchange! (by-host) #:coordinator 'highest)
(define (noncomm-exchange? call) #t)

(include "hier_ex_checks.scm")
