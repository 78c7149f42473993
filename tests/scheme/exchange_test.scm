;;; exchange_test.scm -- the exchange allreduce's Scheme side, with guile alone (no MPI),
;;; TAP on stdout:
;;;   - exchange-closure over random layouts (1 to 24 ranks, one to three levels, every
;;;     shape, lowest and highest coordinators): one group per top-level group, one valid
;;;     tree per group rooted at its coordinator, and together they are exactly the
;;;     hierarchical tree with a flat top level minus its edges between groups;
;;;   - the lowered record the bridge reads (the groups and trees as they are: the bridge
;;;     checks and maps them, tests/scheme/closures.sh);
;;;   - exchange-ordered? on contiguous and interleaved groups;
;;;   - a description for another kind fails naming the creator;
;;;   - the creator serves allreduce only, sends unordered non-commutative ops to `next';
;;;     examples/configs/exchange.scm loads and answers.
;;; Run by tests/scheme/exchange.sh.

(use-modules (compi) (compi trees) (compi topology) (compi hierarchy) (compi internal)
             ((compi private) #:select (exchange-closure-groups exchange-closure-trees)))

(load "check.scm")

(define groups-of exchange-closure-groups)
(define trees-of exchange-closure-trees)
;; the lowered record as #(exchange KIND GROUPS TREES SEGSIZE ORIGIN)
(define (lower desc call) (lowered->vector ((@ (compi internal) lower) desc call)))

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
  (expect-equal "lowered: kind, the groups and the trees as they are, segsize"
                (list (vector-ref v 0) (vector-ref v 1) (vector-ref v 2)
                      (eq? (vector-ref v 3) (trees-of known)) (vector-ref v 4))
                '(exchange 3 ((0 1 2) (3 4 5) (6 7)) #t 0))
  (report (string-contains (vector-ref v 5) "(exchange-closure allreduce 3 groups)")
          "lowered: the origin names the description" (vector-ref v 5)))
(expect-equal "a plain list of ranks is one group"
              (groups-of (exchange-closure '(0 1 2 3))) '((0 1 2 3)))
(let ((d (exchange-closure '((0 5 2) (3 4 1)) #:coordinator 'highest)))
  (expect-equal "highest coordinators, groups sorted"
                (list (groups-of d)
                      (map (lambda (g t) (list-ref g (tree-root t))) (groups-of d) (trees-of d))
                      (map (lambda (t) (tree-parents t)) (trees-of d)))
                '(((0 2 5) (1 3 4)) (5 4) (#(2 2 -1) #(2 2 -1)))))
(let ((d (exchange-closure '((0 1) (2 3)) #:trees (list (chain-tree 2 1) (flat-tree 2 0))
                           #:segsize 4096)))
  (expect-equal "#:trees replaces the built trees; #:segsize is lowered"
                (let ((v (lower d (allreduce-call 4))))
                  (list (map tree->list (vector-ref v 3)) (vector-ref v 4)))
                (list (map tree->list (list (chain-tree 2 1) (flat-tree 2 0))) 4096))
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
;; without its edges between top-level groups; else why
(define (exchange-problem d groups whole n coord)
  (let* ((tops (map group-ranks groups))
         (trees (trees-of d))
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
                       (else (ranks (+ r 1))))))))))

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

;; groups and trees that do not fit the call are refused by the bridge, naming the
;; creator (tests/scheme/closures.sh)
(expect-build-error "an exchange for a bcast is refused" 'bcast 4
                    (exchange-closure '((0 1) (2 3)))
                    "a closure for allreduce, not for bcast")
(let ((r (begin (install-creator! 'allreduce
                                  (lambda (call next) (profiling (exchange-closure '((0 1) (2))))))
                (build-closure-for (allreduce-call 3)))))
  (report (and (car r) (eq? (vector-ref (lowered->vector (cadr r)) 0) 'wrapper)
               (eq? (vector-ref (lowered->vector (cadr r)) 1) 'profiling)
               (eq? (vector-ref (vector-ref (lowered->vector (cadr r)) 2) 0) 'exchange))
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
