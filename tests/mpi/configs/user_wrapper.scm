;;; user_wrapper.scm -- two wrappers written in Scheme with run-closure, over every kind,
;;; chained over what the creators below them build: hierarchical trees (clusters of 4,
;;; hosts of 2, by rank block) for the tree kinds, the shipped profiling wrapper around
;;; them for bcast and allreduce, the native defaults for the rest.  The inner wrapper
;;; runs those descriptions; the outer one runs the inner wrapper (a Scheme closure).
;;; Each counts the calls of each kind; at MPI_Finalize rank 0 prints
;;;   compi-user-outer KIND       when the outer wrapper ran KIND
;;;   compi-user-inner KIND       when the inner one ran it as often as the outer one
;;;   compi-user-count KIND N
;;; coll_config.sh checks that every kind went through both; the program checks the
;;; results.
(install-hierarchical! (nested (by-block 4) (by-block 2)) #:shapes '(flat binomial binomial))
(for-each (lambda (k) (install-creator! k (lambda (call next) (profiling (next call)))))
          '(bcast allreduce))

(define (counter)
  (let ((counts (map (lambda (k) (cons k (vector 0))) collective-kinds)))
    (values
     (lambda (call next)
       (let ((inner (next call))
             (n (assq-ref counts (call-kind call))))
         (if (eq? (call-mode call) 'blocking)
             (lambda (c)
               (run-closure inner c)
               (vector-set! n 0 (+ (vector-ref n 0) 1)))
             inner)))
     (lambda (k) (vector-ref (assq-ref counts k) 0)))))

(define-values (inner-creator inner-count) (counter))
(define-values (outer-creator outer-count) (counter))
(for-each (lambda (k) (install-creator! k inner-creator)) collective-kinds)
(for-each (lambda (k) (install-creator! k outer-creator)) collective-kinds)

(at-finalize
 (lambda ()
   (when (= (compi-world-rank) 0)
     (let ((port (current-error-port)))
       (for-each
        (lambda (k)
          (let ((n (outer-count k)))
            (when (> n 0)
              (simple-format port "compi-user-outer ~A\n" k))
            (when (and (> n 0) (= n (inner-count k)))
              (simple-format port "compi-user-inner ~A\n" k))
            (simple-format port "compi-user-count ~A ~A ~A\n" k n (inner-count k))))
        collective-kinds)
       (force-output port)))))
