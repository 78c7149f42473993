;;; schedule.scm -- the CoMPI paper's allreduce, recursive doubling, written as a schedule:
;;; rounds of sends, receives, reductions and copies that compi checks once, when the
;;; closure is built, and then runs in C on every call, blocking, nonblocking
;;; (MPI_Iallreduce) and persistent (MPI_Allreduce_init) alike; no Guile per call.
;;;
;;;   mpirun -np 6 --mca coll_verbose 1 --coll-config examples/configs/schedule.scm ./app
;;;   (rank 0 prints "... -> allreduce:schedule(recursive-doubling)")
;;;
;;; Recursive doubling on p ranks, p2 the largest power of two <= p, rem = p - p2:
;;;
;;;   round 0          copy send -> recv (the partial result lives in recv)
;;;   round 1 (rem>0)  fold: rank 2i sends its vector to 2i+1 (i < rem), which reduces
;;;                    it in; rank 2i then idles until the last round
;;;   rounds 2..       the p2 remaining ranks, renumbered 0..p2-1 in rank order,
;;;                    exchange with partner (new rank XOR 2^k) and reduce:
;;;
;;;                       0 1 2 3 4 5 6 7     k=0: 0<->1 2<->3 ...
;;;                       0 1 2 3 4 5 6 7     k=1: 0<->2 1<->3 ...
;;;                       0 1 2 3 4 5 6 7     k=2: 0<->4 1<->5 ...
;;;
;;;   last (rem>0)     unfold: 2i+1 sends the result back to 2i
;;;
;;; Each rank always holds the reduction of a contiguous block of ranks and combines the
;;; lower block on the left ((reduce FROM ... INTO ...) computes INTO = FROM op INTO), so
;;; non-commutative ops are served in rank order too.  Idle ranks keep empty rounds, (),
;;; so that round numbers agree across ranks: a send of round K must meet its receive in
;;; round K of its peer (compi checks every pair when the closure is built).
;;;
;;; Offsets and counts are in elements of the call's datatype; (scratch 0) is a buffer of
;;; N elements this schedule declares with (scratch N) before its rounds.  With
;;; MPI_IN_PLACE `send' is the receive buffer, and the copy of round 0 does nothing.

(define (recursive-doubling rank size n)
  (let* ((p2 (let up ((p 1)) (if (> (* 2 p) size) p (up (* 2 p)))))
         (rem (- size p2))
         ;; the rank in the power-of-two phase, or #f for an idle one
         (new (cond ((>= rank (* 2 rem)) (- rank rem))
                    ((odd? rank) (quotient rank 2))
                    (else #f)))
         (real (lambda (nr) (if (< nr rem) (+ (* 2 nr) 1) (+ nr rem))))
         (tmp '(scratch 0)))
    (define (exchange peer)
      ;; send mine, receive the peer's, combine: the lower ranks' block on the left
      `((send ,peer recv 0 ,n)
        (recv ,peer ,tmp 0 ,n)
        ,@(if (< peer rank)
              `((reduce ,tmp 0 recv 0 ,n))
              `((reduce recv 0 ,tmp 0 ,n) (copy ,tmp 0 recv 0 ,n)))))
    (define fold
      (cond ((= rem 0) '())
            ((not (< rank (* 2 rem))) '(()))
            ((even? rank) `(((send ,(+ rank 1) recv 0 ,n))))
            (else `(((recv ,(- rank 1) ,tmp 0 ,n) (reduce ,tmp 0 recv 0 ,n))))))
    (define doubling
      (let loop ((mask 1) (acc '()))
        (if (>= mask p2)
            (reverse acc)
            (loop (* 2 mask)
                  (cons (if new (exchange (real (logxor new mask))) '()) acc)))))
    (define unfold
      (cond ((= rem 0) '())
            ((not (< rank (* 2 rem))) '(()))
            ((even? rank) `(((recv ,(+ rank 1) recv 0 ,n))))
            (else `(((send ,(- rank 1) recv 0 ,n))))))
    `((scratch ,n)
      ((copy send 0 recv 0 ,n))
      ,@fold
      ,@doubling
      ,@unfold)))

(define rd-allreduce (schedule 'allreduce "recursive-doubling" recursive-doubling))

;; every allreduce, in every mode and at every size of communicator
(define (schedule-allreduce call next) rd-allreduce)
(install-creator! 'allreduce schedule-allreduce)
