;;; The shipped profiling closure around whatever the creators installed before it (the
;;; defaults, or the config files loaded before this one), for every collective kind.
(use-modules (compi))

(define (profiled call next) (profiling (next call)))

(for-each (lambda (kind) (install-creator! kind profiled)) collective-kinds)
