;; Exchange closures whose groups or trees do not fit the call, one per communicator name
;; (tests/scheme/closures.sh): the bridge checks them, once, and names the creator.
(define (two) (list (flat-tree 2 0) (flat-tree 2 0)))
(define (bad-exchange call next)
  (let ((comm (call-comm call)))
    (cond
     ((string=? comm "twice") (exchange-closure '((0 1) (1 2)) #:trees (two)))
     ((string=? comm "missing") (exchange-closure '((0 1) (2 3)) #:trees (two)))
     ((string=? comm "outside") (exchange-closure '((0 1) (2 7)) #:trees (two)))
     ((string=? comm "fewer") (exchange-closure '((0 1) (2 3)) #:trees (list (flat-tree 2 0))))
     ((string=? comm "size")
      (exchange-closure '((0 1) (2 3)) #:trees (list (flat-tree 2 0) (flat-tree 3 0))))
     ((string=? comm "cycle")
      (exchange-closure '((0 1) (2 3 4)) #:trees (list (flat-tree 2 0) (make-tree 3 0 #(-1 2 1)))))
     ((string=? comm "not-a-tree") (exchange-closure '((0 1)) #:trees '(42)))
     ((string=? comm "interleaved") (exchange-closure '((0 2) (1 3))))
     (else (exchange-closure '((0 1) (2 3)))))))
(install-creator! 'allreduce bad-exchange)
