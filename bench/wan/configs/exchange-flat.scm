;;; exchange-flat.scm -- bench/wan/run-multicluster.sh's "exchange-flat" run: the
;;; exchange allreduce of exchange.scm with flat trees inside each cluster: every member
;;; sends its vector straight to the coordinator and gets the result straight back, one
;;; hop each way where the binomial tree of 4 ranks takes two.  For small vectors over
;;; slow links: the local part then costs about what one allreduce inside the cluster
;;; costs, so the whole is near one WAN crossing plus that.  Other kinds keep the
;;; defaults.  Needs install-allreduce-exchange! from (compi hierarchy).
(install-allreduce-exchange! (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24")
                             #:shapes '(flat))
