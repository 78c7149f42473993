;;; (compi topology) -- topology descriptions: values that split the ranks of a
;;; communicator into groups, by rank lists, IPv4 or IPv6 subnets, host names, hwloc
;;; places or any predicate, in as many nested levels as a machine room has (WAN ->
;;; cluster -> host -> NUMA node -> L3 cache).
;;;
;;;   (define sites (nested (by-subnets "10.1.0.0/24" "10.2.0.0/24") (by-host)))
;;;   (topology-groups sites ranks)
;;;     => (((0 1) (2 3))        cluster 10.1.0.0/24: host a holds 0 1, host b holds 2 3
;;;         ((4 5 6 7)))         cluster 10.2.0.0/24: host c holds 4..7
;;;
;;; RANKS is a vector of rank records of (compi) in communicator rank order: what
;;; (call-ranks call) returns (rank-world, rank-host, rank-addresses, rank-place), or
;;; records made by hand with make-rank, so descriptions can be tried without MPI.  Groups
;;; are lists of communicator ranks (ascending), ordered by their lowest rank; a nested
;;; description gives one more level of lists per level, every leaf at the same depth.
;;;
;;; Each level is checked while grouping: a rank that falls in two groups, or in none,
;;; raises an 'invalid-topology error naming the description and the rank, so a config
;;; that does not fit the machine fails where it is used instead of building a wrong tree.
;;;
;;; Loaded by MPI_Init with config files: it uses nothing but (guile).

(define-module (compi topology)
  #:use-module (compi)
  #:export (topology?
            topology->string
            topology-depth
            topology-groups
            group-ranks
            by-ranks
            by-comm-ranks
            by-world-ranks
            rank-range
            by-block
            by-subnets
            by-subnet-prefix
            by-host
            by-host-patterns
            by-hwloc-level
            by-predicates
            by-key
            nested
            parse-cidr
            parse-cidr6
            address-in-subnet?
            glob-match?))

;;; ---- rank records ---------------------------------------------------------------------

