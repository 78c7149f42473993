;;; (compi trees) -- trees as plain values: for every rank of a communicator, its parent
;;; and its ordered children.  Creators build them (with the builders below, or any shape
;;; they like through make-tree) and hand them to the tree executors; the bridge converts
;;; a tree to C by reading tree-size, tree-root, tree-parents and each rank's
;;; tree-children, so those accessors are the stable interface.
;;;
;;;   binomial, 8 ranks, root 0:      0            (binomial-tree 8 0)
;;;                                 / | \
;;;                                4  2  1         children served largest subtree first
;;;                               / \  \
;;;                              6   5  3
;;;                              |
;;;                              7
;;;
;;; Trees over groups (hierarchical-tree, magpie-tree) take the nested lists of ranks that
;;; topology-groups of (compi topology) returns, so they too are testable without MPI.
;;;
;;; A tree is printable (tree->list, tree-draw), checkable (tree-validate raises an error
;;; naming the problem) and testable without MPI.  The builders, the checks and the
;;; drawing are C (topologies/tree.c, tree_draw.c), reached through the primitives of
;;; scheme/tree_ext.c: see "the C side" below.  Loaded by MPI_Init, so it uses nothing but
;;; (guile): no (ice-9 ...), no srfi.

(define-module (compi trees)
  #:export (make-tree
            tree?
            tree-size
            tree-root
            tree-parent
            tree-children
            tree-parents
            tree-depth
            tree-validate
            tree-ordered?
            tree->list
            flat-tree
            binomial-tree
            kary-tree
            chain-tree
            in-order-binomial-tree
            knomial-tree
            tree-draw
            hierarchical-tree
            magpie-tree
            wan-edges
            groups-depth
            ;; not for configs: for (compi private) and (compi hierarchy)
            %compi-primitive
            pick-coordinator))

