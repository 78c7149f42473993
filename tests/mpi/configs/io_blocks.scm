;;; io_blocks.scm -- collective file access with its aggregators chosen by a topology
;;; description: "hosts" of 2 ranks by rank block, one aggregator each (the lowest rank),
;;; whatever cb_nodes says; cb_buffer_size and romio_cb_write/romio_cb_read still decide
;;; the buffer and whether collective buffering runs (file-access-choice of the defaults).
;;; On a cluster the same line with (by-subnets "10.1.0.0/16" "10.2.0.0/16") takes one
;;; aggregator per cluster, so the file's data crosses the link between them once.
(install-file-aggregators! (by-block 2))
