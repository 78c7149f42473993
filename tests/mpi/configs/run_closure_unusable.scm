;;; run_closure_unusable.scm -- a Scheme wrapper over a creator whose description cannot
;;; serve the call (an algorithm bcast does not have): what `next' gave the wrapper is
;;; built at the miss, so the miss fails on every rank with its message (the creator that
;;; returned it, where it was installed, the algorithms there are) and the call; no hang.
(define (magic-bcast call next) (native 'bcast 'magic))
(install-creator! 'bcast magic-bcast)
(define (wrap-bcast call next)
  (let ((inner (next call)))
    (lambda (c) (run-closure inner c))))
(install-creator! 'bcast wrap-bcast)
