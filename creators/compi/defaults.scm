;;; (compi defaults) -- the creators a user gets with no configuration: one per collective
;;; kind, installed by MPI_Init before any config file (so a config's creators are tried
;;; first, and may reach these through `next').
;;;
;;; Copy this file and edit it: every choice is a plain `cond' on what every rank of the
;;; communicator agrees on -- (call-bytes call), (call-size call), the root, the op --
;;; so every rank picks the same algorithm.  The thresholds follow the spirit of Open
;;; MPI's "tuned" fixed decision rules and MPICH's defaults (Thakur, Rabenseifner and
;;; Gropp, "Optimization of Collective Communication Operations in MPICH", 2005):
;;;
;;;   - small messages: the algorithm with the fewest sequential messages (latency
;;;     bound: binomial trees, recursive doubling, dissemination); at 2 ranks that is a
;;;     single message or a single exchange;
;;;   - large messages: the ones that move fewest bytes per rank (bandwidth bound: ring,
;;;     Rabenseifner's reduce-scatter + gather, pipelined chains, scatter + allgather);
;;;   - non-commutative ops: only algorithms that combine in rank order (linear,
;;;     in-order binomial, recursive doubling, reduce + scatterv), whatever the size.
;;;
;;; What `call-bytes' means depends on the kind (core/coll/coll.h): the whole vector for
;;; bcast, reduce, allreduce, scan and exscan; one rank's block for gather, scatter,
;;; allgather and alltoall; the total for allgatherv, reduce-scatter and
;;; reduce-scatter-block; 0 for barrier and the v/w kinds whose totals only some ranks
;;; know; one block for neighbor-allgather and neighbor-alltoall, 0 for their v/w
;;; kinds.  `compi_info --algorithms' lists every native algorithm with its parameters.
;;;
;;; Nonblocking calls ((call-mode call) is nonblocking: MPI_Ibcast, ...) need an
;;; algorithm that runs as a schedule (compi_info --algorithms marks them); each default
;;; below chooses one first for them: `nonblocking-choice'.

(define-module (compi defaults)
  #:use-module (compi)
  #:export (install-default-creators!
            default-barrier default-bcast default-reduce default-allreduce
            default-gather default-gatherv default-scatter default-scatterv
            default-allgather default-allgatherv default-alltoall default-alltoallv
            default-alltoallw default-reduce-scatter default-reduce-scatter-block
            default-scan default-exscan nonblocking-choice inter-choice
            default-neighbor-allgather default-neighbor-allgatherv
            default-neighbor-alltoall default-neighbor-alltoallv default-neighbor-alltoallw
            default-file-write default-file-read file-access-choice default-aggregators
            parse-cb-config-list shm-max))

(define KiB 1024)
(define MiB (* 1024 1024))

(define (power-of-two? n)
  (and (> n 0) (= 0 (logand n (- n 1)))))

;; persistent calls (MPI_Bcast_init, ...) run as schedules too: they get the same choice
(define (nonblocking? call)
  (memq (call-mode call) '(nonblocking persistent)))

;; The schedule-capable algorithm per kind, for nonblocking calls: the fewest rounds
;; where that is cheap to build (binomial trees, dissemination), everything posted at
;; once for the data movers, reduce + scatterv and linear chains where the op's order
;; must be kept.  Allreduce gets nonblocking-allreduce (below).
(define (nonblocking-choice call)
  (case (call-kind call)
    ((barrier) (native 'barrier 'dissemination))
    ((bcast) (native 'bcast 'binomial))
    ((reduce) (if (or (call-commutative? call) (eqv? (call-root call) 0))
                  (native 'reduce 'binomial)
                  (native 'reduce 'in-order-binomial)))
    ((allreduce) (nonblocking-allreduce call))
    ((gather) (native 'gather 'linear))
    ((gatherv) (native 'gatherv 'linear))
    ((scatter) (native 'scatter 'linear))
    ((scatterv) (native 'scatterv 'linear))
    ((allgather) (native 'allgather 'ring))
    ((allgatherv) (native 'allgatherv 'ring))
    ((alltoall) (native 'alltoall 'linear))
    ((alltoallv) (native 'alltoallv 'linear))
    ((alltoallw) (native 'alltoallw 'linear))
    ((reduce-scatter) (native 'reduce-scatter 'reduce-scatterv))
    ((reduce-scatter-block) (native 'reduce-scatter-block 'reduce-scatterv))
    ((scan) (native 'scan 'linear))
    ((exscan) (native 'exscan 'linear))
    ((neighbor-allgather) (native 'neighbor-allgather 'linear))
    ((neighbor-allgatherv) (native 'neighbor-allgatherv 'linear))
    ((neighbor-alltoall) (native 'neighbor-alltoall 'linear))
    ((neighbor-alltoallv) (native 'neighbor-alltoallv 'linear))
    ((neighbor-alltoallw) (native 'neighbor-alltoallw 'linear))
    ;; never asked: the file layer runs its nonblocking and split collectives blocking
    ((file-write file-read) (file-access-choice call (default-aggregators call)))))

;;; ---- one host: the shared-memory algorithms -----------------------------------------

;; On a communicator whose ranks all live on one host, a blocking barrier, bcast, reduce,
;; allreduce, reduce-scatter, reduce-scatter-block, gather or allgather of up to one slot
;; (8 KiB, coll_shm_slot's default; for gather and allgather one rank's block), and an
;; alltoall or scatter whose p blocks fit one slot, goes through the communicator's shared
;; segment: flags in cache lines and per-rank slots instead of messages
;; (core/coll/shm.h).  Measured on the 2-core development machine (shared;
;; medians of 5 interleaved runs of 5000 calls, these algorithms against the PML ones
;; the rules below choose): at 2 ranks barrier 0.12 us against 0.15, allreduce 8 B 0.15
;; against 0.19 and 8 KiB 1.5 against 4.1, reduce 1 KiB 0.11 against 0.20, bcast 1 KiB
;; 0.10 against 0.18 (rotating roots 8 B 0.10 against 0.16); at 4 ranks (2 per core)
;; allreduce 8 B 3.4 against 5.0, reduce 1 KiB 0.85 against 5.5, bcast 8 KiB 1.5 against
;; 10.6.  Slower: a tight loop of tiny bcasts from one root at 4 ranks (0.64 us against
;; 0.16: eager sends let that root run further ahead than the eight slots do) and 8 B
;; bcast or reduce from one root at 2 ranks (0.07 against 0.05).  The reductions keep
;; rank order, so non-commutative ops take them too.  The one-round kinds, with OSU 7.4
;; (medians of 3 interleaved runs of 3000 calls, against the algorithms the rules below
;; chose before), at 2 ranks: allgather 8 B 0.18 us against 0.26, 8 KiB blocks 2.4
;; against 9.3; alltoall 8 B 0.13 against 0.25, 2 KiB 0.34 against 0.53; reduce-scatter 8 B
;; 0.16 against 0.26, 8 KiB 0.90 against 4.3; gather 8 B 0.11 against 0.14, 4 KiB 0.37
;; against 4.7; scatter 8 B 0.08 against 0.14, 2 KiB 0.21 against 0.33.  At 4 ranks (one
;; run of 500 calls): allgather 8 KiB blocks 13 against 52, alltoall 1 KiB 8.2 against
;; 13, reduce-scatter 8 B 5.3 against 12, gather 4 KiB 3.7 against 16 (small gathers: 2
;; to 4 us either way, within the noise).
(define shm-max (* 8 KiB))

;; #f also for a call without rank facts (a tool's call made with make-call)
(define (one-host? call)
  ;; call-ranks is the bridge's primitive in (compi) (scheme/bridge_facts.c), there only
  ;; inside the library: looked up at the call, so this module loads under guile alone
  (let* ((v (module-variable (resolve-module '(compi)) 'call-ranks))
         (ranks (and v (variable-bound? v) (false-if-exception ((variable-ref v) call)))))
    (and ranks
         (let ((host (rank-host (vector-ref ranks 0))))
           (and-map (lambda (r) (equal? (rank-host r) host)) (vector->list ranks))))))

;; `bytes': what must fit a slot, call-bytes unless given (alltoall and scatter: the p
;; blocks, shm-blocks?)
(define (shm-fits? call bytes)
  (and (not (call-inter? call))
       (> (call-size call) 1)
       (<= bytes shm-max)
       (one-host? call)))

(define* (shm? call #:optional (bytes (call-bytes call)))
  (and (eq? (call-mode call) 'blocking) (shm-fits? call bytes)))

;; Nonblocking calls can run the same algorithms' phases as a schedule (never persistent
;; ones, whose starts are not ordered: core/coll/shm.h; tests/mpi/configs/shm.scm chooses
;; them in the other modes), and they were faster, measured with OSU 7.4 at 2 ranks on the
;; shared 2-core machine, "pure comm." time (MPI_I* + MPI_Wait), interleaved against the
;; PML's schedules, load 4, medians of 5 runs of 4000 calls: osu_ibcast 8 B-1 KiB
;; 0.36-0.48 us against 0.46-0.70, osu_iallreduce 8 B-1 KiB 0.54-0.85 against 0.56-0.87
;; (osu_ibarrier even).  The defaults still do not choose them: a blocking shm call waits
;; for the communicator's outstanding nonblocking shm calls (they share the segment's
;; sequence), so ranks that start a nonblocking collective and a blocking one in
;; different orders -- erroneous by MPI's rule, but tolerated by the PML's separate tags
;; and by other MPIs, and done by mpi4py's test of its MPI_Comm_iagree fallback (an
;; MPI_Iallreduce before a barrier on one rank, after it on the others) -- would wait for
;; each other for ever.

(define (shm-blocks? call)
  (shm? call (* (call-size call) (call-bytes call))))

;;; ---- synchronisation and one-to-all ----------------------------------------------------

;; Dissemination needs ceil(log2 p) rounds for any p; recursive doubling needs log2 p
;; rounds for a power of two but an extra fold-in round otherwise.  At 2 ranks both are a
;; single exchange.
(define (default-barrier call next)
  (cond ((shm? call) (native 'barrier 'shm))
        ((power-of-two? (call-size call)) (native 'barrier 'recursive-doubling))
        (else (native 'barrier 'dissemination))))

;; Small: a binomial tree, ceil(log2 p) steps (one message at 2 ranks).  Medium: the
;; same tree, pipelined so inner ranks forward a segment while the next one arrives.
;; Large: a pipelined chain when there are few ranks (each link carries the message once,
;; at full speed), van de Geijn's scatter + allgather when there are many.
(define (default-bcast call next)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm? call) (native 'bcast 'shm))
          ((or (<= p 2) (< bytes (* 12 KiB))) (native 'bcast 'binomial))
          ((< bytes (* 512 KiB)) (native 'bcast 'pipelined-binomial #:segsize (* 16 KiB)))
          ((< p 8) (native 'bcast 'chain #:segsize (* 128 KiB)))
          (else (native 'bcast 'scatter-allgather)))))

;;; ---- reductions ----------------------------------------------------------------------

;; A user-defined op (MPI_Op_create) may come with another datatype on each rank: one
;; type signature in another layout, with elements of other sizes (a predefined op needs
;; the same datatype on every rank).  An algorithm that cuts the vector into blocks or
;; segments by element counts would then cut it at different places on different
;; ranks, so reductions with a user op take the algorithms that move whole vectors
;; (and the shared-memory ones, whose slots hold each rank's own layout, fall back to
;; such an algorithm over the PML: core/coll/shm.c).
(define (user-op? call) (eq? (call-op call) 'user))

;; Non-commutative ops: linear (the root combines in rank order) for few ranks and small
;; vectors, else the in-order binomial tree.  Commutative: linear while the root can
;; absorb every message cheaply, a binomial tree for small vectors, a segmented binary
;; tree for medium ones; for large ones one transfer on 2 ranks, a pipelined chain up to
;; 16 ranks and Rabenseifner's reduce-scatter + gather beyond (measured on 2 cores,
;; bench/run-coll.sh: at 1 MiB, 2 ranks, linear 157 us against Rabenseifner's 923 us;
;; 4 ranks, chain 586 us, Rabenseifner 2653 us).  On 2 ranks the one transfer wins at
;; every size: the root receives straight into rbuf and combines in place, where the
;; trees add requests and segments (medians of 11 rounds, float sums, 2 cores: 64 KiB
;; 26 us against the binary tree's 49, 256 KiB 37 against 191).
(define (default-reduce call next)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm? call) (native 'reduce 'shm))
          ((not (call-commutative? call))
           (if (and (< p 12) (< bytes (* 2 KiB)))
               (native 'reduce 'linear)
               (native 'reduce 'in-order-binomial)))
          ((and (< p 8) (< bytes 512)) (native 'reduce 'linear))
          ((<= p 2) (native 'reduce 'linear))
          ((or (< bytes (* 20 KiB)) (user-op? call)) (native 'reduce 'binomial))
          ((< bytes (* 512 KiB)) (native 'reduce 'kary #:fanout 2 #:segsize (* 32 KiB)))
          ((< p 16) (native 'reduce 'chain #:segsize (* 64 KiB)))
          (else (native 'reduce 'rabenseifner)))))

;; Recursive doubling exchanges whole vectors log2 p times: the fewest steps, right for
;; small vectors and any op.  Larger commutative ones: Rabenseifner (reduce-scatter by
;; halving + allgather by doubling), then the ring, which moves 2(p-1)/p of the vector
;; per rank whatever p.  Large non-commutative: in-order reduce, then bcast.  On 2 ranks
;; recursive doubling (one exchange of the whole) up to 256 KiB.  From 256 KiB on up to 4
;; ranks, commutative: the segmented ring (at 2 ranks the exchange of halves, each rank
;; combining half the vector, in 256 KiB segments received straight into rbuf and
;; combined there).  Against Rabenseifner at 2 ranks (char sums as osu_allreduce's,
;; single calls timed on rank 0, median over 4 interleaved rounds of the fastest and the
;; 10th percentile of 50-1000 calls, 2 cores under a load average of 8-12): 256 KiB 28.4
;; and 29.1 us against 29.8 and 30.6, 1 MiB 122 and 124 against 140 and 142, 4 MiB 528
;; and 541 against 693 and 713; with the input rewritten before each call, 0.95 MiB
;; 125 against 145.  (Recursive doubling is faster up to about 450 KiB while the input does
;; not change between calls, as in osu_allreduce, since the peer's input stays in cache;
;; rewritten before each call, it is slower from 192 KiB.)  Against the ring at 3 and 4
;; ranks (oversubscribed): 1 MiB 422 and 532 us against 507 and 626, 4 MiB 1.76 and 1.87
;; ms against 2.15 and 2.86.
;; Beyond 4 ranks the ring, whose messages the segmented ring's are while a block is
;; under a segment (not measured on more cores).
(define (default-allreduce call next)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm? call) (native 'allreduce 'shm))
          ((or (< bytes 10000)
               (and (user-op? call) (call-commutative? call))
               (and (<= p 2) (or (< bytes (* 256 KiB)) (not (call-commutative? call)))))
           (native 'allreduce 'recursive-doubling))
          ((not (call-commutative? call)) (native 'allreduce 'reduce-bcast))
          ((< bytes (* 256 KiB)) (native 'allreduce 'rabenseifner))
          ((<= p 4) (native 'allreduce 'segmented-ring #:segsize (* 256 KiB)))
          (else (native 'allreduce 'ring)))))

;; Nonblocking and persistent allreduce: the blocking choice, whose algorithms all run
;; as schedules (not the shared-memory one: see shm-fits? above), but at 2 ranks commutative vectors from 4 KiB to 256
;; KiB go by Rabenseifner (one exchange of half the vector each way, then the other half
;; back) instead of recursive doubling's exchange of the whole: as schedules, measured
;; with osu_iallreduce on 2 cores, 64 KiB 22 us against 39, 1 MiB 480 us against 800
;; (recursive doubling wins only below 4 KiB).  From 256 KiB the blocking choice, the
;; segmented ring, is the same schedule as blocking calls run.
(define (nonblocking-allreduce call)
  (cond ((and (<= (call-size call) 2) (call-commutative? call) (not (user-op? call))
              (>= (call-bytes call) (* 4 KiB)) (< (call-bytes call) (* 256 KiB)))
         (native 'allreduce 'rabenseifner))
        (else (default-allreduce call #f))))

;; Reduce-scatter (bytes: the total of all blocks).  Recursive halving for small totals,
;; and for medium ones on a power of two; the ring otherwise.  Non-commutative: reduce in
;; rank order to 0, then scatter the blocks.
(define (reduce-scatter-choice kind call)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm? call) (native kind 'shm))
          ((not (call-commutative? call)) (native kind 'reduce-scatterv))
          ((or (< bytes (* 12 KiB))
               (and (< bytes (* 256 KiB)) (power-of-two? p)))
           (native kind 'recursive-halving))
          (else (native kind 'ring)))))

(define (default-reduce-scatter call next)
  (reduce-scatter-choice 'reduce-scatter call))

(define (default-reduce-scatter-block call next)
  (reduce-scatter-choice 'reduce-scatter-block call))

;; Scans: recursive doubling (log2 p steps, any op) for all but very large vectors, where
;; the linear chain moves each vector once.
(define (default-scan call next)
  (if (< (call-bytes call) MiB)
      (native 'scan 'recursive-doubling)
      (native 'scan 'linear)))

(define (default-exscan call next)
  (if (< (call-bytes call) MiB)
      (native 'exscan 'recursive-doubling)
      (native 'exscan 'linear)))

;;; ---- data movement ---------------------------------------------------------------------

;; Gather (bytes: one rank's block).  Large blocks go straight to the root; small blocks
;; from many ranks are combined up a binomial tree so the root receives log2 p messages.
(define (default-gather call next)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm? call) (native 'gather 'shm))
          ((and (< bytes 6000) (or (> p 60) (and (> p 10) (< bytes KiB))))
           (native 'gather 'binomial))
          (else (native 'gather 'linear)))))

(define (default-scatter call next)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm-blocks? call) (native 'scatter 'shm))
          ((and (> p 10) (< bytes 300)) (native 'scatter 'binomial))
          (else (native 'scatter 'linear)))))

;; The v variants: only the root knows the counts, so there is nothing to choose on.
(define (default-gatherv call next) (native 'gatherv 'linear))
(define (default-scatterv call next) (native 'scatterv 'linear))

;; Allgather (bytes: one rank's block).  Small totals: recursive doubling on powers of two
;; (one exchange at 2 ranks), Bruck otherwise; large totals: the ring.
(define (default-allgather call next)
  (let* ((p (call-size call)) (total (* p (call-bytes call))))
    (cond ((shm? call) (native 'allgather 'shm))
          ((and (< total 50000) (power-of-two? p)) (native 'allgather 'recursive-doubling))
          ((< total 50000) (native 'allgather 'bruck))
          (else (native 'allgather 'ring)))))

;; Allgatherv (bytes: the total): every block sent at once while that stays small, the
;; ring beyond.
(define (default-allgatherv call next)
  (if (and (<= (call-size call) 8) (< (call-bytes call) (* 32 KiB)))
      (native 'allgatherv 'linear)
      (native 'allgatherv 'ring)))

;; Alltoall (bytes: one block).  Bruck's log2 p steps for tiny blocks on many ranks, all
;; transfers posted at once for small blocks, pairwise exchange (one peer per step, no
;; contention) for large ones and at 2 ranks (a single exchange).
(define (default-alltoall call next)
  (let ((bytes (call-bytes call)) (p (call-size call)))
    (cond ((shm-blocks? call) (native 'alltoall 'shm))
          ((= p 2) (native 'alltoall 'pairwise))
          ((and (< bytes 200) (> p 12)) (native 'alltoall 'bruck))
          ((< bytes 3000) (native 'alltoall 'linear))
          (else (native 'alltoall 'pairwise)))))

;; The v and w variants: sizes differ per peer and are not in the key; post everything at
;; once on small communicators, pairwise beyond.
(define (default-alltoallv call next)
  (if (<= (call-size call) 16)
      (native 'alltoallv 'linear)
      (native 'alltoallv 'pairwise)))

(define (default-alltoallw call next)
  (if (<= (call-size call) 16)
      (native 'alltoallw 'linear)
      (native 'alltoallw 'pairwise)))

;;; ---- neighbourhood collectives ---------------------------------------------------------

;; The communicator's topology ((call-topology call): cart, graph or dist-graph) fixes who
;; talks to whom; the one native algorithm posts every neighbour's transfer at once.
(define (default-neighbor-allgather call next) (native 'neighbor-allgather 'linear))
(define (default-neighbor-allgatherv call next) (native 'neighbor-allgatherv 'linear))
(define (default-neighbor-alltoall call next) (native 'neighbor-alltoall 'linear))
(define (default-neighbor-alltoallv call next) (native 'neighbor-alltoallv 'linear))
(define (default-neighbor-alltoallw call next) (native 'neighbor-alltoallw 'linear))

;;; ---- collective file access ------------------------------------------------------------

;; MPI_File_write_all, read_all and the other collective data accesses (the kinds
;; file-write and file-read; call-bytes is 0: each rank moves its own bytes).  The
;; choice follows ROMIO's hints as an MPICH user sets them in MPI_File_open's info
;; ((call-hint call KEY), strings; they must be the same on every rank):
;;
;;   romio_cb_write / romio_cb_read   enable: two-phase always; disable: each rank its
;;                                    own segments ('direct); automatic (the default):
;;                                    two-phase when the ranks' ranges interleave, which
;;                                    the algorithm sees at run time
;;                                    ('two-phase-if-interleaved)
;;   cb_buffer_size                   bytes each aggregator moves per round (#:segsize;
;;                                    16 MiB)
;;   cb_config_list                   aggregators per host: "*:1" (the default), "*:2",
;;                                    "node7:2,*:1", "*:*" (every rank)
;;   cb_nodes                         at most this many aggregators (taken round-robin
;;                                    over the hosts); on one host with no
;;                                    cb_config_list, this many
;;
;; so by default one rank per host (the lowest) aggregates: file data crosses between
;; hosts once, and each host's file requests are few and large.  A config that knows
;; the network better chooses the aggregators from a topology description
;; (install-file-aggregators! of (compi hierarchy): one per cluster of by-subnets) and
;; hands them to file-access-choice.
;;
;; On one host, with none of the hints above but cb_buffer_size, every rank shares the
;; page cache and the file system's client: a read is 'direct (each rank its own
;; preads, which the page cache serves as fast as an aggregator's, without the
;; exchange's copies), and a write is 'two-phase-if-short (two-phase, through the one
;; aggregator, only where the ranks' runs interleave and are short, under 16 KiB on
;; average: there one writer's large requests beat the ranks' small ones, and on ext4
;; also beat every rank aggregating; docs/architecture.md "Collective I/O").
(define (cb-mode-key call)
  (if (eq? (call-kind call) 'file-write) "romio_cb_write" "romio_cb_read"))

(define (one-host-default? call)
  (and (not (call-hint call (cb-mode-key call)))
       (not (call-hint call "cb_nodes"))
       (not (call-hint call "cb_config_list"))
       (null? (cdr (host-groups call)))))

(define (cb-mode call)
  (let ((h (call-hint call (cb-mode-key call))))
    (cond ((not h) 'automatic)
          ((string-ci=? h "enable") 'enable)
          ((string-ci=? h "disable") 'disable)
          (else 'automatic))))

(define (hint-number call key default)
  (let* ((h (call-hint call key)) (n (and h (string->number h))))
    (if (and (exact-integer? n) (> n 0)) n default)))

(define (cb-buffer-size call) (hint-number call "cb_buffer_size" (* 16 MiB)))

;; The description for a file access with AGGREGATORS (a list of ranks) and the hints.
(define (file-access-choice call aggregators)
  (let ((kind (call-kind call)) (cb (cb-buffer-size call)))
    (case (cb-mode call)
      ((disable) (native kind 'direct))
      ((enable) (native kind 'two-phase #:segsize cb #:ranks aggregators))
      (else (native kind 'two-phase-if-interleaved #:segsize cb #:ranks aggregators)))))

;; The ranks of each host, in order of the hosts' lowest ranks: ((0 2) (1 3)); one host
;; when the call has no rank facts (a tool's make-call without RANKS).
;; call-ranks inside the library; under guile alone, the ranks a make-call was given
(define (rank-facts call)
  (let ((v (module-variable (resolve-module '(compi)) 'call-ranks)))
    (if (and v (variable-bound? v))
        (false-if-exception ((variable-ref v) call))
        (let ((r ((record-accessor (record-type-descriptor call) 'ranks) call)))
          (and (vector? r) r)))))

(define (host-groups call)
  (let ((ranks (rank-facts call)))
    (if (not ranks)
        (list (iota (call-size call)))
        (let loop ((i 0) (hosts '()))
          (if (= i (vector-length ranks))
              (reverse (map (lambda (h) (reverse (cdr h))) hosts))
              (let* ((host (rank-host (vector-ref ranks i))) (h (assoc host hosts)))
                (if h
                    (begin (set-cdr! h (cons i (cdr h))) (loop (+ i 1) hosts))
                    (loop (+ i 1) (cons (list host i) hosts)))))))))

;; "node7:2,*:1" -> (("node7" . 2) ("*" . 1)); "*:*" -> (("*" . *)); #f when malformed
(define (parse-cb-config-list s)
  (let ((entries (map (lambda (e) (string-split e #\:)) (string-split s #\,))))
    (and (and-map (lambda (e)
                    (and (= (length e) 2) (not (string-null? (car e)))
                         (or (string=? (cadr e) "*")
                             (let ((n (string->number (cadr e))))
                               (and (exact-integer? n) (>= n 0))))))
                  entries)
         (map (lambda (e)
                (cons (car e) (if (string=? (cadr e) "*") '* (string->number (cadr e)))))
              entries))))

;; the host name of a group of host-groups (#f without facts), for cb_config_list
(define (group-host call group)
  (let ((ranks (rank-facts call)))
    (and ranks (rank-host (vector-ref ranks (car group))))))

;; Round-robin over GROUPS (lists of ranks, each taking at most its count of COUNTS):
;; the first rank of each group, then the second, ...; at most LIMIT (#f: all).
(define (round-robin groups counts limit)
  (let loop ((j 0) (out '()))
    (let ((picked (let pick ((gs groups) (ns counts))
                    (cond ((null? gs) '())
                          ((< j (min (car ns) (length (car gs))))
                           (cons (list-ref (car gs) j) (pick (cdr gs) (cdr ns))))
                          (else (pick (cdr gs) (cdr ns)))))))
      (if (or (null? picked) (and limit (>= (length out) limit)))
          (let ((all (reverse out)))
            (sort (if (and limit (> (length all) limit)) (list-head all limit) all) <))
          (loop (+ j 1) (append (reverse picked) out))))))

;; The default aggregators: cb_config_list's count per host ("*:1" when absent), at
;; most cb_nodes of them; with cb_nodes and no cb_config_list, cb_nodes spread over the
;; hosts.  Never none: rank 0 when the list names no rank.
(define (default-aggregators call)
  (let* ((groups (host-groups call))
         (p (call-size call))
         (nodes (let ((n (hint-number call "cb_nodes" #f))) (and n (min n p))))
         (cfg (let ((h (call-hint call "cb_config_list"))) (and h (parse-cb-config-list h))))
         (count-of (lambda (g)
                     (let* ((host (group-host call g))
                            (e (or (and host (assoc host cfg)) (assoc "*" cfg))))
                       (cond ((not e) 0)
                             ((eq? (cdr e) '*) (length g))
                             (else (cdr e))))))
         (counts (cond (cfg (map count-of groups))
                       (nodes (map length groups))
                       (else (map (const 1) groups))))
         (aggs (round-robin groups counts nodes)))
    (if (null? aggs) '(0) aggs)))

(define (default-file-write call next)
  (if (one-host-default? call)
      (native 'file-write 'two-phase-if-short
              #:segsize (cb-buffer-size call)
              #:ranks (default-aggregators call))
      (file-access-choice call (default-aggregators call))))

(define (default-file-read call next)
  (if (one-host-default? call)
      (native 'file-read 'direct)
      (file-access-choice call (default-aggregators call))))

;;; ---- installing ------------------------------------------------------------------------

;; default-KIND for every kind of collective-kinds (core/coll/kinds.def): a kind added
;; there needs its default here, or bridge_init says which one is missing.
(define this-module (current-module))
(define (default-of kind)
  (let ((v (module-variable this-module (symbol-append 'default- kind))))
    (unless v
      (scm-error 'misc-error 'install-default-creators!
                 "(compi defaults) has no default-~A for the collective kind ~A"
                 (list kind kind) #f))
    (variable-ref v)))

;; A call on an intercommunicator ((call-inter? call): MPI_Intercomm_create, ...) has one
;; algorithm per kind, built from exchanges between the two groups' leaders and steps
;; inside each group (its schedule, for nonblocking and persistent calls, sends straight
;; between the groups); no intracommunicator algorithm can serve it.
(define (inter-choice call)
  (native (call-kind call) 'inter))

;; An intercommunicator call gets inter-choice, a nonblocking one nonblocking-choice, a
;; blocking one the kind's default; the creator keeps the default's name (compi_info,
;; messages).
;; (The name is given, not asked of the procedure: procedure-name of a compiled procedure
;; loads Guile's debug-information modules, 20 ms of every process's MPI_Init.)
(define (with-nonblocking name creator)
  (let ((c (lambda (call next)
             (cond ((call-inter? call) (inter-choice call))
                   ((nonblocking? call) (nonblocking-choice call))
                   (else (creator call next))))))
    (set-procedure-property! c 'name name)
    c))

;; Called by bridge_init before any config file is loaded.
(define (install-default-creators!)
  (parameterize ((current-config-origin "compi/defaults.scm"))
    (for-each (lambda (kind)
                (install-creator! kind (with-nonblocking (symbol-append 'default- kind)
                                                         (default-of kind))))
              collective-kinds)))
