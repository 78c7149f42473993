;;; hier_ex_blocks.scm -- for coll_hier.sh: ranks grouped by block, no overrides.
;;; Allgather over hierarchical trees (clusters of 4, hosts of 2: flat between cluster
;;; coordinators, binomial below); allreduce by the exchange over clusters of 3 split
;;; into hosts of 2 (flat between host coordinators inside a cluster, binomial inside a
;;; host).  The groups are contiguous: non-commutative ops take the exchange too.
(install-hierarchical! (nested (by-block 4) (by-block 2)) #:shapes '(flat binomial binomial)
                       #:kinds '(allgather))
(install-allreduce-exchange! (nested (by-block 3) (by-block 2)) #:shapes '(flat binomial))
(define (noncomm-exchange? call) #t)

(include "hier_ex_checks.scm")
