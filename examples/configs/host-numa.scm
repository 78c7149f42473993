;;; host-numa.scm -- one machine room, level by level: hosts, then the NUMA nodes of
;;; each host, then the ranks of each NUMA node.  Messages cross between hosts, and
;;; between the NUMA nodes of a host, as few times as a tree can.
;;;
;;;   mpirun -np 8 --coll-config examples/configs/host-numa.scm ./app
;;;
;;;       host a                              host b
;;;   numa 0 ── numa 1   ◄── binomial ──►  numa 0 ── numa 1      between hosts: binomial
;;;   binomial  binomial                   binomial  binomial    between NUMA nodes: flat
;;;                                                              inside a node: binomial
;;;
;;; The NUMA node of a rank is the one it is bound to (mpirun binds rank r to core r when
;;; there are no more ranks than cores), else the one it ran on at MPI_Init; ranks whose
;;; place is unknown share one group per host.  On one machine with one NUMA node this
;;; is a single group: a binomial tree, as the defaults would build.  To try several
;;; hosts on one machine, give each rank a host name: --mca rte_hostname a,a,a,a,b,b,b,b.
;;; Reductions with a non-commutative op, and the kinds the tree executors do not run
;;; (alltoall, scan, ...), keep the defaults.

(define machine-room
  (nested (by-host)                 ; level 0: between hosts
          (by-hwloc-level 'numa)))  ; level 1: between the NUMA nodes of a host

;; one shape per level of links: hosts, NUMA nodes of a host, ranks of a NUMA node
(install-hierarchical! machine-room #:shapes '(binomial flat binomial))

;; One level deeper on machines whose NUMA nodes hold several L3 caches (AMD EPYC):
;;
;;   (install-hierarchical! (nested (by-host) (by-hwloc-level 'numa) (by-hwloc-level 'l3))
;;                          #:shapes '(binomial flat flat binomial))
