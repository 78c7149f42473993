;; A Scheme closure that fails while it runs: reads past the end of the call's buffer.
(define (overrun call)
  (buffer-isend call (call-recv-buffer call) 0 (+ 1 (call-count call)) 0))
(define (overrunning-allreduce call next) overrun)
(install-creator! 'allreduce overrunning-allreduce)
