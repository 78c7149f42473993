;;; world_map.scm -- a machine map in world ranks on every communicator (coll_topo runs on
;;; MPI_COMM_WORLD, WORLD reversed and the even and odd halves of WORLD).  The map, world
;;; ranks 0-2 | 3-5 | 6-11, is installed once with install-hierarchical!; on a
;;; communicator holding only some of those processes each group keeps the members it has
;;; and empty groups are dropped.  A creator installed after it checks at every miss that
;;; the groups are the map's blocks cut to the communicator's processes, then passes the
;;; call on to the hierarchical creator.
(define world-map (list (rank-range 0 2) (rank-range 3 5) (rank-range 6 11)))
(install-hierarchical! (apply by-world-ranks world-map) #:shapes '(flat binomial))

(define (check-map call next)
  (let* ((ranks (call-ranks call))
         (worlds (map rank-world (vector->list ranks)))
         (want (filter pair? (map (lambda (block) (filter (lambda (w) (memv w worlds)) block))
                                  world-map)))
         (got (map (lambda (g) (sort (map (lambda (i) (rank-world (vector-ref ranks i))) g) <))
                   (topology-groups (apply by-world-ranks world-map) ranks))))
    (unless (equal? (sort got (lambda (a b) (< (car a) (car b)))) want)
      (error "the world map grouped" got "want" want))
    (next call)))

(for-each (lambda (k) (install-creator! k check-map)) tree-kinds)
