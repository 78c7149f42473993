;;; lanes.scm -- bench/wan/run-multicluster.sh's "lanes" run: the allreduce that crosses
;;; first.  The ranks at the same position of every cluster (a lane: c1h2, c2h2, c3h2)
;;; exchange their vectors across the WAN at once, each adds them in cluster order, then
;;; each cluster finishes with a recursive-doubling allreduce inside: one crossing plus
;;; one cluster's allreduce, the limit's own terms.  Other kinds keep the defaults.
;;; Needs install-allreduce-lanes! from (compi hierarchy).
(install-allreduce-lanes! (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
