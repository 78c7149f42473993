;;; ranks_past_size.scm -- by-ranks names communicator ranks: one group of every rank of
;;; MPI_COMM_WORLD fits WORLD and WORLD reversed, but names ranks past the size of the
;;; halves of WORLD (coll_topo runs on all three).  Expected: the job stops at the first
;;; miss on a half, naming the ranks, the communicator and the creator; nothing regrouped.
(install-hierarchical! (by-ranks (rank-range 0 (- (compi-world-size) 1))))
