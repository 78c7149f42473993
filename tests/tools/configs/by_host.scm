;;; by_host.scm -- a hierarchy of hosts with no subnets: the root sends to every other
;;; host's lowest rank, a binomial tree finishes inside each host.  compi-tree counts
;;; wide-area edges between hosts when the layout gives no subnets.

(install-hierarchical! (by-host) #:shapes '(flat binomial))
