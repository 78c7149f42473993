;;; large_only.scm -- a bcast creator with a bug only large messages reach: up to 4000
;;; bytes it leaves the call to the defaults; above, it builds a chain over one rank
;;; too few, a tree the library refuses.  One call of 8 bytes draws fine; compi-tree
;;; --check finds the calls that fail (tests/tools/compi_tree.sh).

(define (large-chain call next)
  (if (<= (call-bytes call) 4000)
      (next call)
      (tree-closure 'bcast (chain-tree (- (call-size call) 1) (call-root call)))))
(install-creator! 'bcast large-chain)
