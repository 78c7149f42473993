;;; syntax_error.scm -- the form on line 5 is not valid Scheme: compi-tree must say so as
;;; MPI_Init does, "config error: FILE:5:1: syntax error: ...".

(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24"))
(if)
(install-magpie! clusters)
