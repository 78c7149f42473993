;;; topo_missing.scm -- tests/mpi/topo_layouts.sh: a broken description, the hosts of
;;; cluster 3 (c3-*) match no pattern: the job must fail naming it, not hang.
(install-magpie! (by-host-patterns "c1-*" "c2-*"))
