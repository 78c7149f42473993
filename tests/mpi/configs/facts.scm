;;; Used by tests/mpi/facts.sh: a barrier creator that, on the call's rank 0, logs what
;;; (call-ranks call) says of every rank of the call's communicator, one line each, in
;;; the format tests/mpi/facts.c prints from C:
;;;   scheme-facts: WORLD HOST ADDR,ADDR PKG,NUMA,CORE,L3 bound|unbound
;;; (-1 for what is unknown: the whole place when rank-place is #f, L3 when it is #f)
;;; and one line with the world ranks in communicator order:
;;;   scheme-ranks: SIZE W0 W1 ...
;;; then lets the default creators build the barrier.
(use-modules (compi))

(define (join strings sep)
  (if (null? strings)
      ""
      (let loop ((acc (car strings)) (rest (cdr strings)))
        (if (null? rest) acc (loop (string-append acc sep (car rest)) (cdr rest))))))

(define (place->string place)
  (join (map (lambda (x) (number->string (or x -1))) (or place '(#f #f #f #f))) ","))

(define (rank->string r)
  (simple-format #f "scheme-facts: ~A ~A ~A ~A ~A"
                 (rank-world r) (rank-host r)
                 (if (null? (rank-addresses r)) "-" (join (rank-addresses r) ","))
                 (place->string (rank-place r))
                 (if (rank-bound? r) "bound" "unbound")))

(define (log-facts call next)
  (when (= (call-rank call) 0)
    (let ((ranks (call-ranks call)))
      (compi-log 'info
                 (simple-format #f "scheme-ranks: ~A ~A" (vector-length ranks)
                                (join (map (lambda (r) (number->string (rank-world r)))
                                           (vector->list ranks))
                                      " ")))
      (unless (eq? ranks (call-ranks call))
        (compi-log 'error "call-ranks built its vector twice for one call"))
      (for-each (lambda (r) (compi-log 'info (rank->string r))) (vector->list ranks))))
  (next call))

(install-creator! 'barrier log-facts)
