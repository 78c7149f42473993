;;; topo_ipv6.scm -- tests/mpi/topo_layouts.sh: hierarchical trees over IPv6 sites
;;; (fd00:C::/32), then hosts by 48-bit IPv6 prefix (fd00:C:H::/48): binomial between
;;; sites, flat between hosts, binomial inside.
(install-hierarchical! (nested (by-subnets "fd00:1::/32" "fd00:2::/32" "fd00:3::/32")
                               (by-subnet-prefix 48 #:family 'ipv6))
                       #:shapes '(binomial flat binomial))
