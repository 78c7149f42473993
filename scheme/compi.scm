;;; (compi) -- the Scheme API that collective configuration files are written against
;;; (docs/scheme-api.md).
;;;
;;; A configuration installs *creators* per collective kind; a creator answers a call
;;; with a closure description (native, tree-closure, exchange-closure, profiling,
;;; tracing, schedule, or a Scheme procedure).  Everything is defined in (compi private)
;;; (scheme/compi/private.scm); this module is the part of it configs see, and nothing
;;; else.
;;;
;;; When loaded by the library, the bridge also defines and exports the C primitives of
;;; scheme/bridge_prims.c, bridge_call.c, bridge_facts.c and bridge_closure.c here
;;; (compi-version, compi-log, native-algorithms, call-ranks, call-send-buffer,
;;; buffer-isend, run-closure, ...).

(define-module (compi)
  #:use-module (compi private)
  #:re-export (collective-kinds
            collective-kind?
            install-creator!
            installed-creators
            creator-entry?
            creator-entry-procedure
            creator-entry-name
            creator-entry-origin
            run-creators
            current-config-origin
            at-finalize
            ;; calls
            make-call
            call?
            call-kind
            call-size
            call-rank
            call-root
            call-bytes
            call-datatype
            call-op
            call-commutative?
            call-comm
            call-mode
            call-topology
            call-inter?
            call-remote-size
            call->string
            ;; rank facts ((call-ranks CALL) is a primitive of scheme/bridge_facts.c)
            make-rank
            rank?
            rank-world
            rank-host
            rank-addresses
            rank-place
            rank-bound?
            buffer?
            buffer-count
            request?
            ;; closure descriptions
            native
            native?
            tree-closure
            tree-closure?
            exchange-closure?
            profiling
            tracing
            wrapper?
            scheme-closure?
            schedule
            schedule?
            schedule-kinds
            closure-description?
            description-kind
            description->string))
