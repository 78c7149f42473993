;;; A creator that names a variable nobody defined, on a line of its own: the config loads
;;; (Guile looks the variable up only when the line runs), and the first allreduce fails.
;;; Expected: the job exits non-zero, and the message names the creator, where it was
;;; installed (line 12), the line that failed (line 9, not the install line), the
;;; variable and the call.
(define (typo-allreduce call next)
  (if (> (call-size call) 64)
      (next call)
      (natve 'allreduce 'ring)))

;; installed here
(install-creator! 'allreduce typo-allreduce)
