;;; hier_ex_checks.scm -- not a config of its own: the hier_ex_*.scm configs take it in
;;; with (include "hier_ex_checks.scm"), after defining (noncomm-exchange? call): whether
;;; their groups let a non-commutative allreduce take the exchange.

;; Fail the job unless allgather got a tree (hier_tree_check.scm) and allreduce the
;; exchange (for a non-commutative op only when (noncomm-exchange? call) says the groups
;; allow it).
(include "hier_tree_check.scm")
(define (must-be-exchange call next)
  (let ((d (next call)))
    (unless (eq? (exchange-closure? d)
                 (or (call-commutative? call) (noncomm-exchange? call)))
      (error "allreduce served by the wrong closure:" (description->string d)
             (call->string call)))
    d))
(install-creator! 'allreduce must-be-exchange)
