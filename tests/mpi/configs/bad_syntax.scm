;;; A config with a syntax error: the closing parenthesis on line 6 closes nothing.
;;; Expected: the job exits non-zero at once, naming bad_syntax.scm and line 6.
(use-modules (compi))

(define (pass-through call next) (next call))
(install-creator! 'bcast pass-through))
