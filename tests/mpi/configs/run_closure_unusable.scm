;;; run_closure_unusable.scm -- a Scheme wrapper over a creator whose description cannot
;;; serve the call (an algorithm bcast does not have): the first run-closure builds it and
;;; stops the job with the message a miss would give (the creator that returned it, where
;;; it was installed, the algorithms there are) and the call; no hang.
(define (magic-bcast call next) (native 'bcast 'magic))
(install-creator! 'bcast magic-bcast)
(define (wrap-bcast call next)
  (let ((inner (next call)))
    (lambda (c) (run-closure inner c))))
(install-creator! 'bcast wrap-bcast)
