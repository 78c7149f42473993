;;; profile-hierarchical.scm -- hierarchical trees, profiled: a profiling wrapper on top
;;; of whatever the hierarchical creator builds.
;;;
;;;   mpirun -np 4 --coll-config examples/configs/profile-hierarchical.scm ./app
;;;
;;; Creators of one kind are tried latest-installed first, each receiving `next' (the
;;; rest of the chain).  The profiling creator is installed last, so it runs first: it
;;; asks `next' for a closure (the hierarchical tree, or the defaults for the kinds and
;;; calls the hierarchical creator hands on) and wraps it.  At MPI_Finalize rank 0 prints,
;;; per kind and size class, the calls, bytes and time, and which closure ran:
;;;
;;;   profile: bcast   1-8 B   1   4   10.4   10.43  bcast:tree(4 ranks,root 3,depth 2,#bce1e601)
;;;
;;; Clusters are the ranks whose main IPv4 address shares its first 24 bits, split by
;;; host; on one machine that is one group.  To see several, give each rank a host name
;;; and an address:
;;;
;;;   mpirun -np 4 --mca rte_hostname a,a,b,c \
;;;       --mca rte_addresses '10.1.0.1/24;10.1.0.2/24;10.2.0.1/24;10.3.0.1/24' \
;;;       --coll-config examples/configs/profile-hierarchical.scm ./app
;;;
;;; The same chain from two files: --coll-config hierarchical.scm --coll-config profile.scm.

;; first in: the hierarchical trees (barrier, bcast, reduce, allreduce, gather, scatter)
(install-hierarchical! (nested (by-subnet-prefix 24) (by-host))
                       #:shapes '(flat binomial binomial))

;; last in, so first asked: every kind, wrapping what the creators before it return
(install-profiling!)
