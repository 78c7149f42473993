;; a creator that is not a procedure
(install-creator! 'bcast 42)
