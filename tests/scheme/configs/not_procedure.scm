(define x 1)
(+ x "one")
