;; a typo in a procedure name
(define (c call next) (next call))
(let ((kind 'bcast))
  (instal-creator! kind c))
