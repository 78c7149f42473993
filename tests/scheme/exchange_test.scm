;;; exchange_test.scm -- the exchange allreduce's Scheme side, with guile alone (no MPI),
;;; TAP on stdout:
;;;   - exchange-closure over random layouts (1 to 24 ranks, one to three levels, every
;;;     shape, lowest and highest coordinators): one group per top-level group, one valid
;;;     tree per group rooted at its coordinator, and together they are exactly the
;;;     hierarchical tree with a flat top level minus its edges between groups;
;;;   - the lowered vector tools read (the groups checked and mapped by the C the bridge
;;;     uses), for a known layout and for every random one (every rank in one group, a
;;;     parent in its own group or -1 at its coordinator);
;;;   - exchange-ordered? on contiguous and interleaved groups;
;;;   - descriptions that do not fit the call fail naming the creator and the problem;
;;;   - the creator serves allreduce only, sends unordered non-commutative ops to `next';
;;;     examples/configs/exchange.scm loads and answers.
;;; Run by tests/scheme/exchange.sh.

(use-modules (compi) (compi trees) (compi topology) (compi hierarchy) (compi internal)
             ((compi private) #:select (exchange-closure-groups exchange-closure-trees)))

(load "check.scm")

(define groups-of exchange-closure-groups)
(define trees-of exchange-closure-trees)
;; the lowered exchange as tools see it (lowered->vector): the groups mapped by C
(define (lower desc call) (lowered->vector ((@ (compi internal) lower) desc call) call))

(define (allreduce-call n . op)
  (make-call 'allreduce n 0 #f 64 'MPI_INT (if (pair? op) (car op) 'MPI_SUM)
             (not (pair? op)) "MPI_COMM_WORLD"))

;;; ---- a known layout ---------------------------------------------------------------------

;; clusters {0 1 2} {3 4 5} {6 7}, the first split in hosts {0 1} {2}: flat between host
;; coordinators, binomial inside hosts; the coordinators exchange
(define known (exchange-closure '(((0 1) (2)) ((3 4 5)) ((6 7))) #:shapes '(flat binomial)))
(expect-equal "exchange-closure: the groups, in order"
              (groups-of known) '((0 1 2) (3 4 5) (6 7)))
(expect-equal "exchange-closure: one tree per group over its positions"
              (map tree->list (trees-of known))
              '((tree 3 0 ((0 -1 (2 1)) (1 0 ()) (2 0 ())))
                (tree 3 0 ((0 -1 (2 1)) (1 0 ()) (2 0 ())))
                (tree 2 0 ((0 -1 (1)) (1 0 ())))))
(let ((v (lower known (allreduce-call 8))))
  (expect-equal "lowered: kind, size, groups, group of each rank, coordinators, parents, order"
                (list (vector-ref v 0) (vector-ref v 2) (vector-ref v 3) (vector-ref v 4)
                      (vector-ref v 5) (vector-ref v 6) (vector-ref v 7) (vector-ref v 8))
                '(exchange 8 3 #(0 0 0 1 1 1 2 2) #(0 3 6) #(-1 0 0 -1 3 3 -1 6)
                           #(0 2 1 3 5 4 6 7) 0))
  (report (string-contains (vector-ref v 9) "(exchange-closure allreduce 3 groups)")
          "lowered: the origin names the description" (vector-ref v 9)))
(expect-equal "a plain list of ranks is one group"
              (groups-of (exchange-closure '(0 1 2 3))) '((0 1 2 3)))
(let ((d (exchange-closure '((0 5 2) (3 4 1)) #:coordinator 'highest)))
  (expect-equal "highest coordinators, groups sorted; lowered parents"
                (vector-ref (lower d (allreduce-call 6)) 6) #(5 4 5 4 -1 -1)))
(let ((d (exchange-closure '((0 1) (2 3)) #:trees (list (chain-tree 2 1) (flat-tree 2 0))
                           #:segsize 4096)))
  (expect-equal "#:trees replaces the built trees; #:segsize is lowered"
                (let ((v (lower d (allreduce-call 4))))
                  (list (vector-ref v 5) (vector-ref v 6) (vector-ref v 8)))
                '(#(1 2) #(1 -1 -1 2) 4096))
  (expect-equal "description->string and description-kind"
                (list (description->string d) (description-kind d #f)
                      (closure-description? d) (exchange-closure? d))
                '("(exchange-closure allreduce 2 groups #:segsize 4096)" allreduce #t #t)))

;;; ---- random layouts ---------------------------------------------------------------------

(define rs (seed->random-state 20250107))
(define (rand n) (random n rs))

;; up to 4 clusters of up to 3 hosts, 2 NUMA nodes per host; ranks dealt at random
(define (random-facts n)
  (let ((clusters (+ 1 (rand 4))))
    (list->vector
     (map (lambda (i)
            (let ((c (rand clusters)) (h (rand 3)) (numa (rand 2)))
              (make-rank i (simple-format #f "c~A-h~A" c h)
                         (list (simple-format #f "10.~A.0.~A/24" (+ c 1) (+ h 1)))
                         (list 0 numa i) #t)))
          (iota n)))))

(define descriptions
  (list (by-subnet-prefix 16) (by-host) (by-block 3)
        (nested (by-subnet-prefix 16) (by-host))
        (nested (by-subnet-prefix 16) (by-host) (by-hwloc-level 'numa))))

(define shape-mixes '((binomial) (flat) (chain) ((kary 3)) (flat binomial) (chain flat)))

;; #f when D's trees, mapped to communicator ranks, are the hierarchical tree WHOLE
;; without its edges between top-level groups, and the lowered vector agrees; else why
(define (exchange-problem d groups whole n coord)
  (let* ((tops (map group-ranks groups))
         (trees (trees-of d))
         (v (lower d (allreduce-call n)))
         (parents (make-vector n 'none)))
    (or (and (not (equal? (groups-of d) tops))
             (simple-format #f "groups ~S, expected ~S" (groups-of d) tops))
        (let each ((gs tops) (ts trees))
          (and (pair? gs)
               (let* ((g (car gs)) (t (car ts)) (gv (list->vector g))
                      (coordinator (vector-ref gv (tree-root t)))
                      (want (if (eq? coord 'highest) (apply max g) (apply min g))))
                 (cond ((error-text (lambda () (tree-validate t (length g))))
                        => (lambda (m) (simple-format #f "group ~S: ~A" g m)))
                       ((not (= coordinator want))
                        (simple-format #f "group ~S coordinated by ~A, expected ~A" g
                                       coordinator want))
                       (else
                        (do ((i 0 (+ i 1))) ((= i (length g)))
                          (let ((p (tree-parent t i)))
                            (vector-set! parents (vector-ref gv i)
                                         (if (= p -1) -1 (vector-ref gv p)))))
                        (let ((kids (map (lambda (i)
                                           (map (lambda (c) (vector-ref gv c))
                                                (tree-children t i)))
                                         (iota (length g))))
                              (whole-kids (map (lambda (r)
                                                 (filter (lambda (c) (memv c g))
                                                         (tree-children whole r)))
                                               g)))
                          (if (equal? kids whole-kids)
                              (each (cdr gs) (cdr ts))
                              (simple-format #f "group ~S: children ~S, expected ~S" g kids
                                             whole-kids))))))))
        (let ranks ((r 0))
          (and (< r n)
               (let ((p (vector-ref parents r)) (wp (tree-parent whole r))
                     (same (lambda (a b) (equal? (find-group tops a) (find-group tops b)))))
                 (cond ((not (equal? p (if (and (>= wp 0) (same r wp)) wp -1)))
                        (simple-format #f "rank ~A has parent ~A, the whole tree ~A" r p wp))
                       ((not (equal? (vector-ref (vector-ref v 6) r) p))
                        (simple-format #f "lowered parent of ~A is ~A, expected ~A" r
                                       (vector-ref (vector-ref v 6) r) p))
                       ((not (eqv? (list-ref tops (vector-ref (vector-ref v 4) r))
                                   (find-group tops r)))
                        (simple-format #f "lowered group of ~A is wrong" r))
                       (else (ranks (+ r 1)))))))
        (and (not (equal? (sort (vector->list (vector-ref v 7)) <) (iota n)))
             (simple-format #f "lowered order ~S is not a permutation" (vector-ref v 7))))))

(define (find-group tops r)
  (let loop ((gs tops)) (if (memv r (car gs)) (car gs) (loop (cdr gs)))))

(define (check-random n)
  (let loop ((trial 0) (bad #f))
    (if (or bad (= trial 10))
        (report (not bad) (simple-format #f "exchange-closure, ~A ranks, random layouts" n) bad)
        (let* ((f (random-facts n))
               (d (list-ref descriptions (rand (length descriptions))))
               (groups (topology-groups d f))
               (shapes (list-ref shape-mixes (rand (length shape-mixes))))
               (coord (if (= (rand 3) 0) 'highest 'lowest))
               (tops (map group-ranks groups))
               (c0 (if (eq? coord 'highest) (apply max (car tops)) (apply min (car tops))))
               (whole (hierarchical-tree groups c0 #:shapes (cons 'flat shapes)
                                         #:coordinator coord))
               (ex (exchange-closure groups #:shapes shapes #:coordinator coord))
               (where (simple-format #f "~A shapes ~A coordinator ~A groups ~S"
                                     (topology->string d) shapes coord groups)))
          (loop (+ trial 1)
                (let ((m (exchange-problem ex groups whole n coord)))
                  (and m (string-append where ": " m))))))))

(do ((n 1 (+ n 1))) ((> n 24))
  (check-random n))

;;; ---- ordering ---------------------------------------------------------------------------

(report (and-map (lambda (shapes)
                   (exchange-ordered? (exchange-closure '(((0 1 2) (3 4)) ((5 6 7 8)) ((9)))
                                                        #:shapes shapes)))
                 '((binomial) (chain) (flat) ((kary 3)) (flat binomial)))
        "exchange-ordered?: contiguous groups, lowest coordinators, every shape")
(report (not (exchange-ordered? (exchange-closure '((0 2) (1 3)))))
        "exchange-ordered?: interleaved groups are not")
(report (not (exchange-ordered? (exchange-closure '((0 1 2)) #:trees
                                                  (list (make-tree 3 1 #(1 -1 0))))))
        "exchange-ordered?: a local tree whose subtree skips a rank is not")

;;; ---- descriptions that do not fit the call ------------------------------------------------

;; the real miss path: a creator answers, build-closure-for lowers, (#f . message) on error
(define (build-error kind n desc)
  (install-creator! kind (lambda (call next) desc))
  (let ((r (build-closure-for (make-call kind n 0 (if (eq? kind 'allreduce) #f 0) 64 'MPI_INT
                                         (and (eq? kind 'allreduce) 'MPI_SUM) #t "W"))))
    (if (car r) #f (cdr r))))

(define (expect-build-error desc kind n d . wants)
  (let ((msg (build-error kind n d)))
    (report (contains-all? msg wants) desc
            (simple-format #f "message ~S, expected it to contain ~S" msg wants))))

(define (two-trees) (list (flat-tree 2 0) (flat-tree 2 0)))
(expect-build-error "a rank in two groups" 'allreduce 3
                    (exchange-closure '((0 1) (1 2)) #:trees (two-trees))
                    "returned (exchange-closure allreduce 2 groups)"
                    "rank 1 is in groups 0 and 1" "(call: allreduce")
(expect-build-error "a rank in no group" 'allreduce 5
                    (exchange-closure '((0 1) (2 3)) #:trees (two-trees))
                    "rank 4 is in no group")
(expect-build-error "a rank outside the communicator" 'allreduce 3
                    (exchange-closure '((0 1) (2 7)) #:trees (two-trees))
                    "group 1 holds 7, not a rank of 0..2")
(expect-build-error "fewer trees than groups" 'allreduce 4
                    (exchange-closure '((0 1) (2 3)) #:trees (list (flat-tree 2 0)))
                    "1 trees for 2 groups")
(expect-build-error "a tree of the wrong size" 'allreduce 4
                    (exchange-closure '((0 1) (2 3)) #:trees (list (flat-tree 2 0)
                                                                   (flat-tree 3 0)))
                    "the tree of group 1 (2 3): tree built for 3 ranks")
(expect-build-error "a tree with a cycle" 'allreduce 5
                    (exchange-closure '((0 1) (2 3 4))
                                      #:trees (list (flat-tree 2 0)
                                                    (make-tree 3 0 #(-1 2 1))))
                    "the tree of group 1 (2 3 4)" "form a cycle")
(expect-build-error "not a tree" 'allreduce 2
                    (exchange-closure '((0 1)) #:trees '(42))
                    "42 is not a tree of (compi trees)")
(expect-build-error "an exchange for a bcast is refused" 'bcast 4
                    (exchange-closure '((0 1) (2 3)))
                    "a closure for allreduce, not for bcast")
(let ((r (begin (install-creator! 'allreduce
                                  (lambda (call next) (profiling (exchange-closure '((0 1) (2))))))
                (build-closure-for (allreduce-call 3)))))
  (report (and (car r) (eq? (vector-ref (cadr r) 0) 'profiling)
               (eq? (vector-ref (vector-ref (cadr r) 1) 0) 'exchange))
          "(profiling (exchange-closure ...)) lowers to a wrapped exchange"
          (simple-format #f "~S" r)))
(expect-error "#:shapes must name a shape" (lambda () (exchange-closure '((0) (1)) #:shapes '()))
              "#:shapes must name at least one shape")
(expect-error "an unknown shape is named" (lambda () (exchange-closure '((0 1) (2)) #:shapes 'star))
              "unknown shape star")
(expect-error "the creator checks its topology" (lambda () (allreduce-exchange-creator '(0 1)))
              "expects a topology description")

;;; ---- the creator ------------------------------------------------------------------------

;; three clusters {0 1 2 5} {3 4} {6}: not contiguous
(define facts
  (vector (make-rank 0 "node-a" '("10.1.0.1/24") #f #t)
          (make-rank 1 "node-a" '("10.1.0.1/24") #f #t)
          (make-rank 2 "node-b" '("10.1.0.2/24") #f #t)
          (make-rank 3 "node-c" '("10.2.0.1/24") #f #t)
          (make-rank 4 "node-c" '("10.2.0.1/24") #f #t)
          (make-rank 5 "node-a" '("10.1.0.1/24") #f #t)
          (make-rank 6 "gw-d" '("10.3.0.9/24") #f #t)))
(define (next c) 'next)
(define (call kind op commutative?)
  (make-call kind 7 0 (if (memq kind '(allreduce allgather barrier)) #f 0) 64 'MPI_INT op
             commutative? "MPI_COMM_WORLD"))
(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
(define ex (allreduce-exchange-creator clusters #:shapes '(flat binomial) #:segsize 8192
                                       #:ranks (lambda (c) facts)))
(let ((d (ex (call 'allreduce 'MPI_SUM #t) next)))
  (report (and (exchange-closure? d) (equal? (groups-of d) '((0 1 2 5) (3 4) (6)))
               (equal? (description->string d)
                       "(exchange-closure allreduce 3 groups #:segsize 8192)"))
          "the creator answers allreduce with an exchange over the clusters"
          (simple-format #f "got ~A" d)))
(report (and (eq? (ex (call 'bcast #f #t) next) 'next) (eq? (ex (call 'allgather #f #t) next) 'next)
             (eq? (ex (call 'reduce 'MPI_SUM #t) next) 'next))
        "the creator passes other kinds to next")
(report (eq? (ex (call 'allreduce 'user #f) next) 'next)
        "a non-commutative op over interleaved clusters goes to next")
(report (exchange-closure? ((allreduce-exchange-creator (by-block 3) #:ranks (lambda (c) facts))
                            (call 'allreduce 'user #f) next))
        "a non-commutative op over contiguous groups is served")
(expect-error "a topology that does not fit fails naming it"
              (lambda () ((allreduce-exchange-creator (by-subnets "10.1.0.0/24")
                                                      #:ranks (lambda (c) facts))
                          (call 'allreduce 'MPI_SUM #t) next))
              "topology (by-subnets \"10.1.0.0/24\")" "rank 3 (host node-c" "no group")

;; examples/configs/exchange.scm, loaded as the library loads configs, on twelve ranks of
;; three subnets
(define (twelve-ranks)
  (list->vector (map (lambda (i)
                       (make-rank i (simple-format #f "host~A" (quotient i 2))
                                  (list (simple-format #f "10.~A.0.~A/24"
                                                       (+ 1 (quotient i 4)) i))
                                  #f #f))
                     (iota 12))))
(let* ((top (or (getenv "top_srcdir") "."))
       (r (load-config (string-append top "/examples/configs/exchange.scm")))
       (c (make-call 'allreduce 12 0 #f 64 'MPI_DOUBLE 'MPI_SUM #t "MPI_COMM_WORLD"
                     (twelve-ranks)))
       (d (and (car r) (run-creators c))))
  (report (and (car r) (exchange-closure? d)
               (equal? (groups-of d) '((0 1 2 3) (4 5 6 7) (8 9 10 11))))
          "examples/configs/exchange.scm loads and builds an exchange over three clusters"
          (if (car r) (simple-format #f "got ~A" (description->string d)) (cdr r))))

(tap-done)
