;;; (compi tree-tool) -- what compi-tree prints (tools/compi_tree.c, docs/compi-tree.md):
;;; the closure the installed creators build for one call on a layout of hosts given on
;;; the command line, without MPI.
;;;
;;;   layout "a:2@10.1.0.0/24,b:2@10.2.0.0/24"      bcast root=0, as rank 0:
;;;     rank 0  host a  10.1.0.1/24                 0 (a 10.1.0.1)
;;;     rank 1  host a  10.1.0.2/24          -->      2 (b 10.2.0.1)  [WAN]
;;;     rank 2  host b  10.2.0.1/24                     3 (b 10.2.0.2)
;;;     rank 3  host b  10.2.0.2/24                   1 (a 10.1.0.2)
;;;
;;; The layout comes parsed by compi-tree's C side (core/runtime/layout.c, the parser of
;;; mpirun --layout and rte_layout too), as rank records and subnets (make-layout).  The
;;; C side has already built the call's closure as the library's miss path builds it
;;; (bridge_build_closure on a stand-in communicator: every check of the library, and
;;; the signature that coll_verbose prints), so every error is reported from there.
;;; Here the call is a make-call carrying the layout's rank records, so (call-ranks
;;; call) answers with them, and the closure description to draw comes from
;;; build-closure-for of (compi internal): the creator chain and the lowering the miss
;;; path runs; it is not checked again here (the C build has done that, once).

;;; The text drawing of a tree is tree-draw's (topologies/tree_draw.c); the Graphviz
;;; output (clusters per subnet and host, red WAN edges) is written here.
;;;
;;; The entry point answers (#t . text) or (#f . "message"), as (compi internal) does;
;;; it never raises.

(define-module (compi tree-tool)
  #:use-module (compi)
  #:use-module (compi trees)
  #:use-module (compi topology)
  #:use-module ((compi internal) #:select (build-closure-for))
  #:use-module (ice-9 exceptions)
  #:export (make-layout
            layout?
            layout-text
            layout-size
            layout-ranks
            layout-subnet
            tree-tool-render))

;;; ---- errors ---------------------------------------------------------------------------

