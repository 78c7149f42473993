;;; Pipelines written as schedules with dependencies (docs/scheme-api.md, "Schedules"):
;;; each in one round whose steps name the steps they wait for, so a segment or block
;;; moves on as soon as it is in, not when the round's other transfers are complete.
;;;   bcast      a chain from the root, in up to four segments: a rank forwards segment
;;;              k once segments 0..k are in (#:after all of them keeps its sends in
;;;              order should a later segment arrive first)
;;;   allreduce  a ring (commutative ops): reduce-scatter then allgather, each block
;;;              sent on as soon as it is reduced or received

(define (sym prefix k) (string->symbol (string-append prefix (number->string k))))
(define (append-map f l) (apply append (map f l)))

;; segment k of n elements in `segs' pieces: (offset . count)
(define (piece n segs k)
  (let* ((base (quotient n segs)) (extra (remainder n segs))
         (off (+ (* k base) (min k extra))))
    (cons off (+ base (if (< k extra) 1 0)))))

(define (chain-bcast root)
  (lambda (rank size n)
    (let* ((pos (modulo (- rank root) size))
           (prev (modulo (- rank 1) size)) (next (modulo (+ rank 1) size))
           (segs (max 1 (min 4 n))))
      (list
       (append-map
        (lambda (k)
          (let ((p (piece n segs k)))
            (append
             (if (> pos 0)
                 `((recv ,prev recv ,(car p) ,(cdr p) #:name ,(sym "in" k)))
                 '())
             (if (< pos (- size 1))
                 `((send ,next recv ,(car p) ,(cdr p)
                         #:after ,(if (> pos 0) (map (lambda (j) (sym "in" j)) (iota (+ k 1))) '())))
                 '()))))
        (iota segs))))))

(define (ring-allreduce rank size n)
  (let ((right (modulo (+ rank 1) size)) (left (modulo (- rank 1) size)))
    (define (blk b) (piece n size (modulo b size)))
    (define (last-of phase i) (if (< i 0) '() (list (sym phase i))))
    `((scratch ,(cdr (blk 0)))
      ((copy send 0 recv 0 ,n))
      (,@(append-map
          (lambda (i)
            (let ((sb (blk (- rank i))) (rb (blk (- rank i 1))))
              `((recv ,left (scratch 0) 0 ,(cdr rb) #:name ,(sym "in" i)
                      #:after ,(last-of "red" (- i 1)))
                (send ,right recv ,(car sb) ,(cdr sb) #:name ,(sym "out" i)
                      #:after ,(last-of "red" (- i 1)))
                (reduce (scratch 0) 0 recv ,(car rb) ,(cdr rb) #:name ,(sym "red" i)
                        #:after (,(sym "in" i))))))
          (iota (- size 1)))
       ,@(append-map
          (lambda (j)
            (let ((sb (blk (- (+ rank 1) j))) (rb (blk (- rank j)))
                  (got (if (= j 0) (last-of "red" (- size 2)) (last-of "got" (- j 1)))))
              `((send ,right recv ,(car sb) ,(cdr sb) #:after ,got)
                (recv ,left recv ,(car rb) ,(cdr rb) #:name ,(sym "got" j)
                      #:after (,@got ,(sym "out" j))))))
          (iota (- size 1)))))))

(define ring (schedule 'allreduce "ring" ring-allreduce))

(install-creator! 'bcast (lambda (call next) (schedule 'bcast "chain" (chain-bcast (call-root call)))))
(install-creator! 'allreduce
  (lambda (call next) (if (call-commutative? call) ring (next call))))
