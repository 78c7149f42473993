;;; A schedule that copies one element past the end of the receive buffer.  Expected:
;;; one clear error naming this file, the creator (past-the-end) and the step out of
;;; range, a non-zero exit, and no hang.
(define (overrun rank size n)
  `(((copy send 0 recv 1 ,n))))

(define (past-the-end call next)
  (schedule 'allreduce "overrun" overrun))

(install-creator! 'allreduce past-the-end)
