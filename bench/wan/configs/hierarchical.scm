;;; hierarchical.scm -- bench/wan/run-multicluster.sh's "hierarchical" run: the CoMPI
;;; paper's hierarchical collectives on the testbed's three clusters (one subnet each,
;;; bench/wan/testbed.sh), as examples/configs/hierarchical.scm.
;;;
;;;   level 0 (WAN):          the root sends to / receives from each cluster's
;;;                           coordinator directly (flat): one message per WAN link
;;;   level 1 (the cluster):  binomial tree over the hosts
;;;   level 2 (the host):     binomial tree over the ranks of a host
;;;
;;; Allreduce runs as reduce up this tree, then bcast down it: two WAN crossings.
(install-hierarchical!
 (nested (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24") (by-host))
 #:shapes '(flat binomial binomial))
