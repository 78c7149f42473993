(define (c call next) (next call))
(install-creator! 'bcast c)
(install-creator! 'bcats c)
