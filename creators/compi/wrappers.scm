;;; (compi wrappers) -- the wrapper creators compi ships: each wraps whatever the rest of
;;; the chain builds for a call in a native wrapper of core/coll/wrappers/wrap.c.
;;;
;;;   (install-profiling!)                  every kind: calls, bytes and time per kind and
;;;   (install-profiling! 'bcast 'allreduce)  size class, reported at MPI_Finalize
;;;   (install-tracing! ...)                 every call logged with the closure that ran
;;;
;;; A configuration sees this module (scheme/compi/internal.scm: make-config-module), so
;;; a config file writes (install-profiling!) and nothing more; a creator of its own can
;;; chain the same way: (lambda (call next) (profiling (next call))).

(define-module (compi wrappers)
  #:use-module (compi)
  #:export (profiling-creator
            tracing-creator
            install-profiling!
            install-tracing!))

(define (profiling-creator call next) (profiling (next call)))
(define (tracing-creator call next) (tracing (next call)))

;; (install-profiling!) wraps every kind; (install-profiling! 'bcast 'allreduce) some.
(define (install-profiling! . kinds)
  (for-each (lambda (k) (install-creator! k profiling-creator))
            (if (null? kinds) collective-kinds kinds)))
(define (install-tracing! . kinds)
  (for-each (lambda (k) (install-creator! k tracing-creator))
            (if (null? kinds) collective-kinds kinds)))
