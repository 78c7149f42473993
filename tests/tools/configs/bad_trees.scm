;;; bad_trees.scm -- creators that answer closures the library refuses when it builds
;;; them, one kind each (tests/tools/compi_tree.sh compares compi-tree's messages with
;;; the library's, from tests/scheme/bridge_probe):
;;;   bcast:   a tree of 3 ranks, whatever the communicator
;;;   reduce:  ranks 1 and 2 are each other's parent
;;;   gather:  a native algorithm that does not exist
;;;   alltoall: a tree, for a kind no tree executor runs

(define (three-ranks call next)
  (tree-closure 'bcast (flat-tree 3 0)))
(install-creator! 'bcast three-ranks)

(define (cycle call next)
  (tree-closure 'reduce (make-tree (call-size call) 0
                                   (append '(-1 2 1) (make-list (- (call-size call) 3) 0)))))
(install-creator! 'reduce cycle)

(define (no-such-algorithm call next)
  (native 'gather 'no-such-algorithm))
(install-creator! 'gather no-such-algorithm)

(define (alltoall-tree call next)
  (tree-closure 'alltoall (binomial-tree (call-size call) 0)))
(install-creator! 'alltoall alltoall-tree)
