;;; magpie.scm -- MagPIe's wide-area collectives (Kielmann et al., PPoPP 1999): the root
;;; sends straight to one coordinator per cluster, so each wide-area link is crossed once
;;; per direction and never twice in a row; each cluster then finishes locally with a
;;; binomial tree.
;;;
;;;   mpirun -np 12 --coll-config examples/configs/magpie.scm ./app
;;;
;;;        root (cluster A)
;;;       /   \        \
;;;   coord B  coord C   binomial tree over the rest of A
;;;     |        |
;;;  binomial  binomial
;;;
;;; Reductions run the same tree upwards: each cluster combines locally, then one partial
;;; result per cluster crosses the WAN to the root (allreduce: reduce, then bcast).

;; Clusters by subnet: ranks whose first address (not loopback) shares its first 24
;; bits.  With explicit subnets instead: (by-subnets "10.1.0.0/24" "10.2.0.0/24" ...).
(define clusters (by-subnet-prefix 24))

;; barrier, bcast, reduce, allreduce, gather, scatter and allgather; the other kinds
;; keep the defaults
(install-magpie! clusters)

;; collective file access (MPI_File_write_all, read_all, ...): one aggregator per cluster,
;; so the file's data crosses the WAN once; ROMIO's hints still set the buffer and mode
(install-file-aggregators! clusters)
