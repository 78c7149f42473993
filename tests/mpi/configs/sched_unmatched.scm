;;; A schedule whose rank 0 sends to rank 1, which never receives it.  Expected: one
;;; clear error naming this file, the creator (lonely-send) and the unmatched send, a
;;; non-zero exit, and no hang.
(define (lonely rank size n)
  (if (and (= rank 0) (> size 1))
      `(((send 1 send 0 ,n)))
      '()))

(define (lonely-send call next)
  (schedule 'allreduce "lonely" lonely))

(install-creator! 'allreduce lonely-send)
