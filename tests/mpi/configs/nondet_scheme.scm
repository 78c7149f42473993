;;; A non-deterministic creator of Scheme closures: the last rank answers a bcast with
;;; one procedure, the others with another.  Neither ever runs: the agreement at the miss
;;; sees two signatures and fails the bcast on every rank, naming both closures.
(use-modules (compi))

(define (left-bcast call) #t)
(define (right-bcast call) #t)

(define (split-bcast call next)
  (if (= (call-rank call) (- (call-size call) 1))
      right-bcast
      left-bcast))

(install-creator! 'bcast split-bcast)
