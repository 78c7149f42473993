;;; A schedule that copies one element past the end of the receive buffer, made while the
;;; config loads (so the error names this line too).  Expected: one clear error naming
;;; this file, the creator (past-the-end), where the schedule was made and the step out
;;; of range, a non-zero exit, and no hang.
(define (overrun rank size n)
  `(((copy send 0 recv 1 ,n))))

(define overrun-schedule (schedule 'allreduce "overrun" overrun))

(define (past-the-end call next) overrun-schedule)

(install-creator! 'allreduce past-the-end)
