;;; Schedules for every kind a schedule serves, each the plainest algorithm, so that the
;;; buffers, offsets and in-place rules of each kind are exercised in every mode:
;;;   barrier    dissemination, messages of no data
;;;   bcast      the root sends to every rank
;;;   reduce     every rank sends to the root, which combines the blocks in rank order
;;;   allgather  a ring
;;;   alltoall   every block at once
;;; (allreduce: examples/configs/schedule.scm.)

(define (dissemination rank size n)
  (let loop ((d 1) (acc '()))
    (if (>= d size)
        (reverse acc)
        (loop (* 2 d) (cons `((send ,(modulo (+ rank d) size)) (recv ,(modulo (- rank d) size)))
                            acc)))))

(define (flat-bcast root)
  (lambda (rank size n)
    (if (= rank root)
        (list (let each ((r 0) (acc '()))
                (cond ((= r size) (reverse acc))
                      ((= r root) (each (+ r 1) acc))
                      (else (each (+ r 1) (cons `(send ,r recv 0 ,n) acc))))))
        `(((recv ,root recv 0 ,n))))))

(define (flat-reduce root)
  (lambda (rank size n)
    (if (= rank root)
        (let ((others (filter (lambda (r) (not (= r root))) (iota size))))
          `((scratch ,(* n size))
            (,@(map (lambda (r) `(recv ,r (scratch 0) ,(* r n) ,n)) others)
             (copy send 0 (scratch 0) ,(* root n) ,n))
            ((copy (scratch 0) ,(* (- size 1) n) recv 0 ,n)
             ,@(map (lambda (r) `(reduce (scratch 0) ,(* r n) recv 0 ,n))
                    (reverse (iota (- size 1)))))))
        `(((send ,root send 0 ,n))))))

(define (ring-allgather rank size n)
  (let ((right (modulo (+ rank 1) size)) (left (modulo (- rank 1) size)))
    (cons `((copy send 0 recv ,(* rank n) ,n))
          (map (lambda (k)
                 `((send ,right recv ,(* n (modulo (- rank k) size)) ,n)
                   (recv ,left recv ,(* n (modulo (- rank k 1) size)) ,n)))
               (iota (- size 1))))))

(define (linear-alltoall rank size n)
  (let ((others (filter (lambda (r) (not (= r rank))) (iota size))))
    `((,@(map (lambda (r) `(send ,r send ,(* r n) ,n)) others)
       ,@(map (lambda (r) `(recv ,r recv ,(* r n) ,n)) others)
       (copy send ,(* rank n) recv ,(* rank n) ,n)))))

(define (sched-barrier call next) (schedule 'barrier "dissemination" dissemination))
(define (sched-bcast call next) (schedule 'bcast "flat" (flat-bcast (call-root call))))
(define (sched-reduce call next) (schedule 'reduce "flat" (flat-reduce (call-root call))))
(define (sched-allgather call next) (schedule 'allgather "ring" ring-allgather))
(define (sched-alltoall call next) (schedule 'alltoall "linear" linear-alltoall))

(install-creator! 'barrier sched-barrier)
(install-creator! 'bcast sched-bcast)
(install-creator! 'reduce sched-reduce)
(install-creator! 'allgather sched-allgather)
(install-creator! 'alltoall sched-alltoall)
