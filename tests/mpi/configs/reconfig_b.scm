;;; The second config of coll_reconfig.c (loaded by MPIX_Coll_reconfigure): blocking bcast
;;; from the root to every rank (linear), blocking allreduce as a reduce then a bcast.
(use-modules (compi))

(define (linear-bcast call next)
  (if (eq? (call-mode call) 'blocking) (native 'bcast 'linear) (next call)))
(define (reduce-bcast-allreduce call next)
  (if (eq? (call-mode call) 'blocking) (native 'allreduce 'reduce-bcast) (next call)))

(install-creator! 'bcast linear-bcast)
(install-creator! 'allreduce reduce-bcast-allreduce)
