;;; A creator that answers every bcast with the pipelined chain, which has no schedule:
;;; blocking bcasts work, a nonblocking one (MPI_Ibcast) cannot.
;;; Expected: the job exits non-zero, and the message names this file, the creator
;;; (chain-always), the call (nonblocking bcast) and the algorithms that can serve it.
(use-modules (compi))

(define (chain-always call next)
  (native 'bcast 'chain #:segsize 8192))

(install-creator! 'bcast chain-always)
