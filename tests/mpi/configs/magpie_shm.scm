;;; magpie_shm.scm -- MagPIe trees over "clusters" of 3 ranks (by rank block) with the
;;; host level on (#:host-shm #t): each cluster's part of blocking barrier, bcast, reduce
;;; and allreduce runs through a segment over its ranks.
(install-magpie! (by-block 3) #:host-shm #t)
