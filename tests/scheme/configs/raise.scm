(define x 1)

(raise 'foo)
