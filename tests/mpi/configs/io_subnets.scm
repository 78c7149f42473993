;;; io_subnets.scm -- collective file access on the emulated wide-area testbed
;;; (bench/wan/testbed.sh: cluster K is the subnet 10.K.0.0/24): one aggregator per
;;; cluster, the lowest rank there, so the file's data crosses the link between the
;;; clusters once.  cb_buffer_size and romio_cb_write/romio_cb_read still decide the
;;; buffer and whether collective buffering runs (file-access-choice of the defaults).
;;; tests/wan/wan.sh runs tests/mpi/io_coll and io_access under it, one rank per host.
(install-file-aggregators! (by-subnets "10.1.0.0/24" "10.2.0.0/24"))
