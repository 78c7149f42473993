;;; topo_nested_magpie.scm -- tests/mpi/topo_layouts.sh: MagPIe trees over clusters by
;;; 16-bit IPv4 prefix, each cluster split by host.
(install-magpie! (nested (by-subnet-prefix 16) (by-host)))
