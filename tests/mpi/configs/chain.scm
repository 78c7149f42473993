;;; Two wrappers over the default creators, for every collective kind.  The inner one
;;; wraps what the defaults build in the shipped profiling closure; the outer one passes
;;; the call on.  On rank 0 each says which kind it was asked for, on stderr:
;;;   compi-chain-outer KIND   then   compi-chain-inner KIND
;;; coll_config.sh checks that every kind went through both, and the program checks that
;;; the results are still right.
(use-modules (compi))

(define (say who call)
  (when (= (call-rank call) 0)
    (let ((port (current-error-port)))
      (display who port)
      (display " " port)
      (display (call-kind call) port)
      (newline port)
      (force-output port))))

(define (chain-inner call next)
  (say "compi-chain-inner" call)
  (profiling (next call)))

(define (chain-outer call next)
  (say "compi-chain-outer" call)
  (next call))

(for-each (lambda (kind) (install-creator! kind chain-inner)) collective-kinds)
(for-each (lambda (kind) (install-creator! kind chain-outer)) collective-kinds)
