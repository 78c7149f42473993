;; A good configuration: two bcast creators and one barrier creator.  The latest installed
;; answers first and may ask the earlier ones through `next'.
(define (first-bcast call next)
  (list 'first (call-size call) (next call)))

(install-creator! 'bcast first-bcast)
(install-creator! 'bcast
                  (lambda (call next)
                    (list 'second (call-kind call) (next call))))
;; C primitives of the bridge are visible too
(install-creator! 'barrier (lambda (call next) (list 'dissemination (compi-world-size))))
