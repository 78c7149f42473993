;;; exchange.scm -- bench/wan/run-multicluster.sh's "exchange" run: the allreduce that
;;; crosses the WAN once.  Each cluster reduces to its coordinator, the coordinators
;;; exchange their partial results all-to-all (every WAN link once per direction, at the
;;; same time), each combines them in cluster order and broadcasts inside its cluster.
;;; Other kinds keep the defaults.  Needs install-allreduce-exchange! from
;;; (compi hierarchy).
(install-allreduce-exchange! (by-subnets "10.1.0.0/24" "10.2.0.0/24" "10.3.0.0/24"))