;; "rank 5 (host c, 10.3.0.7/24)", for error messages; "rank 1 (world rank 5, host c, ...)"
;; on a communicator where the two differ
(define (rank-text ranks i)
  (let ((r (vector-ref ranks i)))
    (simple-format #f "rank ~A (~Ahost ~A, addresses ~A~A)" i
                   (if (eqv? (rank-world r) i) ""
                       (simple-format #f "world rank ~A, " (rank-world r)))
                   (rank-host r)
                   (let ((as (rank-addresses r)))
                     (if (null? as) "none" (join ", " as)))
                   (let ((p (rank-place r)))
                     (if p (simple-format #f ", place ~A" p) "")))))

(define (join sep strs)
  (if (null? strs)
      ""
      (let loop ((acc (car strs)) (rest (cdr strs)))
        (if (null? rest) acc (loop (string-append acc sep (car rest)) (cdr rest))))))

;;; ---- addresses and glob helpers ------------------------------------------------------

(define (parse-ipv4 s)
  (let ((parts (string-split s #\.)))
    (and (= (length parts) 4)
         (let loop ((ps parts) (acc 0))
           (if (null? ps)
               acc
               (let ((p (car ps)))
                 (and (> (string-length p) 0) (<= (string-length p) 3)
                      (string-every char-numeric? p)
                      (let ((n (string->number p)))
                        (and (<= n 255) (loop (cdr ps) (+ (* acc 256) n)))))))))))

;; "1:2:ab" -> (1 2 171), 16-bit groups; a last part "a.b.c.d" (IPv4 in IPv6, when
;; DOTTED-OK) is two groups; "" -> ().  #f for anything else.
(define (parse-groups s dotted-ok)
  (if (string-null? s)
      '()
      (let loop ((parts (string-split s #\:)) (acc '()))
        (cond ((null? parts) (reverse acc))
              ((and dotted-ok (null? (cdr parts)) (string-index (car parts) #\.))
               (let ((v4 (parse-ipv4 (car parts))))
                 (and v4 (reverse (cons (logand v4 #xffff) (cons (ash v4 -16) acc))))))
              (else
               (let ((p (car parts)))
                 (and (<= 1 (string-length p) 4) (string-every char-set:hex-digit p)
                      (loop (cdr parts) (cons (string->number p 16) acc)))))))))

;; "fd00:1::5" -> the address as a 128-bit integer, or #f (the text forms of RFC 4291:
;; "::" once for one or more zero groups, a trailing dotted IPv4; no zone "%eth0")
(define (parse-ipv6 s)
  (let* ((dbl (string-contains s "::"))
         (groups
          (if dbl
              (let ((head (parse-groups (substring s 0 dbl) #f))
                    (tail (parse-groups (substring s (+ dbl 2)) #t)))
                (and head tail (not (string-contains s "::" (+ dbl 1)))
                     (< (+ (length head) (length tail)) 8)
                     (append head (make-list (- 8 (length head) (length tail)) 0) tail)))
              (let ((g (parse-groups s #t)))
                (and g (= (length g) 8) g)))))
    (and groups
         (let loop ((gs groups) (acc 0))
           (if (null? gs) acc (loop (cdr gs) (+ (* acc 65536) (car gs))))))))

;; "A/NN" (or a bare A: the whole address) with PARSE and at most BITS -> (ADDRESS . NN)
(define (parse-prefixed s parse bits)
  (and (string? s)
       (let* ((slash (string-index s #\/))
              (addr (parse (if slash (substring s 0 slash) s)))
              (len (if slash
                       (let ((t (substring s (+ slash 1))))
                         (and (> (string-length t) 0) (<= (string-length t) 3)
                              (string-every char-numeric? t)
                              (string->number t)))
                       bits)))
         (and addr len (<= len bits) (cons addr len)))))

;; "10.1.0.5/24" -> (ADDRESS . PREFIX) with ADDRESS a 32-bit integer; a bare address is
;; a /32.  #f for anything else (IPv6 addresses included: parse-cidr6).
(define (parse-cidr s)
  (parse-prefixed s parse-ipv4 32))

;; "fd00:1::5/64" -> (ADDRESS . PREFIX) with ADDRESS a 128-bit integer; a bare address
;; is a /128.  #f for anything else (IPv4 addresses included).
(define (parse-cidr6 s)
  (parse-prefixed s parse-ipv6 128))

;; (FAMILY ADDRESS . PREFIX), FAMILY ipv4 or ipv6, or #f
(define (parse-net s)
  (let ((v4 (parse-cidr s)))
    (if v4
        (cons 'ipv4 v4)
        (let ((v6 (parse-cidr6 s)))
          (and v6 (cons 'ipv6 v6))))))

(define (family-bits family) (if (eq? family 'ipv4) 32 128))

(define (prefix-mask family len)
  (let ((bits (family-bits family)))
    (ash (- (ash 1 len) 1) (- bits len))))

;; whether NET (from parse-net) holds the address of A (from parse-net)
(define (net-holds? net a)
  (and (eq? (car net) (car a))
       (let ((mask (prefix-mask (car net) (cddr net))))
         (= (logand (cadr a) mask) (logand (cadr net) mask)))))

;; Whether ADDRESS ("10.1.0.5/24", "fd00::5/64"; the interface's prefix is ignored) lies
;; in SUBNET ("10.1.0.0/16", "fd00::/48"; host bits of the subnet are ignored too).  An
;; address never lies in a subnet of the other family.  SUBNET may also be what
;; parse-cidr returns (IPv4).
(define (address-in-subnet? address subnet)
  (let ((a (parse-net address))
        (s (if (pair? subnet) (cons 'ipv4 subnet) (parse-net subnet))))
    (and a s (net-holds? s a))))

(define (net->string net)
  (let* ((family (car net)) (len (cddr net))
         (a (logand (cadr net) (prefix-mask family len))))
    (string-append
     (if (eq? family 'ipv4)
         (join "." (map (lambda (shift) (number->string (logand (ash a (- shift)) 255)))
                        '(24 16 8 0)))
         (join ":" (map (lambda (shift) (number->string (logand (ash a (- shift)) #xffff) 16))
                        '(112 96 80 64 48 32 16 0))))
     "/" (number->string len))))

;; 127.0.0.0/8, ::1 and (IPv6) fe80::/10: the same on every host, so no use for grouping
(define (loopback? net)
  (if (eq? (car net) 'ipv4)
      (= (ash (cadr net) -24) 127)
      (= (cadr net) 1)))
(define (link-local? net)
  (and (eq? (car net) 'ipv6) (= (ash (cadr net) -118) #x3fa)))

;; The main address of FAMILY of a rank: the first that is neither loopback nor
;; link-local, else the first that is not loopback, else the first; #f when it has none
(define (main-address r family)
  (let ((all (let loop ((as (rank-addresses r)) (acc '()))
               (cond ((null? as) (reverse acc))
                     ((parse-net (car as))
                      => (lambda (a)
                           (loop (cdr as) (if (eq? (car a) family) (cons a acc) acc))))
                     (else (loop (cdr as) acc))))))
    (define (first-where ok?)
      (let loop ((as all))
        (cond ((null? as) #f) ((ok? (car as)) (car as)) (else (loop (cdr as))))))
    (or (first-where (lambda (a) (not (or (loopback? a) (link-local? a)))))
        (first-where (lambda (a) (not (loopback? a))))
        (and (pair? all) (car all)))))

;; Shell-style glob: * matches any run of characters, ? any one character.
(define (glob-match? pattern s)
  (let ((plen (string-length pattern)) (slen (string-length s)))
    (let loop ((p 0) (i 0))
      (cond ((= p plen) (= i slen))
            ((char=? (string-ref pattern p) #\*)
             (or (loop (+ p 1) i) (and (< i slen) (loop p (+ i 1)))))
            ((= i slen) #f)
            ((or (char=? (string-ref pattern p) #\?)
                 (char=? (string-ref pattern p) (string-ref s i)))
             (loop (+ p 1) (+ i 1)))
            (else #f)))))

;;; ---- descriptions -----------------------------------------------------------------------

;; A description is a list of levels, outermost first.  A level either maps each rank to
;; a key (ranks with equal keys form a group; #f: the rank fits nowhere, with REASON) or
;; holds labelled matchers (each rank must match exactly one).  Procedures receive the
;; rank's index in the communicator and its record.
;; CHECK, when not #f, is (lambda (desc level ranks) ...), run on the whole communicator
;; before any grouping: it raises when the level does not fit it as a whole.
(define <level> (make-record-type 'topology-level '(text how proc reason check)))
(define %make-level (record-constructor <level>))
(define* (make-level text how proc reason #:optional (check #f))
  (%make-level text how proc reason check))
(define level-text (record-accessor <level> 'text))
(define level-how (record-accessor <level> 'how))
(define level-proc (record-accessor <level> 'proc))
(define level-reason (record-accessor <level> 'reason))
(define level-check (record-accessor <level> 'check))

(define <topology> (make-record-type 'topology '(text levels)))
(define make-topology (record-constructor <topology>))
(define topology? (record-predicate <topology>))
(define topology-text (record-accessor <topology> 'text))
(define topology-levels (record-accessor <topology> 'levels))

(define (check-topology who d)
  (unless (topology? d)
    (scm-error 'wrong-type-arg who "not a topology description: ~S" (list d) (list d))))

(define (topology->string d)
  (check-topology 'topology->string d)
  (topology-text d))

;; the number of levels: the depth of the lists topology-groups returns
(define (topology-depth d)
  (check-topology 'topology-depth d)
  (length (topology-levels d)))

(define (one-level text how proc reason)
  (make-topology text (list (make-level text how proc reason))))

;; (write-string x) without (ice-9 ...): ~S of simple-format
(define (form name . args)
  (string-append "(" name
                 (apply string-append (map (lambda (a) (simple-format #f " ~S" a)) args))
                 ")"))

(define (key-level text key reason)
  (one-level text 'key key reason))

(define (match-level text matchers)
  (one-level text 'match matchers #f))

;; (rank-range 0 3) => (0 1 2 3): inclusive, as "ranks 0-3" reads
(define (rank-range lo hi)
  (unless (and (exact-integer? lo) (exact-integer? hi) (<= 0 lo hi))
    (scm-error 'wrong-type-arg 'rank-range "expects 0 <= LO <= HI, got ~S ~S"
               (list lo hi) (list lo hi)))
  (iota (+ (- hi lo) 1) lo))

;; (by-ranks '(0 1 2) '(3 4) (rank-range 5 9)): explicit groups of communicator ranks (the
;; rank in the call's communicator, what (call-rank call) says); the same as
;; by-comm-ranks.  (by-world-ranks ...): the same with ranks in MPI_COMM_WORLD, so that a
;; description names the same processes on a split communicator.  A rank named twice is
;; an error when the description is made; a rank of the communicator in no group is an
;; error when it groups a communicator.  Communicator ranks are strict: a named rank past
;; the communicator's size is an error too, naming the ranks and the size, never a silent
;; regrouping.  World ranks describe processes (a machine map): on a communicator that
;; holds only some of them, each group keeps the members it has, and a group left empty
;; is dropped.
(define (explicit-ranks who world? groups)
  (for-each (lambda (g)
              (unless (and (list? g) (pair? g)
                           (let ok? ((g g))
                             (or (null? g)
                                 (and (exact-integer? (car g)) (>= (car g) 0) (ok? (cdr g))))))
                (scm-error 'wrong-type-arg who
                           "each group must be a non-empty list of ~A, got ~S"
                           (list (if world? "world ranks" "ranks") g) (list g))))
            groups)
  (let ((text (apply form (symbol->string who) groups))
        (seen (make-hash-table)))
    ;; a rank named twice: where first seen
    (for-each (lambda (g)
                (for-each (lambda (r)
                            (let ((first (hashv-ref seen r)))
                              (cond ((not first) (hashv-set! seen r g))
                                    ((eq? first g)
                                     (scm-error 'invalid-topology who
                                                "~A: ~A ~A is named twice in group ~S"
                                                (list text (if world? "world rank" "rank") r g)
                                                #f))
                                    (else
                                     (scm-error 'invalid-topology who
                                                "~A: ~A ~A is named twice, in two groups: ~S and ~S"
                                                (list text (if world? "world rank" "rank") r
                                                      first g)
                                                #f)))))
                          g))
              groups)
    (make-topology
     text
     (list (make-level text 'match
                       (map (lambda (g)
                              (cons (simple-format #f "~S" g)
                                    (if world?
                                        (lambda (i r) (memv (rank-world r) g))
                                        (lambda (i r) (memv i g)))))
                            groups)
                       #f
                       (and (not world?)
                            (lambda (d level ranks)
                              (check-named d level ranks
                                           (sort (hash-map->list (lambda (r g) r) seen) <)))))))))

;; NAMED (ascending communicator ranks) must all be ranks of the communicator RANKS
;; describes
(define (check-named d level ranks named)
  (let* ((size (vector-length ranks))
         (out (filter (lambda (r) (>= r size)) named)))
    (when (pair? out)
      (topology-error
       d level "~A ~A ~A not in this communicator (~A rank~A~A)"
       (if (pair? (cdr out)) "ranks" "rank")
       (numbers-text out)
       (if (pair? (cdr out)) "are" "is")
       size (if (= size 1) "" "s")
       (if (> size 0)
           (simple-format #f ": 0..~A, world ranks ~A" (- size 1)
                          (numbers-text (sort (map rank-world (vector->list ranks)) <)))
           "")))))

;; (1 2 3 7) -> "1-3, 7"
(define (numbers-text ns)
  (let loop ((ns ns) (acc '()))
    (if (null? ns)
        (join ", " (reverse acc))
        (let run ((hi (car ns)) (rest (cdr ns)))
          (if (and (pair? rest) (= (car rest) (+ hi 1)))
              (run (car rest) (cdr rest))
              (loop rest
                    (cons (if (= hi (car ns))
                              (number->string hi)
                              (simple-format #f "~A-~A" (car ns) hi))
                          acc)))))))

(define (by-ranks . groups) (explicit-ranks 'by-ranks #f groups))
(define (by-comm-ranks . groups) (explicit-ranks 'by-comm-ranks #f groups))
(define (by-world-ranks . groups) (explicit-ranks 'by-world-ranks #t groups))

;; (by-block 4): ranks 0-3, 4-7, ... (the communicator's order, as a launcher fills
;; hosts by slot)
(define (by-block k)
  (unless (and (exact-integer? k) (> k 0))
    (scm-error 'wrong-type-arg 'by-block "the block size must be a positive integer, got ~S"
               (list k) (list k)))
  (key-level (form "by-block" k) (lambda (i r) (quotient i k)) #f))

;; (by-subnets "10.1.0.0/24" "10.2.0.0/24"), (by-subnets "fd00:1::/48" ...): one group per
;; subnet, IPv4 or IPv6 (both may be mixed), holding the ranks that have an address of
;; that family inside it.  Also takes one list of subnets.
(define (by-subnets . subnets)
  (let ((subnets (if (and (= (length subnets) 1) (list? (car subnets))) (car subnets) subnets)))
    (when (null? subnets)
      (scm-error 'wrong-type-arg 'by-subnets "expects at least one subnet" '() #f))
    (match-level
     (apply form "by-subnets" subnets)
     (map (lambda (s)
            (let ((net (parse-net s)))
              (unless (and net (string-index s #\/))
                (scm-error 'wrong-type-arg 'by-subnets
                           "not a subnet: ~S (expected \"A.B.C.D/NN\" or IPv6 \"X:X::/NN\")"
                           (list s) (list s)))
              (cons s (lambda (i r)
                        (let any ((as (rank-addresses r)))
                          (and (pair? as)
                               (or (let ((a (parse-net (car as)))) (and a (net-holds? net a)))
                                   (any (cdr as)))))))))
          subnets))))

;; (by-subnet-prefix 16): ranks whose main IPv4 address (the first that is not loopback)
;; shares its first 16 bits.  (by-subnet-prefix 48 #:family 'ipv6): the same with the main
;; IPv6 address, the first that is neither loopback (::1) nor link-local (fe80::/10),
;; since every host has those, else the first one that is not loopback.
(define* (by-subnet-prefix len #:key (family 'ipv4))
  (unless (memq family '(ipv4 ipv6))
    (scm-error 'wrong-type-arg 'by-subnet-prefix "the family must be ipv4 or ipv6, got ~S"
               (list family) (list family)))
  (unless (and (exact-integer? len) (<= 0 len (family-bits family)))
    (scm-error 'wrong-type-arg 'by-subnet-prefix "the ~A prefix length must be 0..~A, got ~S"
               (list family (family-bits family) len) (list len)))
  (key-level (if (eq? family 'ipv4)
                 (form "by-subnet-prefix" len)
                 (form "by-subnet-prefix" len #:family family))
             (lambda (i r)
               (let ((a (main-address r family)))
                 (and a (net->string (cons family (cons (cadr a) len))))))
             (if (eq? family 'ipv4) "it has no IPv4 address" "it has no IPv6 address")))

(define (by-host)
  (key-level "(by-host)" (lambda (i r) (rank-host r)) #f))

;; (by-host-patterns "a*" "node-1?"): one group per pattern
(define (by-host-patterns . patterns)
  (for-each (lambda (p)
              (unless (string? p)
                (scm-error 'wrong-type-arg 'by-host-patterns "not a pattern string: ~S"
                           (list p) (list p))))
            patterns)
  (match-level (apply form "by-host-patterns" patterns)
               (map (lambda (p) (cons p (lambda (i r) (glob-match? p (rank-host r)))))
                    patterns)))

;; (by-hwloc-level 'numa): ranks of one host on the same package, NUMA node, L3 cache
;; (l3) or core.  The ranks of a host whose place is unknown (not bound, no hwloc; for
;; l3 also a machine without L3 caches) share one group.
(define (by-hwloc-level level)
  (let ((index (case level ((package) 0) ((numa) 1) ((core) 2) ((l3) 3) (else #f))))
    (unless index
      (scm-error 'wrong-type-arg 'by-hwloc-level
                 "level must be package, numa, l3 or core, not ~S" (list level) (list level)))
    (key-level (form "by-hwloc-level" level)
               (lambda (i r)
                 (let ((p (rank-place r)))
                   (list (rank-host r)
                         (or (and p (< index (length p)) (list-ref p index)) 'unknown))))
               #f)))

;; (by-predicates on-a? on-b? ...) or with labels: (by-predicates (cons "a" on-a?) ...);
;; each predicate receives a rank record and claims the ranks of one group.
(define (by-predicates . preds)
  (let ((matchers
         (map (lambda (p k)
                (let ((label (if (pair? p) (car p) (or (procedure-name p)
                                                       (simple-format #f "predicate ~A" k))))
                      (proc (if (pair? p) (cdr p) p)))
                  (unless (procedure? proc)
                    (scm-error 'wrong-type-arg 'by-predicates "not a predicate: ~S"
                               (list p) (list p)))
                  (cons (simple-format #f "~A" label) (lambda (i r) (proc r)))))
              preds (iota (length preds) 1))))
    (match-level (apply string-append "(by-predicates"
                        (append (map (lambda (m) (string-append " " (car m))) matchers)
                                '(")")))
                 matchers)))

;; (by-key proc): ranks for which PROC returns equal? values share a group; #f: in none.
(define* (by-key proc #:optional (name #f))
  (unless (procedure? proc)
    (scm-error 'wrong-type-arg 'by-key "not a procedure: ~S" (list proc) (list proc)))
  (key-level (simple-format #f "(by-key ~A)" (or name (procedure-name proc) "anonymous"))
             (lambda (i r) (proc r))
             "the key procedure returned #f"))

;; (nested outer inner ...): each group of OUTER split by INNER, and so on.
(define (nested . ds)
  (for-each (lambda (d) (check-topology 'nested d)) ds)
  (when (null? ds)
    (scm-error 'wrong-type-arg 'nested "expects at least one description" '() #f))
  (make-topology (string-append "(nested " (join " " (map topology-text ds)) ")")
                 (apply append (map topology-levels ds))))

;;; ---- grouping ---------------------------------------------------------------------------

(define (topology-error d level fmt . args)
  (scm-error 'invalid-topology 'topology-groups "topology ~A~A: ~A"
             (list (topology-text d)
                   (if (null? (cdr (topology-levels d)))
                       ""
                       (string-append ", level " (level-text level)))
                   (apply simple-format #f fmt args))
             #f))

;; MEMBERS (ascending ranks) split by LEVEL: a list of non-empty ascending groups, ordered
;; by their lowest rank.
(define (split d level ranks members)
  (if (eq? (level-how level) 'key)
      (let loop ((ms members) (keys '()) (groups '()))
        (if (null? ms)
            (map reverse groups)
            (let* ((i (car ms))
                   (k ((level-proc level) i (vector-ref ranks i))))
              (unless k
                (topology-error d level "~A is in no group~A" (rank-text ranks i)
                                (if (level-reason level)
                                    (string-append ": " (level-reason level)) "")))
              (let find ((ks keys) (gs groups) (pos 0))
                (cond ((null? ks)
                       (loop (cdr ms) (append keys (list k)) (append groups (list (list i)))))
                      ((equal? (car ks) k)
                       (list-set! groups pos (cons i (car gs)))
                       (loop (cdr ms) keys groups))
                      (else (find (cdr ks) (cdr gs) (+ pos 1))))))))
      (let* ((matchers (level-proc level))
             (groups (make-vector (length matchers) '())))
        (for-each
         (lambda (i)
           (let ((hits (let scan ((ms matchers) (k 0))
                         (cond ((null? ms) '())
                               (((cdar ms) i (vector-ref ranks i)) (cons k (scan (cdr ms) (+ k 1))))
                               (else (scan (cdr ms) (+ k 1)))))))
             (cond ((null? hits)
                    (topology-error d level "~A is in no group" (rank-text ranks i)))
                   ((pair? (cdr hits))
                    (topology-error d level "~A is in two groups: ~A and ~A" (rank-text ranks i)
                                    (car (list-ref matchers (car hits)))
                                    (car (list-ref matchers (cadr hits)))))
                   (else (vector-set! groups (car hits)
                                      (cons i (vector-ref groups (car hits))))))))
         members)
        (sort (map reverse (filter pair? (vector->list groups)))
              (lambda (a b) (< (car a) (car b)))))))

;; (topology-groups desc ranks): RANKS a vector (or list) of rank records in communicator
;; order.  One level: ((0 1) (2 3)); two: (((0 1) (2 3)) ((4 5))); and so on.
(define (topology-groups d ranks)
  (check-topology 'topology-groups d)
  (let ((ranks (cond ((vector? ranks) ranks)
                     ((list? ranks) (list->vector ranks))
                     (else (scm-error 'wrong-type-arg 'topology-groups
                                      "ranks must be a vector of rank records, got ~S"
                                      (list ranks) (list ranks))))))
    (do ((i 0 (+ i 1))) ((= i (vector-length ranks)))
      (unless (rank? (vector-ref ranks i))
        (scm-error 'wrong-type-arg 'topology-groups
                   "not a rank record: ~S (use (call-ranks call) or make-rank)"
                   (list (vector-ref ranks i)) (list (vector-ref ranks i)))))
    (for-each (lambda (level)
                (let ((check (level-check level)))
                  (when check (check d level ranks))))
              (topology-levels d))
    (let walk ((levels (topology-levels d)) (members (iota (vector-length ranks))))
      (if (null? levels)
          members
          (map (lambda (g) (walk (cdr levels) g))
               (split d (car levels) ranks members))))))

;; every rank of a group of any depth, ascending
(define (group-ranks g)
  (sort (let flat ((g g))
          (cond ((exact-integer? g) (list g))
                ((list? g) (apply append (map flat g)))
                (else (scm-error 'wrong-type-arg 'group-ranks "not a group: ~S"
                                 (list g) (list g)))))
        <))
