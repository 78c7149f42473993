;;; allreduce.scm -- MPI_Allreduce written in Scheme: recursive doubling, as in the CoMPI
;;; paper, for any communicator size and any op (commutative or not).
;;;
;;;   COMPI_COLL_CONFIG=examples/allreduce.scm mpirun -np 5 ./my_program
;;;   (add --mca coll_verbose 1 to see "allreduce:scheme(rd-allreduce)" chosen)
;;;
;;; A creator returns a procedure of one argument instead of a native closure: the
;;; procedure runs, inside Guile, on every call the creator's closure serves, with
;;; isend / irecv / wait / reduce-local! on the call's own buffers.  Scheme closures are
;;; slower than native ones (each call enters Guile); they are for trying algorithms out.
;;;
;;; Recursive doubling on p ranks, p' the largest power of two <= p, r = p - p':
;;;
;;;   fold in:   ranks 0..2r-1 pair up; each even rank sends its vector to the odd rank
;;;              above it and waits; the odd ranks (and ranks >= 2r) go on as p' ranks
;;;   doubling:  log2 p' steps; at step k, swap vectors with new rank XOR 2^k, combine
;;;   hand out:  each odd rank below 2r sends the result to the even rank below it
;;;
;;;        rank:  0   1   2   3   4          (p = 5, p' = 4, r = 1)
;;;   fold in:    0 ->1
;;;   step 0:         1 <-> 2    3 <-> 4
;;;   step 1:         1 <-----> 3
;;;                   2 <-----> 4
;;;   hand out:   0 <-1
;;;
;;; Every exchange partner holds a contiguous range of ranks, so combining "lower ranks op
;;; higher ranks" keeps MPI's rank order for non-commutative ops.

(define (rd-allreduce call)
  (let* ((n (call-count call))
         (rank (call-rank call))
         (size (call-size call))
         (data (call-recv-buffer call))
         (tmp (make-buffer call n))
         (pof2 (let loop ((p 1)) (if (<= (* 2 p) size) (loop (* 2 p)) p)))
         (extra (- size pof2))
         ;; rank in the power-of-two group, or #f for even ranks that fold in
         (newrank (cond ((>= rank (* 2 extra)) (- rank extra))
                        ((odd? rank) (quotient rank 2))
                        (else #f))))
    (define (real-rank newrank)
      (if (< newrank extra) (+ (* 2 newrank) 1) (+ newrank extra)))
    ;; data = peer's op data when the peer has the lower ranks, data op peer's otherwise
    (define (combine-from peer)
      (if (or (< peer rank) (call-commutative? call))
          (reduce-local! call tmp 0 data 0 n)
          (begin
            (reduce-local! call data 0 tmp 0 n)
            (buffer-copy! call tmp 0 data 0 n))))

    ;; the result is built in the receive buffer, from the send buffer unless in place
    (unless (call-in-place? call)
      (buffer-copy! call (call-send-buffer call) 0 data 0 n))

    (when (< rank (* 2 extra))
      (if newrank
          (begin (wait (buffer-irecv call tmp 0 n (- rank 1)))
                 (combine-from (- rank 1)))
          (wait (buffer-isend call data 0 n (+ rank 1)))))

    (when newrank
      (let step ((mask 1))
        (when (< mask pof2)
          (let ((peer (real-rank (logxor newrank mask))))
            (wait-all (list (buffer-isend call data 0 n peer)
                            (buffer-irecv call tmp 0 n peer)))
            (combine-from peer)
            (step (* 2 mask))))))

    (when (< rank (* 2 extra))
      (if newrank
          (wait (buffer-isend call data 0 n (- rank 1)))
          (wait (buffer-irecv call data 0 n (+ rank 1)))))))

;; The creator: every allreduce gets the Scheme closure.  A creator that preferred the
;; native algorithms for large vectors would return (next call) for them.
(define (scheme-allreduce call next)
  rd-allreduce)

(install-creator! 'allreduce scheme-allreduce)
