;;; (compi hierarchy) -- creators that build trees from a topology description: the
;;; hierarchical creator (one tree shape per level of groups) and the MagPIe creator (the
;;; root talks to each group's coordinator directly, groups finish locally).
;;;
;;;   (define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
;;;   (install-creator! 'bcast (hierarchical-creator clusters #:shapes '(flat binomial)))
;;;   (install-magpie! clusters)            ; every kind below, MagPIe trees
;;;
;;; Both return (tree-closure KIND TREE), run by the native tree executors, for barrier,
;;; bcast, reduce, allreduce, gather, scatter and allgather (gathered to the tree's root,
;;; then broadcast down the same tree; like barrier and allreduce it has no call root, so
;;; the tree is rooted at rank 0), and pass any other call to `next', as well as
;;; reductions with a non-commutative op when the tree does not combine in rank order
;;; (tree-ordered?).  Every rank computes the same tree: the groups depend only on the
;;; rank facts every rank holds for every other rank, and the root on the call's key.  A
;;; description that does not fit the communicator (a rank in two groups or in none)
;;; makes the creator fail, and the job stops with a message naming the description, the
;;; rank, the creator and the call.

(define-module (compi hierarchy)
  #:use-module (compi)
  #:use-module (compi trees)
  #:use-module (compi topology)
  #:export (tree-kinds
            hierarchical-creator
            magpie-creator
            install-hierarchical!
            install-magpie!))

;; the kinds the tree executors run (core/coll/tree_exec_*.c)
(define tree-kinds '(barrier bcast reduce allreduce gather scatter allgather))

;; (call-ranks call) is a primitive the bridge defines in (compi) (scheme/bridge_facts.c);
;; look it up when first needed so this module also loads under guile alone.  There, a
;; call made by (make-call ... RANKS) carries its rank records itself.
(define (library-call-ranks call)
  (let ((v (module-variable (resolve-module '(compi)) 'call-ranks)))
    (if (and v (variable-bound? v))
        ((variable-ref v) call)
        (let ((ranks ((record-accessor (record-type-descriptor call) 'ranks) call)))
          (unless (vector? ranks)
            (scm-error 'unbound-variable 'hierarchical-creator
                       "no rank facts for ~A: call-ranks comes with MPI_Init (or make-call RANKS)"
                       (list (call->string call)) #f))
          ranks))))

;; Groups of the call's communicator.  A one-entry cache, keyed by the rank vector itself:
;; when the bridge hands out the same vector for a communicator, the grouping is done once.
(define (grouper topology ranks-of)
  (let ((last-ranks #f) (last-groups #f))
    (lambda (call)
      (let ((ranks (ranks-of call)))
        (unless (and last-ranks (eq? ranks last-ranks))
          (let ((groups (topology-groups topology ranks)))
            (when (null? groups)
              (scm-error 'invalid-topology 'topology-groups "topology ~A: no ranks"
                         (list (topology->string topology)) #f))
            (set! last-groups groups)
            (set! last-ranks ranks)))
        last-groups))))

(define (serve call next tree segsize)
  (let ((kind (call-kind call)))
    (if (and (memq kind '(reduce allreduce))
             (not (call-commutative? call))
             (not (tree-ordered? tree)))
        (next call)
        (tree-closure kind tree #:segsize segsize))))

(define (check-topology who topology)
  (unless (topology? topology)
    (scm-error 'wrong-type-arg who "expects a topology description of (compi topology), got ~S"
               (list topology) (list topology))))

;; #:ranks (call -> vector of rank records) replaces call-ranks, for tests and for trying
;; a layout other than the real one.
(define* (hierarchical-creator topology #:key (shapes '(binomial)) (coordinator 'lowest)
                               (segsize #f) (ranks library-call-ranks))
  (check-topology 'hierarchical-creator topology)
  (let ((groups-of (grouper topology ranks)))
    (define (hierarchical call next)
      (if (memq (call-kind call) tree-kinds)
          (serve call next
                 (hierarchical-tree (groups-of call) (or (call-root call) 0)
                                    #:shapes shapes #:coordinator coordinator)
                 segsize)
          (next call)))
    hierarchical))

(define* (magpie-creator topology #:key (segsize #f) (ranks library-call-ranks))
  (check-topology 'magpie-creator topology)
  (let ((groups-of (grouper topology ranks)))
    (define (magpie call next)
      (if (memq (call-kind call) tree-kinds)
          (serve call next (magpie-tree (groups-of call) (or (call-root call) 0)) segsize)
          (next call)))
    magpie))

;; Install one creator for every kind of tree-kinds (or the KINDS given).
(define (install-all creator kinds)
  (for-each (lambda (kind) (install-creator! kind creator))
            (if (null? kinds) tree-kinds kinds)))

(define* (install-hierarchical! topology #:key (shapes '(binomial)) (coordinator 'lowest)
                                (segsize #f) (kinds '()))
  (install-all (hierarchical-creator topology #:shapes shapes #:coordinator coordinator
                                     #:segsize segsize)
               kinds))

(define* (install-magpie! topology #:key (segsize #f) (kinds '()))
  (install-all (magpie-creator topology #:segsize segsize) kinds))
