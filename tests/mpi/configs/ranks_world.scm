;;; ranks_world.scm -- by-world-ranks on split communicators (coll_topo runs on
;;; MPI_COMM_WORLD, WORLD reversed and the even and odd halves of WORLD).  The creator
;;; groups the processes of each communicator in pairs of consecutive world ranks, named
;;; as world ranks, serves the tree kinds with hierarchical trees over those pairs, and
;;; checks at every miss that each group holds the communicator ranks of one pair: read
;;; as communicator ranks, the same lists would group other processes (WORLD reversed at
;;; an odd size) or name ranks past the size (the halves).
(define (pairs xs)
  (cond ((null? xs) '())
        ((null? (cdr xs)) (list xs))
        (else (cons (list (car xs) (cadr xs)) (pairs (cddr xs))))))

(define (world-ranks call)
  (sort (map rank-world (vector->list (call-ranks call))) <))

(define (world-pairs call next)
  (let* ((ranks (call-ranks call))
         (want (pairs (world-ranks call)))
         (desc (apply by-world-ranks want)))
    (for-each (lambda (g)
                (let ((ws (sort (map (lambda (i) (rank-world (vector-ref ranks i))) g) <)))
                  (unless (member ws want)
                    (error "by-world-ranks grouped other processes:" g ws want))))
              (topology-groups desc ranks))
    ((hierarchical-creator desc #:shapes '(flat binomial)) call next)))

(for-each (lambda (k) (install-creator! k world-pairs)) tree-kinds)
