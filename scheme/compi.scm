;;; (compi) -- the Scheme API that collective configuration files are written against.
;;;
;;; A configuration installs *creators* per collective kind.  A creator is
;;; (lambda (call next) ...): it returns a closure for CALL, or (next call) to let the
;;; creators installed before it answer.  Creators of one kind are tried latest-installed
;;; first.  The table lives here, in Scheme; the C bridge (scheme/bridge.c) reads it only
;;; through the procedures of (compi internal), never by poking at the vector.
;;;
;;; This module must stay cheap to load: it is loaded by MPI_Init.  It uses nothing but
;;; (guile), so no (ice-9 ...) module is pulled in at start-up.
;;;
;;; When loaded by the library, the bridge also defines and exports the C primitives of
;;; scheme/bridge_prims.c here (compi-version, compi-log).

(define-module (compi)
  #:export (collective-kinds
            collective-kind?
            install-creator!
            installed-creators
            creator-entry?
            creator-entry-procedure
            creator-entry-name
            creator-entry-origin
            run-creators
            current-config-origin
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
            call-comm))

;; The order is the C enum bridge_kind_t in scheme/bridge.h; the bridge checks at start-up
;; that both lists agree, so add a kind in both places.
(define collective-kinds
  '(barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv
    alltoall alltoallv alltoallw reduce-scatter reduce-scatter-block scan exscan))

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

;; One installed creator: the procedure, a name for messages and compi_info, and where it
;; was installed.
;; (Records through the core procedural API: (srfi srfi-9) would be one more module to
;; load at start-up.)
(define <creator-entry> (make-record-type 'creator-entry '(procedure name origin)))
(define make-creator-entry (record-constructor <creator-entry>))
(define creator-entry? (record-predicate <creator-entry>))
(define creator-entry-procedure (record-accessor <creator-entry> 'procedure))
(define creator-entry-name (record-accessor <creator-entry> 'name))
(define creator-entry-origin (record-accessor <creator-entry> 'origin))

(define creator-table (make-vector (length collective-kinds) '()))

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

;; A creator receives (call next): it must accept two arguments.
(define (accepts-two-arguments? proc)
  (let ((arity (procedure-minimum-arity proc)))
    (or (not arity)                     ; unknown arity: let the call tell
        (let ((req (car arity)) (opt (cadr arity)) (rest? (caddr arity)))
          (and (<= req 2) (or rest? (>= (+ req opt) 2)))))))

(define (install-creator! kind creator)
  (let ((i (kind-index 'install-creator! kind)))
    (unless (procedure? creator)
      (scm-error 'wrong-type-arg 'install-creator!
                 "creator for ~A must be a procedure (lambda (call next) ...), got: ~S"
                 (list kind creator) (list creator)))
    (unless (accepts-two-arguments? creator)
      (scm-error 'wrong-type-arg 'install-creator!
                 "creator for ~A must accept 2 arguments (call next), got ~A"
                 (list kind (arity-text creator)) (list creator)))
    (vector-set! creator-table i
                 (cons (make-creator-entry creator
                                           (or (procedure-name creator) 'anonymous)
                                           (current-config-origin))
                       (vector-ref creator-table i)))
    *unspecified*))

;; The entries installed for KIND, latest first.
(define (installed-creators kind)
  (vector-ref creator-table (kind-index 'installed-creators kind)))

;; The creator running now, as (kind . entry), so that an error can name it.
(define current-creator (make-parameter #f))

;; Asks the creators of CALL's kind for a closure, latest first; each receives `next',
;; which asks the ones installed before it.  #f when none answers.
(define (run-creators call)
  (let loop ((entries (installed-creators (call-kind call))) (call call))
    (if (null? entries)
        #f
        (parameterize ((current-creator (cons (call-kind call) (car entries))))
          ((creator-entry-procedure (car entries))
           call
           (lambda (c) (loop (cdr entries) c)))))))

;; A collective call as creators see it.  Provisional: the trampolines will build these
;; from their C call struct; only values equal on every rank belong in a key, but the
;; call also carries the calling rank so creators can build per-rank views of a tree.
(define <call>
  (make-record-type 'call '(kind size rank root bytes datatype op commutative? comm)))
(define make-call (record-constructor <call>))
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
