;;; io_fail.scm -- a creator of collective file writes that fails on one rank only: the
;;; agreement at the miss fails MPI_File_write_all on every rank with the creator's
;;; message (no hang); reads keep the defaults.
(install-creator! 'file-write
                  (lambda (call next)
                    (if (= (call-rank call) (- (call-size call) 1))
                        (error "no aggregators for this file")
                        (next call))))
