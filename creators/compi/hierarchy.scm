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
;;; (tree-ordered?).  With #:host-shm #t, when the ranks of each innermost group share one
;;; host name, the innermost level runs through shared memory instead of messages for
;;; blocking barrier, bcast, and commutative reduce and allreduce (host-groups below):
;;;
;;;   (install-hierarchical! (nested (by-subnets ...) (by-host)) #:host-shm #t)
;;;
;;; Every rank computes the same tree: the groups depend only on the rank facts every rank holds for every other rank, and the root on the call's key.  A
;;; description that does not fit the communicator (a rank in two groups or in none)
;;; makes the creator fail, and the job stops with a message naming the description, the
;;; rank, the creator and the call.
;;;
;;; The exchange allreduce ("beyond the paper": the data crosses the WAN once) is not a
;;; tree: each top-level group reduces to its coordinator over a local tree (one shape per
;;; level inside the group, as hierarchical-tree builds them), the coordinators send their
;;; partial results to each other all-to-all, each combines them in group order, and
;;; broadcasts the result over its local tree (core/coll/algorithms/allreduce/exchange.c).
;;;
;;;   (install-allreduce-exchange! clusters #:shapes '(binomial))
;;;   (exchange-closure GROUPS #:shapes '(flat binomial))    ; a description, by hand
;;;
;;; allreduce-exchange-creator serves allreduce only and passes the rest to `next', as
;;; well as non-commutative ops unless the groups are contiguous rank ranges whose local
;;; trees combine in rank order (exchange-ordered?): then group order is rank order.
;;;
;;; The lanes allreduce crosses first: the top-level groups must be of one size k, and
;;; the ranks at position j of every group (a lane) exchange their vectors across the
;;; groups at once, each lane combining them in group order, then every group finishes
;;; with a recursive-doubling allreduce among its own ranks.  Every rank's link crosses
;;; the WAN once, in parallel with the others', and the local part comes after, so one
;;; call costs one crossing plus one allreduce inside a group (the exchange costs a local
;;; reduce, the crossing, and a local broadcast).  It is a Scheme schedule, so it serves
;;; every mode; commutative ops only.
;;;
;;;   (install-allreduce-lanes! clusters)
;;;
;;; Collective file access (MPI_File_write_all, read_all, ...) chooses its aggregators
;;; from a topology the same way: one per cluster, so the file's data crosses the
;;; wide-area link once (the defaults take one per host):
;;;
;;;   (install-file-aggregators! clusters)              ; file-write and file-read
;;;   (file-aggregator-creator clusters #:per-group 2)  ; a creator, to install by hand

(define-module (compi hierarchy)
  #:use-module (compi)
  #:use-module (compi private)
  #:use-module (compi trees)
  #:use-module (compi topology)
  #:use-module ((compi defaults) #:select (file-access-choice shm-max))
  #:export (tree-kinds
            hierarchical-creator
            magpie-creator
            install-hierarchical!
            install-magpie!
            exchange-closure
            exchange-ordered?
            allreduce-exchange-creator
            install-allreduce-exchange!
            lanes-schedule
            allreduce-lanes-creator
            install-allreduce-lanes!
            topology-aggregators
            file-aggregator-creator
            install-file-aggregators!))

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

;; Trees and the exchange serve every mode (each runs as a schedule for nonblocking and
;; persistent calls).

;; The host level (#:host-shm #t): the innermost groups of GROUPS as a vector of one group
;; number per rank, when the ranks of each group share memory -- they all have the same
;; host name in the rank facts every rank holds, so every rank decides alike -- else #f
;; (the tree runs over messages only).  The tree closure then runs each group's part of
;; barrier, bcast, reduce and allreduce calls through a segment over the group
;; (core/coll/executors/tree_host.c); it says so in its name, "...,host-shm)".  Asked
;; only for calls of up to one slot (shm-max of (compi defaults), 8 KiB), as the defaults
;; choose the shared-memory algorithms: longer bcasts through the segment's slots, one
;; after the other without overlap, lose to the tree's pipelined messages.
(define (host-groups call groups ranks)
  (and (<= (call-bytes call) shm-max)
       (host-groups-of groups ranks)))

(define (host-groups-of groups ranks)
  (let* ((n (vector-length ranks))
         (group-of (make-vector n #f)))
    (define (innermost g)
      (if (exact-integer? (car g)) (list g) (apply append (map innermost g))))
    (let number ((gs (innermost (if (= (groups-depth groups) 0) (list groups) groups)))
                 (i 0))
      (if (null? gs)
          group-of
          (let ((host (rank-host (vector-ref ranks (car (car gs))))))
            (and (and-map (lambda (r) (equal? (rank-host (vector-ref ranks r)) host)) (car gs))
                 (begin
                   (for-each (lambda (r) (vector-set! group-of r i)) (car gs))
                   (number (cdr gs) (+ i 1)))))))))

(define (serve call next tree segsize hosts)
  (let ((kind (call-kind call)))
    (if (and (memq kind '(reduce allreduce))
             (not (call-commutative? call))
             (not (tree-ordered? tree)))
        (next call)
        (tree-closure kind tree #:segsize segsize #:hosts hosts))))

(define (check-topology who topology)
  (unless (topology? topology)
    (scm-error 'wrong-type-arg who "expects a topology description of (compi topology), got ~S"
               (list topology) (list topology))))

;; #:ranks (call -> vector of rank records) replaces call-ranks, for tests and for trying
;; a layout other than the real one.
(define* (hierarchical-creator topology #:key (shapes '(binomial)) (coordinator 'lowest)
                               (segsize #f) (host-shm #f) (ranks library-call-ranks))
  (check-topology 'hierarchical-creator topology)
  (let ((groups-of (grouper topology ranks)))
    (define (hierarchical call next)
      ;; trees span one communicator's ranks: an intercommunicator's call goes on
      (if (and (not (call-inter? call)) (memq (call-kind call) tree-kinds))
          (let ((groups (groups-of call)))
            (serve call next
                   (hierarchical-tree groups (or (call-root call) 0)
                                      #:shapes shapes #:coordinator coordinator)
                   segsize (and host-shm (host-groups call groups (ranks call)))))
          (next call)))
    hierarchical))

(define* (magpie-creator topology #:key (segsize #f) (host-shm #f) (ranks library-call-ranks))
  (check-topology 'magpie-creator topology)
  (let ((groups-of (grouper topology ranks)))
    (define (magpie call next)
      (if (and (not (call-inter? call)) (memq (call-kind call) tree-kinds))
          (let ((groups (groups-of call)))
            (serve call next (magpie-tree groups (or (call-root call) 0)) segsize
                   (and host-shm (host-groups call groups (ranks call)))))
          (next call)))
    magpie))

;; Install one creator for every kind of tree-kinds (or the KINDS given).
(define (install-all creator kinds)
  (for-each (lambda (kind) (install-creator! kind creator))
            (if (null? kinds) tree-kinds kinds)))

(define* (install-hierarchical! topology #:key (shapes '(binomial)) (coordinator 'lowest)
                                (segsize #f) (host-shm #f) (kinds '()))
  (install-all (hierarchical-creator topology #:shapes shapes #:coordinator coordinator
                                     #:segsize segsize #:host-shm host-shm)
               kinds))

(define* (install-magpie! topology #:key (segsize #f) (host-shm #f) (kinds '()))
  (install-all (magpie-creator topology #:segsize segsize #:host-shm host-shm) kinds))
;;; ---- the exchange allreduce -------------------------------------------------------------

;; a list of shapes, one per level (a lone shape or (kary K) is a list of one)
(define (shape-list who shapes)
  (when (null? shapes)
    (scm-error 'wrong-type-arg who "#:shapes must name at least one shape" '() #f))
  (if (and (pair? shapes)
           (not (and (eq? (car shapes) 'kary) (pair? (cdr shapes))
                     (exact-integer? (cadr shapes)))))
      shapes
      (list shapes)))

;; Group G's tree over its positions (MS: its ranks, ascending), cut out of WHOLE, a tree
;; of the communicator whose only edges between groups leave the root: the group's
;; coordinator is the member whose parent is -1 or outside the group.
(define (local-tree whole ms)
  (let* ((n (tree-size whole))
         (pos (make-vector n #f))
         (k (length ms)))
    (let fill ((rs ms) (i 0))
      (when (pair? rs)
        (vector-set! pos (car rs) i)
        (fill (cdr rs) (+ i 1))))
    (let* ((coord? (lambda (r)
                     (let ((p (tree-parent whole r)))
                       (or (= p -1) (not (vector-ref pos p))))))
           (coord (let find ((rs ms)) (if (coord? (car rs)) (car rs) (find (cdr rs)))))
           (inside (lambda (rs) (filter (lambda (r) (vector-ref pos r)) rs))))
      (make-tree k (vector-ref pos coord)
                 (map (lambda (r) (if (eqv? r coord) -1 (vector-ref pos (tree-parent whole r))))
                      ms)
                 (map (lambda (r) (vector-ref pos r))
                      (cons coord (apply append (map (lambda (r) (inside (tree-children whole r)))
                                                     ms))))))))

;; (exchange-closure GROUPS #:shapes SHAPES #:coordinator HOW #:segsize N): the exchange
;; allreduce over GROUPS, nested lists of ranks as topology-groups returns them (a plain
;; list of ranks: one group).  The top-level groups exchange; inside each, SHAPES gives
;; one shape per level, outermost first (level 1: between the group's subgroups, or its
;; ranks when it has none; the last shape serves the deeper levels), and HOW picks the
;; coordinators, one choice per level from level 0 (the top-level groups' coordinators),
;; as for hierarchical-tree.  #:trees replaces the built trees: one tree per top-level
;; group over its positions (position i: its i-th lowest rank), rooted at the coordinator.
;; #:segsize pipelines the local reduce and bcast.
(define* (exchange-closure groups #:key (shapes '(binomial)) (coordinator 'lowest)
                           (trees #f) (segsize #f))
  (let* ((tops (if (= (groups-depth groups) 0) (list groups) groups))
         (members (map (lambda (g) (sort (group-ranks g) <)) tops))
         (hows (if (pair? coordinator) coordinator (list coordinator)))
         (trees
          (or trees
              (let* ((c0 (pick-coordinator 'exchange-closure (car hows) (car members) 0))
                     (whole (hierarchical-tree tops c0
                                               #:shapes (cons 'flat
                                                              (shape-list 'exchange-closure
                                                                          shapes))
                                               #:coordinator hows)))
                (map (lambda (ms) (local-tree whole ms)) members)))))
    (make-exchange-closure 'allreduce members trees
     (non-negative-integer 'exchange-closure "#:segsize" segsize) #f)))

;; #t when combining the partials in group order is rank order: the groups, in order, are
;; consecutive ranges of ranks, and every local tree is ordered (tree-ordered?).
(define (exchange-ordered? desc)
  (let ((groups (exchange-closure-groups desc))
        (trees (exchange-closure-trees desc)))
    (and (equal? (apply append groups) (iota (length (apply append groups))))
         (let all ((ts trees))
           (or (null? ts) (and (tree-ordered? (car ts)) (all (cdr ts))))))))

;; Serves allreduce with (exchange-closure GROUPS ...) over the top-level groups of
;; TOPOLOGY; passes every other kind to `next', and non-commutative ops too unless
;; exchange-ordered?.  #:ranks as for hierarchical-creator.
(define* (allreduce-exchange-creator topology #:key (shapes '(binomial)) (coordinator 'lowest)
                                     (segsize #f) (ranks library-call-ranks))
  (check-topology 'allreduce-exchange-creator topology)
  (shape-list 'allreduce-exchange-creator shapes)
  (let ((groups-of (grouper topology ranks)))
    (define (allreduce-exchange call next)
      (if (and (not (call-inter? call)) (eq? (call-kind call) 'allreduce))
          (let ((desc (exchange-closure (groups-of call) #:shapes shapes
                                        #:coordinator coordinator #:segsize segsize)))
            (if (or (call-commutative? call) (exchange-ordered? desc))
                desc
                (next call)))
          (next call)))
    allreduce-exchange))

(define* (install-allreduce-exchange! topology #:key (shapes '(binomial)) (coordinator 'lowest)
                                      (segsize #f))
  (install-creator! 'allreduce
                    (allreduce-exchange-creator topology #:shapes shapes
                                                #:coordinator coordinator #:segsize segsize)))

;;; ---- lanes: cross first, then inside each group -----------------------------------------

;; The rounds of a recursive-doubling allreduce of N elements among K positions (this
;; rank is position J), REAL turning a position into a rank, in RECV with TMP as scratch:
;; positions past the largest power of two fold into their neighbours first and get the
;; result back last, and each reduce puts the lower positions' block on the left.  Every
;; K gives the same number of rounds to every position.
(define (doubling-rounds j k real n tmp)
  (let* ((p2 (let up ((p 1)) (if (> (* 2 p) k) p (up (* 2 p)))))
         (rem (- k p2))
         (new (cond ((>= j (* 2 rem)) (- j rem))
                    ((odd? j) (quotient j 2))
                    (else #f)))
         (old (lambda (nj) (if (< nj rem) (+ (* 2 nj) 1) (+ nj rem)))))
    (define (exchange pj)
      (let ((peer (real pj)))
        `((send ,peer recv 0 ,n)
          (recv ,peer ,tmp 0 ,n)
          ,@(if (< pj j)
                `((reduce ,tmp 0 recv 0 ,n))
                `((reduce recv 0 ,tmp 0 ,n) (copy ,tmp 0 recv 0 ,n))))))
    (define (fold-round send-to recv-from)
      (cond ((= rem 0) '())
            ((>= j (* 2 rem)) '(()))
            ((even? j) (list (send-to (real (+ j 1)))))
            (else (list (recv-from (real (- j 1)))))))
    (append
     (fold-round (lambda (peer) `((send ,peer recv 0 ,n)))
                 (lambda (peer) `((recv ,peer ,tmp 0 ,n) (reduce ,tmp 0 recv 0 ,n))))
     (let loop ((mask 1) (acc '()))
       (if (>= mask p2)
           (reverse acc)
           (loop (* 2 mask) (cons (if new (exchange (old (logxor new mask))) '()) acc))))
     (fold-round (lambda (peer) `((recv ,peer recv 0 ,n)))
                 (lambda (peer) `((send ,peer recv 0 ,n)))))))

;; (lanes-schedule GROUPS): the lanes allreduce over the top-level groups of GROUPS (as
;; topology-groups returns them), a (schedule 'allreduce ...); #f when the groups are not
;; all of one size.  Position j of a group is its j-th lowest rank.  Scratch buffer g
;; holds group g's vector of this lane (this rank's own copied there), buffer m (the
;; number of groups) the recursive doubling's; each lane adds its vectors in group order,
;; so every rank of a lane computes the same bits, and so does every lane's pair in the
;; doubling (a op b and b op a, for a commutative op).
(define (lanes-schedule groups)
  (let* ((tops (if (= (groups-depth groups) 0) (list groups) groups))
         (members (list->vector (map (lambda (g) (list->vector (sort (group-ranks g) <)))
                                     tops)))
         (m (vector-length members))
         (k (vector-length (vector-ref members 0))))
    (and (let same ((g 1)) (or (= g m) (and (= (vector-length (vector-ref members g)) k)
                                            (same (+ g 1)))))
         (let ((where (make-vector (* m k) #f)))
           (do ((g 0 (+ g 1))) ((= g m))
             (do ((j 0 (+ j 1))) ((= j k))
               (vector-set! where (vector-ref (vector-ref members g) j) (cons g j))))
           (schedule
            'allreduce (simple-format #f "lanes-~Ax~A" m k)
            (lambda (rank size n)
              (let* ((g (car (vector-ref where rank)))
                     (j (cdr (vector-ref where rank)))
                     (slot (lambda (h) `(scratch ,h)))
                     (lane (lambda (h) (vector-ref (vector-ref members h) j)))
                     (others (filter (lambda (h) (not (= h g))) (iota m))))
                `((scratch ,@(make-list (+ m 1) n))
                  (,@(map (lambda (h) `(send ,(lane h) send 0 ,n)) others)
                   ,@(map (lambda (h) `(recv ,(lane h) ,(slot h) 0 ,n)) others)
                   (copy send 0 ,(slot g) 0 ,n)
                   (copy ,(slot 0) 0 recv 0 ,n)
                   ,@(map (lambda (h) `(reduce ,(slot h) 0 recv 0 ,n)) (cdr (iota m))))
                  ,@(doubling-rounds j k (lambda (pj) (vector-ref (vector-ref members g) pj))
                                     n (slot m))))))))))

;; Serves allreduce with (lanes-schedule GROUPS) over the top-level groups of TOPOLOGY,
;; in every mode; passes every other kind to `next', as well as non-commutative ops,
;; intercommunicators and groups of unequal sizes.  #:ranks as for hierarchical-creator.
(define* (allreduce-lanes-creator topology #:key (ranks library-call-ranks))
  (check-topology 'allreduce-lanes-creator topology)
  (let ((groups-of (grouper topology ranks)))
    (define (allreduce-lanes call next)
      (or (and (eq? (call-kind call) 'allreduce) (not (call-inter? call))
               (call-commutative? call)
               (lanes-schedule (groups-of call)))
          (next call)))
    allreduce-lanes))

(define (install-allreduce-lanes! topology)
  (install-creator! 'allreduce (allreduce-lanes-creator topology)))

;;; ---- collective file access -------------------------------------------------------------

;; The PER-GROUP lowest ranks of each top-level group of GROUPS (as topology-groups
;; returns them), ascending: the aggregators of two-phase I/O.
(define (topology-aggregators groups per-group)
  (let ((tops (if (= (groups-depth groups) 0) (list groups) groups)))
    (sort (apply append
                 (map (lambda (g)
                        (let ((ms (sort (group-ranks g) <)))
                          (list-head ms (min per-group (length ms)))))
                      tops))
          <)))

;; Serves file-write and file-read with the aggregators TOPOLOGY gives
;; (topology-aggregators), the rest from the hints as the defaults do
;; (file-access-choice of (compi defaults): romio_cb_write / romio_cb_read,
;; cb_buffer_size); passes every other kind to `next'.  #:ranks as for
;; hierarchical-creator.
(define* (file-aggregator-creator topology #:key (per-group 1) (ranks library-call-ranks))
  (check-topology 'file-aggregator-creator topology)
  (unless (and (exact-integer? per-group) (> per-group 0))
    (scm-error 'wrong-type-arg 'file-aggregator-creator
               "#:per-group must be a positive integer, got: ~S" (list per-group) (list per-group)))
  (let ((groups-of (grouper topology ranks)))
    (define (file-aggregators call next)
      (if (memq (call-kind call) '(file-write file-read))
          (file-access-choice call (topology-aggregators (groups-of call) per-group))
          (next call)))
    file-aggregators))

(define* (install-file-aggregators! topology #:key (per-group 1))
  (let ((creator (file-aggregator-creator topology #:per-group per-group)))
    (install-creator! 'file-write creator)
    (install-creator! 'file-read creator)))
