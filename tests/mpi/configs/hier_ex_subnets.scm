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

(include "hier_ex_checks.scm")
