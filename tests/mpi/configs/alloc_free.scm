;;; The defaults, but blocking bcast and reduce by algorithms that run their own schedule
;;; (scatter-allgather, Rabenseifner) instead of the native trees, and every closure
;;; inside the shipped profiling wrapper: coll_alloc runs under it to show that all the
;;; rest -- wrappers, schedules, scratch, the PML -- allocates nothing on a cache hit.
(use-modules (compi))

(define (blocking? call)
  (eq? (call-mode call) 'blocking))

(install-creator! 'bcast
  (lambda (call next)
    (if (blocking? call) (native 'bcast 'scatter-allgather) (next call))))

(install-creator! 'reduce
  (lambda (call next)
    (if (blocking? call) (native 'reduce 'rabenseifner) (next call))))

(for-each (lambda (kind)
            (install-creator! kind (lambda (call next) (profiling (next call)))))
          collective-kinds)