;; size and root: integers; parents: a vector (-1 for the root); children: a vector of
;; each rank's children, as lists in the order they are served.  (Records through the
;; core procedural API, as scheme/compi.scm does: (srfi srfi-9) would be one more module
;; to load at start-up.)
(define <tree> (make-record-type 'tree '(size root parents children)))
(define %make-tree (record-constructor <tree>))
(define tree? (record-predicate <tree>))
(define tree-size (record-accessor <tree> 'size))
(define tree-root (record-accessor <tree> 'root))
(define tree-parents (record-accessor <tree> 'parents))
(define %tree-children (record-accessor <tree> 'children))

(define (tree-error who fmt . args)
  (scm-error 'invalid-tree who fmt args #f))

(define (check-tree who t)
  (if (not (tree? t))
      (scm-error 'wrong-type-arg who "not a tree: ~S" (list t) (list t))))

(define (check-rank who t r)
  (check-tree who t)
  (if (not (and (exact-integer? r) (>= r 0) (< r (tree-size t))))
      (scm-error 'out-of-range who "rank ~S is outside 0..~A"
                 (list r (- (tree-size t) 1)) (list r))))

(define (tree-parent t r)
  (check-rank 'tree-parent t r)
  (vector-ref (tree-parents t) r))

(define (tree-children t r)
  (check-rank 'tree-children t r)
  (vector-ref (%tree-children t) r))

(define (in-range? x n)
  (and (exact-integer? x) (>= x 0) (< x n)))

;; (make-tree size root parents [children-order]): parents is a vector or list with one
;; entry per rank (-1 for the root).  The children of each rank are listed in the order
;; their ranks appear in children-order (a list or vector: a permutation of the ranks),
;; by default ascending rank.  Nothing is validated here but the types: a tree with a
;; cycle or a missing rank can be built, printed, and given to tree-validate.
(define* (make-tree size root parents #:optional (children-order #f))
  (if (not (and (exact-integer? size) (> size 0)))
      (scm-error 'wrong-type-arg 'make-tree "size must be a positive integer, not ~S"
                 (list size) (list size)))
  (if (not (exact-integer? root))
      (scm-error 'wrong-type-arg 'make-tree "root must be an integer, not ~S"
                 (list root) (list root)))
  (let ((pv (cond ((vector? parents) (vector-copy parents))
                  ((list? parents) (list->vector parents))
                  (else (scm-error 'wrong-type-arg 'make-tree
                                   "parents must be a vector or a list, not ~S"
                                   (list parents) (list parents)))))
        (order (cond ((not children-order) (iota size))
                     ((vector? children-order) (vector->list children-order))
                     ((list? children-order) children-order)
                     (else (scm-error 'wrong-type-arg 'make-tree
                                      "children-order must be a list or a vector, not ~S"
                                      (list children-order) (list children-order)))))
        (children (make-vector size '())))
    ;; walk the order backwards and cons, so each list comes out in order
    (for-each (lambda (r)
                (if (and (in-range? r (vector-length pv)) (in-range? r size))
                    (let ((p (vector-ref pv r)))
                      (if (in-range? p size)
                          (vector-set! children p (cons r (vector-ref children p)))))))
              (reverse order))
    (%make-tree size root pv children)))

;; ---- the C side -------------------------------------------------------------------
;; Validation, depth, order, the builders and the drawing are topologies/tree.c and
;; tree_draw.c, as the primitives of scheme/tree_ext.c, so a tree is checked with the
;; words the library uses and every shape exists once.  Inside the MPI library (and
;; compi-tree) the bridge has registered them as the extension "compi-trees", so
;; load-extension finds them in the program; under plain guile it opens compi-trees.so,
;; from GUILE_EXTENSIONS_PATH (the tests point it at the build tree), Guile's extension
;; directory, or beside the compiled modules, where compi installs it ($(pkglibdir)/scheme,
;; the directory of compi/trees.go).  Loaded on first use, into a module of their own.
(define %c #f)

;; Where an installed or built compi keeps compi-trees.so: beside compi/trees.go
;; ($(pkglibdir)/scheme), or in its .libs (the build tree's scheme/)
(define (extension-candidates)
  (let each ((dirs %load-compiled-path))
    (cond ((null? dirs) '())
          ((file-exists? (string-append (car dirs) "/compi/trees.go"))
           (cons* (string-append (car dirs) "/compi-trees")
                  (string-append (car dirs) "/.libs/compi-trees")
                  (each (cdr dirs))))
          (else (each (cdr dirs))))))

;; loads the extension named LIB: #t, or #f when it cannot be found or opened
(define (load-c-from lib)
  (catch #t
    (lambda () (load-extension lib "bridge_trees_init") #t)
    (lambda _ #f)))

(define (load-c)
  (let ((m (make-module)))
    (save-module-excursion
     (lambda ()
       (set-current-module m)
       (or (load-c-from "compi-trees")
           (let try ((libs (extension-candidates)))
             (cond ((null? libs)
                    ;; again, to raise Guile's own error: it names what was looked for
                    (load-extension "compi-trees" "bridge_trees_init"))
                   ((load-c-from (car libs)) #t)
                   (else (try (cdr libs))))))))
    (set! %c m)
    m))

(define (c name)
  (module-ref (or %c (load-c)) name))

;; The C primitive NAME of compi-trees (loaded as above): (compi private) takes the
;; collective kinds from it, %collective-kinds.
(define (%compi-primitive name) (c name))

;; (tree-validate t [size root]): returns t when every rank appears exactly once (the
;; root with parent -1, every other rank once as a child of its parent) and there is no
;; cycle; with size and root, also that the tree fits the call.  Otherwise raises an
;; 'invalid-tree error whose message names the problem ("rank 5 has parent 9, outside
;; 0..7", "ranks 3 and 4 form a cycle", ...): topo_tree_validate's.
(define* (tree-validate t #:optional (size #f) (root #f))
  (check-tree 'tree-validate t)
  (let ((why ((c '%tree-validate) (tree-size t) (tree-root t) (tree-parents t)
              (%tree-children t) (or size (tree-size t)) (or root (tree-root t)))))
    (if (string? why)
        (tree-error 'tree-validate "~A" why))
    t))

;; a C query of a valid tree: its answer, or the validation's message raised
(define (valid-query who name t)
  (check-tree who t)
  (let ((v ((c name) (tree-size t) (tree-root t) (tree-parents t) (%tree-children t))))
    (if (string? v)
        (tree-error who "~A" v)
        v)))

;; The depth (the root alone: 0).  An invalid tree raises as tree-validate does.
(define (tree-depth t)
  (valid-query 'tree-depth '%tree-depth t))

;; #t when every subtree covers a contiguous range of ranks: what a reduction with a
;; non-commutative op needs to combine in rank order (core/coll/executors/tree_exec_sched.c).
(define (tree-ordered? t)
  (valid-query 'tree-ordered? '%tree-ordered? t))

;; (tree-draw t [#:from RANK] [#:labels V] [#:marks V]): the text compi-tree prints, one
;; line a rank, children indented under their parent in serving order: "RANK (LABEL)MARK".
;; V: a vector of a string or #f per rank.  Draws the subtree of FROM (the root by
;; default); t need not be valid (a forest drawn root by root, say).
(define* (tree-draw t #:key (from (tree-root t)) (labels #f) (marks #f))
  (check-tree 'tree-draw t)
  ((c '%tree-draw) (tree-size t) (tree-root t) (tree-parents t) (%tree-children t) from
   labels marks))

;; (tree SIZE ROOT ((RANK PARENT (CHILD ...)) ...)), for printing and comparing
(define (tree->list t)
  (check-tree 'tree->list t)
  (list 'tree (tree-size t) (tree-root t)
        (map (lambda (r)
               (list r (vector-ref (tree-parents t) r) (vector-ref (%tree-children t) r)))
             (iota (tree-size t)))))

;; ---- builders ---------------------------------------------------------------------
;; topologies/tree.c builds them (the shapes and child orders the library's C uses);
;; here only the arguments are checked.

(define (check-size-root who size root)
  (if (not (and (exact-integer? size) (> size 0)))
      (scm-error 'wrong-type-arg who "size must be a positive integer, not ~S"
                 (list size) (list size)))
  (if (not (in-range? root size))
      (scm-error 'out-of-range who "root ~S is outside 0..~A" (list root (- size 1))
                 (list root))))

;; the tree topologies/tree.c builds
(define (c-tree shape size root k)
  (let ((pc ((c '%tree-build) shape size root k)))
    (%make-tree size root (car pc) (cdr pc))))

(define* (kary-tree size root #:optional (k 2))
  (check-size-root 'kary-tree size root)
  (if (not (and (exact-integer? k) (>= k 1)))
      (scm-error 'wrong-type-arg 'kary-tree "k must be an integer >= 1, not ~S"
                 (list k) (list k)))
  (c-tree 'kary size root k))

(define (flat-tree size root)
  (check-size-root 'flat-tree size root)
  (c-tree 'flat size root 1))

(define (chain-tree size root)
  (check-size-root 'chain-tree size root)
  (c-tree 'chain size root 1))

;; the parent of relative rank i is i with its lowest set bit cleared; children are
;; served largest subtree first
(define (binomial-tree size root)
  (check-size-root 'binomial-tree size root)
  (c-tree 'binomial size root 1))

;; a binomial tree over the ranks in their own order, every subtree a contiguous range
;; of ranks (reduce's in-order-binomial algorithm: non-commutative ops)
(define (in-order-binomial-tree size root)
  (check-size-root 'in-order-binomial-tree size root)
  (c-tree 'in-order-binomial size root 1))

;; radix k: the parent of relative rank i is i with its lowest non-zero base-k digit
;; cleared (gather's knomial algorithm; k = 2 is the binomial shape)
(define* (knomial-tree size root #:optional (k 2))
  (check-size-root 'knomial-tree size root)
  (if (not (and (exact-integer? k) (>= k 2)))
      (scm-error 'wrong-type-arg 'knomial-tree "k must be an integer >= 2, not ~S"
                 (list k) (list k)))
  (c-tree 'knomial size root k))

;; ---- trees over groups -------------------------------------------------------------
;; GROUPS are nested lists of ranks, every leaf at the same depth: ((0 1) (2 3)) is one
;; level of grouping, (((0 1) (2)) ((3 4))) two.  A plain list of ranks is depth 0.
;;
;;   (hierarchical-tree '((0 1 2) (3 4 5) (6 7 8)) 4 #:shapes '(flat binomial))
;;
;;        4                  level 0 (between groups): flat among the coordinators 4, 0, 6
;;      / | \                (4 is the call's root, so it coordinates its own group)
;;     0  6  3               level 1 (inside groups): binomial from each coordinator
;;    / \  \   \
;;   2   1  8   5            every rank of a group below its coordinator, no edge between
;;          |                groups but those from one coordinator to another
;;          7
;;
;; A coordinator serves the children of its outermost level first: the slow links start
;; carrying data before the fast ones.

;; the number of grouping levels of GROUPS (0 for a plain list of ranks)
(define (groups-depth groups)
  (if (not (and (list? groups) (pair? groups)))
      (scm-error 'wrong-type-arg 'groups-depth "not a non-empty list of groups: ~S"
                 (list groups) (list groups)))
  (let loop ((g groups) (d 0))
    (cond ((and (pair? g) (exact-integer? (car g))) d)
          ((and (pair? g) (list? (car g))) (loop (car g) (+ d 1)))
          (else (scm-error 'wrong-type-arg 'groups-depth "not a group of ranks: ~S"
                           (list g) (list g))))))

(define (group-members g)
  (if (exact-integer? g) (list g) (apply append (map group-members g))))

;; level L of a per-level list: the last entry serves the deeper levels
(define (per-level xs level)
  (if (or (null? (cdr xs)) (= level 0)) (car xs) (per-level (cdr xs) (- level 1))))

(define (shape-tree who shape size root)
  (let ((t (cond ((eq? shape 'flat) (flat-tree size root))
                 ((eq? shape 'binomial) (binomial-tree size root))
                 ((eq? shape 'chain) (chain-tree size root))
                 ((eq? shape 'kary) (kary-tree size root 2))
                 ((eq? shape 'in-order-binomial) (in-order-binomial-tree size root))
                 ((eq? shape 'knomial) (knomial-tree size root 2))
                 ((and (list? shape) (= (length shape) 2) (eq? (car shape) 'kary))
                  (kary-tree size root (cadr shape)))
                 ((and (list? shape) (= (length shape) 2) (eq? (car shape) 'knomial))
                  (knomial-tree size root (cadr shape)))
                 ((procedure? shape) (shape size root))
                 (else (scm-error 'wrong-type-arg who
                                  (string-append "unknown shape ~S (flat, binomial, chain, kary, "
                                                 "(kary K), in-order-binomial, knomial, "
                                                 "(knomial K), or a procedure (size root) -> tree)")
                                  (list shape) (list shape))))))
    (tree-validate t size root)))

(define (pick-coordinator who how members level)
  (let ((c (cond ((eq? how 'lowest) (apply min members))
                 ((eq? how 'highest) (apply max members))
                 ((procedure? how) (how members level))
                 (else (scm-error 'wrong-type-arg who
                                  (string-append "unknown coordinator ~S (lowest, highest, or "
                                                 "a procedure (ranks level) -> rank)")
                                  (list how) (list how))))))
    (if (not (memv c members))
        (scm-error 'out-of-range who "coordinator ~S of level ~A is not a rank of its group ~S"
                   (list c level members) (list c)))
    c))

;; (hierarchical-tree GROUPS ROOT #:shapes SHAPES #:coordinator HOW): SHAPES gives, per
;; level (0: between top-level groups, ..., depth: inside the innermost groups), flat,
;; binomial, chain, kary (binary), (kary K), in-order-binomial, knomial (radix 2),
;; (knomial K) or a procedure (size root) -> tree; the last
;; one serves the deeper levels.  HOW picks each group's coordinator: lowest (default),
;; highest, a procedure (ranks level) -> rank, or a list of those per level.  The root
;; always coordinates every group it is in.
(define* (hierarchical-tree groups root #:key (shapes '(binomial)) (coordinator 'lowest))
  (let* ((depth (groups-depth groups))
         (all (sort (group-members groups) <))
         (n (length all))
         (shapes (if (and (pair? shapes)
                          (not (and (memq (car shapes) '(kary knomial)) (pair? (cdr shapes))
                                    (exact-integer? (cadr shapes)))))
                     shapes
                     (list shapes)))
         (hows (if (pair? coordinator) coordinator (list coordinator)))
         (parents (make-vector n -1))
         (order '()))
    (if (null? shapes)
        (scm-error 'wrong-type-arg 'hierarchical-tree "#:shapes must name at least one shape"
                   '() #f))
    (let check ((rs all) (i 0))
      (if (pair? rs)
          (if (= (car rs) i)
              (check (cdr rs) (+ i 1))
              (scm-error 'wrong-type-arg 'hierarchical-tree
                         "the groups must hold ranks 0..~A once each; ~A"
                         (list (- n 1) (if (< (car rs) i)
                                           (simple-format #f "rank ~A appears twice" (car rs))
                                           (simple-format #f "rank ~A is missing" i)))
                         (list groups)))))
    (check-size-root 'hierarchical-tree n root)
    ;; NODE: a group of level LEVEL (its units are groups of level LEVEL+1, or ranks when
    ;; LEVEL = DEPTH); COORD: the rank that coordinates it
    (let build ((node groups) (coord root) (level 0))
      (let* ((leaf? (= level depth))
             (units (if (and (list? node) (pair? node))
                        node
                        (scm-error 'wrong-type-arg 'hierarchical-tree
                                   "empty or malformed group ~S at level ~A" (list node level)
                                   (list groups))))
             (members (map (lambda (u)
                             (if (if leaf? (exact-integer? u) (and (list? u) (pair? u)))
                                 (group-members u)
                                 (scm-error 'wrong-type-arg 'hierarchical-tree
                                            "group ~S: every leaf must be at depth ~A"
                                            (list node depth) (list groups))))
                           units))
             (coords (map (lambda (ms)
                            (if (or leaf? (memv coord ms))
                                (if leaf? (car ms) coord)
                                (pick-coordinator 'hierarchical-tree (per-level hows level)
                                                  ms level)))
                          members))
             (cv (list->vector coords))
             (m (vector-length cv))
             (shape (shape-tree 'hierarchical-tree (per-level shapes level) m
                                (let find ((cs coords) (i 0))
                                  (if (= (car cs) coord) i (find (cdr cs) (+ i 1)))))))
        (do ((u 0 (+ u 1))) ((= u m))
          (for-each (lambda (c)
                      (vector-set! parents (vector-ref cv c) (vector-ref cv u))
                      (set! order (cons (vector-ref cv c) order)))
                    (tree-children shape u)))
        (if (not leaf?)
            (for-each (lambda (u c) (build u c (+ level 1))) units coords))))
    (make-tree n root parents (cons root (reverse order)))))

;; (magpie-tree GROUPS ROOT): the root sends straight to the coordinator (lowest rank) of
;; every other top-level group, so each wide-area link is crossed once per direction;
;; each group finishes with a binomial tree (Kielmann et al., "MagPIe", PPoPP 1999).
;; Deeper levels of GROUPS are ignored.
(define (magpie-tree groups root)
  (let ((top (if (= (groups-depth groups) 0)
                 (list groups)
                 (map (lambda (g) (sort (group-members g) <)) groups))))
    (hierarchical-tree top root #:shapes '(flat binomial))))

;; The number of edges of TREE between different top-level groups of GROUPS.
(define (wan-edges t groups)
  (check-tree 'wan-edges t)
  (let ((where (make-vector (tree-size t) #f)))
    (let mark ((gs (if (= (groups-depth groups) 0) (list groups) groups)) (k 0))
      (if (pair? gs)
          (begin
            (for-each (lambda (r) (if (in-range? r (tree-size t)) (vector-set! where r k)))
                      (group-members (car gs)))
            (mark (cdr gs) (+ k 1)))))
    (let count ((r 0) (acc 0))
      (if (= r (tree-size t))
          acc
          (let ((p (vector-ref (tree-parents t) r)))
            (count (+ r 1)
                   (if (and (in-range? p (tree-size t))
                            (not (eqv? (vector-ref where p) (vector-ref where r))))
                       (+ acc 1)
                       acc)))))))
