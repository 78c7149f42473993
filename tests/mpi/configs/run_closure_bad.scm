;;; run_closure_bad.scm -- a Scheme wrapper that hands run-closure something that is not
;;; a closure description: every rank stops with a message naming run-closure, the value,
;;; the creator and the call; no hang.
(define (confused-bcast call next)
  (let ((inner (next call)))
    (lambda (c)
      (run-closure 'binomial c))))
(install-creator! 'bcast confused-bcast)
