;;; file_io_test.scm -- the creators of collective file access (file-write, file-read),
;;; with guile alone (no MPI), TAP on stdout:
;;;   - the defaults: on one host a write two-phase-if-short with rank 0 and a read
;;;     direct; over hosts one aggregator per host (the lowest rank); ROMIO's hints cb_nodes,
;;;     cb_config_list ("*:N", "host:N", "*:*"), cb_buffer_size, romio_cb_write and
;;;     romio_cb_read (enable, disable, automatic), malformed hints ignored;
;;;   - file-aggregator-creator of (compi hierarchy): the aggregators a topology gives
;;;     (one per subnet, per block, two per group), other kinds passed to `next';
;;;   - #:ranks of native: shown in the description, bad lists refused; call->string with
;;;     the hints.
;;; Run by tests/scheme/file_io.sh.

(use-modules (compi) (compi defaults) (compi hierarchy) (compi topology)
             ((compi private) #:select (native-ranks native-segsize native-algorithm)))

(load "check.scm")

(define MiB (* 1024 1024))

;; ranks 0..n-1 on HOSTS (a list, one host name per rank), addresses on 10.<host>.0.0/24
(define (ranks-on hosts)
  (list->vector
   (let loop ((i 0) (hs hosts))
     (if (null? hs)
         '()
         (cons (make-rank i (car hs)
                          (list (simple-format #f "10.~A.0.~A/24"
                                               (- (char->integer (string-ref (car hs) 0)) 96)
                                               (+ i 1)))
                          #f #f)
               (loop (+ i 1) (cdr hs)))))))

(define (file-call kind hosts hints)
  (make-call kind (length hosts) 0 #f 0 #f #f #t "MPI_COMM_WORLD" (ranks-on hosts) 'blocking #f
             hints))

(define (choice kind hosts . hints)
  (let ((d ((if (eq? kind 'file-write) default-file-write default-file-read)
            (file-call kind hosts hints) #f)))
    (list (native-algorithm d) (native-segsize d) (native-ranks d))))

(define two-hosts '("a" "a" "b" "b" "b" "a"))

;;; ---- the defaults ------------------------------------------------------------------------
(expect-equal "one host, no hints: a write two-phase if short, rank 0 aggregates, 16 MiB"
              (choice 'file-write '("a" "a" "a" "a"))
              (list 'two-phase-if-short (* 16 MiB) '(0)))
(expect-equal "one host, no hints: a read direct"
              (choice 'file-read '("a" "a" "a" "a"))
              (list 'direct 0 '()))
(expect-equal "one host, cb_buffer_size only: still the one-host choice, that buffer"
              (choice 'file-write '("a" "a") '("cb_buffer_size" . "65536"))
              (list 'two-phase-if-short 65536 '(0)))
(expect-equal "one host, cb_config_list *:1: one aggregator, automatic"
              (choice 'file-write '("a" "a" "a" "a") '("cb_config_list" . "*:1"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0)))
(expect-equal "one host, romio_cb_read=automatic: ROMIO's automatic, rank 0"
              (choice 'file-read '("a" "a" "a" "a") '("romio_cb_read" . "automatic"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0)))
(expect-equal "one host, romio_cb_write=enable: two-phase, rank 0"
              (choice 'file-write '("a" "a" "a" "a") '("romio_cb_write" . "enable"))
              (list 'two-phase (* 16 MiB) '(0)))
(expect-equal "one aggregator per host, the lowest rank of each"
              (choice 'file-write two-hosts)
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 2)))
(expect-equal "cb_nodes on one host: that many aggregators"
              (choice 'file-write '("a" "a" "a" "a") '("cb_nodes" . "3"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 1 2)))
(expect-equal "cb_nodes 3 over two hosts: round-robin over the hosts"
              (choice 'file-write two-hosts '("cb_nodes" . "3"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 1 2)))
(expect-equal "cb_nodes 1 over two hosts: one aggregator"
              (choice 'file-write two-hosts '("cb_nodes" . "1"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0)))
(expect-equal "cb_nodes past the size: every rank"
              (choice 'file-write '("a" "a") '("cb_nodes" . "64"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 1)))
(expect-equal "cb_config_list *:2: two per host"
              (choice 'file-write two-hosts '("cb_config_list" . "*:2"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 1 2 3)))
(expect-equal "cb_config_list b:3,*:1: three on b, one elsewhere"
              (choice 'file-write two-hosts '("cb_config_list" . "b:3,*:1"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 2 3 4)))
(expect-equal "cb_config_list *:*: every rank"
              (choice 'file-read two-hosts '("cb_config_list" . "*:*"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 1 2 3 4 5)))
(expect-equal "cb_config_list b:1 names no rank of a: only b's"
              (choice 'file-read two-hosts '("cb_config_list" . "b:1"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(2)))
(expect-equal "cb_config_list *:2 capped by cb_nodes 3"
              (choice 'file-write two-hosts '("cb_config_list" . "*:2") '("cb_nodes" . "3"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 1 2)))
(expect-equal "a malformed cb_config_list is ignored"
              (choice 'file-write two-hosts '("cb_config_list" . "*:x,b"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 2)))
(expect-equal "cb_buffer_size and romio_cb_write=enable"
              (choice 'file-write two-hosts '("cb_buffer_size" . "4096")
                      '("romio_cb_write" . "enable"))
              (list 'two-phase 4096 '(0 2)))
(expect-equal "romio_cb_write=disable: each rank its own"
              (choice 'file-write two-hosts '("romio_cb_write" . "disable"))
              (list 'direct 0 '()))
(expect-equal "romio_cb_write does not steer reads"
              (choice 'file-read two-hosts '("romio_cb_write" . "disable"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 2)))
(expect-equal "romio_cb_read=DISABLE (any case)"
              (choice 'file-read two-hosts '("romio_cb_read" . "DISABLE"))
              (list 'direct 0 '()))
(expect-equal "a bad cb_buffer_size and cb_nodes keep the defaults"
              (choice 'file-read two-hosts '("cb_buffer_size" . "-5") '("cb_nodes" . "none"))
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 2)))
(expect-equal "parse-cb-config-list" (parse-cb-config-list "node7:2,*:1,x:*")
              '(("node7" . 2) ("*" . 1) ("x" . *)))
(expect-equal "call->string shows the hints"
              (call->string (file-call 'file-read '("a" "a") '(("cb_nodes" . "1"))))
              "file-read bytes=0 comm=MPI_COMM_WORLD size=2 cb_nodes=1")
(expect-equal "call-hint: absent is #f" (call-hint (file-call 'file-write '("a") '()) "cb_nodes")
              #f)

;;; ---- aggregators from a topology ---------------------------------------------------------
(define clusters (by-subnets "10.1.0.0/24" "10.2.0.0/24"))
(define (topo-choice creator kind hosts . hints)
  (let ((d (creator (file-call kind hosts hints) (lambda (call) 'next))))
    (if (eq? d 'next) d (list (native-algorithm d) (native-segsize d) (native-ranks d)))))

(expect-equal "one aggregator per subnet"
              (topo-choice (file-aggregator-creator clusters) 'file-write two-hosts)
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 2)))
(expect-equal "two per subnet, with the hints' buffer and mode"
              (topo-choice (file-aggregator-creator clusters #:per-group 2) 'file-read two-hosts
                           '("cb_buffer_size" . "65536") '("romio_cb_read" . "enable"))
              (list 'two-phase 65536 '(0 1 2 3)))
(expect-equal "by-block 3: ranks 0 and 3"
              (topo-choice (file-aggregator-creator (by-block 3)) 'file-write two-hosts)
              (list 'two-phase-if-interleaved (* 16 MiB) '(0 3)))
(expect-equal "other kinds go to next"
              ((file-aggregator-creator clusters)
               (make-call 'bcast 6 0 0 8 'MPI_INT #f #t "MPI_COMM_WORLD" (ranks-on two-hosts))
               (lambda (call) 'next))
              'next)
(expect-error "#:per-group 0 is refused" (lambda () (file-aggregator-creator clusters #:per-group 0))
              "#:per-group must be a positive integer")

;;; ---- native #:ranks ----------------------------------------------------------------------
(expect-equal "#:ranks in the description's text"
              (with-output-to-string
                (lambda () (display (native 'file-write 'two-phase #:ranks '(0 4)))))
              "(native file-write two-phase #:ranks '(0 4))")
(expect-error "#:ranks must be a list of ranks" (lambda () (native 'file-write 'two-phase #:ranks '(0 -1)))
              "#:ranks must be a list of ranks")

(tap-done)
