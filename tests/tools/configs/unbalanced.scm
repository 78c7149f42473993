;;; unbalanced.scm -- the definition that starts on line 4 is never closed.

(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24"))
(define (creator call next)
  (next call)

(install-magpie! clusters)