;; An error of the tool's input or of the closure, raised as a 'compi-tree-error whose
;; message is complete.
(define (fail fmt . args)
  (scm-error 'compi-tree-error #f "~A" (list (apply simple-format #f fmt args)) #f))

(define (tool-error? e)
  (and (exception? e) (eq? (exception-kind e) 'compi-tree-error)))

;;; ---- layouts ---------------------------------------------------------------------------

;; A layout as compi-tree's C side parsed it (core/runtime/layout.c, the one parser of
;; the syntax, shared with mpirun --layout and rte_layout): its text; ranks, a vector of
;; rank records (make-rank), in order; subnets, per rank the subnet of its entry
;; ("10.1.0.0/24") or #f.
(define <layout> (make-record-type 'layout '(text ranks subnets)))
(define make-layout (record-constructor <layout>))
(define layout? (record-predicate <layout>))
(define layout-text (record-accessor <layout> 'text))
(define layout-ranks (record-accessor <layout> 'ranks))
(define %layout-subnets (record-accessor <layout> 'subnets))

(define (layout-size l) (vector-length (layout-ranks l)))
(define (layout-subnet l r) (vector-ref (%layout-subnets l) r))
(define (layout-host l r) (rank-host (vector-ref (layout-ranks l) r)))

;; Where a rank is for counting wide-area edges: its subnet, or its host when its entry
;; gave none.
(define (rank-site l r)
  (or (layout-subnet l r) (string-append "host " (layout-host l r))))

(define (sites-text l)
  (let ((with (let count ((r 0) (n 0))
                (if (= r (layout-size l)) n
                    (count (+ r 1) (if (layout-subnet l r) (+ n 1) n))))))
    (cond ((= with (layout-size l)) "between subnets")
          ((= with 0) "between hosts")
          (else "between subnets, or hosts where the layout gives no subnet"))))

(define (rank-label l r)
  (let ((addrs (rank-addresses (vector-ref (layout-ranks l) r))))
    (if (null? addrs)
        (layout-host l r)
        (string-append (layout-host l r) " "
                       (let ((a (car addrs))) (substring a 0 (string-index a #\/)))))))

;;; ---- the closure ----------------------------------------------------------------------

;; What the chain gave, from the lowered vectors of build-closure-for (their layout is
;; documented above `lower' in scheme/compi/internal.scm):
;;   #(native KIND "algo" FANOUT SEGSIZE ORIGIN)  #(tree KIND SIZE ROOT PARENTS ORDER SEGSIZE
;;   ORIGIN)  #(exchange KIND SIZE NGROUPS GROUP-OF COORDS PARENTS ORDER SEGSIZE ORIGIN)
;;   #(profiling INNER ORIGIN)  #(tracing INNER ORIGIN)  #(scheme KIND PROC "NAME"
;;   ORIGIN "OVER")
(define (lowered-tag v) (vector-ref v 0))
;; the origin is the last field, but for a Scheme closure (whose last is what it wraps)
(define (lowered-origin v)
  (vector-ref v (if (eq? (lowered-tag v) 'scheme) 4 (- (vector-length v) 1))))
(define (wrapper-tag? tag) (memq tag '(profiling tracing)))

(define (kind-name i) (list-ref collective-kinds i))

(define* (params-text fanout segsize #:optional (ranks '()))
  (string-append (if (> fanout 0) (simple-format #f " fanout=~A" fanout) "")
                 (if (> segsize 0) (simple-format #f " segsize=~A" segsize) "")
                 (if (pair? ranks)
                     (string-append " ranks=" (string-join (map number->string ranks) "+"))
                     "")))

;; "profiling(tree bcast segsize=65536)", "native allreduce ring", "scheme procedure f"
(define (closure-text v)
  (case (lowered-tag v)
    ((native) (string-append "native " (symbol->string (kind-name (vector-ref v 1))) " "
                             (vector-ref v 2)
                             (params-text (vector-ref v 3) (vector-ref v 4) (vector-ref v 5))))
    ((tree) (string-append "tree " (symbol->string (kind-name (vector-ref v 1)))
                           (params-text 0 (vector-ref v 6))))
    ((scheme) (string-append "scheme procedure " (vector-ref v 3)))
    ((schedule) (string-append "schedule " (symbol->string (kind-name (vector-ref v 1))) " "
                               (vector-ref v 2)))
    ((exchange) (string-append "exchange " (symbol->string (kind-name (vector-ref v 1)))
                               (simple-format #f " (~A groups)" (vector-ref v 3))
                               (params-text 0 (vector-ref v 8))))
    ((profiling tracing) (string-append (symbol->string (lowered-tag v)) "("
                                        (closure-text (vector-ref v 1)) ")"))
    (else (fail "internal error: a lowered description of no known kind: ~S" v))))

;; the innermost description, under the wrappers
(define (innermost v)
  (if (wrapper-tag? (lowered-tag v)) (innermost (vector-ref v 1)) v))

;; every origin, outermost first
(define (origins v)
  (cons (lowered-origin v)
        (if (wrapper-tag? (lowered-tag v)) (origins (vector-ref v 1)) '())))

;; The tree of a lowered #(tree ...): the children of each rank in the order it serves
;; them, as the C side rebuilds them from ORDER.
(define (lowered-tree v)
  (let ((parents (vector-ref v 4)) (order (vector-ref v 5)))
    (make-tree (vector-ref v 2) (vector-ref v 3) parents
               (filter (lambda (r) (>= r 0)) (vector->list order)))))

;; The local trees of a lowered #(exchange ...): (COORDS . CHILDREN), COORDS the groups'
;; coordinators in group order, CHILDREN a vector of each rank's children in serving
;; order (ORDER lists each group's coordinator, then every rank's children in turn).
(define (exchange-forest v)
  (let* ((size (vector-ref v 2)) (parents (vector-ref v 6)) (order (vector-ref v 7))
         (children (make-vector size '())))
    (do ((i (- size 1) (- i 1))) ((< i 0))
      (let* ((x (vector-ref order i)) (p (if (>= x 0) (vector-ref parents x) -1)))
        (when (>= p 0)
          (vector-set! children p (cons x (vector-ref children p))))))
    (cons (vector->list (vector-ref v 5)) children)))

;; build-closure-for's answer for CALL: (LOWERED . "call text").  compi-tree has built
;; the same call's closure in C first, with every check of the library, so what comes
;; here is valid; a failure is reported as the library words it.
(define (build call)
  (let ((r (build-closure-for call)))
    (unless (car r)
      (fail "~A" (cdr r)))
    (cdr r)))

;;; ---- text -----------------------------------------------------------------------------

;; pairs of coordinators on different sites
(define (exchange-wan-links l coords)
  (let loop ((cs coords) (n 0))
    (if (null? cs)
        n
        (loop (cdr cs)
              (+ n (length (filter (lambda (d) (not (equal? (rank-site l (car cs))
                                                            (rank-site l d))))
                                   (cdr cs))))))))

(define (wan? l t r)
  (let ((p (tree-parent t r)))
    (and (>= p 0) (not (equal? (rank-site l p) (rank-site l r))))))

(define (wan-count l t)
  (let loop ((r 0) (n 0))
    (if (= r (tree-size t)) n (loop (+ r 1) (if (wan? l t r) (+ n 1) n)))))

(define (plural n word)
  (simple-format #f "~A ~A~A" n word (if (= n 1) "" "s")))

(define (header-lines l call lowered rank signature)
  (append
   (list (simple-format #f "call: ~A, seen by rank ~A" (call->string call) rank)
         (string-append "layout: " (layout-text l))
         (string-append "closure: " (closure-text lowered)))
   (map (lambda (o) (string-append "  " o)) (origins lowered))
   (list (string-append "signature: " signature))))

;; The drawings are tree-draw's (topologies/tree_draw.c): each rank with its label, and
;; "  [WAN]" after a rank whose parent is on another site.
(define (rank-labels l)
  (let ((v (make-vector (layout-size l) #f)))
    (do ((r 0 (+ r 1))) ((= r (layout-size l)) v)
      (vector-set! v r (rank-label l r)))))

;; PARENTS: a vector of each rank's parent (-1 for a root)
(define (wan-marks l parents)
  (let ((v (make-vector (vector-length parents) #f)))
    (do ((r 0 (+ r 1))) ((= r (vector-length parents)) v)
      (let ((p (vector-ref parents r)))
        (when (and (>= p 0) (not (equal? (rank-site l p) (rank-site l r))))
          (vector-set! v r "  [WAN]"))))))

(define (text-tree l t port)
  (display (tree-draw t #:labels (rank-labels l) #:marks (wan-marks l (tree-parents t))) port))

(define (render-text l call lowered rank signature)
  (call-with-output-string
   (lambda (port)
     (for-each (lambda (line) (display line port) (newline port))
               (header-lines l call lowered rank signature))
     (let ((inner (innermost lowered)))
       (case (lowered-tag inner)
         ((tree)
          (let ((t (lowered-tree inner)))
            (text-tree l t port)
            (simple-format port "depth ~A, ~A (~A)\n" (tree-depth t)
                           (plural (wan-count l t) "WAN edge") (sites-text l))))
         ((exchange)
          (let* ((coords (car (exchange-forest inner)))
                 (parents (vector-ref inner 6)) (g (length coords)))
            (simple-format port "coordinators ~A exchange their partial results all-to-all\n"
                           (string-join (map number->string coords) ", "))
            ;; the forest of local trees, one drawing from each coordinator
            (let ((forest (make-tree (vector-length parents) (car coords) parents
                                     (filter (lambda (r) (>= r 0))
                                             (vector->list (vector-ref inner 7)))))
                  (labels (rank-labels l))
                  (marks (wan-marks l parents)))
              (for-each (lambda (c)
                          (display (tree-draw forest #:from c #:labels labels #:marks marks)
                                   port))
                        coords))
            (simple-format port "~A, ~A between coordinators (~A), each crossed once per \
direction\n"
                           (plural g "group")
                           (plural (exchange-wan-links l coords) "WAN link") (sites-text l))))
         ((native)
          (display "no tree: a native algorithm of core/coll runs this call \
(compi_info --algorithms)\n" port))
         ((schedule)
          (display "no tree: a schedule written in Scheme runs this call in C (checked \
for every rank when the library builds it)\n" port))
         (else
          (display "no tree: a Scheme procedure runs this call itself\n" port)))))))

;;; ---- Graphviz -------------------------------------------------------------------------

(define (dot-string s)
  (call-with-output-string
   (lambda (port)
     (write-char #\" port)
     (string-for-each (lambda (c)
                        (cond ((memv c '(#\" #\\)) (write-char #\\ port) (write-char c port))
                              ((char=? c #\newline) (display "\\n" port))
                              (else (write-char c port))))
                      s)
     (write-char #\" port))))

;; Clusters: one per subnet (first seen first), a cluster per host inside it; ranks
;; without a subnet sit in a cluster per host.  ((SUBNET-or-#f (HOST RANK ...) ...) ...)
(define (clusters l)
  ;; KEY's entry of TABLE, made (appended to ORDER, a box of the keys in reverse) if new
  (define (entry table order key make)
    (or (hash-ref table key)
        (let ((e (make)))
          (hash-set! table key e)
          (set-car! order (cons key (car order)))
          e)))
  (let ((sites (make-hash-table)) (site-order (list '())))
    ;; a site: (host-table . (host-order)), a host: (ranks in reverse)
    (do ((r 0 (+ r 1))) ((= r (layout-size l)))
      (let* ((site (entry sites site-order (layout-subnet l r)
                          (lambda () (cons (make-hash-table) (list '())))))
             (host (entry (car site) (cdr site) (layout-host l r) (lambda () (list '())))))
        (set-car! host (cons r (car host)))))
    (map (lambda (key)
           (let ((site (hash-ref sites key)))
             (cons key (map (lambda (h) (cons h (reverse (car (hash-ref (car site) h)))))
                            (reverse (cadr site))))))
         (reverse (car site-order)))))

(define (dot-node l r root port indent)
  (let ((addrs (rank-addresses (vector-ref (layout-ranks l) r))))
    (simple-format port "~Ar~A [label=~A~A];\n" indent r
                   (dot-string (if (null? addrs)
                                   (number->string r)
                                   (let ((a (car addrs)))
                                     (string-append (number->string r) "\n"
                                                    (substring a 0 (string-index a #\/))))))
                   (if (eqv? r root) ", peripheries=2" ""))))

(define (dot-hosts l hosts root port indent prefix)
  (let loop ((hs hosts) (i 0))
    (unless (null? hs)
      (simple-format port "~Asubgraph cluster_~A~A {\n" indent prefix i)
      (simple-format port "~A  label=~A;\n~A  style=solid;\n" indent
                     (dot-string (string-append "host " (caar hs))) indent)
      (for-each (lambda (r) (dot-node l r root port (string-append indent "  "))) (cdar hs))
      (simple-format port "~A}\n" indent)
      (loop (cdr hs) (+ i 1)))))

(define (render-dot l call lowered rank signature)
  (let* ((inner (innermost lowered))
         (t (and (eq? (lowered-tag inner) 'tree) (lowered-tree inner)))
         (root (if t (tree-root t) (call-root call))))
    (call-with-output-string
     (lambda (port)
       (display "digraph compi_tree {\n" port)
       (simple-format port "  /* signature: ~A */\n" signature)
       (simple-format port "  graph [label=~A, labelloc=t, fontname=\"Helvetica\"];\n"
                      (dot-string
                       (string-append (simple-format #f "~A, seen by rank ~A\n"
                                                     (call->string call) rank)
                                      (closure-text lowered)
                                      (if t
                                          (simple-format #f ", depth ~A, ~A"
                                                         (tree-depth t)
                                                         (plural (wan-count l t) "WAN edge"))
                                          ""))))
       (display "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n" port)
       (display "  edge [fontname=\"Helvetica\", fontsize=10];\n" port)
       (let loop ((cs (clusters l)) (i 0))
         (unless (null? cs)
           (if (caar cs)
               (begin
                 (simple-format port "  subgraph cluster_~A {\n" i)
                 (simple-format port "    label=~A;\n    style=dashed;\n" (dot-string (caar cs)))
                 (dot-hosts l (cdar cs) root port "    " (simple-format #f "~A_" i))
                 (display "  }\n" port))
               (dot-hosts l (cdar cs) root port "  " (simple-format #f "~A_" i)))
           (loop (cdr cs) (+ i 1))))
       (when (eq? (lowered-tag inner) 'exchange)
         (let* ((f (exchange-forest inner)) (coords (car f)) (children (cdr f)))
           (do ((r 0 (+ r 1))) ((= r (vector-length children)))
             (let each ((cs (vector-ref children r)) (k 1))
               (unless (null? cs)
                 (simple-format port "  r~A -> r~A [label=\"~A\"];\n" r (car cs) k)
                 (each (cdr cs) (+ k 1)))))
           (let pairs ((cs coords))
             (unless (null? cs)
               (for-each (lambda (d)
                           (simple-format port "  r~A -> r~A [dir=both~A];\n" (car cs) d
                                          (if (equal? (rank-site l (car cs)) (rank-site l d))
                                              ""
                                              ", color=red, style=bold, penwidth=2.5")))
                         (cdr cs))
               (pairs (cdr cs))))))
       (when t
         ;; edges in the order the tree serves them, labelled with the child's place
         (let walk ((r (tree-root t)))
           (let each ((cs (tree-children t r)) (k 1))
             (unless (null? cs)
               (simple-format port "  r~A -> r~A [label=\"~A\"~A];\n" r (car cs) k
                              (if (wan? l t (car cs))
                                  ", color=red, fontcolor=red, style=bold, penwidth=2.5"
                                  ""))
               (each (cdr cs) (+ k 1))))
           (for-each walk (tree-children t r))))
       (display "}\n" port)))))

;;; ---- the entry point ------------------------------------------------------------------

(define (exception-text e)
  (cond ((tool-error? e) (car (exception-irritants e)))
        ((and (exception-with-message? e) (exception-with-irritants? e))
         (string-append "internal error: "
                        (catch #t
                          (lambda () (apply simple-format #f (exception-message e)
                                            (exception-irritants e)))
                          (lambda _ (exception-message e)))))
        (else (simple-format #f "internal error: ~S" e))))

;; (tree-tool-render KIND LAYOUT ROOT RANK BYTES DATATYPE OP COMMUTATIVE? FORMAT SIGNATURE):
;; KIND a symbol of collective-kinds; LAYOUT a layout (make-layout, from the C parser);
;; ROOT the call's root (#f: the kind has none); RANK the rank whose view is shown;
;; DATATYPE a symbol ('MPI_DOUBLE); OP a symbol ('MPI_SUM) for reductions, else #f;
;; FORMAT 'text or 'dot; SIGNATURE the line the C closure gave ("0123456789abcdef
;; (bcast:binomial)"), as coll_verbose prints it.  Neighbourhood kinds see a Cartesian
;; communicator, as compi-tree's C call does.  (#t . "output") or (#f . "message").
(define (tree-tool-render kind layout root rank bytes datatype op commutative? format signature)
  (with-exception-handler
   (lambda (e) (cons #f (exception-text e)))
   (lambda ()
     (let* ((l layout)
            (size (layout-size l))
            (topology (and (memq kind '(neighbor-allgather neighbor-allgatherv
                                        neighbor-alltoall neighbor-alltoallv
                                        neighbor-alltoallw))
                           'cart)))
       (let* ((call (make-call kind size rank root bytes datatype op commutative?
                               "MPI_COMM_WORLD" (layout-ranks l) 'blocking topology))
              (lowered (car (build call))))
         (cons #t ((if (eq? format 'dot) render-dot render-text) l call lowered rank
                   signature)))))
   #:unwind? #t))
