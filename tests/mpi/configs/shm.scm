;;; The shared-memory algorithms for every barrier, bcast, reduce, allreduce, allgather,
;;; alltoall, reduce-scatter, reduce-scatter-block, gather and scatter of a communicator
;;; whose ranks are all on one host, whatever the size (longer messages go through the
;;; slots in rounds, or, for the kinds served in one round, over the PML: the algorithms'
;;; fallback), blocking, nonblocking and persistent (persistent calls, and nonblocking
;;; ones before the communicator's first blocking shared-memory call, run the fallback
;;; as a schedule); communicators over several hosts go to the defaults.
(use-modules (compi))

(define (one-host? call)
  (let* ((ranks (vector->list (call-ranks call)))
         (host (rank-host (car ranks))))
    (and-map (lambda (r) (string=? (rank-host r) host)) ranks)))

(define (shm-or-next kind call next)
  (if (and (not (call-inter? call))
           (one-host? call))
      (native kind 'shm)
      (next call)))

(define (shm-barrier call next) (shm-or-next 'barrier call next))
(define (shm-bcast call next) (shm-or-next 'bcast call next))
(define (shm-reduce call next) (shm-or-next 'reduce call next))
(define (shm-allreduce call next) (shm-or-next 'allreduce call next))
(define (shm-allgather call next) (shm-or-next 'allgather call next))
(define (shm-alltoall call next) (shm-or-next 'alltoall call next))
(define (shm-reduce-scatter call next) (shm-or-next 'reduce-scatter call next))
(define (shm-reduce-scatter-block call next) (shm-or-next 'reduce-scatter-block call next))
(define (shm-gather call next) (shm-or-next 'gather call next))
(define (shm-scatter call next) (shm-or-next 'scatter call next))

(install-creator! 'barrier shm-barrier)
(install-creator! 'bcast shm-bcast)
(install-creator! 'reduce shm-reduce)
(install-creator! 'allreduce shm-allreduce)
(install-creator! 'allgather shm-allgather)
(install-creator! 'alltoall shm-alltoall)
(install-creator! 'reduce-scatter shm-reduce-scatter)
(install-creator! 'reduce-scatter-block shm-reduce-scatter-block)
(install-creator! 'gather shm-gather)
(install-creator! 'scatter shm-scatter)
