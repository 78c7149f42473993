;;; A creator that throws: every bcast makes it raise an error.
;;; Expected: the job exits non-zero, and the message names this file, the creator
;;; (exploding-bcast) and the call (bcast).
(use-modules (compi))

(define (exploding-bcast call next)
  (error "exploding-bcast: no closure for a bcast of" (call-bytes call) 'bytes))

(install-creator! 'bcast exploding-bcast)
