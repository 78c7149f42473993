;;; The shared-memory algorithms for every blocking barrier, bcast, reduce and allreduce
;;; of a communicator whose ranks are all on one host, whatever the size (longer
;;; messages go through the slots in rounds); nonblocking and persistent calls, and
;;; communicators over several hosts, go to the defaults.
(use-modules (compi))

(define (one-host? call)
  (let* ((ranks (vector->list (call-ranks call)))
         (host (rank-host (car ranks))))
    (and-map (lambda (r) (string=? (rank-host r) host)) ranks)))

(define (shm-or-next kind call next)
  (if (and (eq? (call-mode call) 'blocking)
           (not (call-inter? call))
           (one-host? call))
      (native kind 'shm)
      (next call)))

(define (shm-barrier call next) (shm-or-next 'barrier call next))
(define (shm-bcast call next) (shm-or-next 'bcast call next))
(define (shm-reduce call next) (shm-or-next 'reduce call next))
(define (shm-allreduce call next) (shm-or-next 'allreduce call next))

(install-creator! 'barrier shm-barrier)
(install-creator! 'bcast shm-bcast)
(install-creator! 'reduce shm-reduce)
(install-creator! 'allreduce shm-allreduce)
