;;; A pass-through wrapper written in Scheme, for every blocking collective: it runs what
;;; the creators installed before it (the defaults, or the config files loaded before this
;;; one) with run-closure, and nothing else.  Loaded after another Scheme wrapper, it
;;; stacks two of them over the same creators.
(use-modules (compi))

(define (pass call next)
  (let ((inner (next call)))
    (define (pass-run c) (run-closure inner c))
    (if (eq? (call-mode call) 'blocking) pass-run inner)))

(for-each (lambda (kind) (install-creator! kind pass)) collective-kinds)
