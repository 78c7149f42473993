;;; A creator that answers every bcast with a closure written in Scheme, which has no
;;; schedule: blocking bcasts work, a nonblocking one (MPI_Ibcast) cannot.  (Every
;;; native algorithm has a schedule, the shared-memory ones included.)
;;; Expected: the job exits non-zero, and the message names this file, the creator
;;; (scheme-always), the call (nonblocking bcast) and the algorithms that can serve it
;;; (the trees among them).
(use-modules (compi))

(define (scheme-always call next)
  (let ((inner (next call)))
    (lambda (c)
      (run-closure inner c))))

(install-creator! 'bcast scheme-always)
