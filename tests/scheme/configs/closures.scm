;; Closure descriptions that build (tests/scheme/closures.sh): one creator per kind.
(define (kary-bcast call next)
  (native 'bcast 'kary #:fanout 4 #:segsize 8192))
(install-creator! 'bcast kary-bcast)

(define (tree-reduce call next)
  (tree-closure 'reduce (binomial-tree (call-size call) (call-root call))))
(install-creator! 'reduce tree-reduce)

(define (profiled-gather call next)
  (profiling (next call)))
(install-creator! 'gather profiled-gather)
(install-creator! 'scatter (lambda (call next) (tracing (native 'scatter 'binomial))))

;; a Scheme closure: any procedure of one argument
(define (do-nothing call) #t)
(define (scheme-barrier call next) do-nothing)
(install-creator! 'barrier scheme-barrier)
(install-creator! 'scan (lambda (call next) (profiling (lambda (call) #t))))

;; size-based selection falling back to the defaults through next
(define (by-size call next)
  (if (< (call-bytes call) 1024)
      (native 'allgather 'bruck)
      (next call)))
(install-creator! 'allgather by-size)

;; the communicator's process topology: distributed graphs get profiled
(define (by-topology call next)
  (if (eq? (call-topology call) 'dist-graph)
      (profiling (next call))
      (next call)))
(install-creator! 'neighbor-alltoall by-topology)
