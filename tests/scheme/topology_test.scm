;;; topology_test.scm -- (compi topology), the group trees of (compi trees) and the
;;; creators of (compi hierarchy), with guile alone (no MPI), TAP on stdout:
;;;   - every kind of description groups hand-made rank records as documented, nested
;;;     descriptions give one level of lists per level, printing gives the description;
;;;     IPv6 addresses and subnets (parsing, by-subnets, by-subnet-prefix #:family 'ipv6)
;;;     and the L3 level of by-hwloc-level;
;;;   - a rank in two groups or in none is an error naming the description and the rank;
;;;     explicit ranks are communicator ranks (by-ranks, by-comm-ranks) or world ranks
;;;     (by-world-ranks), on a split communicator too; naming a rank twice, or a
;;;     communicator rank past the size, is an error naming the ranks, while world ranks
;;;     the communicator lacks are dropped (empty groups too);
;;;   - hierarchical and MagPIe trees for 1 to 33 ranks, random layouts and roots, one to
;;;     three levels, every shape: every rank once, the right root, depth within the sum of
;;;     the levels' depths, and exactly one edge into every group that does not hold the
;;;     root (to its coordinator), so each level's links are crossed (groups - 1) times;
;;;     MagPIe: every edge between top-level groups leaves the root;
;;;   - the creators build tree closures for the seven tree kinds, pass other kinds and
;;;     unordered non-commutative reductions to `next', and fail naming the description;
;;;     the example configs load and answer.
;;; Run by tests/scheme/topology.sh.

(use-modules (compi) (compi trees) (compi topology) (compi hierarchy)
             ((compi private) #:select (tree-closure-tree tree-closure-hosts wrapper-inner)))

(load "check.scm")

;;; ---- groupings ----------------------------------------------------------------------

;; three clusters (the CoMPI paper's): a and b on 10.1.0.0/24, c on 10.2.0.0/24, d on
;; 10.3.0.0/24; places (package numa core)
(define facts
  (vector (make-rank 0 "node-a" '("10.1.0.1/24" "127.0.0.1/8") '(0 0 0) #t)
          (make-rank 1 "node-a" '("10.1.0.1/24" "127.0.0.1/8") '(0 1 4) #t)
          (make-rank 2 "node-b" '("10.1.0.2/24") '(0 0 0) #t)
          (make-rank 3 "node-c" '("10.2.0.1/24") '(0 0 0) #t)
          (make-rank 4 "node-c" '("10.2.0.1/24") '(1 1 8) #t)
          (make-rank 5 "node-a" '("10.1.0.1/24") '(0 0 1) #t)
          (make-rank 6 "gw-d" '("127.0.0.1/8" "10.3.0.9/24" "fe80::1/64") #f #t)))

(define (groups d) (topology-groups d facts))

(expect-equal "by-ranks: explicit lists and ranges"
              (groups (by-ranks '(6 0) (rank-range 1 3) '(4 5))) '((0 6) (1 2 3) (4 5)))
(expect-equal "by-block: consecutive blocks" (groups (by-block 3)) '((0 1 2) (3 4 5) (6)))
(expect-equal "by-subnets: one group per subnet"
              (groups (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
              '((0 1 2 5) (3 4) (6)))
(expect-equal "by-subnets: a list, host bits of the subnet ignored"
              (groups (by-subnets '("10.1.0.7/24" "10.2.0.0/16" "10.3.0.0/16")))
              '((0 1 2 5) (3 4) (6)))
(expect-equal "by-subnet-prefix 16: the first address that is not loopback"
              (groups (by-subnet-prefix 16)) '((0 1 2 5) (3 4) (6)))
(expect-equal "by-subnet-prefix 8: one group" (groups (by-subnet-prefix 8))
              '((0 1 2 3 4 5 6)))
(expect-equal "by-host" (groups (by-host)) '((0 1 5) (2) (3 4) (6)))
(expect-equal "by-host-patterns: * and ?"
              (groups (by-host-patterns "*-c" "n*e-a" "?ode-b" "gw-*"))
              '((0 1 5) (2) (3 4) (6)))
(expect-equal "by-hwloc-level numa (same host, same node; unknown places share one)"
              (groups (by-hwloc-level 'numa)) '((0 5) (1) (2) (3) (4) (6)))
(expect-equal "by-hwloc-level package" (groups (by-hwloc-level 'package))
              '((0 1 5) (2) (3) (4) (6)))
(expect-equal "by-hwloc-level core" (groups (by-hwloc-level 'core))
              '((0) (1) (2) (3) (4) (5) (6)))
(expect-equal "by-predicates"
              (groups (by-predicates (lambda (r) (< (rank-world r) 4))
                                     (cons "rest" (lambda (r) (>= (rank-world r) 4)))))
              '((0 1 2 3) (4 5 6)))
(expect-equal "by-key"
              (groups (by-key (lambda (r) (string-length (rank-host r)))))
              '((0 1 2 3 4 5) (6)))
(expect-equal "nested: subnet, then host"
              (groups (nested (by-subnet-prefix 24) (by-host)))
              '(((0 1 5) (2)) ((3 4)) ((6))))
(expect-equal "nested: WAN -> host -> NUMA, three levels"
              (groups (nested (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24")
                              (by-host) (by-hwloc-level 'numa)))
              '((((0 5) (1)) ((2))) (((3) (4))) (((6)))))
(expect-equal "nested of nested is flattened"
              (topology-depth (nested (nested (by-block 4) (by-host)) (by-hwloc-level 'numa))) 3)
(expect-equal "a list of records works like a vector"
              (topology-groups (by-block 2) (vector->list facts)) '((0 1) (2 3) (4 5) (6)))
(expect-equal "no ranks, no groups" (topology-groups (by-host) #()) '())
(expect-equal "group-ranks of a nested group" (group-ranks '(((5 0) (1)) ((2)))) '(0 1 2 5))
(expect-equal "topology->string"
              (topology->string (nested (by-subnets "10.1.0.0/24") (by-host)
                                        (by-hwloc-level 'numa)))
              "(nested (by-subnets \"10.1.0.0/24\") (by-host) (by-hwloc-level numa))")
(report (and (address-in-subnet? "10.1.2.3/24" "10.1.0.0/16")
             (not (address-in-subnet? "10.2.2.3/24" "10.1.0.0/16"))
             (address-in-subnet? "192.168.1.1" "0.0.0.0/0")
             (not (address-in-subnet? "fe80::1/64" "0.0.0.0/0"))
             (equal? (parse-cidr "10.1.0.0/16") (cons (+ (* 10 16777216) 65536) 16))
             (equal? (parse-cidr "10.1.0.0") (cons (+ (* 10 16777216) 65536) 32))
             (not (parse-cidr "10.1.0/16")) (not (parse-cidr "10.1.0.256/8"))
             (not (parse-cidr "10.1.0.0/33")))
        "CIDR parsing and matching")
(report (and (glob-match? "n*-?" "node-a") (glob-match? "*" "") (not (glob-match? "?" ""))
             (glob-match? "a*b*c" "aXXbYc") (not (glob-match? "a*b" "aXXbY")))
        "glob matching")

;;; ---- IPv6 -----------------------------------------------------------------------------

;; an IPv6 address from its eight 16-bit groups
(define (v6 . groups)
  (let loop ((gs groups) (acc 0)) (if (null? gs) acc (loop (cdr gs) (+ (* acc 65536) (car gs))))))

(expect-equal "parse-cidr6: the text forms of RFC 4291"
              (map parse-cidr6 '("fd00:1::/64" "::" "::1" "1:2:3:4:5:6:7:8/128"
                                 "1:2:3:4:5:6:7::/16" "::FFFF:10.1.0.1/96" "fe80::/10"))
              (list (cons (v6 #xfd00 1 0 0 0 0 0 0) 64) (cons 0 128) (cons 1 128)
                    (cons (v6 1 2 3 4 5 6 7 8) 128) (cons (v6 1 2 3 4 5 6 7 0) 16)
                    (cons (v6 0 0 0 0 0 #xffff #x0a01 1) 96) (cons (v6 #xfe80 0 0 0 0 0 0 0) 10)))
(expect-equal "parse-cidr6 refuses what is not IPv6"
              (map parse-cidr6 '("1::2::3" "1:2:3:4:5:6:7:8:9" "1:2:3:4:5:6:7:8::" "fe80::1%eth0"
                                 "12345::" "fd00::/129" "fd00::/" "1.2.3.4::" "10.1.0.0/16" "g::"
                                 ":1::" "1:2:3:4:5:6:7" 42))
              '(#f #f #f #f #f #f #f #f #f #f #f #f #f))
(expect-equal "parse-cidr stays IPv4" (parse-cidr "fd00::/8") #f)
(expect-equal "address-in-subnet? with IPv6: prefix, host bits, /0, families never mix"
              (list (address-in-subnet? "fd00:1:2::5/64" "fd00:1::/32")
                    (address-in-subnet? "fd00:1:2::5/64" "fd00:1:ffff::/32")
                    (address-in-subnet? "fd00:2:2::5/64" "fd00:1::/32")
                    (address-in-subnet? "fd00:1::1" "fd00:1::1/128")
                    (address-in-subnet? "fd00:1::2" "fd00:1::1/127")
                    (address-in-subnet? "::1/128" "::/0")
                    (address-in-subnet? "10.1.0.1/24" "::/0")
                    (address-in-subnet? "::ffff:10.1.0.1/96" "10.1.0.0/24"))
              '(#t #t #f #t #f #t #f #f))

;; two sites with IPv6 only (plus link-local and loopback, which every host has) and one
;; with both families
(define facts6
  (vector (make-rank 0 "s1-a" '("fe80::1/64" "fd00:1:a::1/64" "::1/128") '(0 0 0 0) #t)
          (make-rank 1 "s1-a" '("fe80::1/64" "fd00:1:a::1/64" "::1/128") '(0 0 1 0) #t)
          (make-rank 2 "s1-b" '("fd00:1:b::1/64" "fe80::2/64") '(0 0 0 0) #t)
          (make-rank 3 "s2-a" '("fe80::3/64" "fd00:2:a::1/64") '(0 1 8 1) #t)
          (make-rank 4 "s3-a" '("10.3.0.1/24" "fd00:3:a::1/64") '(0 0 0 0) #t)
          (make-rank 5 "s3-a" '("10.3.0.1/24" "fd00:3:a::2/64") '(1 1 9 1) #t)))
(define (groups6 d) (topology-groups d facts6))

(expect-equal "by-subnets: IPv6 subnets"
              (groups6 (by-subnets "fd00:1::/32" "fd00:2::/32" "fd00:3::/32"))
              '((0 1 2) (3) (4 5)))
(expect-equal "by-subnets: IPv4 and IPv6 subnets mixed"
              (groups6 (by-subnets "fd00:1::/32" "10.3.0.0/16" "fd00:2::/32"))
              '((0 1 2) (3) (4 5)))
(expect-equal "by-subnet-prefix #:family 'ipv6: link-local and loopback passed over"
              (list (groups6 (by-subnet-prefix 32 #:family 'ipv6))
                    (groups6 (by-subnet-prefix 48 #:family 'ipv6))
                    (groups6 (by-subnet-prefix 126 #:family 'ipv6))
                    (groups6 (by-subnet-prefix 127 #:family 'ipv6))
                    (groups6 (by-subnet-prefix 0 #:family 'ipv6)))
              '(((0 1 2) (3) (4 5)) ((0 1) (2) (3) (4 5)) ((0 1) (2) (3) (4 5))
                ((0 1) (2) (3) (4) (5)) ((0 1 2 3 4 5))))
(expect-equal "by-subnet-prefix #:family 'ipv6: only link-local, then only loopback"
              (topology-groups (by-subnet-prefix 64 #:family 'ipv6)
                               (vector (make-rank 0 "a" '("::1/128" "fe80::1/64") #f #f)
                                       (make-rank 1 "b" '("::1/128") #f #f)
                                       (make-rank 2 "c" '("fe80::9/64" "::1/128") #f #f)))
              '((0 2) (1)))
(expect-equal "nested: IPv6 site, then host"
              (groups6 (nested (by-subnets "fd00:1::/32" "fd00:2::/32" "fd00:3::/32") (by-host)))
              '(((0 1) (2)) ((3)) ((4 5))))
(expect-equal "topology->string of IPv6 descriptions"
              (list (topology->string (by-subnet-prefix 48 #:family 'ipv6))
                    (topology->string (by-subnet-prefix 24))
                    (topology->string (by-subnets "fd00:1::/32" "10.3.0.0/16")))
              '("(by-subnet-prefix 48 #:family ipv6)" "(by-subnet-prefix 24)"
                "(by-subnets \"fd00:1::/32\" \"10.3.0.0/16\")"))
(expect-error "a rank in an IPv4 and an IPv6 subnet at once"
              (lambda () (groups6 (by-subnets "fd00::/16" "10.3.0.0/16")))
              "topology (by-subnets \"fd00::/16\" \"10.3.0.0/16\")" "rank 4 (host s3-a"
              "is in two groups: fd00::/16 and 10.3.0.0/16")
(expect-error "a rank in no IPv6 subnet"
              (lambda () (groups6 (by-subnets "fd00:1::/32" "fd00:3::/32")))
              "rank 3 (host s2-a, addresses fe80::3/64, fd00:2:a::1/64" "is in no group")
(expect-error "a rank without an IPv6 address"
              (lambda ()
                (topology-groups (by-subnet-prefix 48 #:family 'ipv6)
                                 (vector (make-rank 0 "a" '("10.1.0.1/24") #f #f))))
              "(by-subnet-prefix 48 #:family ipv6)" "rank 0 (host a" "no IPv6 address")
(expect-error "a bad IPv6 subnet is refused when the description is made"
              (lambda () (by-subnets "fd00::1::/64")) "not a subnet: \"fd00::1::/64\"")
(expect-error "an IPv6 prefix past 128" (lambda () (by-subnet-prefix 129 #:family 'ipv6))
              "ipv6 prefix length must be 0..128, got 129")
(expect-error "an IPv4 prefix past 32" (lambda () (by-subnet-prefix 33))
              "ipv4 prefix length must be 0..32, got 33")
(expect-error "an unknown family" (lambda () (by-subnet-prefix 8 #:family 'ipx))
              "family must be ipv4 or ipv6")

;;; ---- L3 caches ------------------------------------------------------------------------

(expect-equal "by-hwloc-level l3: same host, same L3 cache"
              (groups6 (by-hwloc-level 'l3)) '((0 1) (2) (3) (4) (5)))
(expect-equal "nested: host, then L3, then core"
              (groups6 (nested (by-host) (by-hwloc-level 'l3) (by-hwloc-level 'core)))
              '((((0) (1))) (((2))) (((3))) (((4)) ((5)))))
(expect-equal "by-hwloc-level l3: an unknown L3 (#f, or a place of three) shares one group"
              (topology-groups (by-hwloc-level 'l3)
                               (vector (make-rank 0 "a" '() '(0 0 0 #f) #t)
                                       (make-rank 1 "a" '() '(0 0 1) #t)
                                       (make-rank 2 "a" '() '(0 0 2 0) #t)
                                       (make-rank 3 "a" '() #f #f)))
              '((0 1 3) (2)))
(expect-equal "make-rank: a place of three gets an unknown L3"
              (map (lambda (p) (rank-place (make-rank 0 "a" '() p #f)))
                   '((1 2 3) (1 2 3 4) (1 2 3 #f) #f))
              '((1 2 3 #f) (1 2 3 4) (1 2 3 #f) #f))
(expect-error "make-rank: a place of two" (lambda () (make-rank 0 "a" '() '(0 0) #f))
              "(PKG NUMA CORE [L3])")
(expect-error "make-rank: a place that is not indices"
              (lambda () (make-rank 0 "a" '() '(0 0 x 1) #f)) "(PKG NUMA CORE [L3])")

;;; ---- validation -----------------------------------------------------------------------

(expect-error "a rank in no subnet: the description and the rank are named"
              (lambda () (groups (by-subnets "10.1.0.0/24" "10.2.0.0/24")))
              "topology (by-subnets \"10.1.0.0/24\" \"10.2.0.0/24\")"
              "rank 6 (host gw-d" "is in no group")
(expect-error "a rank in two subnets"
              (lambda () (groups (by-subnets "10.0.0.0/8" "10.2.0.0/24" "127.0.0.0/8")))
              "rank 0 (host node-a" "is in two groups: 10.0.0.0/8 and 127.0.0.0/8")
(expect-error "a rank listed twice"
              (lambda () (groups (by-ranks '(0 1 2 3) '(3 4 5 6))))
              "(by-ranks (0 1 2 3) (3 4 5 6))" "rank 3 " "two groups: (0 1 2 3) and (3 4 5 6)")
(expect-error "a rank listed nowhere" (lambda () (groups (by-ranks '(0 1 2 3) '(5 6))))
              "rank 4 " "is in no group")
;; explicit ranks on a split communicator: its ranks 0..3 are world ranks 4 2 6 0
(define split-facts
  (vector (make-rank 4 "node-c" '("10.2.0.1/24") #f #t)
          (make-rank 2 "node-b" '("10.1.0.2/24") #f #t)
          (make-rank 6 "gw-d" '("10.3.0.9/24") #f #t)
          (make-rank 0 "node-a" '("10.1.0.1/24") #f #t)))
(define (split-groups d) (topology-groups d split-facts))
(expect-equal "by-ranks names communicator ranks, on a split communicator too"
              (split-groups (by-ranks '(0 1) '(2 3))) '((0 1) (2 3)))
(expect-equal "by-comm-ranks is by-ranks"
              (split-groups (by-comm-ranks '(0 1) '(2 3))) '((0 1) (2 3)))
(expect-equal "by-world-ranks names world ranks: the same processes on a split communicator"
              (split-groups (by-world-ranks '(0 2) '(4 6))) '((0 2) (1 3)))
(expect-equal "by-world-ranks on WORLD is by-ranks"
              (groups (by-world-ranks '(6 0) (rank-range 1 3) '(4 5))) '((0 6) (1 2 3) (4 5)))
(expect-equal "by-world-ranks nested under by-subnet-prefix"
              (split-groups (nested (by-subnet-prefix 16) (by-world-ranks '(0) '(2) '(4 6))))
              '(((0)) ((1) (3)) ((2))))
(expect-error "by-ranks naming ranks past the communicator's size"
              (lambda () (split-groups (by-ranks '(0 1 2 3) '(4 5) '(7))))
              "topology (by-ranks (0 1 2 3) (4 5) (7))"
              "ranks 4-5, 7 are not in this communicator (4 ranks: 0..3, world ranks 0, 2, 4, 6)")
(expect-equal "by-world-ranks is a machine map: on a split communicator each group keeps the members it has"
              (split-groups (by-world-ranks '(0 1 2) '(3 5) '(4 6 7))) '((0 2) (1 3)))
(expect-equal "by-world-ranks drops the groups a split communicator has no member of"
              (split-groups (by-world-ranks (rank-range 0 1) (rank-range 2 3) (rank-range 4 5)
                                            (rank-range 6 7) (rank-range 8 11)))
              '((0) (1) (2) (3)))
(expect-equal "by-world-ranks keeps only the members of a communicator in a nested level too"
              (split-groups (nested (by-world-ranks (rank-range 0 3) (rank-range 4 7))
                                    (by-world-ranks '(0 1) '(2 3) '(4 5) '(6 7))))
              '(((0) (2)) ((1) (3))))
(expect-error "by-comm-ranks stays strict: ranks past the size"
              (lambda () (split-groups (by-comm-ranks '(0 1) '(2 3) '(4 5))))
              "topology (by-comm-ranks (0 1) (2 3) (4 5))"
              "ranks 4-5 are not in this communicator (4 ranks: 0..3, world ranks 0, 2, 4, 6)")
(expect-error "by-world-ranks leaving a process of the communicator out"
              (lambda () (split-groups (by-world-ranks '(0 2) '(4))))
              "rank 2 (world rank 6, host gw-d" "is in no group")
(expect-error "a rank named twice in one group is refused when the description is made"
              (lambda () (by-ranks '(0 1 1) '(2 3)))
              "(by-ranks (0 1 1) (2 3)): rank 1 is named twice in group (0 1 1)")
(expect-error "a world rank named in two groups is refused when the description is made"
              (lambda () (by-world-ranks '(0 2) '(2 4)))
              "world rank 2 is named twice, in two groups: (0 2) and (2 4)")
(expect-error "explicit groups must be lists of ranks" (lambda () (by-world-ranks '(0 -1)))
              "each group must be a non-empty list of world ranks, got (0 -1)")
(expect-error "a host matching no pattern" (lambda () (groups (by-host-patterns "node-*")))
              "(by-host-patterns \"node-*\")" "rank 6 (host gw-d" "no group")
(expect-error "a host matching two patterns"
              (lambda () (groups (by-host-patterns "node-*" "*-c" "gw*")))
              "rank 3 (host node-c" "two groups: node-* and *-c")
(expect-error "the failing level of a nested description is named"
              (lambda () (groups (nested (by-host) (by-predicates (lambda (r) #f)))))
              "topology (nested (by-host) (by-predicates predicate 1)), level (by-predicates"
              "rank 0 " "no group")
(expect-error "a key of #f" (lambda () (groups (by-key (lambda (r) #f) "never")))
              "(by-key never)" "rank 0 " "no group: the key procedure returned #f")
(expect-error "a rank without an IPv4 address"
              (lambda ()
                (topology-groups (by-subnet-prefix 16)
                                 (vector (make-rank 0 "a" '("fe80::1/64") #f #f))))
              "rank 0 (host a, addresses fe80::1/64)" "no IPv4 address")
(expect-error "a bad subnet is refused when the description is made"
              (lambda () (by-subnets "10.1.0.0")) "not a subnet: \"10.1.0.0\"")
(expect-error "a bad hwloc level" (lambda () (by-hwloc-level 'rack))
              "level must be package, numa, l3 or core")
(expect-error "not a rank record" (lambda () (topology-groups (by-host) (vector 42)))
              "not a rank record: 42")
(expect-equal "rank records of make-rank, as call-ranks gives them"
              (map rank-world (vector->list facts)) '(0 1 2 3 4 5 6))

;;; ---- trees over groups ------------------------------------------------------------------

;; Guile's own generator with a fixed seed: the same layouts on every run.
(define rs (seed->random-state 20240414))
(define (rand n) (random n rs))

(define (ceil-log2 n) (let loop ((d 0)) (if (>= (ash 1 d) n) d (loop (+ d 1)))))

(define (kary-depth n k)
  (if (= k 1)
      (- n 1)
      (let loop ((full 1) (level 1) (d 0))
        (if (>= full n) d (loop (+ full (* level k)) (* level k) (+ d 1))))))

(define (shape-depth shape m)
  (cond ((eq? shape 'flat) (if (> m 1) 1 0))
        ((eq? shape 'binomial) (ceil-log2 m))
        ((eq? shape 'chain) (- m 1))
        ((eq? shape 'kary) (kary-depth m 2))
        (else (kary-depth m (cadr shape)))))

;; A random layout of n ranks: up to 4 clusters, each of up to 3 hosts, 2 NUMA nodes per
;; host, 2 L3 caches per NUMA node; ranks dealt at random, so groups are rarely
;; contiguous.  Each rank has an IPv4 address, a link-local IPv6 one (the same prefix on
;; every host) and a site IPv6 one, fd00:CLUSTER:HOST::RANK.
(define (random-facts n)
  (let ((clusters (+ 1 (rand 4))))
    (list->vector
     (map (lambda (i)
            (let ((c (rand clusters)) (h (rand 3)) (numa (rand 2)) (l3 (rand 2)))
              (make-rank i (simple-format #f "c~A-h~A" c h)
                         (list (simple-format #f "10.~A.0.~A/24" (+ c 1) (+ h 1))
                               (simple-format #f "fe80::~A/64" (+ h 1))
                               (simple-format #f "fd00:~A:~A::~A/64" (+ c 1) (+ h 1) i))
                         (list 0 numa i (+ (* 2 numa) l3)) #t)))
          (iota n)))))

(define descriptions
  (list (by-subnet-prefix 16)
        (by-host)
        (by-block 4)
        (nested (by-subnet-prefix 16) (by-host))
        (nested (by-host) (by-hwloc-level 'numa))
        (nested (by-subnet-prefix 16) (by-host) (by-hwloc-level 'numa))
        (nested (by-subnets "fd00:1::/32" "fd00:2::/32" "fd00:3::/32" "fd00:4::/32")
                (by-subnet-prefix 48 #:family 'ipv6))
        (nested (by-host) (by-hwloc-level 'numa) (by-hwloc-level 'l3))))

(define shape-mixes
  '((binomial) (flat) (chain) (kary) ((kary 3)) (flat binomial) (binomial flat chain)
    (chain (kary 3) binomial flat) (flat flat flat flat)))

(define (per-level xs l) (if (or (null? (cdr xs)) (= l 0)) (car xs) (per-level (cdr xs) (- l 1))))

;; the groups at depth L (1: top level) as lists of ranks
(define (groups-at groups l)
  (if (= l 1)
      (map group-ranks groups)
      (apply append (map (lambda (g) (groups-at g (- l 1))) groups))))

;; the units at each level: max over the groups of level l of their number of parts
(define (max-units groups depth l)
  (if (= l 0)
      (length groups)
      (apply max (map length (let down ((gs groups) (k l))
                               (if (= k 1)
                                   gs
                                   (apply append (map (lambda (g) (down g (- k 1))) gs))))))))

;; #f when every group of every level but the root's is entered by exactly one edge, at
;; its coordinator (the lowest rank, or the highest), and the root's group by none;
;; else a text saying where it goes wrong
(define (crossing-problem t groups depth coord)
  (let loop ((l 1))
    (if (> l depth)
        #f
        (or (let each ((gs (groups-at groups l)))
              (and (pair? gs)
                   (let* ((g (car gs))
                          (in (filter (lambda (r) (and (not (= r (tree-root t)))
                                                       (not (memv (tree-parent t r) g))))
                                      g))
                          (want (cond ((memv (tree-root t) g) '())
                                      ((eq? coord 'highest) (list (apply max g)))
                                      (else (list (car g))))))
                     (if (equal? in want)
                         (each (cdr gs))
                         (simple-format #f "level ~A group ~A entered at ~A, expected ~A"
                                        l g in want)))))
            (loop (+ l 1))))))

(define (check-hierarchical n)
  (let loop ((trial 0) (bad #f))
    (if (or bad (= trial 12))
        (report (not bad) (simple-format #f "hierarchical trees, ~A ranks" n) bad)
        (let* ((f (random-facts n))
               (d (list-ref descriptions (rand (length descriptions))))
               (groups (topology-groups d f))
               (depth (topology-depth d))
               (shapes (list-ref shape-mixes (rand (length shape-mixes))))
               (coord (if (= (rand 3) 0) 'highest 'lowest))
               (root (rand n))
               (t (hierarchical-tree groups root #:shapes shapes #:coordinator coord))
               (bound (let sum ((l 0) (acc 0))
                        (if (> l depth)
                            acc
                            (sum (+ l 1) (+ acc (shape-depth (per-level shapes l)
                                                             (max-units groups depth l)))))))
               (where (simple-format #f "~A shapes ~A coordinator ~A root ~A groups ~S"
                                     (topology->string d) shapes coord root groups)))
          (loop (+ trial 1)
                (cond ((error-text (lambda () (tree-validate t n root)))
                       => (lambda (m) (string-append where ": " m)))
                      ((> (tree-depth t) bound)
                       (simple-format #f "~A: depth ~A > ~A" where (tree-depth t) bound))
                      ((crossing-problem t groups depth coord)
                       => (lambda (m) (string-append where ": " m)))
                      ((not (= (wan-edges t groups) (- (length groups) 1)))
                       (simple-format #f "~A: ~A WAN edges, expected ~A" where
                                      (wan-edges t groups) (- (length groups) 1)))
                      (else #f)))))))

(define (check-magpie n)
  (let loop ((trial 0) (bad #f))
    (if (or bad (= trial 12))
        (report (not bad) (simple-format #f "MagPIe trees, ~A ranks" n) bad)
        (let* ((f (random-facts n))
               (d (list-ref descriptions (rand (length descriptions))))
               (groups (topology-groups d f))
               (tops (map group-ranks groups))
               (root (rand n))
               (t (magpie-tree groups root))
               (others (filter (lambda (g) (not (memv root g))) tops))
               (cross (filter (lambda (r)
                                (and (not (= r root))
                                     (not (equal? (find-group tops r)
                                                  (find-group tops (tree-parent t r))))))
                              (iota n)))
               (bound (+ (if (pair? others) 1 0) (ceil-log2 (apply max (map length tops)))))
               (where (simple-format #f "~A root ~A groups ~S" (topology->string d) root tops)))
          (loop (+ trial 1)
                (cond ((error-text (lambda () (tree-validate t n root)))
                       => (lambda (m) (string-append where ": " m)))
                      ((not (= (wan-edges t groups) (length others)))
                       (simple-format #f "~A: ~A WAN edges, expected ~A" where
                                      (wan-edges t groups) (length others)))
                      ((not (equal? cross (sort (map car others) <)))
                       (simple-format #f "~A: edges enter other groups at ~A" where cross))
                      ((not (and-map (lambda (r) (= (tree-parent t r) root)) cross))
                       (simple-format #f "~A: a WAN edge does not leave the root" where))
                      ((not (equal? (sort (list-head (tree-children t root) (length others))
                                          <)
                                    (map car others)))
                       (simple-format #f "~A: the root serves ~A, not the other groups first"
                                      where (tree-children t root)))
                      ((> (tree-depth t) bound)
                       (simple-format #f "~A: depth ~A > ~A" where (tree-depth t) bound))
                      (else #f)))))))

(define (find-group tops r)
  (let loop ((gs tops)) (if (memv r (car gs)) (car gs) (loop (cdr gs)))))

(do ((n 1 (+ n 1))) ((> n 33))
  (check-hierarchical n)
  (check-magpie n))

(expect-equal "hierarchical tree of the header drawing"
              (tree->list (hierarchical-tree '((0 1 2) (3 4 5) (6 7 8)) 4
                                             #:shapes '(flat binomial)))
              '(tree 9 4 ((0 4 (2 1)) (1 0 ()) (2 0 ()) (3 4 ()) (4 -1 (6 0 3 5)) (5 4 ())
                          (6 4 (8 7)) (7 6 ()) (8 6 ()))))
(expect-equal "a coordinator procedure per level"
              (tree-parents (hierarchical-tree '(((0 1) (2 3)) ((4 5) (6 7))) 0
                                               #:shapes '(flat)
                                               #:coordinator
                                               (list 'highest
                                                     (lambda (ranks level) (cadr ranks)))))
              #(-1 0 3 0 5 7 7 0))
(expect-equal "a shape procedure" (tree-depth (hierarchical-tree '((0 1 2) (3 4 5)) 0
                                                                 #:shapes (list chain-tree)))
              3)
(expect-error "groups missing a rank" (lambda () (hierarchical-tree '((0 1) (3)) 0))
              "ranks 0..2 once each; rank 2 is missing")
(expect-error "groups holding a rank twice" (lambda () (hierarchical-tree '((0 1) (1 2)) 0))
              "rank 1 appears twice")
(expect-error "leaves at different depths" (lambda () (hierarchical-tree '(((0 1)) (2)) 0))
              "every leaf must be at depth 2")
(expect-error "an unknown shape" (lambda () (hierarchical-tree '((0) (1)) 0 #:shapes '(star)))
              "unknown shape star")
(expect-error "a coordinator outside its group"
              (lambda () (hierarchical-tree '((0) (1 2)) 0 #:coordinator (lambda (rs l) 0)))
              "coordinator 0 of level 0 is not a rank of its group (1 2)")

;;; ---- creators ---------------------------------------------------------------------------

(define (call kind root op commutative?)
  (make-call kind (vector-length facts) 0 root 64 'MPI_INT op commutative? "MPI_COMM_WORLD"))
(define (next c) 'next)
(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
(define hier (hierarchical-creator clusters #:shapes '(flat binomial)
                                   #:ranks (lambda (c) facts)))
(define magpie (magpie-creator clusters #:ranks (lambda (c) facts)))
(define tree-of tree-closure-tree)

(for-each
 (lambda (kind)
   (let* ((root (if (memq kind '(barrier allreduce allgather)) #f 3))
          (c (call kind root (and (memq kind '(reduce allreduce)) 'MPI_SUM) #t))
          (h (hier c next))
          (m (magpie c next)))
     (report (and (tree-closure? h) (tree-closure? m)
                  (eq? (description-kind h #f) kind)
                  (= (tree-root (tree-of h)) (or root 0))
                  (= (wan-edges (tree-of m) (topology-groups clusters facts)) 2))
             (simple-format #f "creators build a tree closure for ~A" kind))))
 tree-kinds)
(report (and (eq? (hier (call 'alltoall #f #f #t) next) 'next)
             (eq? (magpie (call 'scan #f 'MPI_SUM #t) next) 'next))
        "creators pass other kinds to next")
;; clusters {0 1 2 5} {3 4} {6}: not contiguous, so a non-commutative reduction cannot
;; use the tree; contiguous groups can
(report (eq? (hier (call 'reduce 0 'user #f) next) 'next)
        "a non-commutative reduction on an unordered tree goes to next")
(report (tree-closure? ((hierarchical-creator (by-block 3) #:ranks (lambda (c) facts))
                        (call 'allreduce #f 'user #f) next))
        "a non-commutative reduction on a rank-ordered tree is served")
;; #:host-shm: a group number per rank when every innermost group is on one host (hosts
;; node-a {0 1 5}, node-b {2}, node-c {3 4}, gw-d {6}), #f when one spans hosts (the
;; cluster {0 1 2 5}) or the call is longer than a slot
(let* ((by-hosts (hierarchical-creator (nested clusters (by-host)) #:host-shm #t
                                       #:ranks (lambda (c) facts)))
       (v (tree-closure-hosts (by-hosts (call 'bcast 0 #f #t) next)))
       (same? (lambda (a b) (= (vector-ref v a) (vector-ref v b)))))
  (report (and (vector? v) (= (vector-length v) 7) (same? 0 1) (same? 0 5) (same? 3 4)
               (not (same? 0 2)) (not (same? 0 3)) (not (same? 2 3)) (not (same? 6 0))
               (not (same? 6 2)) (not (same? 6 3)))
          "#:host-shm numbers the ranks' hosts when each innermost group is one host" v))
(report (not (tree-closure-hosts ((hierarchical-creator clusters #:host-shm #t
                                                        #:ranks (lambda (c) facts))
                                  (call 'bcast 0 #f #t) next)))
        "#:host-shm asks for nothing when a group spans hosts")
(report (not (tree-closure-hosts ((magpie-creator (nested clusters (by-host)) #:host-shm #t
                                                  #:ranks (lambda (c) facts))
                                  (make-call 'bcast 7 0 0 16384 'MPI_BYTE #f #t
                                             "MPI_COMM_WORLD") next)))
        "#:host-shm asks for nothing past a slot (8 KiB)")
(expect-error "a creator whose description does not fit fails naming it"
              (lambda () ((magpie-creator (by-subnets "10.1.0.0/24") #:ranks (lambda (c) facts))
                          (call 'bcast 0 #f #t) next))
              "topology (by-subnets \"10.1.0.0/24\")" "rank 3 (host node-c" "no group")
(expect-error "without rank facts the creator says so"
              (lambda () ((magpie-creator clusters) (call 'bcast 0 #f #t) next))
              "no rank facts for bcast root=0")
(report (tree-closure? ((magpie-creator clusters)
                        (make-call 'bcast 7 0 0 64 'MPI_INT #f #t "MPI_COMM_WORLD" facts) next))
        "by default the creators read the call's rank records")

;; The example configs, loaded as the library loads them, on a call that carries its rank
;; records (make-call's RANKS), as call-ranks would give them under MPI.
(define (twelve-ranks)
  (list->vector (map (lambda (i)
                       (make-rank i (simple-format #f "host~A" (quotient i 2))
                                  (list (simple-format #f "10.~A.0.~A/24"
                                                       (+ 1 (quotient i 4)) i))
                                  #f #f))
                     (iota 12))))
(define load-config (@ (compi internal) load-config))
(for-each
 (lambda (file)
   (let* ((top (or (getenv "top_srcdir") "."))
          (r (load-config (string-append top "/examples/configs/" file)))
          (c (make-call 'bcast 12 0 5 64 'MPI_INT #f #t "MPI_COMM_WORLD" (twelve-ranks)))
          (d (and (car r) (run-creators c))))
     (report (and (car r) (tree-closure? d)
                  (= (wan-edges (tree-of d) '((0 1 2 3) (4 5 6 7) (8 9 10 11))) 2))
             (string-append "examples/configs/" file " loads and builds a tree closure")
             (if (car r) (simple-format #f "got ~A" (description->string d)) (cdr r)))))
 '("hierarchical.scm" "magpie.scm"))

;; host-numa.scm: twelve ranks, hosts of two, places unknown (one group per host): a
;; tree closure that enters each of the five hosts without the root once.
;; profile-hierarchical.scm: a profiling wrapper around its hierarchical tree, which
;; crosses between the three /24 clusters twice.  (Each config loaded last answers first.)
(define (example-bcast file)
  (let* ((top (or (getenv "top_srcdir") "."))
         (r (load-config (string-append top "/examples/configs/" file))))
    (if (car r)
        (run-creators (make-call 'bcast 12 0 5 64 'MPI_INT #f #t "MPI_COMM_WORLD"
                                 (twelve-ranks)))
        (cdr r))))
(let ((d (example-bcast "host-numa.scm"))
      (hosts (map (lambda (h) (list (* 2 h) (+ (* 2 h) 1))) (iota 6))))
  (report (and (tree-closure? d) (= (wan-edges (tree-of d) hosts) 5)
               (not (crossing-problem (tree-of d) hosts 1 'lowest)))
          "examples/configs/host-numa.scm loads and builds a tree over hosts"
          (if (closure-description? d) (description->string d) d)))
(let ((d (example-bcast "profile-hierarchical.scm")))
  (report (and (wrapper? d) (equal? (description->string d) "(profiling (tree-closure bcast TREE))")
               (= (wan-edges (tree-of (wrapper-inner d)) '((0 1 2 3) (4 5 6 7) (8 9 10 11))) 2))
          "examples/configs/profile-hierarchical.scm wraps a hierarchical tree in profiling"
          (if (closure-description? d) (description->string d) d)))

(tap-done)
