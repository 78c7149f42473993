(install-creator! 'reduce
                  (lambda (call) call))
