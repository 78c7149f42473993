;;; topo_overlap.scm -- tests/mpi/topo_layouts.sh: a broken description, the ranks of
;;; 10.2.0.0/16 are also in 10.0.0.0/8: the job must fail naming it, not hang.
(install-hierarchical! (by-subnets "10.0.0.0/8" "10.2.0.0/16"))
