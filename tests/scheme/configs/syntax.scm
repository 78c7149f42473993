(define x 1)

(if)
