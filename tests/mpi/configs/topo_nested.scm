;;; topo_nested.scm -- tests/mpi/topo_layouts.sh: hierarchical trees over subnets, then
;;; hosts: flat between clusters, binomial between the hosts of a cluster, a chain inside
;;; a host; clusters coordinated by their lowest rank, hosts by their highest.
(install-hierarchical! (nested (by-subnets "10.1.0.0/16" "10.2.0.0/16" "10.3.0.0/16") (by-host))
                       #:shapes '(flat binomial chain) #:coordinator '(lowest highest))
