;;; topo_prefix_magpie.scm -- tests/mpi/topo_layouts.sh: MagPIe trees over clusters of
;;; ranks whose main IPv4 address shares its first 16 bits.
(install-magpie! (by-subnet-prefix 16))
