;;; schedule_test.scm -- schedules written in Scheme, their Scheme side, with guile alone
;;; (no MPI), TAP on stdout:
;;;   - examples/configs/schedule.scm (recursive doubling) passes the checks at 1 to 17
;;;     ranks, and running its steps symbolically (reduce = the lower ranks' list on the
;;;     left) leaves every rank with every rank's contribution, in rank order;
;;;   - the steps C reads: 7 integers a step, rounds ended by code 4, scratch sizes;
;;;   - each kind of bad schedule is refused with a message naming rank, round and step;
;;;   - steps with #:name and #:after: the pipelines of tests/mpi/configs/sched_pipe.scm
;;;     pass, #:after reaches C as records of code 5, and each rule on them is enforced.
;;; Run by tests/scheme/schedule.sh.

(use-modules (compi) (compi internal) (compi hierarchy))

(load "check.scm")

(define (lower desc call) (lowered->vector ((@ (compi internal) lower) desc call) call))

(define (call-of kind size . root)
  (make-call kind size 0 (if (pair? root) (car root) #f) 8 'MPI_INT
             (and (memq kind '(reduce allreduce)) 'MPI_SUM) #t "MPI_COMM_WORLD"))

(define (steps desc kind size n)
  (schedule-steps desc (call-of kind size) n))

(load (string-append (getenv "top_srcdir") "/examples/configs/schedule.scm"))

;; Runs the flat steps of every rank: buffers are vectors of lists of ranks (what an
;; element holds the reduction of); a reduce appends FROM's list before INTO's.
(define (simulate all-steps scratch size n)
  (define (bufs r)
    (list->vector (cons* (make-vector n (list r)) (make-vector n #f)
                         (map (lambda (k) (make-vector k #f))
                              (vector->list (vector-ref scratch r))))))
  (let ((mem (list->vector (map bufs (iota size))))
        (pc (make-vector size 0)))
    (define (buf r id) (vector-ref (vector-ref mem r) id))
    (define (step r i k) (vector-ref (vector-ref all-steps r) (+ (* 7 i) k)))
    (define (nsteps r) (quotient (vector-length (vector-ref all-steps r)) 7))
    (let round ()
      (when (let any ((r 0)) (and (< r size) (or (< (vector-ref pc r) (nsteps r)) (any (+ r 1)))))
        (let ((msgs (make-hash-table)) (ends (make-vector size 0)))
          ;; each rank's steps up to its end of round; sends first
          (do ((r 0 (+ r 1))) ((= r size))
            (let scan ((i (vector-ref pc r)))
              (if (and (< i (nsteps r)) (not (= (step r i 0) 4)))
                  (begin
                    (when (= (step r i 0) 0)
                      (let ((key (cons r (step r i 1))))
                        (hash-set! msgs key
                                   (append (hash-ref msgs key '())
                                           (list (list-tail (vector->list (buf r (step r i 2)))
                                                            (step r i 3)))))))
                    (scan (+ i 1)))
                  (vector-set! ends r i))))
          (do ((r 0 (+ r 1))) ((= r size))
            (do ((i (vector-ref pc r) (+ i 1))) ((= i (vector-ref ends r)))
              (let ((code (step r i 0)) (cnt (step r i 4)))
                (case code
                  ((1) (let* ((key (cons (step r i 1) r)) (q (hash-ref msgs key)))
                         (hash-set! msgs key (cdr q))
                         (do ((e 0 (+ e 1))) ((= e cnt))
                           (vector-set! (buf r (step r i 2)) (+ (step r i 3) e)
                                        (list-ref (car q) e)))))
                  ((2 3)
                   (do ((e 0 (+ e 1))) ((= e cnt))
                     (let ((from (vector-ref (buf r (step r i 2)) (+ (step r i 3) e)))
                           (into (vector-ref (buf r (step r i 5)) (+ (step r i 6) e))))
                       (vector-set! (buf r (step r i 5)) (+ (step r i 6) e)
                                    (if (= code 2) (append from into) from))))))))
            (vector-set! pc r (min (nsteps r) (+ 1 (vector-ref ends r))))))
        (round)))
    (map (lambda (r) (vector->list (buf r 1))) (iota size))))

(do ((size 1 (+ size 1))) ((> size 17))
  (let ((r (steps rd-allreduce 'allreduce size 3)))
    (report (car r) (simple-format #f "recursive doubling passes the checks at ~A ranks" size)
            (cdr r))
    (when (car r)
      (expect-equal (simple-format #f "recursive doubling at ~A ranks: every element of every \
rank reduces all ranks in rank order" size)
                    (simulate (vector-ref (cdr r) 1) (vector-ref (cdr r) 0) size 3)
                    (make-list size (make-list 3 (iota size)))))))

;; the lanes allreduce of (compi hierarchy) over groups of one size: it passes the checks,
;; and every rank ends with every rank's contribution, each lane adding its groups' in
;; group order (so the ranks' lists hold the same ranks, in an order of their own)
(for-each
 (lambda (groups)
   (let* ((size (length (apply append groups)))
          (r (steps (lanes-schedule groups) 'allreduce size 2)))
     (report (car r) (simple-format #f "lanes over ~A pass the checks" groups) (cdr r))
     (when (car r)
       (expect-equal (simple-format #f "lanes over ~A: every element of every rank reduces \
all ranks" groups)
                     (map (lambda (elems) (map (lambda (l) (sort l <)) elems))
                          (simulate (vector-ref (cdr r) 1) (vector-ref (cdr r) 0) size 2))
                     (make-list size (make-list 2 (iota size)))))))
 '(((0 1) (2 3)) ((0 2 4) (1 3 5)) ((0 1 2) (3 4 5) (6 7 8)) ((0 1 2 3 4 5 6))
   ((0) (1) (2)) ((0 1 2 3 4) (5 6 7 8 9) (10 11 12 13 14)) ((3 0) (1 2))))
(expect-equal "lanes over groups of unequal sizes: #f" (lanes-schedule '((0 1) (2 3 4))) #f)

(let ((v (cdr (steps rd-allreduce 'allreduce 2 4))))
  (expect-equal "the steps of rank 0 at 2 ranks: copy, exchange with rank 1, reduce"
                (vector-ref (vector-ref v 1) 0)
                #(3 -1 0 0 4 1 0  4 0 0 0 0 0 0
                  0 1 1 0 4 0 0  1 1 2 0 4 0 0  2 -1 1 0 4 2 0  3 -1 2 0 4 1 0  4 0 0 0 0 0 0))
  (expect-equal "the scratch sizes of every rank" (vector-ref v 0) #(#(4) #(4))))

(expect-equal "lowered: #(schedule KIND NAME DESC ORIGIN)"
              (let ((v (lower rd-allreduce (call-of 'allreduce 4))))
                (list (vector-ref v 0) (vector-ref v 1) (vector-ref v 2)))
              '(schedule 3 "recursive-doubling"))
(expect-equal "description->string, description-kind, closure-description?"
              (list (description->string rd-allreduce) (description-kind rd-allreduce #f)
                    (closure-description? rd-allreduce))
              '("(schedule allreduce \"recursive-doubling\")" allreduce #t))
(expect-error "a kind a schedule cannot serve" (lambda () (schedule 'gather "g" (lambda (r s n) '())))
              "cannot serve gather")
(expect-error "a builder of the wrong arity" (lambda () (schedule 'bcast "b" (lambda (r) '())))
              "(lambda (rank size count) ROUNDS)")

;; bad schedules at 2 ranks, count 4: each refused, naming what is wrong
(define (refused desc kind builder . wants)
  (let ((r (steps (schedule kind "bad" builder) kind 2 4)))
    (report (and (not (car r)) (contains-all? (cdr r) wants)) desc
            (simple-format #f "got ~S, expected a failure with ~S" r wants))))

(refused "an unmatched send" 'allreduce
         (lambda (r s n) (if (= r 0) `(((send 1 send 0 ,n))) '()))
         "rank 0, round 0: (send 1 send 0 4) has no matching receive")
(refused "an unmatched receive" 'allreduce
         (lambda (r s n) (if (= r 1) `(((recv 0 recv 0 ,n))) '()))
         "rank 1, round 0: (recv 0 recv 0 4) has no matching send")
(refused "a send met in another round" 'allreduce
         (lambda (r s n) (if (= r 0) `(((send 1 send 0 ,n))) `(() ((recv 0 recv 0 ,n)))))
         "no matching")
(refused "counts that differ" 'allreduce
         (lambda (r s n) (if (= r 0) `(((send 1 send 0 3))) `(((recv 0 recv 0 2)))))
         "receives 2 elements but rank 0 sends 3")
(refused "an offset past the end" 'allreduce
         (lambda (r s n) `(((copy send 0 recv 1 ,n))))
         "(copy send 0 recv 1 4): elements 1..4 of recv are out of range: it holds 4")
(refused "the receive buffer of a reduce's non-root" 'reduce
         (lambda (r s n) (if (= r 1) `(((copy send 0 recv 0 1))) '()))
         "rank 1, round 0" "it holds 0 elements")
(refused "a peer out of range" 'bcast
         (lambda (r s n) `(((send 2 recv 0 ,n))))
         "peer 2 is not a rank of 0..1")
(refused "a write into the send buffer" 'allreduce
         (lambda (r s n) `(((copy recv 0 send 0 ,n))))
         "writes the send buffer")
(refused "an undeclared scratch buffer" 'allreduce
         (lambda (r s n) `((scratch ,n) ((copy send 0 (scratch 1) 0 ,n))))
         "(scratch 1) names no declared scratch buffer")
(refused "a transfer after a local step in its round" 'allreduce
         (lambda (r s n) `(((copy send 0 recv 0 ,n) (send ,(- 1 r) recv 0 ,n)
                            (recv ,(- 1 r) recv 0 ,n))))
         "comes after (copy send 0 recv 0 4)")
(refused "a receive over elements another transfer of the round sends" 'allreduce
         (lambda (r s n) `(((send ,(- 1 r) recv 0 ,n) (recv ,(- 1 r) recv 2 2))))
         "touch the same elements of recv")
(refused "a reduce over overlapping ranges" 'allreduce
         (lambda (r s n) `(((reduce recv 0 recv 1 2))))
         "overlap")
(refused "a reduce in a kind without an op" 'allgather
         (lambda (r s n) `(((reduce send 0 recv 0 ,n))))
         "allgather has no op")
(refused "a builder that returns no list" 'barrier (lambda (r s n) 'nothing)
         "the builder returned nothing, not a list of rounds")
(refused "a builder that raises" 'barrier (lambda (r s n) (vector-ref (vector) r))
         "its builder failed")
(refused "a step that is no step" 'barrier (lambda (r s n) '(((jump 1))))
         "(jump 1) is not a step")

(let ((r (steps (schedule 'barrier "ok" (lambda (r s n) `(((send ,(- 1 r)) (recv ,(- 1 r))))))
                'barrier 2 0)))
  (expect-equal "messages of no data: (send PEER) and (recv PEER)"
                (and (car r) (vector-ref (vector-ref (cdr r) 1) 0))
                #(0 1 1 0 0 0 0  1 1 1 0 0 0 0  4 0 0 0 0 0 0)))

;; dependencies: the pipelines of tests/mpi/configs/sched_pipe.scm pass at 1 to 6 ranks
(define installed '())
(define (install-creator! kind creator) (set! installed (acons kind creator installed)))
(load (string-append (getenv "top_srcdir") "/tests/mpi/configs/sched_pipe.scm"))
(for-each
 (lambda (size)
   (for-each
    (lambda (kind)
      (let* ((desc ((assq-ref installed kind) (call-of kind size 0) #f))
             (r (schedule-steps desc (call-of kind size 0) 10)))
        (report (car r) (simple-format #f "the ~A pipeline with #:after passes the checks at ~A \
ranks" kind size) (simple-format #f "got ~S" r))))
    '(bcast allreduce)))
 (iota 6 1))

;; #:after reaches C as a record of code 5 naming the record of the step waited for
(let ((r (steps (schedule 'bcast "pipe"
                          (lambda (r s n)
                            (if (= r 0)
                                `(((send 1 recv 0 2) (send 1 recv 2 2)))
                                `((scratch 2)
                                  ((recv 0 recv 0 2 #:name a) (recv 0 recv 2 2 #:name b)
                                   (copy recv 0 (scratch 0) 0 2 #:after (a b)))))))
                'bcast 2 4)))
  (expect-equal "#:after in the steps C reads: (5 RECORD ...) before the step"
                (if (car r) (vector-ref (vector-ref (cdr r) 1) 1) r)
                #(1 0 1 0 2 0 0  1 0 1 2 2 0 0  5 0 0 0 0 0 0  5 1 0 0 0 0 0  3 -1 1 0 2 2 0
                  4 0 0 0 0 0 0)))

(refused "#:after a name no earlier step has" 'allreduce
         (lambda (r s n) `(((send ,(- 1 r) send 0 ,n #:after (x)) (recv ,(- 1 r) recv 0 ,n))))
         "#:after x names no step written before it")
(refused "a name taken twice in a round" 'allreduce
         (lambda (r s n) `(((send ,(- 1 r) send 0 ,n #:name x) (recv ,(- 1 r) recv 0 ,n #:name x))))
         "the name x is taken")
(refused "a transfer waiting for a local step without #:after" 'allreduce
         (lambda (r s n) `((scratch ,n)
                           ((recv ,(- 1 r) recv 0 ,n) (copy send 0 (scratch 0) 0 ,n #:name c)
                            (send ,(- 1 r) (scratch 0) 0 ,n #:after (c)))))
         "waits, through #:after, for a reduce or copy without #:after")
(refused "two steps on the same elements that no #:after orders" 'allreduce
         (lambda (r s n) `(((recv ,(- 1 r) recv 0 ,n #:name a) (send ,(- 1 r) recv 0 ,n)
                            (copy recv 0 recv 0 0 #:after (a)))))
         "touch the same elements of recv in one round, one of them writing, and no #:after")
(refused "a send to a peer that may overtake an earlier one" 'allreduce
         (lambda (r s n) `(((recv ,(- 1 r) recv 0 2 #:name a) (recv ,(- 1 r) recv 2 2)
                            (send ,(- 1 r) send 0 2 #:after (a)) (send ,(- 1 r) send 2 2))))
         "(send 1 send 2 2) may be posted before (send 1 send 0 2 #:after (a))")
(refused "ranks whose #:after wait for each other" 'allreduce
         (lambda (r s n) `(((recv ,(- 1 r) recv 0 ,n #:name a) (send ,(- 1 r) send 0 ,n #:after (a)))))
         "never completes" "a cycle across ranks")
(refused "an option that is none" 'allreduce
         (lambda (r s n) `(((send ,(- 1 r) send 0 ,n #:before (x)) (recv ,(- 1 r) recv 0 ,n))))
         "#:before is no option")

(tap-done)
