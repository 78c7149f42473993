;;; trees_test.scm -- (compi trees) with guile alone, TAP on stdout: the builders for
;;; sizes 1 to 33 and every root give valid trees (every rank exactly once) of the
;;; expected depth; make-tree orders children as asked; tree-validate names the problem
;;; of a tree with a missing rank, a duplicate, a cycle, a wrong root or size (the
;;; messages of topologies/tree.c, through the extension compi-trees.so); the in-order
;;; binomial and k-nomial shapes; tree-draw, the drawing compi-tree prints.
;;; Run by tests/scheme/trees.sh:
;;;   GUILE_EXTENSIONS_PATH=$top_builddir/scheme/.libs GUILE_AUTO_COMPILE=0 \
;;;     guile -L $top_srcdir/scheme -L $top_srcdir/topologies \
;;;     tests/scheme/trees_test.scm

(use-modules (compi trees))

(load "check.scm")

;; one wanted string, quoted alone in the diagnostic (check.scm's takes several)
(define (expect-error desc thunk want)
  (let ((msg (error-text thunk)))
    (report (and msg (string-contains msg want)) desc
            (simple-format #f "message ~S, expected it to contain ~S" msg want))))

;; every rank once: the root has parent -1, and the children lists hold every other rank
;; exactly once, under its parent
(define (each-rank-once? t)
  (let* ((n (tree-size t))
         (seen (make-vector n 0)))
    (vector-set! seen (tree-root t) 1)
    (do ((r 0 (+ r 1))) ((= r n))
      (for-each (lambda (c)
                  (if (= (tree-parent t c) r)
                      (vector-set! seen c (+ 1 (vector-ref seen c)))
                      (vector-set! seen c 99)))
                (tree-children t r)))
    (and (= (tree-parent t (tree-root t)) -1)
         (let loop ((r 0))
           (or (= r n) (and (= (vector-ref seen r) 1) (loop (+ r 1))))))))

(define (popcount i)
  (if (= i 0) 0 (+ (logand i 1) (popcount (ash i -1)))))

(define (ceil-log2 n)
  (let loop ((d 0)) (if (>= (ash 1 d) n) d (loop (+ d 1)))))

(define (binomial-depth n)
  (let loop ((i 0) (d 0)) (if (= i n) d (loop (+ i 1) (max d (popcount i))))))

;; smallest d with 1 + k + ... + k^d >= n, i.e. ceil(log_k(n(k-1)+1)) - 1
(define (kary-depth n k)
  (if (= k 1)
      (- n 1)
      (let loop ((full 1) (level 1) (d 0))
        (if (>= full n) d (loop (+ full (* level k)) (* level k) (+ d 1))))))

;; the most non-zero base-k digits of 0..n-1, each a level; at most ceil(log_k n) levels
;; of at most k-1 steps each: the depth is the largest digit sum of a rank below n
(define (digit-sum i k)
  (if (= i 0) 0 (+ (if (= (modulo i k) 0) 0 1) (digit-sum (quotient i k) k))))
(define (knomial-depth n k)
  (let loop ((i 0) (d 0)) (if (= i n) d (loop (+ i 1) (max d (digit-sum i k))))))

;; builder: (size root) -> tree; depth: (size root) -> expected depth, or #f: not checked
(define (check-builder name build depth)
  (do ((n 1 (+ n 1))) ((> n 33))
    (let loop ((root 0) (bad #f))
      (if (< root n)
          (let* ((t (build n root))
                 (problem
                  (cond ((error-text (lambda () (tree-validate t n root)))
                         => (lambda (m) (simple-format #f "root ~A: ~A" root m)))
                        ((not (each-rank-once? t))
                         (simple-format #f "root ~A: a rank is not there exactly once" root))
                        ((not (depth n root)) #f)
                        ((not (= (tree-depth t) (depth n root)))
                         (simple-format #f "root ~A: depth ~A, expected ~A" root
                                        (tree-depth t) (depth n root)))
                        (else #f))))
            (loop (+ root 1) (or bad problem)))
          (report (not bad) (simple-format #f "~A, ~A ranks, every root" name n) bad)))))

(check-builder "flat-tree" flat-tree (lambda (n root) (if (> n 1) 1 0)))
(check-builder "binomial-tree" binomial-tree (lambda (n root) (binomial-depth n)))
(check-builder "chain-tree" chain-tree (lambda (n root) (- n 1)))
(do ((k 1 (+ k 1))) ((> k 4))
  (check-builder (simple-format #f "kary-tree k=~A" k)
                 (lambda (n root) (kary-tree n root k))
                 (lambda (n root) (kary-depth n k))))

(report (let loop ((n 1))
          (or (> n 33) (and (<= (binomial-depth n) (ceil-log2 n)) (loop (+ n 1)))))
        "binomial depth is within ceil(log2 n)")

;; ---- shapes -------------------------------------------------------------------------
(report (equal? (tree->list (binomial-tree 8 0))
                '(tree 8 0 ((0 -1 (4 2 1)) (1 0 ()) (2 0 (3)) (3 2 ()) (4 0 (6 5))
                            (5 4 ()) (6 4 (7)) (7 6 ()))))
        "binomial-tree 8 0 is the classic shape, largest subtree served first"
        (tree->list (binomial-tree 8 0)))
(report (equal? (tree->list (binomial-tree 5 3))
                '(tree 5 3 ((0 3 (1)) (1 0 ()) (2 3 ()) (3 -1 (2 0 4)) (4 3 ()))))
        "binomial-tree 5 3 is the same shape rotated to root 3"
        (tree->list (binomial-tree 5 3)))
(report (equal? (tree-children (kary-tree 7 0 3) 0) '(1 2 3)) "kary-tree 7 0 3: root serves 1 2 3")
(report (equal? (tree-children (kary-tree 7 0) 1) '(3 4)) "kary-tree defaults to k = 2")
(report (equal? (map (lambda (r) (tree-parent (chain-tree 4 2) r)) '(0 1 2 3)) '(3 0 -1 2))
        "chain-tree 4 2 runs 2 -> 3 -> 0 -> 1"
        (map (lambda (r) (tree-parent (chain-tree 4 2) r)) '(0 1 2 3)))
(report (equal? (tree-children (flat-tree 5 4) 4) '(0 1 2 3))
        "flat-tree 5 4: the root serves everyone")
(report (and (tree-ordered? (binomial-tree 8 0)) (tree-ordered? (chain-tree 8 0))
             (not (tree-ordered? (kary-tree 7 0 2))) (not (tree-ordered? (binomial-tree 8 3))))
        "tree-ordered?: contiguous subtrees (non-commutative reductions)")

;; ---- the shapes of reduce's in-order-binomial and gather's knomial ----------------------
;; the depth from root 0 only: how another root joins the tree is the builder's choice
(check-builder "in-order-binomial-tree" in-order-binomial-tree
               (lambda (n root) (and (= root 0) (binomial-depth n))))
(do ((k 2 (+ k 1))) ((> k 4))
  (check-builder (simple-format #f "knomial-tree k=~A" k)
                 (lambda (n root) (knomial-tree n root k))
                 (lambda (n root) (knomial-depth n k))))
(report (equal? (tree->list (in-order-binomial-tree 8 0))
                '(tree 8 0 ((0 -1 (1 2 4)) (1 0 ()) (2 0 (3)) (3 2 ()) (4 0 (5 6))
                            (5 4 ()) (6 4 (7)) (7 6 ()))))
        "in-order-binomial-tree 8 0: subtrees in rank order, smallest served first"
        (tree->list (in-order-binomial-tree 8 0)))
(report (let loop ((n 1)) (or (> n 33) (and (tree-ordered? (in-order-binomial-tree n 0))
                                            (loop (+ n 1)))))
        "in-order-binomial-tree n 0 is ordered for n = 1..33")
(report (equal? (tree->list (knomial-tree 9 0 3))
                '(tree 9 0 ((0 -1 (1 2 3 6)) (1 0 ()) (2 0 ()) (3 0 (4 5)) (4 3 ())
                            (5 3 ()) (6 0 (7 8)) (7 6 ()) (8 6 ()))))
        "knomial-tree 9 0 3: the drawing of gather/knomial.c"
        (tree->list (knomial-tree 9 0 3)))
(report (equal? (tree-parents (knomial-tree 9 4 3)) #(7 4 1 1 -1 4 4 4 7))
        "knomial-tree 9 4 3 is the same shape rotated to root 4"
        (tree-parents (knomial-tree 9 4 3)))
(expect-error "knomial-tree checks k" (lambda () (knomial-tree 4 0 1)) "k must be an integer >= 2")

;; ---- drawing ------------------------------------------------------------------------
(expect-equal "tree-draw: one rank a line, children indented in serving order"
              (tree-draw (binomial-tree 8 0))
              "0\n  4\n    6\n      7\n    5\n  2\n    3\n  1\n")
(expect-equal "tree-draw: labels and marks (flat from root 1 serves 2 then 0)"
              (tree-draw (flat-tree 3 1) #:labels #("a" #f "c") #:marks #(#f "  [WAN]" "!"))
              "1  [WAN]\n  2 (c)!\n  0 (a)\n")
(expect-equal "tree-draw #:from draws a subtree, or one tree of a forest"
              (list (tree-draw (chain-tree 4 0) #:from 2)
                    (tree-draw (make-tree 4 0 #(-1 0 -1 2)) #:from 2))
              '("2\n  3\n" "2\n  3\n"))
(expect-equal "tree-draw of a cyclic tree ends"
              (tree-draw (make-tree 3 0 #(-1 2 1) '(0 1 2)) #:from 1)
              "1\n  2\n")

;; ---- make-tree ----------------------------------------------------------------------
(let ((t (make-tree 5 0 '(-1 0 0 0 1) '(3 4 1 0 2))))
  (report (and (tree? t) (= (tree-size t) 5) (= (tree-root t) 0)
               (equal? (tree-parents t) #(-1 0 0 0 1))
               (equal? (tree-children t 0) '(3 1 2)) (equal? (tree-children t 1) '(4))
               (eq? (tree-validate t) t) (= (tree-depth t) 2))
          "make-tree: children in children-order, accessors, validate returns the tree"
          (tree->list t)))
(report (equal? (tree-children (make-tree 4 0 #(-1 0 0 0)) 0) '(1 2 3))
        "make-tree: children ascending by default")
(report (not (tree? '(tree 1 0 ()))) "tree? is false for a list")
(expect-error "tree-children checks the rank" (lambda () (tree-children (flat-tree 4 0) 4))
              "rank 4 is outside 0..3")
(expect-error "builders check the root" (lambda () (binomial-tree 4 4)) "root 4 is outside 0..3")
(expect-error "kary-tree checks k" (lambda () (kary-tree 4 0 0)) "k must be an integer >= 1")

;; ---- validation errors --------------------------------------------------------------
(expect-error "parent out of range"
              (lambda () (tree-validate (make-tree 8 0 #(-1 0 0 1 1 9 2 3))))
              "rank 5 has parent 9, outside 0..7")
(expect-error "a cycle of two"
              (lambda () (tree-validate (make-tree 6 0 #(-1 0 0 4 3 0))))
              "ranks 3 and 4 form a cycle")
(expect-error "a cycle of three"
              (lambda () (tree-validate (make-tree 6 0 #(-1 0 3 4 2 2))))
              "ranks 2, 3 and 4 form a cycle")
(expect-error "wrong root for the call"
              (lambda () (tree-validate (binomial-tree 8 2) 8 0))
              "the tree has root 2 but the call's root is 0")
(expect-error "wrong size for the communicator"
              (lambda () (tree-validate (binomial-tree 6 0) 8 0))
              "tree built for 6 ranks, communicator has 8")
(expect-error "a rank without a parent"
              (lambda () (tree-validate (make-tree 4 0 #(-1 0 -1 0))))
              "rank 2 has no parent but is not the root 0")
(expect-error "a rank that is its own parent"
              (lambda () (tree-validate (make-tree 4 0 #(-1 0 2 0))))
              "rank 2 is its own parent")
(expect-error "a root with a parent"
              (lambda () (tree-validate (make-tree 4 0 #(1 0 0 0))))
              "the root 0 has parent 1")
(expect-error "a missing rank (children-order leaves it out)"
              (lambda () (tree-validate (make-tree 4 0 #(-1 0 0 0) '(0 1 3))))
              "the children lists hold 2 entries, expected 3")
(expect-error "a rank too many (children-order names one twice)"
              (lambda () (tree-validate (make-tree 4 0 #(-1 0 0 0) '(0 1 1 2 3))))
              "the children lists hold 4 entries, expected 3")
(expect-error "a duplicate rank in place of another"
              (lambda () (tree-validate (make-tree 4 0 #(-1 0 0 0) '(0 1 1 3))))
              "rank 1 appears twice as a child")
(expect-error "a parent that is not a rank"
              (lambda () (tree-validate (make-tree 3 0 #(-1 0 x))))
              "rank 2 has parent x, outside 0..2")
(expect-error "tree-validate raises an invalid-tree error"
              (lambda () (catch 'invalid-tree
                           (lambda () (tree-validate (make-tree 3 0 #(-1 0 5))))
                           (lambda (key who fmt args . rest)
                             (error (apply simple-format #f fmt args)))))
              "rank 2 has parent 5, outside 0..2")
(expect-error "tree-ordered? refuses an invalid tree"
              (lambda () (tree-ordered? (make-tree 3 0 #(-1 2 1))))
              "ranks 1 and 2 form a cycle")
(expect-error "parents of the wrong length"
              (lambda () (tree-validate (make-tree 4 0 #(-1 0 0))))
              "the tree has 3 parents for 4 ranks")
(expect-error "tree-depth refuses a cycle instead of looping"
              (lambda () (tree-depth (make-tree 3 0 #(-1 2 1))))
              "ranks 1 and 2 form a cycle")
(expect-error "make-tree checks its types" (lambda () (make-tree 0 0 #()))
              "size must be a positive integer")

(tap-done)
