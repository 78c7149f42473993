;;; topo_subnets.scm -- tests/mpi/topo_layouts.sh: hierarchical trees over IPv4 subnets
;;; (the rte_addresses each rank was given; a layout may leave a subnet empty), a chain
;;; between the subnets' coordinators, ternary trees inside, the highest rank of each
;;; group coordinating it.
(install-hierarchical! (by-subnets "10.1.0.0/16" "10.2.0.0/16" "10.3.0.0/16")
                       #:shapes '(chain (kary 3)) #:coordinator 'highest)
