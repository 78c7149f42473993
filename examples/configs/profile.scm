;;; profile.scm -- wrap every collective in a profiling closure.
;;;
;;;   mpirun -np 4 --coll-config examples/configs/profile.scm ./app
;;;
;;; Whatever the rest of the chain builds (the default creators here, or the creators
;;; of config files loaded before this one) runs unchanged; at MPI_Finalize rank 0
;;; prints, per kind and size class, the calls, bytes and time, and which closure ran.

(define (profile-all call next)
  (profiling (next call)))

(for-each (lambda (kind) (install-creator! kind profile-all))
          collective-kinds)
