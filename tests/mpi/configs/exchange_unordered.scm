;;; exchange_unordered.scm -- a creator that answers every allreduce with an exchange
;;; over interleaved groups (even ranks, odd ranks), non-commutative ops included: their
;;; partials cannot be combined in rank order, so the closure must be refused with a
;;; message naming the file, the creator and the call, and the job must stop, not hang.
(define (interleaved-exchange call next)
  (let ((ranks (iota (call-size call))))
    (exchange-closure (list (filter even? ranks) (filter odd? ranks)))))
(install-creator! 'allreduce interleaved-exchange)
