;; Loaded after good.scm: sees (compi) in a module of its own.
(define (wrapping-allreduce call next)
  (if (and (eq? (call-op call) 'MPI_SUM) (= (call-bytes call) 8))
      (profiling (next call))
      (next call)))
(install-creator! 'allreduce wrapping-allreduce)
