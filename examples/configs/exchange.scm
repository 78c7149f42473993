;;; exchange.scm -- the CoMPI paper's three clusters (one subnet each, joined by slow
;;; wide-area links), with an allreduce that crosses the WAN only once.
;;;
;;;   mpirun -np 12 --coll-config examples/configs/exchange.scm ./app
;;;
;;; To try it on one machine, give each rank the address it would have (the rank-facts
;;; parameter rte_addresses, see the README), e.g. for 6 ranks:
;;;
;;;   mpirun -np 6 --mca rte_addresses '10.1.0.1/24;10.1.0.2/24;10.2.0.1/24;10.2.0.2/24;10.3.0.1/24;10.3.0.2/24' \
;;;          --mca coll_verbose 1 --coll-config examples/configs/exchange.scm ./app
;;;
;;; A hierarchical or MagPIe allreduce is a reduce to one root followed by a bcast: the
;;; data crosses the WAN twice, one crossing after the other.  The exchange allreduce
;;; does instead:
;;;
;;;      cluster 10.1.0.0/24       cluster 10.2.0.0/24       cluster 10.3.0.0/24
;;;          coord  <=================>  coord  <=================>  coord
;;;            ^ |   <=====================================>          ^ |
;;;     reduce | | bcast                  ^ |                          | |
;;;      (binomial, inside the cluster)  ...                           ...
;;;
;;;   1. each cluster reduces to its coordinator (its lowest rank) over a binomial tree;
;;;   2. the coordinators send their partial results to each other, all at once: every
;;;      WAN link carries the data once in each direction;
;;;   3. each coordinator combines the partials in cluster order (the same order
;;;      everywhere, so every rank gets the same bits) and broadcasts the result inside
;;;      its cluster over the same binomial tree.
;;;
;;; Clusters here hold consecutive ranks, so non-commutative reductions are served too
;;; (cluster order is then rank order); where they do not, those fall back to the
;;; defaults.  Every other collective keeps the defaults; see hierarchical.scm and
;;; magpie.scm for trees that serve bcast, reduce, gather, allgather, ...

(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))

(install-allreduce-exchange! clusters)

;; Variants:
;;
;; clusters made of hosts: a flat tree between the host coordinators of a cluster, a
;; binomial tree inside each host, and large vectors reduced and broadcast inside the
;; clusters in 64 KiB segments (the WAN exchange itself is not segmented):
;;
;;   (install-allreduce-exchange! (nested clusters (by-host))
;;                                #:shapes '(flat binomial) #:segsize 65536)
;;
;; allgather over the same clusters, with MagPIe trees (the root's cluster gathers the
;; blocks from each coordinator, then sends the result back to each):
;;
;;   (install-magpie! clusters #:kinds '(allgather))
