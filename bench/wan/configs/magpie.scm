;;; magpie.scm -- bench/wan/run-multicluster.sh's "magpie" run: MagPIe's wide-area
;;; collectives (Kielmann et al., PPoPP 1999) on the testbed's three clusters: the root
;;; talks straight to one coordinator per cluster, each cluster finishes locally with a
;;; binomial tree.  Allreduce: reduce then bcast, two WAN crossings.
(install-magpie! (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
