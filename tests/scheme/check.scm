;;; check.scm -- the TAP helpers the Scheme tests in tests/scheme/ share, loaded by each
;;; (load "check.scm") before its first check: `report' prints one TAP line and counts
;;; it, the expect-* checks build on it, `tap-done' prints the plan and exits 0 when no
;;; check failed.

(define tests-run 0)
(define tests-failed 0)

(define (report ok desc . diag)
  (set! tests-run (+ tests-run 1))
  (if (not ok) (set! tests-failed (+ tests-failed 1)))
  (display (if ok "ok " "not ok "))
  (display tests-run)
  (display " - ")
  (display desc)
  (newline)
  (if (and (not ok) (pair? diag))
      (begin (display "# ") (display (car diag)) (newline))))

;; the message of the error (thunk) raises, or #f when it returns
(define (error-text thunk)
  (catch #t
    (lambda () (thunk) #f)
    (lambda (key who fmt args . rest)
      (if (string? fmt) (apply simple-format #f fmt args) (simple-format #f "~S" fmt)))))

;; msg is a string holding every string of wants
(define (contains-all? msg wants)
  (and (string? msg)
       (let all ((ws wants))
         (or (null? ws) (and (string-contains msg (car ws)) (all (cdr ws)))))))

(define (expect-error desc thunk . wants)
  (let ((msg (error-text thunk)))
    (report (contains-all? msg wants) desc
            (simple-format #f "message ~S, expected it to contain ~S" msg wants))))

(define (expect-equal desc got want)
  (report (equal? got want) desc (simple-format #f "got ~S, expected ~S" got want)))

;; the plan line last, then the exit status of the test
(define (tap-done)
  (display "1..")
  (display tests-run)
  (newline)
  (exit (if (= tests-failed 0) 0 1)))
