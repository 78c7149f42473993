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

;; What configs see is CONFIG-NAMES, the one list of it, which (compi private) exports.
(define-module (compi)
  #:use-module (compi private))

(eval-when (expand load eval)
  (module-re-export! (current-module) config-names))
