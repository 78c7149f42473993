;;; (compi private) -- the implementation of (compi): the creator table, calls, closure
;;; descriptions.  (compi) re-exports the part configuration files are written against
;;; (docs/scheme-api.md); the rest of the exports below, after "not for configs", are for
;;; the other modules of compi ((compi internal), (compi hierarchy)) and its tests, which
;;; read descriptions and raise creator errors.  Configuration files see only (compi).
;;;
;;; A configuration installs *creators* per collective kind.  A creator is
;;; (lambda (call next) ...): it returns a closure description for CALL, or (next call) to
;;; let the creators installed before it answer.  Creators of one kind are tried
;;; latest-installed first.  A closure description is one of
;;;
;;;   (native KIND ALGO #:fanout K #:segsize N)   a native algorithm, run in C
;;;           (#:ranks (R ...): ranks with a role: two-phase I/O's aggregators)
;;;   (tree-closure KIND TREE #:segsize N)        a tree of (compi trees), run in C
;;;   (exchange-closure GROUPS ...)               allreduce: groups reduce locally, their
;;;                                               coordinators exchange all-to-all, in C
;;;                                               (made by (compi hierarchy))
;;;   (profiling DESC), (tracing DESC)            native wrappers around DESC
;;;   (schedule KIND NAME BUILDER)                rounds of sends, receives, reductions
;;;                                               and copies the creator writes, checked
;;;                                               for every rank at the miss, run in C
;;;   a procedure of one argument                 a Scheme closure: runs the collective
;;;                                               itself, in Guile, on each call; it may
;;;                                               run another description on its call
;;;                                               with (run-closure DESC call)
;;;
;;; The creator table lives here, in Scheme; the C bridge reads it only through the
;;; procedures of (compi internal), never by poking at the vector.
;;;
;;; This module must stay cheap to load: it is loaded by MPI_Init.  It uses nothing but
;;; (guile) and (compi trees), so no (ice-9 ...) module is pulled in at start-up.
;;;
;;; The C bridge reads and builds some of these records (<call>, <buffer>, <request>):
;;; it finds their fields by name at start-up and checks that they are the ones it
;;; expects (scheme/bridge_layout.c), so a field may move but not be renamed alone.

(define-module (compi private)
  #:use-module ((compi trees) #:select (%compi-primitive))
  #:export (config-names
            ;; ---- not for configs: for (compi internal), (compi hierarchy) and tests
            kinds-list
            clear-creators!
            creator-text
            current-creator
            registered-finalize-hooks
            value-text
            non-negative-integer
            make-creator-error
            creator-error?
            creator-error-message
            <call>
            %make-call-record
            <buffer>
            %make-buffer-record
            <request>
            %make-request-record
            native-kind
            native-algorithm
            native-fanout
            native-segsize
            native-ranks
            tree-closure-kind
            tree-closure-tree
            tree-closure-segsize
            tree-closure-hosts
            make-exchange-closure
            exchange-closure-kind
            exchange-closure-groups
            exchange-closure-trees
            exchange-closure-segsize
            wrapper-what
            wrapper-inner
            scheme-closure-procedure
            scheme-closure-over
            schedule-kind
            schedule-name
            schedule-builder
            schedule-where
            description-origin))

;; The names configuration files see, as one list: exported here (when this module is
;; compiled too, like #:export) and re-exported by (compi), scheme/compi.scm, which reads
;; CONFIG-NAMES.  The bindings are defined below.
(define-syntax-rule (define-exported-names list-name name ...)
  (begin
    (export name ...)
    (define list-name '(name ...))))

(define-exported-names config-names
  collective-kinds
  collective-kind?
  install-creator!
  installed-creators
  creator-entry?
  creator-entry-procedure
  creator-entry-name
  creator-entry-origin
  run-creators
  current-config-origin
  at-finalize
  ;; calls
  make-call
  call?
  call-kind
  call-size
  call-rank
  call-root
  call-bytes
  call-datatype
  call-op
  call-commutative?
  call-comm
  call-mode
  call-topology
  call-inter?
  call-remote-size
  call-hints
  call-hint
  call->string
  ;; rank facts ((call-ranks CALL) is a primitive of scheme/bridge_facts.c)
  make-rank
  rank?
  rank-world
  rank-host
  rank-addresses
  rank-place
  rank-bound?
  buffer?
  buffer-count
  request?
  ;; closure descriptions
  native
  native?
  tree-closure
  tree-closure?
  exchange-closure?
  profiling
  tracing
  wrapper?
  scheme-closure?
  schedule
  schedule?
  schedule-kinds
  closure-description?
  description-kind
  description->string)

;; The collective kinds: core/coll/kinds.def's list, in coll_kind_t's order, asked of C
;; (the primitive %collective-kinds of scheme/tree_ext.c, through (compi trees)) at the
;; first use, not when the module loads: compiling a module that uses this one loads it
;; too, without C.  `collective-kinds' reads as the list.
(define %kinds #f)
(define (kinds-list)
  (or %kinds
      (begin (set! %kinds ((%compi-primitive '%collective-kinds))) %kinds)))
(define-syntax collective-kinds (identifier-syntax (kinds-list)))

(define (collective-kind? x)
  (and (memq x collective-kinds) #t))

(define (kind-index who kind)
  (let loop ((ks collective-kinds) (i 0))
    (cond ((null? ks)
           (scm-error 'out-of-range who
                      "unknown collective kind: ~S (valid kinds: ~A)"
                      (list kind (kinds-text)) (list kind)))
          ((eq? (car ks) kind) i)
          (else (loop (cdr ks) (+ i 1))))))

(define (kinds-text)
  (let loop ((ks collective-kinds) (acc ""))
    (if (null? ks)
        acc
        (loop (cdr ks)
              (if (string-null? acc)
                  (symbol->string (car ks))
                  (string-append acc " " (symbol->string (car ks))))))))

;; Where the form being loaded comes from ("fast.scm:12:1"), set by the config loader of
;; (compi internal) around each top-level form, so that errors raised later by a creator
;; can name the line that installed it.
(define current-config-origin (make-parameter #f))

;;; ---- creators -------------------------------------------------------------------------

;; One installed creator: the procedure, a name for messages and compi_info, and where it
;; was installed.
;; (Records through the core procedural API: (srfi srfi-9) would be one more module to
;; load at start-up.)
;; `text' is what messages and descriptions name it by, "creator NAME (KIND, installed
;; at FILE:L:C)" (creator-text): made once, when it is installed, so that a miss, which
;; stamps it on the description the creator returns, builds no string.
(define <creator-entry> (make-record-type 'creator-entry '(procedure name origin text)))
(define make-creator-entry (record-constructor <creator-entry>))
(define creator-entry-text (record-accessor <creator-entry> 'text))
(define creator-entry? (record-predicate <creator-entry>))
(define creator-entry-procedure (record-accessor <creator-entry> 'procedure))
(define creator-entry-name (record-accessor <creator-entry> 'name))
(define creator-entry-origin (record-accessor <creator-entry> 'origin))

(define %creator-table #f)
(define (creator-table)
  (or %creator-table
      (begin (set! %creator-table (make-vector (length collective-kinds) '()))
             %creator-table)))

;; "a procedure of 1 argument" and the like, for messages
(define (arity-text proc)
  (let* ((arity (procedure-minimum-arity proc))
         (req (car arity)) (opt (cadr arity)))
    (simple-format #f "~A of ~A~A argument~A"
                   (let ((name (procedure-name proc)))
                     (if name (simple-format #f "procedure ~A" name) "a procedure"))
                   req
                   (if (> opt 0) (simple-format #f " (+ ~A optional)" opt) "")
                   (if (= (+ req opt) 1) "" "s"))))

;; Does PROC accept N arguments?  (Unknown arity: let the call tell.)
(define (accepts? proc n)
  (let ((arity (procedure-minimum-arity proc)))
    (or (not arity)
        (let ((req (car arity)) (opt (cadr arity)) (rest? (caddr arity)))
          (and (<= req n) (or rest? (>= (+ req opt) n)))))))

(define (install-creator! kind creator)
  (let ((i (kind-index 'install-creator! kind)))
    (unless (procedure? creator)
      (scm-error 'wrong-type-arg 'install-creator!
                 "creator for ~A must be a procedure (lambda (call next) ...), got: ~S"
                 (list kind creator) (list creator)))
    (unless (accepts? creator 2)
      (scm-error 'wrong-type-arg 'install-creator!
                 "creator for ~A must accept 2 arguments (call next), got ~A"
                 (list kind (arity-text creator)) (list creator)))
    (let ((name (or (procedure-name creator) 'anonymous)) (origin (current-config-origin)))
      (vector-set! (creator-table) i
                   (cons (make-creator-entry creator name origin
                                             (entry-text kind name origin))
                         (vector-ref (creator-table) i))))
    *unspecified*))

;; Every kind's creators removed (a reconfiguration: scheme/bridge_reconfig.c installs the
;; defaults again, then loads the new configs).
(define (clear-creators!)
  (vector-fill! (creator-table) '()))

;; The entries installed for KIND, latest first.
(define (installed-creators kind)
  (vector-ref (creator-table) (kind-index 'installed-creators kind)))

;; The creator running now, as (kind . entry), so that an error can name it.
(define current-creator (make-parameter #f))

;; "creator NAME (KIND, installed at FILE:L:C)"
(define (entry-text kind name origin)
  (string-append "creator " (symbol->string name) " (" (symbol->string kind)
                 (if origin (string-append ", installed at " origin) "") ")"))

(define (creator-text kind entry)
  (entry-text kind (creator-entry-name entry) (creator-entry-origin entry)))

;; What the chain raises for a bad answer: the message is complete (it names the
;; creator), so the bridge reports it as it is.
(define <creator-error> (make-record-type 'creator-error '(message)))
(define make-creator-error (record-constructor <creator-error>))
(define creator-error? (record-predicate <creator-error>))
(define creator-error-message (record-accessor <creator-error> 'message))

;; Asks the creators of CALL's kind for a closure description, latest first; each
;; receives `next', which asks the ones installed before it.  A creator that returns #f
;; declines: the one installed before it is asked, as `next' would.  Each other answer is
;; checked where it is given, so a bad one names the creator that gave it: it must be a
;; closure description for CALL's kind.  A Scheme procedure becomes a scheme-closure
;; record, over the description `next' gave the creator (if it asked: a wrapper around
;; run-closure), and every description remembers the creator that built it (for later
;; error messages).
;; Calling `next' past the last creator is an error of the creator that did it.
(define (run-creators call)
  (let ((kind (call-kind call)))
    (let loop ((entries (installed-creators kind)) (call call))
      (if (null? entries)
          (scm-error 'misc-error #f
                     "every creator of ~A passed the call on with (next call) or declined \
(returned #f); the last one must answer"
                     (list kind) #f)
          (let* ((entry (car entries))
                 (inner #f)           ; what `next' last gave this creator
                 (answer (parameterize ((current-creator (cons kind entry)))
                           ((creator-entry-procedure entry)
                            call
                            (lambda (c)
                              (let ((d (loop (cdr entries) c)))
                                (set! inner d)
                                d)))))
                 (desc (if (and (procedure? answer) (accepts? answer 1))
                           (make-scheme-closure answer #f inner)
                           answer)))
            (if (not answer)
                (loop (cdr entries) call)
                (begin
                  (check-answer kind entry answer desc)
                  (stamp! desc (creator-entry-text entry))
                  desc)))))))

;; DESC (ANSWER, a Scheme procedure made a closure) must be a closure description for
;; KIND, else a creator error naming the creator of ENTRY.
(define (check-answer kind entry answer desc)
  (unless (closure-description? desc)
    (raise-exception
     (make-creator-error
      (simple-format #f "~A returned ~A" (creator-text kind entry) (not-a-closure-text answer)))))
  (unless (eq? (description-kind desc kind) kind)
    (raise-exception
     (make-creator-error
      (simple-format #f "~A returned ~A, a closure for ~A, not for ~A"
                     (creator-text kind entry) (description->string desc)
                     (description-kind desc kind) kind)))))

;; What a creator's ANSWER is, when it is no closure: "42, which is not a closure"; a list
;; that prints like a description is said to be a list, with the call that makes one:
;; "the list (native bcast binomial), not a description: call (native 'bcast 'binomial)".
(define (not-a-closure-text answer)
  (if (and (pair? answer) (list? answer) (symbol? (car answer)))
      (simple-format #f "the list ~A, not a description: call (~A)" (value-text answer)
                     (string-join (cons (symbol->string (car answer))
                                        (map (lambda (x)
                                               (string-append
                                                (if (or (symbol? x) (pair? x)) "'" "")
                                                (simple-format #f "~S" x)))
                                             (cdr answer)))
                                  " "))
      (string-append (value-text answer) ", which is not a closure")))

;; A value as an error message shows it: short, on one line.
(define (value-text x)
  (let ((s (if (procedure? x)
               (string-append (arity-text x))
               (simple-format #f "~S" x))))
    (if (> (string-length s) 200)
        (string-append (substring s 0 200) "...")
        s)))

;; (at-finalize THUNK): THUNK runs at MPI_Finalize, on every rank, before the closures
;; go (after the other ranks have reached MPI_Finalize too); thunks run in the order they
;; were registered, for reports of what a config's closures counted.  A thunk must not
;; call MPI: it only prints or writes files.
(define finalize-hooks '())

(define (at-finalize thunk)
  (unless (and (procedure? thunk) (accepts? thunk 0))
    (scm-error 'wrong-type-arg 'at-finalize "expects a procedure of no arguments, got: ~A"
               (list (value-text thunk)) (list thunk)))
  (set! finalize-hooks (append finalize-hooks (list (cons thunk (current-config-origin)))))
  *unspecified*)

;; The thunks, as (thunk . origin) in order.  A procedure, not the variable: a module
;; compiled against this one may take an exported variable's value at compile time.
(define (registered-finalize-hooks) finalize-hooks)

;;; ---- calls ----------------------------------------------------------------------------

;; A collective call as creators and Scheme closures see it.  The bridge fills one from
;; the C call struct (one record per cache miss, and one per Scheme closure, which its
;; runs share).  Only
;; values equal on every rank belong in a key (kind, root, bytes, and the datatype and op
;; of reductions); the call also carries the calling rank so creators can build per-rank
;; views of a tree.  `handle' is the C call while a Scheme closure runs (the buffer
;; primitives read it), #f otherwise; `keep' holds the temporary buffers of requests in
;; flight, so the collector cannot take them while the transport still writes there.
;; `ranks' is what (call-ranks call) reads: the communicator's world ranks (a bytevector,
;; from the bridge), the vector of rank records made from them, or one given to make-call.
;; `mode' is how the call runs: blocking, nonblocking (MPI_Ibcast, ...) or persistent
;; (MPI_Bcast_init, ...); it is part of the key, so a creator may choose differently per
;; mode -- a nonblocking or persistent call needs a closure that can run as a schedule (docs/scheme-api.md, "Modes").
;; `topology' is the communicator's process topology: cart, graph, dist-graph or #f.
;; `inter?' is #t for a call on an intercommunicator; then `size' and `rank' are those of
;; the local group, `remote-size' the other group's size (#f on an intracommunicator), and
;; `root' is #f on the root's group (MPI_ROOT and MPI_PROC_NULL share one key) or the
;; root's rank in the other group.  Only (native KIND 'inter) serves such a call.
;; `hints' are a file access's hints (file-write, file-read: MPI_File_open's and
;; set_info's info, the collective-buffering keys), an alist of strings; '() otherwise.
(define <call>
  (make-record-type 'call
                    '(kind size rank root bytes datatype op commutative? comm handle keep
                      ranks mode topology inter? remote-size hints)
                    (lambda (call port)
                      (display "#<call " port)
                      (display (call->string call) port)
                      (display ">" port))))
(define %make-call-record (record-constructor <call>))
(define call? (record-predicate <call>))
(define call-kind (record-accessor <call> 'kind))
(define call-size (record-accessor <call> 'size))
(define call-rank (record-accessor <call> 'rank))
(define call-root (record-accessor <call> 'root))
(define call-bytes (record-accessor <call> 'bytes))
(define call-datatype (record-accessor <call> 'datatype))
(define call-op (record-accessor <call> 'op))
(define call-commutative? (record-accessor <call> 'commutative?))
(define call-comm (record-accessor <call> 'comm))
(define call-mode (record-accessor <call> 'mode))
(define call-topology (record-accessor <call> 'topology))
(define call-inter? (record-accessor <call> 'inter?))
(define call-remote-size (record-accessor <call> 'remote-size))
(define call-hints (record-accessor <call> 'hints))
;; (call-hint call "cb_nodes") -> "2", or #f when the file has no such hint
(define (call-hint call key)
  (let ((h (assoc key (call-hints call))))
    (and h (cdr h))))

(define call-modes '(blocking nonblocking persistent))

;; A call made in Scheme, for trying creators without MPI (tests, the REPL): it has no
;; buffers, so Scheme closures cannot run on it.  RANKS, optional, is a vector of SIZE
;; rank records (make-rank) that call-ranks returns, or #f; MODE, optional after it, is
;; blocking (the default), nonblocking or persistent; TOPOLOGY, optional after that, what
;; call-topology returns: cart, graph, dist-graph or #f (the default); HINTS, optional
;; after that, what call-hints returns: an alist of strings (("cb_nodes" . "2")).
(define (make-call kind size rank root bytes datatype op commutative? comm . rest)
  (kind-index 'make-call kind)
  (let ((ranks (if (pair? rest) (car rest) #f))
        (mode (if (and (pair? rest) (pair? (cdr rest))) (cadr rest) 'blocking))
        (topology (if (and (pair? rest) (pair? (cdr rest)) (pair? (cddr rest)))
                      (caddr rest)
                      #f))
        (hints (if (and (pair? rest) (pair? (cdr rest)) (pair? (cddr rest))
                        (pair? (cdddr rest)))
                   (cadddr rest)
                   '())))
    (unless (and (list? hints)
                 (and-map (lambda (h) (and (pair? h) (string? (car h)) (string? (cdr h)))) hints))
      (scm-error 'wrong-type-arg 'make-call
                 "HINTS must be an alist of strings ((\"cb_nodes\" . \"2\") ...), got: ~S"
                 (list hints) (list hints)))
    (unless (memq mode call-modes)
      (scm-error 'wrong-type-arg 'make-call "MODE must be one of ~S, got: ~S"
                 (list call-modes mode) (list mode)))
    (unless (memq topology '(#f cart graph dist-graph))
      (scm-error 'wrong-type-arg 'make-call
                 "TOPOLOGY must be cart, graph, dist-graph or #f, got: ~S"
                 (list topology) (list topology)))
    (unless (or (not ranks)
                (and (vector? ranks) (= (vector-length ranks) size)
                     (let loop ((i 0))
                       (or (= i size) (and (rank? (vector-ref ranks i)) (loop (+ i 1)))))))
      (scm-error 'wrong-type-arg 'make-call
                 "RANKS must be a vector of ~A rank records (make-rank), got: ~S"
                 (list size ranks) (list ranks)))
    (%make-call-record kind size rank root bytes datatype op commutative? comm #f '()
                       ranks mode topology #f #f hints)))

;; Rank facts (docs/scheme-api.md, "Rank facts"): what each rank published at MPI_Init.
;; PLACE is (package numa core l3), hwloc logical indices (l3: of the L3 cache, #f when
;; unknown or the machine has none), or #f when unknown; BOUND? says whether the rank is
;; bound (else PLACE is where it ran at init).  ADDRESSES are "a.b.c.d/nn" (and IPv6)
;; strings, non-loopback first.
(define <rank>
  (make-record-type 'rank '(world host addresses place bound?)
                    (lambda (r port)
                      (simple-format port "#<rank ~A ~A ~A ~A~A>" (rank-world r) (rank-host r)
                                     (rank-addresses r) (rank-place r)
                                     (if (rank-bound? r) " bound" "")))))
(define %make-rank (record-constructor <rank>))
(define rank? (record-predicate <rank>))
(define rank-world (record-accessor <rank> 'world))
(define rank-host (record-accessor <rank> 'host))
(define rank-addresses (record-accessor <rank> 'addresses))
(define rank-place (record-accessor <rank> 'place))
(define rank-bound? (record-accessor <rank> 'bound?))

;; PLACE may leave out L3: (PKG NUMA CORE) is (PKG NUMA CORE #f).
(define (make-rank world host addresses place bound?)
  (define (index? x) (and (exact-integer? x) (>= x 0)))
  (unless (and (exact-integer? world) (string? host) (list? addresses)
               (or (not place)
                   (and (list? place) (memv (length place) '(3 4))
                        (index? (car place)) (index? (cadr place)) (index? (caddr place))
                        (or (= (length place) 3) (not (cadddr place)) (index? (cadddr place))))))
    (scm-error 'wrong-type-arg 'make-rank
               "expects (make-rank WORLD \"HOST\" (\"A.B/NN\" ...) (PKG NUMA CORE [L3])|#f BOUND?)"
               '() (list world host addresses place bound?)))
  (%make-rank world host addresses
              (if (and place (= (length place) 3)) (append place '(#f)) place)
              (and bound? #t)))

;; "bcast root=0 bytes=8 comm=MPI_COMM_WORLD", as error messages show a call (a
;; nonblocking or persistent one starts with its mode; a communicator without a name is
;; "comm=(unnamed)")
(define (call->string call)
  (string-append
   (if (eq? (call-mode call) 'blocking) "" (string-append (symbol->string (call-mode call)) " "))
   (symbol->string (call-kind call))
   (if (call-root call) (simple-format #f " root=~A" (call-root call)) "")
   (simple-format #f " bytes=~A" (call-bytes call))
   (if (call-op call)
       (simple-format #f " op=~A datatype=~A" (call-op call) (call-datatype call))
       "")
   (simple-format #f " comm=~A size=~A"
                  (if (string-null? (call-comm call)) "(unnamed)" (call-comm call))
                  (call-size call))
   (if (call-inter? call)
       (simple-format #f " inter remote-size=~A" (call-remote-size call))
       "")
   (if (call-topology call)
       (simple-format #f " topology=~A" (call-topology call))
       "")
   (apply string-append
          (map (lambda (h) (simple-format #f " ~A=~A" (car h) (cdr h))) (call-hints call)))))

;; Buffers and requests of Scheme closures (docs/scheme-api.md, "Scheme closures"): the
;; C primitives of scheme/bridge_call.c make and read them.  A buffer is an address, the
;; datatype of its elements, how many elements it holds, whether it may be written, and
;; the bytevector behind it for buffers made by make-buffer (#f for the call's own).  A
;; request is the number of the Scheme closure's run and a slot in that run's table.
(define <buffer>
  (make-record-type 'buffer '(address datatype count writable? storage)
                    (lambda (b port)
                      (simple-format port "#<buffer ~A elements~A>"
                                     (buffer-count b)
                                     (if ((record-accessor <buffer> 'writable?) b)
                                         "" ", read-only")))))
(define %make-buffer-record (record-constructor <buffer>))
(define buffer? (record-predicate <buffer>))
(define buffer-count (record-accessor <buffer> 'count))

(define <request>
  (make-record-type 'request '(run slot)
                    (lambda (r port) (display "#<request>" port))))
(define %make-request-record (record-constructor <request>))
(define request? (record-predicate <request>))

;;; ---- closure descriptions -------------------------------------------------------------

;; Every description has a mutable `origin': the text naming the creator that returned
;; it first ("creator NAME (KIND, installed at FILE:L:C)"), stamped by run-creators.
(define (stamp! desc text)
  (unless (description-origin desc)
    (set-description-origin! desc text)))

(define (print-description desc port)
  (display (description->string desc) port))

(define <native>
  (make-record-type 'native '(kind algorithm fanout segsize ranks origin) print-description))
(define make-native (record-constructor <native>))
(define native? (record-predicate <native>))
(define native-kind (record-accessor <native> 'kind))
(define native-algorithm (record-accessor <native> 'algorithm))
(define native-fanout (record-accessor <native> 'fanout))
(define native-segsize (record-accessor <native> 'segsize))
(define native-ranks (record-accessor <native> 'ranks))

(define <tree-closure>
  (make-record-type 'tree-closure '(kind tree segsize hosts origin) print-description))
(define make-tree-closure (record-constructor <tree-closure>))
(define tree-closure? (record-predicate <tree-closure>))
(define tree-closure-kind (record-accessor <tree-closure> 'kind))
(define tree-closure-tree (record-accessor <tree-closure> 'tree))
(define tree-closure-segsize (record-accessor <tree-closure> 'segsize))
(define tree-closure-hosts (record-accessor <tree-closure> 'hosts))

;; The exchange allreduce (core/coll/algorithms/allreduce/exchange.c): GROUPS is a list of lists of
;; communicator ranks (partials are combined in list order), TREES one tree of (compi
;; trees) per group over its positions (position i: the i-th rank of the group), rooted
;; at the coordinator.  Made by exchange-closure of (compi hierarchy), which builds the
;; trees; checked once, by the bridge's C when the closure is built (bridge_groups_in).
(define <exchange-closure>
  (make-record-type 'exchange-closure '(kind groups trees segsize origin) print-description))
(define make-exchange-closure (record-constructor <exchange-closure>))
(define exchange-closure? (record-predicate <exchange-closure>))
(define exchange-closure-kind (record-accessor <exchange-closure> 'kind))
(define exchange-closure-groups (record-accessor <exchange-closure> 'groups))
(define exchange-closure-trees (record-accessor <exchange-closure> 'trees))
(define exchange-closure-segsize (record-accessor <exchange-closure> 'segsize))

;; what: profiling or tracing
(define <wrapper> (make-record-type 'wrapper '(what inner origin) print-description))
(define make-wrapper (record-constructor <wrapper>))
(define wrapper? (record-predicate <wrapper>))
(define wrapper-what (record-accessor <wrapper> 'what))
(define wrapper-inner (record-accessor <wrapper> 'inner))

;; OVER: the description `next' gave the creator that returned PROCEDURE (what a wrapper
;; runs with run-closure, named with the closure), or #f
(define <scheme-closure>
  (make-record-type 'scheme-closure '(procedure origin over) print-description))
(define make-scheme-closure (record-constructor <scheme-closure>))
(define scheme-closure? (record-predicate <scheme-closure>))
(define scheme-closure-procedure (record-accessor <scheme-closure> 'procedure))
(define scheme-closure-over (record-accessor <scheme-closure> 'over))

;; A schedule the creator writes (docs/scheme-api.md, "Schedules"): BUILDER is
;; (lambda (rank size count) ...) returning that rank's rounds; (compi internal) runs it
;; for every rank at the miss, checks the whole and hands this rank's steps to C
;; (scheme/bridge_sched.c), which runs them on every call without Guile.
(define <schedule-closure>
  (make-record-type 'schedule-closure '(kind name builder where origin) print-description))
(define make-schedule-closure (record-constructor <schedule-closure>))
(define schedule? (record-predicate <schedule-closure>))
(define schedule-kind (record-accessor <schedule-closure> 'kind))
(define schedule-name (record-accessor <schedule-closure> 'name))
(define schedule-builder (record-accessor <schedule-closure> 'builder))
;; where the config made it ("FILE:L:C"), when it was made while the config loaded
(define schedule-where (record-accessor <schedule-closure> 'where))

;; The origin of any description, by its type: the accessors are made once, here, not at
;; every miss.
(define origin-accessors
  (list (cons <native> (record-accessor <native> 'origin))
        (cons <tree-closure> (record-accessor <tree-closure> 'origin))
        (cons <exchange-closure> (record-accessor <exchange-closure> 'origin))
        (cons <wrapper> (record-accessor <wrapper> 'origin))
        (cons <scheme-closure> (record-accessor <scheme-closure> 'origin))
        (cons <schedule-closure> (record-accessor <schedule-closure> 'origin))))
(define origin-modifiers
  (list (cons <native> (record-modifier <native> 'origin))
        (cons <tree-closure> (record-modifier <tree-closure> 'origin))
        (cons <exchange-closure> (record-modifier <exchange-closure> 'origin))
        (cons <wrapper> (record-modifier <wrapper> 'origin))
        (cons <scheme-closure> (record-modifier <scheme-closure> 'origin))
        (cons <schedule-closure> (record-modifier <schedule-closure> 'origin))))

(define (description-origin d)
  ((cdr (assq (record-type-descriptor d) origin-accessors)) d))
(define (set-description-origin! d text)
  ((cdr (assq (record-type-descriptor d) origin-modifiers)) d text))

(define (closure-description? x)
  (or (native? x) (tree-closure? x) (exchange-closure? x) (wrapper? x) (scheme-closure? x)
      (schedule? x)))

;; The kind a description serves; a Scheme closure serves whatever it is asked for
;; (DEFAULT, the kind of the call).
(define (description-kind desc default)
  (cond ((native? desc) (native-kind desc))
        ((tree-closure? desc) (tree-closure-kind desc))
        ((exchange-closure? desc) (exchange-closure-kind desc))
        ((schedule? desc) (schedule-kind desc))
        ((wrapper? desc) (description-kind (wrapper-inner desc) default))
        (else default)))

(define (description->string desc)
  (cond
   ((native? desc)
    (string-append "(native " (symbol->string (native-kind desc)) " "
                   (symbol->string (native-algorithm desc))
                   (if (> (native-fanout desc) 0)
                       (string-append " #:fanout " (number->string (native-fanout desc))) "")
                   (if (> (native-segsize desc) 0)
                       (string-append " #:segsize " (number->string (native-segsize desc))) "")
                   (if (pair? (native-ranks desc))
                       (simple-format #f " #:ranks '~S" (native-ranks desc)) "")
                   ")"))
   ((tree-closure? desc)
    (string-append "(tree-closure " (symbol->string (tree-closure-kind desc)) " TREE"
                   (if (> (tree-closure-segsize desc) 0)
                       (string-append " #:segsize "
                                      (number->string (tree-closure-segsize desc)))
                       "")
                   (if (tree-closure-hosts desc) " #:hosts GROUPS" "")
                   ")"))
   ((exchange-closure? desc)
    (let ((groups (exchange-closure-groups desc)))
      (simple-format #f "(exchange-closure ~A ~A group~A~A)" (exchange-closure-kind desc)
                     (if (list? groups) (length groups) "?")
                     (if (and (list? groups) (= (length groups) 1)) "" "s")
                     (if (> (exchange-closure-segsize desc) 0)
                         (simple-format #f " #:segsize ~A" (exchange-closure-segsize desc)) ""))))
   ((wrapper? desc)
    (string-append "(" (symbol->string (wrapper-what desc)) " "
                   (description->string (wrapper-inner desc)) ")"))
 ((schedule? desc)
    (simple-format #f "(schedule ~A ~S)" (schedule-kind desc) (schedule-name desc)))
   ((scheme-closure? desc)
    (string-append "(Scheme closure: " (arity-text (scheme-closure-procedure desc)) ")"))
   (else (value-text desc))))

(define (non-negative-integer who what x)
  (cond ((not x) 0)
        ((and (exact-integer? x) (>= x 0)) x)
        (else (scm-error 'wrong-type-arg who "~A must be a non-negative integer, got: ~S"
                         (list what x) (list x)))))

;; (native 'bcast 'binomial), (native 'bcast 'chain #:segsize 8192): a native algorithm
;; of core/coll (compi_info --algorithms lists them, `native-algorithms' too).  Whether
;; the algorithm exists and can serve the call is checked when the closure is built.
;; #:ranks, a list of ranks of the call's communicator, gives some ranks a role (the
;; aggregators of (native 'file-write 'two-phase)); C checks them against the call.
(define* (native kind algorithm #:key fanout segsize ranks)
  (kind-index 'native kind)
  (unless (symbol? algorithm)
    (scm-error 'wrong-type-arg 'native "the algorithm must be a symbol such as 'binomial, got: ~S"
               (list algorithm) (list algorithm)))
  (unless (or (not ranks)
              (and (list? ranks) (and-map (lambda (r) (and (exact-integer? r) (>= r 0))) ranks)))
    (scm-error 'wrong-type-arg 'native "#:ranks must be a list of ranks (non-negative integers), got: ~S"
               (list ranks) (list ranks)))
  (make-native kind algorithm (non-negative-integer 'native "#:fanout" fanout)
               (non-negative-integer 'native "#:segsize" segsize) (or ranks '()) #f))

;; (tree-closure 'bcast (binomial-tree size root)): runs any tree of (compi trees) with
;; the native tree executors (barrier, bcast, reduce, allreduce, gather, scatter,
;; allgather).  The
;; tree is validated against the call when the closure is built.  #:hosts, a vector of
;; one group number per rank (0 .. ranks - 1), names groups of ranks that share memory (each the ranks of
;; one host): a tree whose only edges between groups join one coordinator per group then
;; runs each group's part of a blocking barrier, bcast, reduce or allreduce (commutative
;; ops) through a shared segment over the group instead of messages (the host level,
;; core/coll/executors/tree_host.c; its name ends ",host-shm)").  C checks its length.
(define* (tree-closure kind tree #:key segsize hosts)
  (kind-index 'tree-closure kind)
  (unless (or (not hosts)
              (and (vector? hosts)
                   (and-map (lambda (g) (and (exact-integer? g) (>= g 0)
                                             (< g (vector-length hosts))))
                            (vector->list hosts))))
    (scm-error 'wrong-type-arg 'tree-closure
               "#:hosts must be a vector of group numbers (0 .. ranks - 1), one per rank, got: ~S"
               (list hosts) (list hosts)))
  (make-tree-closure kind tree (non-negative-integer 'tree-closure "#:segsize" segsize) hosts
                     #f))

(define (wrap what inner)
  (let ((desc (if (and (procedure? inner) (accepts? inner 1))
                  (make-scheme-closure inner #f #f)
                  inner)))
    (unless (closure-description? desc)
      (scm-error 'wrong-type-arg what "expects a closure description, got: ~A"
                 (list (value-text inner)) (list inner)))
    (make-wrapper what desc #f)))

;; The kinds a schedule may serve: the call's buffers have a fixed meaning for them
;; (docs/scheme-api.md, "Schedules").
(define schedule-kinds '(barrier bcast reduce allreduce allgather alltoall))

;; (schedule 'allreduce "recursive-doubling" (lambda (rank size count) ROUNDS)): a
;; schedule built by BUILDER for every rank when the closure is made; NAME (a string or
;; a symbol) names the closure, "allreduce:schedule(recursive-doubling)".
(define (schedule kind name builder)
  (kind-index 'schedule kind)
  (unless (memq kind schedule-kinds)
    (scm-error 'wrong-type-arg 'schedule "a schedule cannot serve ~A (it serves ~S)"
               (list kind schedule-kinds) (list kind)))
  (unless (and (or (string? name) (symbol? name))
               (> (string-length (if (symbol? name) (symbol->string name) name)) 0))
    (scm-error 'wrong-type-arg 'schedule "the name must be a non-empty string or symbol, got: ~S"
               (list name) (list name)))
  (unless (and (procedure? builder) (accepts? builder 3))
    (scm-error 'wrong-type-arg 'schedule
               "the builder must be a procedure (lambda (rank size count) ROUNDS), got: ~A"
               (list (value-text builder)) (list builder)))
  (make-schedule-closure kind (if (symbol? name) (symbol->string name) name) builder
                         (current-config-origin) #f))

;; (profiling (next call)): counts calls, bytes and time per kind and size class, and
;; reports them at MPI_Finalize with the closure that ran.
(define (profiling inner) (wrap 'profiling inner))
;; (tracing (next call)): logs every call and the closure that served it.
(define (tracing inner) (wrap 'tracing inner))
