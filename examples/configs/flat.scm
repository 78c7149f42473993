;;; flat.scm -- LAM/MPI's "basic" collectives: the root talks to every rank itself.
;;;
;;;   mpirun -np 8 --coll-config examples/configs/flat.scm ./app
;;;
;;; Simple and slow at scale (p-1 messages at the root), a baseline to compare the
;;; defaults and hierarchical configs against.  Kinds not named here keep the defaults.

(define (flat-bcast call next)
  (tree-closure 'bcast (flat-tree (call-size call) (call-root call))))

;; the linear reduce combines in rank order: right for non-commutative ops too
(define (linear-reduce call next) (native 'reduce 'linear))
(define (reduce-then-bcast call next) (native 'allreduce 'reduce-bcast))
(define (linear-barrier call next) (native 'barrier 'linear))
(define (linear-gather call next) (native 'gather 'linear))
(define (linear-scatter call next) (native 'scatter 'linear))
(define (gather-then-bcast call next) (native 'allgather 'gather-bcast))
(define (linear-alltoall call next) (native 'alltoall 'linear))

(install-creator! 'bcast flat-bcast)
(install-creator! 'reduce linear-reduce)
(install-creator! 'allreduce reduce-then-bcast)
(install-creator! 'barrier linear-barrier)
(install-creator! 'gather linear-gather)
(install-creator! 'scatter linear-scatter)
(install-creator! 'allgather gather-then-bcast)
(install-creator! 'alltoall linear-alltoall)
