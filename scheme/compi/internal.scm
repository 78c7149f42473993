;;; (compi internal) -- what the C bridge calls: loading configuration files and calling
;;; Scheme safely.  Not for configuration files.
;;;
;;; Every entry point returns a pair instead of raising: (#t . value) on success,
;;; (#f . "message") on failure, so the C side only has to read a pair.  The C side still
;;; wraps each call in a catch-all, for what could escape from here (stack overflow while
;;; formatting, a bug in this file).
;;;
;;; Configs are evaluated, not compiled: loading the compiler costs more than 100 ms.  The
;;; interpreter keeps no source locations, so a failing form is located by the reader's
;;; source properties: each top-level form is read and evaluated on its own, and within
;;; the failing one the subform that most likely raised (the call of the unbound
;;; variable, of `error', of `raise', of the procedure named as the origin) is searched.

(define-module (compi internal)
  #:use-module (compi)
  #:use-module (compi private)
  #:use-module (compi trees)
  #:use-module (compi defaults)
  #:use-module (ice-9 exceptions)
  #:use-module ((srfi srfi-1) #:select (any every fold append-reverse))
  #:export (load-config
            safe-apply
            creator-count
            creator-description
            build-closure-for
            build-lowered-for
            call-text
            run-scheme-closure
            lower-for-run
            run-finalize-hooks
            schedule-steps
            ;; for tests: the lowering, and the view of a lowered description
            lower
            lowered->vector))

(define (ok value) (cons #t value))
(define (failed message) (cons #f message))

;;; ---- locations ----------------------------------------------------------------------

;; "file:line:col" with 1-based line and column, as GNU tools print them.
(define (location-text file line col)
  (string-append file ":" (number->string (+ line 1)) ":" (number->string (+ col 1))))

(define (datum-location file x)
  (let ((props (and (pair? x) (source-properties x))))
    (and (pair? props) (assq 'line props)
         (location-text file (cdr (assq 'line props)) (or (assq-ref props 'column) 0)))))

;; The location of the innermost list around the first datum of FORM (preorder) that
;; satisfies PRED, or #f.  Quoted data is skipped: 'foo is not a reference to foo.
(define (find-location file form pred)
  (let walk ((x form) (loc #f))
    (cond ((pair? x)
           (let ((loc (or (datum-location file x) loc)))
             (cond ((eq? (car x) 'quote) #f)
                   ((pred x) loc)
                   (else
                    (let elems ((y x))
                      (cond ((pair? y) (or (walk (car y) loc) (elems (cdr y))))
                            ((null? y) #f)
                            (else (walk y loc))))))))
          ((pred x) loc)
          (else #f))))

(define (call-of? names)
  (lambda (x) (and (pair? x) (memq (car x) names) #t)))

;; Prefer a call of NAMES whose first argument satisfies ARG?, else (unless PRECISE?)
;; any call of NAMES.
(define (find-call file form names arg? precise?)
  (or (find-location file form
                     (lambda (x)
                       (and ((call-of? names) x) (pair? (cdr x)) (arg? (cadr x)))))
      (and (not precise?) (find-location file form (call-of? names)))))

;;; ---- the forms of the config files --------------------------------------------------

;; Every top-level form read from a config file, with its source properties, as
;; #(FILE START FORM) (START: "file:line:col" where it begins), latest first: an error
;; raised later, at a miss, is located in them as a load error is in its form.
(define loaded-forms '())

(define (remember-form! file start form)
  (set! loaded-forms (cons (vector file start form) loaded-forms)))

(define (place-file p) (vector-ref p 0))
(define (place-start p) (vector-ref p 1))
(define (place-form p) (vector-ref p 2))

;; Does FORM define NAME: (define (NAME ...) ...), (define NAME ...), define*, curried?
(define (form-defines? form name)
  (and (pair? form) (memq (car form) '(define define* define-public)) (pair? (cdr form))
       (let head ((h (cadr form)))
         (cond ((symbol? h) (eq? h name))
               ((pair? h) (head (car h)))
               (else #f)))))

;; The forms a procedure named NAME (or #f) comes from, and the form at ORIGIN ("file:L:C",
;; where a creator was installed, or #f), in load order.
(define (own-places name origin)
  (reverse
   (filter (lambda (p)
             (or (and name (form-defines? (place-form p) name))
                 (and origin (equal? (place-start p) origin))))
           loaded-forms)))

;; Where, in the config files, did the error LOCATOR describes happen, at a miss or in a
;; closure run?  The own places first (the defining form of the creator or procedure,
;; the form that installed it), where a loose match will do (any call of `error', of the
;; procedure named as the origin); then every other form, where only a precise one will
;; (the call of `error' with the same message, the unbound variable).  #f when nothing
;; matches, as for the creators of (compi defaults).
(define (run-location locator own)
  (define (search places precise?)
    (let loop ((ps places))
      (and (pair? ps)
           (or (locator (place-file (car ps)) (place-form (car ps)) precise?)
               (loop (cdr ps))))))
  (and (pair? loaded-forms)
       (or (search own #t)
           (search own #f)
           (search (filter (lambda (p) (not (memq p own))) (reverse loaded-forms)) #t))))

;; the location for an error raised by the creator RUNNING, (kind . entry)
(define (creator-location locator running)
  (and running
       (let ((entry (cdr running)))
         (run-location locator
                       (own-places (let ((n (creator-entry-name entry)))
                                     (and (not (eq? n 'anonymous)) n))
                                   (creator-entry-origin entry))))))

;; the location for an error raised while PROC ran (a Scheme closure, a schedule
;; builder); ORIGIN: where it was made, when known
(define (procedure-location locator proc origin)
  (run-location locator (own-places (and (procedure? proc) (procedure-name proc)) origin)))

;;; ---- describing exceptions ----------------------------------------------------------

(define (safe-format fmt args)
  (if (and (string? fmt) (list? args))
      (catch #t
        (lambda () (apply simple-format #f fmt args))
        (lambda _ (simple-format #f "~A ~S" fmt args)))
      (simple-format #f "~S" fmt)))

(define (origin-text e)
  (let ((o (and (exception-with-origin? e) (exception-origin e))))
    (cond ((symbol? o) (symbol->string o))
          ((string? o) o)
          (else #f))))

;; (values text locator): TEXT says what went wrong; LOCATOR, given the file, the failing
;; form and PRECISE?, finds the subform that raised: with PRECISE?, only a subform that
;; can only be this one (the call of `error' with this message, the unbound variable).
(define (describe e)
  (define (no-locator file form precise?) #f)
  (cond
   ((not (exception? e))
    ;; (raise obj) with a non-condition object
    (values (simple-format #f "exception raised: ~S" e)
            (lambda (file form precise?)
              (find-call file form '(raise raise-exception raise-continuable throw)
                         (lambda (arg) (or (equal? arg (list 'quote e)) (equal? arg e)))
                         precise?))))
   ((eq? (exception-kind e) 'unbound-variable)
    (let ((name (let ((irritants (and (exception-with-irritants? e)
                                      (exception-irritants e))))
                  (and (pair? irritants) (car irritants)))))
      (values (simple-format #f "unbound variable: ~A" name)
              (lambda (file form precise?)
                (find-location file form (lambda (x) (eq? x name)))))))
   ((eq? (exception-kind e) 'syntax-error)
    ;; args: (who message form subform ...); Guile leaves some of them #f
    (let* ((args (exception-args e))
           (who (and (pair? args) (car args)))
           (msg (and (pair? args) (pair? (cdr args)) (cadr args)))
           (forms (filter pair? (if (and (pair? args) (pair? (cdr args))) (cddr args) '())))
           (form (and (pair? forms) (car forms)))
           (subform (and (pair? forms) (pair? (cdr forms)) (cadr forms))))
      (values (string-append "syntax error: "
                             (if who (simple-format #f "~A: " who) "")
                             (if (string? msg) msg "bad syntax")
                             (if form (simple-format #f " in ~S" form) ""))
              (lambda (file top precise?)
                ;; the syntax error's own forms carry their positions, but name their
                ;; file only if they are part of TOP
                (or (find-location file top (lambda (x) (and subform (eq? x subform))))
                    (find-location file top (lambda (x) (and form (eq? x form))))
                    (and (not precise?) (pair? form) (symbol? (car form))
                         (find-call file top (list (car form)) (lambda (a) #t) #f)))))))
   ((exception-with-message? e)
    (let* ((msg (exception-message e))
           (irritants (if (exception-with-irritants? e) (exception-irritants e) '()))
           (origin (origin-text e))
           (text (safe-format msg irritants)))
      (cond
       ((and (eq? (exception-kind e) 'misc-error) (not origin))
        ;; (error "message" irritant ...)
        (values text
                (lambda (file form precise?)
                  (find-call file form '(error scm-error throw)
                             (lambda (arg) (and (pair? irritants)
                                                (equal? arg (car irritants))))
                             precise?))))
       (origin
        (values (string-append "in " origin ": " text)
                (lambda (file form precise?)
                  (and (not precise?)
                       (find-call file form (list (string->symbol origin)) (lambda (a) #t)
                                  #f)))))
       (else (values text no-locator)))))
   (else
    (values (simple-format #f "~A: ~S" (exception-kind e) (exception-args e))
            no-locator))))

;;; ---- loading a configuration file ---------------------------------------------------

(define (skip-blanks port)
  (let ((c (peek-char port)))
    (cond ((eof-object? c) c)
          ((char-whitespace? c) (read-char port) (skip-blanks port))
          ((char=? c #\;)
           (let line ((c (read-char port)))
             (unless (or (eof-object? c) (char=? c #\newline))
               (line (read-char port))))
           (skip-blanks port))
          (else c))))

;; Guile's read errors read "FILE:LINE:COL: what"; keep its position unless the reader
;; only noticed the problem at the end of the file, where the form that started at
;; START is the one left open.
(define (describe-read-error e file start eof-line)
  (let* ((text (safe-format (exception-message e)
                            (if (exception-with-irritants? e) (exception-irritants e) '())))
         (prefix (string-append file ":"))
         (plen (string-length prefix))
         (body (if (and (> (string-length text) plen)
                        (string=? (substring text 0 plen) prefix))
                   (substring text plen)
                   text))
         ;; body is "LINE:COL: what" when Guile knew the position
         (c1 (string-index body #\:))
         (c2 (and c1 (string-index body #\: (+ c1 1))))
         (line (and c2 (string->number (substring body 0 c1))))
         (col (and c2 (string->number (substring body (+ c1 1) c2))))
         ;; Guile counts the column just past the offending character
         (where (if (and line col)
                    (location-text file (- line 1) (max 0 (- col 2)))
                    start))
         (what (if (and line col)
                   (string-trim (substring body (+ c2 1)))
                   body)))
    (cond
     ((string-contains text "end of input")
      (string-append start ": syntax error: this form is never closed (unbalanced "
                     "parenthesis or string): end of file reached at line "
                     (number->string eof-line)))
     ((string-contains text "unexpected \")\"")
      (string-append where ": syntax error: " what " (unbalanced parenthesis)"))
     (else (string-append where ": syntax error: " what)))))

;; A fresh module per file: it sees (guile), (compi), (compi trees), (compi defaults),
;; (compi topology), (compi hierarchy) and (compi wrappers).  `raise' is R7RS's raise, not the
;; signal-sending procedure of the same name in (guile).
(define (make-config-module)
  (let ((m (make-fresh-user-module)))
    (module-use! m (resolve-interface '(compi)))
    (module-use! m (resolve-interface '(compi trees)))
    (module-use! m (resolve-interface '(compi defaults)))
    (module-use! m (resolve-interface '(compi topology)))
    (module-use! m (resolve-interface '(compi hierarchy)))
    (module-use! m (resolve-interface '(compi wrappers)))
    (module-define! m 'raise raise-exception)
    m))

(define (load-forms port file module)
  (let loop ()
    (skip-blanks port)
    (let* ((start (location-text file (port-line port) (port-column port)))
           (form (with-exception-handler
                  (lambda (e)
                    (let drain ((c (read-char port)))
                      (unless (eof-object? c) (drain (read-char port))))
                    (describe-read-error e file start (+ (port-line port) 1)))
                  (lambda () (read port))
                  #:unwind? #t)))
      (cond
       ((string? form) (failed form))
       ((eof-object? form) (ok #t))
       (else
        (remember-form! file start form)
        (let ((err (with-exception-handler
                    (lambda (e)
                      (call-with-values (lambda () (describe e))
                        (lambda (text locator)
                          (string-append (or (locator file form #f) start) ": " text))))
                    (lambda ()
                      (parameterize ((current-config-origin start))
                        (eval form module))
                      #f)
                    #:unwind? #t)))
          (if err (failed err) (loop))))))))

;; Loads FILE in a fresh module: (#t . #t), or (#f . "config error: FILE:L:C: what").
(define (load-config file)
  (let ((result
         (with-exception-handler
          (lambda (e)
            (failed (string-append file ": cannot read: "
                                   (if (exception-with-message? e)
                                       (safe-format (exception-message e)
                                                    (if (exception-with-irritants? e)
                                                        (exception-irritants e)
                                                        '()))
                                       (call-with-values (lambda () (describe e))
                                         (lambda (text locator) text))))))
          (lambda ()
            (let ((port (open-input-file file)))
              (set-port-filename! port file)
              (let ((r (load-forms port file (make-config-module))))
                (close-port port)
                r)))
          #:unwind? #t)))
    (force-output (current-output-port))
    (force-output (current-error-port))
    (if (car result)
        result
        (failed (string-append "config error: " (cdr result))))))

;;; ---- calling Scheme from C ----------------------------------------------------------

(define (procedure-text proc)
  (let ((name (and (procedure? proc) (procedure-name proc))))
    (if name
        (simple-format #f "procedure ~A" name)
        (simple-format #f "~S" proc))))

;; Applies PROC to ARGS with every exception caught: (#t . value), or (#f . message) where
;; MESSAGE is (on-error TEXT RUNNING WHERE): TEXT says what went wrong, RUNNING is the
;; creator running when it was raised, as (kind . entry), or #f, and WHERE the
;; "file:line:col" in a config of the subform that raised, or #f (LOCATE finds it, given
;; the locator of describe and RUNNING; by default in the forms of the running creator).
;; The handler runs where the exception was raised, before unwinding, so it still sees
;; which creator was running; then it escapes to the prompt.  TAG, optional: a prompt tag
;; made once by a caller that runs often (a nested guarded-apply with the same tag
;; installs the innermost prompt, which its abort reaches first).
(define* (guarded-apply proc args on-error #:optional (locate creator-location)
                        (tag (make-prompt-tag "compi-safe-apply")))
  (let ()
    (call-with-prompt tag
      (lambda ()
        (with-exception-handler
         (lambda (e)
           (abort-to-prompt
            tag
            (if (creator-error? e)
                (creator-error-message e)
                (call-with-values (lambda () (describe e))
                  (lambda (text locator)
                    (let ((running (current-creator)))
                      (on-error text running (locate locator running))))))))
         (lambda ()
           (call-with-values (lambda () (apply proc args))
             (lambda vals (ok (if (= (length vals) 1) (car vals) vals)))))))
      (lambda (k message) (failed message)))))

;; " at FILE:L:C" or ""
(define (at-text where)
  (if where (string-append " at " where) ""))

;; (#t . value) or
;; (#f . "in creator NAME (KIND, installed at FILE:L:C) at FILE:L:C: what went wrong")
(define (safe-apply proc args)
  (guarded-apply proc args
                 (lambda (text running where)
                   (string-append "in " (if running
                                            (creator-text (car running) (cdr running))
                                            (procedure-text proc))
                                  (at-text where) ": " text))
                 (lambda (locator running)
                   (if running
                       (creator-location locator running)
                       (procedure-location locator proc #f)))))

(define (creator-count kind)
  (ok (length (installed-creators kind))))

;; "NAME (installed at FILE:L:C)" of the I-th creator of KIND, latest first.
(define (creator-description kind i)
  (let ((e (list-ref (installed-creators kind) i)))
    (ok (string-append (symbol->string (creator-entry-name e))
                       (let ((origin (creator-entry-origin e)))
                         (if origin (string-append " (installed at " origin ")") ""))))))

;;; ---- building closures ----------------------------------------------------------------

(define (kind-number kind)
  (let loop ((ks collective-kinds) (i 0))
    (if (eq? (car ks) kind) i (loop (cdr ks) (+ i 1)))))

;; The error raised while lowering: the message names the creator that built DESC.
(define (lowering-error desc fmt . args)
  (raise-exception
   (make-creator-error
    (string-append (or (description-origin desc) "a creator") " returned "
                   (description->string desc) ": " (apply simple-format #f fmt args)))))

;;; ---- lowered descriptions -----------------------------------------------------------

;; What C reads (scheme/bridge_closure.c), one record type per kind of closure; C finds
;; the fields by name and checks at start-up that they are there (bridge_layout.c), and
;; dispatches on the type.  KIND is the index in collective-kinds (coll_kind_t), ORIGIN
;; "creator NAME (...) returned DESC".
;;   native     the algorithm's name (a string), fanout, segsize, ranks (a list)
;;   tree       the tree of (compi trees) as the creator gave it: C validates it for the
;;              call (topo_tree_validate, coll_tree_check_call), once
;;   exchange   the groups (lists of ranks) and their trees (one per group, over its
;;              positions) as the creator gave them: C checks them and maps the trees
;;              to communicator ranks
;;   wrapper    profiling or tracing around INNER, itself lowered
;;   scheme     a Scheme closure's procedure and its name
;;   schedule   C asks schedule-steps for the steps, with the call's count in elements,
;;              which only C knows (scheme/bridge_sched.c)
(define <lowered-native>
  (make-record-type 'lowered-native '(kind algorithm fanout segsize ranks origin)))
(define <lowered-tree> (make-record-type 'lowered-tree '(kind tree segsize hosts origin)))
(define <lowered-exchange>
  (make-record-type 'lowered-exchange '(kind groups trees segsize origin)))
(define <lowered-wrapper> (make-record-type 'lowered-wrapper '(what inner origin)))
;; OVER: the label of the description a wrapper runs ("allreduce:ring"), or ""; OVER-DESC
;; that description (what `next' gave the creator, what run-closure will be given), or #f;
;; OVER-LOWERED it lowered for the call, or #f (C builds it at the miss and signs the
;; wrapper with it)
(define <lowered-scheme>
  (make-record-type 'lowered-scheme '(kind procedure name origin over over-desc over-lowered)))
(define <lowered-schedule>
  (make-record-type 'lowered-schedule '(kind name description origin)))

;; The lowered description as tools read it (compi-tree's (compi tree-tool), tests): the
;; vectors
;;   #(native KIND "algo" FANOUT SEGSIZE ORIGIN)
;;   #(tree KIND SIZE ROOT PARENTS ORDER SEGSIZE ORIGIN)
;;   #(exchange KIND SIZE NGROUPS GROUP-OF COORDS PARENTS ORDER SEGSIZE ORIGIN)
;;   #(profiling INNER ORIGIN)  #(tracing INNER ORIGIN)
;;   #(scheme KIND PROCEDURE "NAME" ORIGIN "OVER")
;;   #(schedule KIND "NAME" DESC ORIGIN)
;; ORDER lists the root (each group's coordinator), then every rank's children in
;; serving order.  An exchange's groups and trees are checked and mapped by the C that
;; the bridge uses (%exchange-forest, scheme/tree_ext.c); a message from it is raised as
;; an error of the creator that returned DESC.  A tree is not validated here: the tools
;; validate it for the call as the library does.
(define (lowered->vector x call)
  (let ((rtd (record-type-descriptor x)))
    (define (get f) ((record-accessor rtd f) x))
    (cond
     ((eq? rtd <lowered-native>)
      (vector 'native (get 'kind) (get 'algorithm) (get 'fanout) (get 'segsize) (get 'ranks)
              (get 'origin)))
     ((eq? rtd <lowered-tree>)
      (unless (tree? (get 'tree))
        ;; the words of bridge_closure.c, which never sees this view
        (raise-exception
         (make-creator-error (string-append (get 'origin) ": " (value-text (get 'tree))
                                            " is not a tree of (compi trees)"))))
      (let* ((t (get 'tree)) (size (tree-size t)) (order (make-vector size -1)))
        (let fill ((r 0) (n 0) (kids (list (tree-root t))))
          (cond ((and (pair? kids) (< n size))
                 (vector-set! order n (car kids))
                 (fill r (+ n 1) (cdr kids)))
                ((< r size) (fill (+ r 1) n (tree-children t r)))))
        (vector 'tree (get 'kind) size (tree-root t) (tree-parents t) order (get 'segsize)
                (get 'origin))))
     ((eq? rtd <lowered-exchange>)
      (let* ((groups (get 'groups))
             (trees (get 'trees))
             (args (if (list? trees)
                       (map (lambda (t)
                              (if (tree? t)
                                  (vector (tree-size t) (tree-root t) (tree-parents t)
                                          (list->vector (map (lambda (r) (tree-children t r))
                                                             (iota (tree-size t)))))
                                  t))
                            trees)
                       trees))
             (forest ((%compi-primitive '%exchange-forest) groups args (call-size call))))
        (when (string? forest)
          (raise-exception (make-creator-error (string-append (get 'origin) ": " forest))))
        (vector 'exchange (get 'kind) (call-size call) (length groups)
                (vector-ref forest 0) (vector-ref forest 1) (vector-ref forest 2)
                (vector-ref forest 3) (get 'segsize) (get 'origin))))
     ((eq? rtd <lowered-wrapper>)
      (vector (get 'what) (lowered->vector (get 'inner) call) (get 'origin)))
     ((eq? rtd <lowered-scheme>)
      (vector 'scheme (get 'kind) (get 'procedure) (get 'name) (get 'origin) (get 'over)))
     (else
      (vector 'schedule (get 'kind) (get 'name) (get 'description) (get 'origin))))))

;; Trees and groups go to C as the creator gave them: C checks them, once, for the call,
;; in the words of topo_tree_validate, bridge_groups_in and coll_exchange_validate
;; (scheme/bridge_closure.c, scheme/tree_ext.c): a tree-closure's tree must fit the call;
;; an exchange's groups must hold every rank once, and each group's tree must fit its
;; group, over its positions, rooted at the coordinator.

;; The description, lowered for C (see "lowered descriptions" above).
(define (lower desc call)
  (let ((origin (string-append (or (description-origin desc) "a creator") " returned "
                               (description->string desc))))
    (cond
     ((native? desc)
      ((record-constructor <lowered-native>) (kind-number (native-kind desc))
       (symbol->string (native-algorithm desc)) (native-fanout desc) (native-segsize desc)
       (native-ranks desc) origin))
     ((tree-closure? desc)
      ((record-constructor <lowered-tree>) (kind-number (tree-closure-kind desc))
       (tree-closure-tree desc) (tree-closure-segsize desc) (tree-closure-hosts desc) origin))
     ((exchange-closure? desc)
      ((record-constructor <lowered-exchange>) (kind-number (exchange-closure-kind desc))
       (exchange-closure-groups desc) (exchange-closure-trees desc)
       (exchange-closure-segsize desc) origin))
     ((schedule? desc)
      ((record-constructor <lowered-schedule>) (kind-number (schedule-kind desc))
       (schedule-name desc) desc origin))
     ((wrapper? desc)
      ((record-constructor <lowered-wrapper>) (wrapper-what desc)
       (lower (wrapper-inner desc) call) origin))
     (else
      (let ((proc (scheme-closure-procedure desc))
            (over (scheme-closure-over desc)))
        ((record-constructor <lowered-scheme>) (kind-number (call-kind call)) proc
         (let ((name (procedure-name proc)))
           (if name (symbol->string name) "anonymous"))
         origin
         (if over (description-label over (call-kind call)) "")
         over
         (and over (lower over call))))))))

;; A short name of DESC, as the closure it lowers to is named ("allreduce:ring",
;; "bcast:tree", "profile(allreduce:ring)"); KIND where DESC does not say.
(define (description-label desc kind)
  (cond ((native? desc)
         (simple-format #f "~A:~A" (native-kind desc) (native-algorithm desc)))
        ((tree-closure? desc) (simple-format #f "~A:tree" (tree-closure-kind desc)))
        ((exchange-closure? desc) (simple-format #f "~A:exchange" (exchange-closure-kind desc)))
        ((schedule? desc)
         (simple-format #f "~A:schedule(~A)" (schedule-kind desc) (schedule-name desc)))
        ((wrapper? desc)
         (simple-format #f "~A(~A)" (wrapper-what desc)
                        (description-label (wrapper-inner desc) kind)))
        ((scheme-closure? desc)
         (let ((name (procedure-name (scheme-closure-procedure desc))))
           (simple-format #f "~A:scheme(~A)" kind (or name "anonymous"))))
        (else (description->string desc))))

;; The trampoline's miss path: runs the creators for CALL (a call record filled by the
;; bridge) and lowers the description, in one call from C.  (#t . LOWERED), or (#f .
;; "creator NAME (KIND, installed at FILE:L:C) ... (call: bcast root=0 bytes=8
;; comm=...)"); when the creator raised, "... failed at FILE:L:C: what", the subform of
;; the config that raised (in the creator's own forms, or a helper's: see run-location).
;; The call's text is made only for a message: C asks call-text when its own checks of
;; LOWERED fail.
(define (build-lowered-for call)
  (build call (lambda (lowered) lowered) (lambda (lowered) lowered)))

;; The same for tools: (#t . (VECTORS . "call text")), LOWERED as the vectors of
;; lowered->vector.
(define (build-closure-for call)
  (build call (lambda (lowered) (lowered->vector lowered call))
         (lambda (vectors) (cons vectors (call->string call)))))

(define build-tag (make-prompt-tag "compi-build"))

(define (build call view answer)
  (let ((r (guarded-apply
            (lambda () (view (lower (run-creators call) call)))
            '()
            (lambda (what running where)
              (if running
                  (string-append (creator-text (car running) (cdr running)) " failed"
                                 (at-text where) ": " what)
                  what))
            creator-location
            build-tag)))
    (if (car r)
        (ok (answer (cdr r)))
        (failed (string-append (cdr r) " (call: " (call->string call) ")")))))

;; "bcast root=0 bytes=8 comm=..." of a call record, for C's messages about a lowered
;; description it refuses: (#t . text)
(define (call-text call)
  (ok (call->string call)))

;; A Scheme closure's procedure applied to the call: (#t . #t) or
;; (#f . "what went wrong (call: ...)"), "at FILE:L:C: what ..." when the subform that
;; raised is found (in the forms defining the procedure, by its name, first).  It runs on every call the closure serves, so
;; it is guarded-apply made lean: one prompt tag for every run (a nested run's prompt is
;; the innermost, so an abort reaches its own), its value ignored.
(define run-tag (make-prompt-tag "compi-run-scheme-closure"))
(define run-ok (ok #t))

(define (run-scheme-closure proc call)
  (call-with-prompt run-tag
    (lambda ()
      (with-exception-handler
       (lambda (e)
         (abort-to-prompt
          run-tag
          (if (creator-error? e)
              (creator-error-message e)
              (call-with-values (lambda () (describe e))
                (lambda (text locator)
                  (let ((where (procedure-location locator proc #f)))
                    (if where (string-append "at " where ": " text) text)))))))
       (lambda () (proc call) run-ok)))
    (lambda (k message)
      (failed (string-append message " (call: " (call->string call) ")")))))

;; What run-closure builds at its first use on a description inside a Scheme closure
;; (scheme/bridge_closure.c): DESC checked to be a description for CALL's kind, then
;; lowered as at a miss.  (#t . LOWERED), or (#f . "what is wrong"), naming the creator
;; that returned DESC when one did.
(define (lower-for-run desc call)
  (guarded-apply
   (lambda ()
     (unless (closure-description? desc)
       (raise-exception
        (make-creator-error
         (simple-format #f "expects a closure description (what `next' returned), got: ~A~A"
                        (value-text desc)
                        (if (procedure? desc)
                            " (a procedure is a Scheme closure: call it on the call)"
                            "")))))
     (let ((kind (description-kind desc (call-kind call))))
       (unless (eq? kind (call-kind call))
         (lowering-error desc "a closure for ~A cannot run a ~A call" kind (call-kind call))))
     (lower desc call))
   '()
   (lambda (what running where) what)))

;; The thunks of at-finalize, each caught: (#t . #t), or (#f . "the first failure").
(define (run-finalize-hooks)
  (let loop ((hooks (registered-finalize-hooks)) (err #f))
    (if (null? hooks)
        (if err (failed err) (ok #t))
        (let* ((thunk (caar hooks)) (where (cdar hooks))
               (r (guarded-apply thunk '()
                                 (lambda (what running where)
                                   (if where (string-append "at " where ": " what) what))
                                 (lambda (locator running)
                                   (procedure-location locator thunk where)))))
          (force-output (current-output-port))
          (force-output (current-error-port))
          (loop (cdr hooks)
                (or err
                    (and (not (car r))
                         (string-append "the at-finalize thunk"
                                        (if where (string-append " registered at " where) "")
                                        " failed: " (cdr r)))))))))

;;; ---- schedules --------------------------------------------------------------------

;; A schedule (docs/scheme-api.md, "Schedules") is checked here, once per miss, for
;; every rank: the builder runs for each (rank size count), each step is read and
;; range-checked against the buffers that rank has, and every send is paired with a
;; receive of the same count, round by round, in order per (source, destination).  A
;; schedule that passes cannot deadlock: in round K every rank posts exactly the
;; transfers the others expect of it in round K.
;;
;;
;; A step may carry #:name and #:after (docs/scheme-api.md): then it starts once the
;; steps of its round it names are complete.  A round with such steps is checked further
;; (sched-check-deps): every two steps that touch the same elements, one writing, are
;; ordered; two transfers to or from one peer are posted in the order written (messages
;; match in posting order); and running every rank's round against the others, with a
;; send complete only once its receive is posted, completes every step (no cycle of
;; waits across ranks).
;;
;; The steps go to C (scheme/bridge_sched.c) as one flat vector per rank, 7 integers a
;; record, CODE PEER BUF OFF COUNT BUF2 OFF2 (BUF: 0 send, 1 recv, 2+K (scratch K);
;; reduce and copy: BUF OFF are where from, BUF2 OFF2 where into), code 4 ending a
;; round, code 5 (PEER: the number of a record of this rank's vector) making the next
;; step wait for that one.

(define sched-codes '((send . 0) (recv . 1) (reduce . 2) (copy . 3)))
(define sched-end-of-round 4)
(define sched-after 5)

;; a parsed step: #(CODE PEER BUF OFF COUNT BUF2 OFF2 DATUM NAME AFTER DEPS), AFTER the
;; names it waits for, DEPS their places in its round
(define (sched-step code peer buf off count buf2 off2 datum)
  (vector code peer buf off count buf2 off2 datum #f '() '()))
(define (step-code s) (vector-ref s 0))
(define (step-peer s) (vector-ref s 1))
(define (step-buf s) (vector-ref s 2))
(define (step-off s) (vector-ref s 3))
(define (step-count s) (vector-ref s 4))
(define (step-buf2 s) (vector-ref s 5))
(define (step-off2 s) (vector-ref s 6))
(define (step-datum s) (vector-ref s 7))
(define (step-name s) (vector-ref s 8))
(define (step-after s) (vector-ref s 9))
(define (step-deps s) (vector-ref s 10))
(define (step-local? s) (>= (step-code s) 2))

;; a step's fields and its options: (values FIELDS NAME AFTER)
(define (step-options datum where)
  (define (bad what)
    (sched-fail "~A: ~S: ~A (a step's options: #:name SYMBOL, #:after (SYMBOL ...))" where
                datum what))
  (let split ((xs datum) (acc '()))
    (cond ((null? xs) (values (reverse acc) #f '()))
          ((not (keyword? (car xs))) (split (cdr xs) (cons (car xs) acc)))
          (else
           (let opts ((xs xs) (name #f) (after '()))
             (cond ((null? xs) (values (reverse acc) name after))
                   ((or (not (keyword? (car xs))) (null? (cdr xs)))
                    (bad (simple-format #f "~S is no option" (car xs))))
                   ((eq? (car xs) #:name)
                    (unless (symbol? (cadr xs))
                      (bad (simple-format #f "#:name takes a symbol, not ~S" (cadr xs))))
                    (opts (cddr xs) (cadr xs) after))
                   ((eq? (car xs) #:after)
                    (let ((a (if (symbol? (cadr xs)) (list (cadr xs)) (cadr xs))))
                      (unless (and (list? a) (and-map symbol? a))
                        (bad (simple-format #f "#:after takes step names, not ~S" (cadr xs))))
                      (opts (cddr xs) name (append after a))))
                   (else (bad (simple-format #f "~S is no option" (car xs))))))))))

(define (sched-fail fmt . args)
  (raise-exception (make-creator-error (apply simple-format #f fmt args))))

;; the elements the send and the receive buffer hold on RANK: (send . recv)
(define (sched-sizes kind rank size root n)
  (case kind
    ((barrier) '(0 . 0))
    ((bcast allreduce) (cons n n))
    ((reduce) (cons n (if (eqv? rank root) n 0)))
    ((allgather) (cons n (* n size)))
    (else (cons (* n size) (* n size)))))     ; alltoall

(define (buffer-text id)
  (case id
    ((0) "send")
    ((1) "recv")
    (else (simple-format #f "(scratch ~A)" (- id 2)))))

;; the names of a round's steps, and their #:after turned into places (step-deps)
(define (sched-resolve steps where)
  (let each ((ss steps) (i 0) (names '()))
    (when (pair? ss)
      (let ((s (car ss)))
        (vector-set! s 10
                     (map (lambda (name)
                            (or (assq-ref names name)
                                (sched-fail "~A: ~S: #:after ~A names no step written before it in \
its round" where (step-datum s) name)))
                          (step-after s)))
        (when (and (step-name s) (assq (step-name s) names))
          (sched-fail "~A: ~S: the name ~A is taken by an earlier step of its round" where
                      (step-datum s) (step-name s)))
        (each (cdr ss) (+ i 1) (if (step-name s) (acons (step-name s) i names) names))))))

;; the elements a step touches: ((BUF OFF COUNT WRITES?) ...)
(define (step-ranges s)
  (case (step-code s)
    ((0) (list (list (step-buf s) (step-off s) (step-count s) #f)))
    ((1) (list (list (step-buf s) (step-off s) (step-count s) #t)))
    (else (list (list (step-buf s) (step-off s) (step-count s) #f)
                (list (step-buf2 s) (step-off2 s) (step-count s) #t)))))

;; A round with #:after (#f for one without): each step's ancestors, a bit set of the
;; steps complete before it starts (its #:after, theirs, ...; for a reduce or copy
;; without #:after, every transfer of the round and every local step before it); then
;; the checks of the header.  A transfer may not wait for a local step without #:after:
;; that one waits for every transfer.
(define (sched-check-deps steps where)
  (and
   (any (lambda (s) (pair? (step-deps s))) steps)
   (let* ((sv (list->vector steps))
          (n (vector-length sv))
          (late (make-vector n #f))
          (anc (make-vector n 0)))
     (define (plain-local? i)
       (let ((s (vector-ref sv i))) (and (step-local? s) (null? (step-deps s)))))
     (define (before i) (logior (ash 1 i) (vector-ref anc i)))
     (define (of-deps i) (fold (lambda (d acc) (logior acc (before d))) 0
                               (step-deps (vector-ref sv i))))
     (define (ordered? i j) (logbit? i (vector-ref anc j)))
     (do ((i 0 (+ i 1))) ((= i n))
       (let ((s (vector-ref sv i)))
         (vector-set! late i (or (plain-local? i)
                                 (any (lambda (d) (vector-ref late d)) (step-deps s))))
         (when (and (vector-ref late i) (not (step-local? s)))
           (sched-fail "~A: ~S waits, through #:after, for a reduce or copy without #:after, \
which runs only once every transfer of its round is complete: give that step an #:after" where
                       (step-datum s)))
         (unless (vector-ref late i)
           (vector-set! anc i (of-deps i)))))
     (let ((xfers (fold (lambda (i acc)
                          (if (step-local? (vector-ref sv i)) acc (logior acc (before i))))
                        0 (iota n))))
       (do ((i 0 (+ i 1))) ((= i n))
         (when (vector-ref late i)
           (vector-set! anc i
                        (if (plain-local? i)
                            (fold (lambda (l acc)
                                    (if (step-local? (vector-ref sv l)) (logior acc (before l)) acc))
                                  xfers (iota i))
                            (of-deps i))))))
     (do ((j 0 (+ j 1))) ((= j n))
       (do ((i 0 (+ i 1))) ((= i j))
         (let ((a (vector-ref sv i)) (b (vector-ref sv j)))
           (unless (ordered? i j)
             (for-each
              (lambda (ra)
                (for-each
                 (lambda (rb)
                   (when (and (= (car ra) (car rb)) (or (cadddr ra) (cadddr rb))
                              (> (caddr ra) 0) (> (caddr rb) 0)
                              (< (cadr ra) (+ (cadr rb) (caddr rb)))
                              (< (cadr rb) (+ (cadr ra) (caddr ra))))
                     (sched-fail "~A: ~S and ~S touch the same elements of ~A in one round, one \
of them writing, and no #:after orders them" where (step-datum a) (step-datum b)
                                 (buffer-text (car ra)))))
                 (step-ranges b)))
              (step-ranges a))
             ;; messages to or from one peer match in the order they are posted
             (when (and (= (step-code a) (step-code b)) (< (step-code a) 2)
                        (= (step-peer a) (step-peer b))
                        (not (every (lambda (d) (ordered? d j)) (step-deps a))))
               (sched-fail "~A: ~S may be posted before ~S, to or from the same rank (messages \
between two ranks match in the order they are posted): make it wait for what that one waits \
for" where (step-datum b) (step-datum a)))))))
     #t)))

;; Round K run on every rank at once, a transfer complete only once its partner is posted
;; (the k-th send from r to d meets the k-th receive from r on d, as sched-pair checks):
;; a step that never completes is a cycle of waits across ranks.  ROUND-OF gives a rank's
;; steps of round K.
(define (sched-run-round round-of size k)
  (define (per-step x) (list->vector (map (lambda (r) (make-vector (length (round-of r)) x))
                                          (iota size))))
  (let* ((sv (list->vector (map (lambda (r) (list->vector (round-of r))) (iota size))))
         (st (per-step 0))
         (partner (per-step #f))
         (queues (make-hash-table)))
    (define (state r i) (vector-ref (vector-ref st r) i))
    (define (set-state! r i x) (vector-set! (vector-ref st r) i x))
    ;; pair the transfers: key (src dst) -> sends, then receives, in order
    (do ((r 0 (+ r 1))) ((= r size))
      (let ((v (vector-ref sv r)))
        (do ((i 0 (+ i 1))) ((= i (vector-length v)))
          (let ((s (vector-ref v i)))
            (when (< (step-code s) 2)
              (let ((key (if (= (step-code s) 0)
                             (list 'send r (step-peer s))
                             (list 'recv (step-peer s) r))))
                (hash-set! queues key (cons (cons r i) (hash-ref queues key '())))))))))
    (hash-for-each
     (lambda (key l)
       (when (eq? (car key) 'send)
         (for-each (lambda (a b)
                     (vector-set! (vector-ref partner (car a)) (cdr a) b)
                     (vector-set! (vector-ref partner (car b)) (cdr b) a))
                   (reverse l) (reverse (hash-ref queues (cons 'recv (cdr key)) '())))))
     queues)
    (let loop ()
      (let ((changed #f))
        (do ((r 0 (+ r 1))) ((= r size))
          (let* ((v (vector-ref sv r)) (n (vector-length v)))
            (let each ((i 0) (locals #f))
              (when (< i n)
                (let ((s (vector-ref v i)))
                  (when (and (= (state r i) 0)
                             (if (pair? (step-deps s))
                                 (every (lambda (d) (= (state r d) 2)) (step-deps s))
                                 (or (not (step-local? s))
                                     (and (not locals)
                                          (let xf ((j 0))
                                            (or (= j n)
                                                (and (or (step-local? (vector-ref v j))
                                                         (= (state r j) 2))
                                                     (xf (+ j 1)))))))))
                    (set-state! r i (if (step-local? s) 2 1))
                    (set! changed #t))
                  (let ((p (vector-ref (vector-ref partner r) i)))
                    (when (and (= (state r i) 1) p (>= (state (car p) (cdr p)) 1))
                      (set-state! r i 2)
                      (set-state! (car p) (cdr p) 2)
                      (set! changed #t)))
                  (each (+ i 1) (or locals (and (step-local? s) (< (state r i) 2)))))))))
        (when changed (loop))))
    (do ((r 0 (+ r 1))) ((= r size))
      (let ((v (vector-ref sv r)))
        (do ((i 0 (+ i 1))) ((= i (vector-length v)))
          (unless (= (state r i) 2)
            (sched-fail "rank ~A, round ~A: ~S never completes: the ranks' #:after wait for \
each other (a cycle across ranks)" r k (step-datum (vector-ref v i)))))))))

;; one rank's rounds, read and checked: (values SCRATCH-SIZES ROUNDS), ROUNDS a list of
;; lists of parsed steps
(define (sched-read-rank desc kind rank size root n)
  (let* ((answer ((schedule-builder desc) rank size n))
         (where (lambda (k) (simple-format #f "rank ~A, round ~A" rank k))))
    (unless (list? answer)
      (sched-fail "rank ~A: the builder returned ~A, not a list of rounds" rank
                  (value-text answer)))
    (let* ((decl (and (pair? answer) (pair? (car answer)) (eq? (caar answer) 'scratch)
                      (car answer)))
           (rounds (if decl (cdr answer) answer))
           (scratch (if decl (cdr decl) '()))
           (sizes (sched-sizes kind rank size root n)))
      (unless (and (list? scratch)
                   (let each ((xs scratch))
                     (or (null? xs)
                         (and (exact-integer? (car xs)) (>= (car xs) 0) (each (cdr xs))))))
        (sched-fail "rank ~A: ~S: scratch sizes must be non-negative integers (elements)"
                    rank decl))
      (let ((scratchv (list->vector scratch)))
        (define (size-of id)
          (case id
            ((0) (car sizes))
            ((1) (cdr sizes))
            (else (vector-ref scratchv (- id 2)))))
        (define (buffer-id x k datum)
          (cond ((eq? x 'send) 0)
                ((eq? x 'recv) 1)
                ((and (list? x) (= (length x) 2) (eq? (car x) 'scratch)
                      (exact-integer? (cadr x)) (< -1 (cadr x) (vector-length scratchv)))
                 (+ 2 (cadr x)))
                ((and (pair? x) (eq? (car x) 'scratch))
                 (sched-fail "~A: ~S: ~S names no declared scratch buffer (this rank \
declares ~A: (scratch N ...) before the rounds)" (where k) datum x (vector-length scratchv)))
                (else
                 (sched-fail "~A: ~S: ~S is not a buffer: send, recv or (scratch K)"
                             (where k) datum x))))
        (define (in-range id off count k datum)
          (unless (and (exact-integer? off) (>= off 0) (exact-integer? count) (>= count 0))
            (sched-fail "~A: ~S: offsets and counts must be non-negative integers" (where k)
                        datum))
          (when (> (+ off count) (size-of id))
            (sched-fail "~A: ~S: elements ~A..~A of ~A are out of range: it holds ~A \
element~A on rank ~A (count ~A)" (where k) datum off (- (+ off count) 1) (buffer-text id)
                        (size-of id) (if (= (size-of id) 1) "" "s") rank n)))
        (define (writable id k datum)
          (when (= id 0)
            (sched-fail "~A: ~S: writes the send buffer, which is read-only" (where k) datum)))
        (define (parse datum k)
          (let ((code (and (pair? datum) (list? datum) (assq-ref sched-codes (car datum)))))
            (unless code
              (sched-fail "~A: ~S is not a step: (send PEER BUF OFF COUNT), (recv PEER BUF \
OFF COUNT), (reduce FROM OFF INTO OFF COUNT) or (copy FROM OFF TO OFF COUNT)" (where k) datum))
            (call-with-values (lambda () (step-options datum (where k)))
              (lambda (fields name after)
                (let ((s (parse-fields fields datum code k)))
                  (vector-set! s 8 name)
                  (vector-set! s 9 after)
                  s)))))
        (define (parse-fields f datum code k)
          (case (car f)
            ((send recv)
             (let ((args (cdr f)))
               (unless (memv (length args) '(1 4))
                 (sched-fail "~A: ~S: expects (~A PEER BUF OFFSET COUNT) or (~A PEER)"
                             (where k) datum (car f) (car f)))
               (let ((peer (car args)))
                 (unless (and (exact-integer? peer) (< -1 peer size))
                   (sched-fail "~A: ~S: peer ~S is not a rank of 0..~A" (where k) datum
                               peer (- size 1)))
                 (if (= (length args) 1)
                     (sched-step code peer 1 0 0 0 0 datum)
                     (let ((id (buffer-id (cadr args) k datum))
                           (off (caddr args)) (count (cadddr args)))
                       (in-range id off count k datum)
                       (when (eq? (car f) 'recv) (writable id k datum))
                       (sched-step code peer id off count 0 0 datum))))))
            (else
             (unless (= (length f) 6)
               (sched-fail "~A: ~S: expects (~A FROM OFFSET ~A OFFSET COUNT)" (where k) datum
                           (car f) (if (eq? (car f) 'reduce) "INTO" "TO")))
             (when (and (eq? (car f) 'reduce) (not (memq kind '(reduce allreduce))))
               (sched-fail "~A: ~S: ~A has no op to reduce with" (where k) datum kind))
             (let* ((from (buffer-id (list-ref f 1) k datum))
                    (foff (list-ref f 2))
                    (into (buffer-id (list-ref f 3) k datum))
                    (ioff (list-ref f 4))
                    (count (list-ref f 5)))
               (in-range from foff count k datum)
               (in-range into ioff count k datum)
               (writable into k datum)
               (when (and (= from into) (> count 0) (< foff (+ ioff count))
                          (< ioff (+ foff count))
                          (or (eq? (car f) 'reduce) (not (= foff ioff))))
                 (sched-fail "~A: ~S: the two ranges of ~A overlap" (where k) datum
                             (buffer-text from)))
               (sched-step code -1 from foff count into ioff datum)))))
        ;; a round: its transfers first, then its local steps; no two transfers of it
        ;; touch the same elements when one of them receives
        (define (read-round round k)
          (unless (list? round)
            (sched-fail "~A: ~S is not a list of steps" (where k) round))
          (let ((steps (map (lambda (d) (parse d k)) round)))
            (sched-resolve steps (where k))
            (let order ((ss steps) (local #f))
              (when (pair? ss)
                (let ((s (car ss)))
                  (when (and local (< (step-code s) 2) (null? (step-deps s)))
                    (sched-fail "~A: ~S comes after ~S: a round posts its sends and receives \
first and runs its reduce and copy steps when they are complete; move it to a later round"
                                (where k) (step-datum s) (step-datum local)))
                  (order (cdr ss) (or local (and (>= (step-code s) 2) s))))))
            (or (sched-check-deps steps (where k))
             (let ((xfers (sort (filter (lambda (s) (and (< (step-code s) 2) (> (step-count s) 0)))
                                       steps)
                               (lambda (a b) (or (< (step-buf a) (step-buf b))
                                                 (and (= (step-buf a) (step-buf b))
                                                      (< (step-off a) (step-off b))))))))
              ;; sorted by buffer and offset: a transfer overlaps an earlier one iff it
              ;; starts before the furthest end seen in its buffer
              (let scan ((ss xfers) (buf -1) (far-all #f) (far-recv #f))
                (when (pair? ss)
                  (let* ((s (car ss))
                         (same (= (step-buf s) buf))
                         (far-all (and same far-all))
                         (far-recv (and same far-recv))
                         (end (+ (step-off s) (step-count s)))
                         (clash (cond ((and (= (step-code s) 1) far-all
                                            (< (step-off s) (car far-all)))
                                       (cdr far-all))
                                      ((and far-recv (< (step-off s) (car far-recv)))
                                       (cdr far-recv))
                                      (else #f))))
                    (when clash
                      (sched-fail "~A: ~S and ~S touch the same elements of ~A in one round, \
and one of them receives" (where k) (step-datum clash) (step-datum s) (buffer-text (step-buf s))))
                    (scan (cdr ss) (step-buf s)
                          (if (or (not far-all) (> end (car far-all))) (cons end s) far-all)
                          (if (and (= (step-code s) 1) (or (not far-recv) (> end (car far-recv))))
                              (cons end s)
                              far-recv)))))))
            steps))
        (values scratch
                (let each ((rs rounds) (k 0) (acc '()))
                  (if (null? rs)
                      (reverse acc)
                      (each (cdr rs) (+ k 1) (cons (read-round (car rs) k) acc)))))))))

;; every send of round K has a receive of the same count on its peer in round K, in
;; order per (source, destination), and the other way round; ALL holds each rank's rounds
;; as a vector
(define (sched-pair all size)
  (let ((nrounds (apply max 0 (map vector-length (vector->list all)))))
    (do ((k 0 (+ k 1))) ((= k nrounds))
      (let ((sends (make-hash-table)))
        (define (round-of r)
          (let ((rs (vector-ref all r)))
            (if (< k (vector-length rs)) (vector-ref rs k) '())))
        (do ((r 0 (+ r 1))) ((= r size))
          (for-each (lambda (s)
                      (when (= (step-code s) 0)
                        (let ((key (+ (* r size) (step-peer s))))
                          (hash-set! sends key (cons s (hash-ref sends key '()))))))
                    (round-of r)))
        (for-each (lambda (kl) (hash-set! sends (car kl) (reverse (cdr kl))))
                  (hash-map->list cons sends))
        (do ((d 0 (+ d 1))) ((= d size))
          (for-each
           (lambda (s)
             (when (= (step-code s) 1)
               (let* ((src (step-peer s))
                      (key (+ (* src size) d))
                      (l (hash-ref sends key '())))
                 (when (null? l)
                   (sched-fail "rank ~A, round ~A: ~S has no matching send: rank ~A sends \
rank ~A nothing more in round ~A" d k (step-datum s) src d k))
                 (unless (= (step-count (car l)) (step-count s))
                   (sched-fail "rank ~A, round ~A: ~S receives ~A element~A but rank ~A \
sends ~A with ~S" d k (step-datum s) (step-count s) (if (= (step-count s) 1) "" "s") src
                               (step-count (car l)) (step-datum (car l))))
                 (hash-set! sends key (cdr l)))))
           (round-of d)))
        (hash-for-each
         (lambda (key l)
           (when (pair? l)
             (sched-fail "rank ~A, round ~A: ~S has no matching receive: rank ~A posts no \
receive from rank ~A for it in round ~A" (quotient key size) k (step-datum (car l))
                         (remainder key size) (quotient key size) k)))
         sends)
        (when (any (lambda (r) (any (lambda (s) (pair? (step-deps s))) (round-of r)))
                   (iota size))
          (sched-run-round round-of size k))))))

(define (sched-flat rounds)
  (let ((acc '()) (n 0))
    (define (emit! . fields)
      (set! acc (append-reverse fields acc))
      (set! n (+ n 1)))
    (for-each (lambda (round)
                (let ((at (make-vector (length round) 0)))
                  (for-each (lambda (s i)
                              (for-each (lambda (d) (emit! sched-after (vector-ref at d) 0 0 0 0 0))
                                        (step-deps s))
                              (vector-set! at i n)
                              (emit! (step-code s) (step-peer s) (step-buf s) (step-off s)
                                     (step-count s) (step-buf2 s) (step-off2 s)))
                            round (iota (length round))))
                (emit! sched-end-of-round 0 0 0 0 0 0))
              rounds)
    (list->vector (reverse acc))))

;; Called by the bridge at the miss, with the call's count in elements (the key's bytes
;; over the element size: C knows it): (#t . #(SCRATCH STEPS)), one entry per rank in
;; each (SCRATCH: a vector of sizes, STEPS: the flat vector above), or
;; (#f . "what is wrong").
(define (schedule-steps desc call n)
  (let ((r (sched-steps desc call n)) (where (schedule-where desc)))
    (if (or (car r) (not where))
        r
        (failed (string-append "made at " where ": " (cdr r))))))

(define (sched-steps desc call n)
  (guarded-apply
   (lambda ()
     (let* ((size (call-size call))
            (kind (schedule-kind desc))
            (root (call-root call))
            (scratch (make-vector size #f))
            (all (make-vector size #f)))
       (do ((r 0 (+ r 1))) ((= r size))
         (call-with-values (lambda () (sched-read-rank desc kind r size root n))
           (lambda (sizes rounds)
             (vector-set! scratch r (list->vector sizes))
             (vector-set! all r (list->vector rounds)))))
       (sched-pair all size)
       (vector scratch (list->vector (map (lambda (rs) (sched-flat (vector->list rs)))
                                          (vector->list all))))))
   '()
   (lambda (what running where) (string-append "its builder failed" (at-text where) ": " what))
   (lambda (locator running)
     (procedure-location locator (schedule-builder desc)
                         (schedule-where desc)))))
