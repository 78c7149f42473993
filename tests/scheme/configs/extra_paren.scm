;; one closing parenthesis too many on line 3
(define x 1)
(install-creator! 'bcast (lambda (call next) (next call))))
