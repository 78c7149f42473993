;;; hierarchical.scm -- the CoMPI paper's setup: three clusters, one subnet each, joined
;;; by slow wide-area links.  Collectives cross between clusters as few times as a tree
;;; can, then spread inside each cluster, host by host.
;;;
;;;   mpirun -np 12 --coll-config examples/configs/hierarchical.scm ./app
;;;
;;; To try it on one machine, give each rank the host name and address it would have
;;; (the rank-facts parameters rte_hostname and rte_addresses, see the README).
;;;
;;;          cluster 10.1.0.0/24         cluster 10.2.0.0/24        cluster 10.3.0.0/24
;;;             root ─────────── flat (WAN) ──────── coord ─────────────── coord
;;;           binomial between hosts              binomial ...          binomial ...
;;;           binomial inside each host
;;;
;;; The root of the call coordinates its own cluster and host; every other cluster and
;;; host is coordinated by its lowest rank.  Reductions with a non-commutative op, and the
;;; kinds the tree executors do not run (alltoall, scan, ...), keep the defaults.

(define clusters
  (nested (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24")  ; level 0: the WAN
          (by-host)))                                              ; level 1: the cluster

;; one shape per level: between clusters the root sends to each coordinator itself (one
;; message per WAN link); between hosts of a cluster and inside a host, binomial trees
(install-hierarchical! clusters #:shapes '(flat binomial binomial))

;; The same by hand, for one kind, with large broadcasts split into 64 KiB segments so a
;; coordinator forwards a segment while the next one crosses the WAN:
;;
;;   (install-creator! 'bcast
;;     (hierarchical-creator clusters #:shapes '(flat binomial binomial)
;;                           #:segsize 65536))
