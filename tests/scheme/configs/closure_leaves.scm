;; A Scheme closure that returns without waiting for its receive (nobody sends).
(define (forgetful call)
  (buffer-irecv call (call-recv-buffer call) 0 (call-count call) (call-rank call)))
(define (forgetful-allreduce call next) forgetful)
(install-creator! 'allreduce forgetful-allreduce)
