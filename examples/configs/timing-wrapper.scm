;;; timing-wrapper.scm -- a per-call wrapper written in Scheme: every blocking collective
;;; runs whatever the creators installed before would have run (the defaults here, or the
;;; creators of config files loaded before this one), through run-closure, and the
;;; wrapper counts the calls and the time of each kind.  At MPI_Finalize every rank
;;; prints its counts.  The first call of each key includes building what `next'
;;; returned (run-closure does that at its first use).
;;;
;;;   mpirun -np 4 --coll-config examples/configs/timing-wrapper.scm ./app
;;;
;;; Scheme closures serve blocking calls only: a nonblocking or persistent call gets the
;;; description unchanged (wrap it in (profiling ...) to count those too).  Each wrapped
;;; call enters Guile once (docs/scheme-api.md, "Scheme closures", says what it costs).

;; per kind: #(calls nanoseconds), updated in place (fixnums: no allocation per call)
(define stats (map (lambda (k) (cons k (vector 0 0))) collective-kinds))

(define (timed call next)
  (let ((inner (next call))
        (s (assq-ref stats (call-kind call))))
    ;; named, so that coll_verbose shows the closure as KIND:scheme(timed-run) over the
    ;; closure it wraps (allreduce:scheme(timed-run) over allreduce:ring)
    (define (timed-run c)
      (let ((t0 (get-internal-real-time)))
        (run-closure inner c)
        (vector-set! s 0 (+ (vector-ref s 0) 1))
        (vector-set! s 1 (+ (vector-ref s 1) (- (get-internal-real-time) t0)))))
    (if (eq? (call-mode call) 'blocking) timed-run inner)))

(for-each (lambda (kind) (install-creator! kind timed)) collective-kinds)

(at-finalize
 (lambda ()
   (for-each
    (lambda (e)
      (let ((n (vector-ref (cdr e) 0))
            (us (/ (* 1e6 (vector-ref (cdr e) 1)) internal-time-units-per-second)))
        (when (> n 0)
          (simple-format (current-error-port) "timing rank ~A: ~A ~A calls, ~A us, ~A us a call\n"
                         (compi-world-rank) (car e) n (round us) (/ (round (* 100 (/ us n))) 100)))))
    stats)))
