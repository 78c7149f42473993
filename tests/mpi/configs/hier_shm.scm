;;; hier_shm.scm -- hierarchical trees over "hosts" of 2 ranks inside "clusters" of 4 (by
;;; rank block; every rank of the test machine shares memory, and the rank facts say so)
;;; with the host level on (#:host-shm #t): blocking barrier, bcast, reduce and allreduce
;;; run each host's part through a segment over its ranks, the closure's name ending
;;; ",host-shm)"; the other kinds and modes run the plain tree.  A rank block of one
;;; (np 3, 5) is a group without a segment.
(install-hierarchical! (nested (by-block 4) (by-block 2)) #:shapes '(flat binomial binomial)
                       #:host-shm #t)
