;; loads fine; the creator fails only when a bcast needs a closure
(define (exploding call next)
  (car (call-size call)))
(install-creator! 'bcast exploding)
