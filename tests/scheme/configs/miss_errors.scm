;; Creators that fail at a miss, each on another line than the one that installs it
;; (tests/scheme/config_errors.sh): the message names the line that failed too.
(define (too-big call next)
  (if (> (call-bytes call) 4)
      (error "too big:" (call-bytes call))
      (next call)))

(define (misspelt call next)
  (let ((n (call-size call)))
    (nativ 'reduce 'binomial)))

(define (not-a-pair call next)
  (next (car (call-size call))))

(define (check-size n)
  (when (> n 2)
    (error "a helper refuses size" n)))

(define (uses-helper call next)
  (check-size (call-size call))
  (next call))

(install-creator! 'bcast too-big)
(install-creator! 'reduce misspelt)
(install-creator! 'allreduce not-a-pair)
(install-creator! 'gather uses-helper)
(install-creator! 'scatter (lambda (call next)
                             (if (call-root call)
                                 (vector-ref (vector) 3)
                                 (next call))))

(define (no-rounds rank size count)
  (if (= rank 0)
      '()
      (list-ref '() rank)))
(install-creator! 'barrier (lambda (call next) (schedule 'barrier "no-rounds" no-rounds)))
