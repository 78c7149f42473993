;;; topo_host.scm -- tests/mpi/topo_layouts.sh: hierarchical trees over host names (the
;;; rte_hostname each rank was given), flat between hosts, binomial inside each host,
;;; large messages in 16 KiB segments.
(install-hierarchical! (by-host) #:shapes '(flat binomial) #:segsize 16384)
