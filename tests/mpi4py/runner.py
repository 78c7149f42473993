# runner.py -- runs mpi4py's own test suite (test/main.py of its source distribution)
# in one rank of an MPI job, as `python test/main.py` does, and also writes, per rank:
#   <logdir>/np<N>.rank<R>.log       the unittest output of that rank (verbose)
#   <logdir>/np<N>.rank<R>.progress  "start ID" before and "end ID OUTCOME SECONDS" after
#                                    each test, flushed, so a hang can be named and the
#                                    slow tests found
#   <logdir>/np<N>.rank<R>.counts    one line at the end: run= skipped= failed= ...
# Usage: python runner.py TESTDIR LOGDIR [main.py options...]
# The workers of mpi4py.futures (test_util_pool's process pool, started by MPI_Comm_spawn)
# run the main script's file (__file__) again under the name __worker__, with its
# directory first in sys.path, to find the test modules there: runner.py names test/main.py
# as its file, as if main.py had been started.  Only `python runner.py` runs the suite.
import atexit
import os
import sys
import time
import unittest

logdir = None
_files = {}


@atexit.register
def _close():
    for f in _files.values():
        f.close()


def _open(kind):
    if kind not in _files:
        from mpi4py import MPI

        rank = MPI.COMM_WORLD.Get_rank()
        size = MPI.COMM_WORLD.Get_size()
        path = os.path.join(logdir, f"np{size}.rank{rank}.{kind}")
        _files[kind] = open(path, "w", buffering=1, encoding="utf-8")
    return _files[kind]


class Result(unittest.TextTestResult):
    _t0 = 0.0

    def startTest(self, test):
        _open("progress").write(f"start {test.id()}\n")
        self._t0 = time.monotonic()
        super().startTest(test)

    def _end(self, test, outcome):
        secs = time.monotonic() - self._t0
        _open("progress").write(f"end {test.id()} {outcome} {secs:.3f}\n")

    def addSuccess(self, test):
        super().addSuccess(test)
        self._end(test, "ok")

    def _trace(self, test, err, what):
        # now, not only in the summary at the end, which a job killed for a hang never
        # reaches
        _open("log").write(f"\n{what} {test.id()}\n{self._exc_info_to_string(err, test)}\n")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._trace(test, err, "FAIL")
        self._end(test, "FAIL")

    def addError(self, test, err):
        super().addError(test, err)
        self._trace(test, err, "ERROR")
        self._end(test, "ERROR")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._end(test, "skip")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._end(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._end(test, "FAIL")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._trace(subtest, err, "FAIL")
            self._end(subtest, "FAIL")


class Runner(unittest.TextTestRunner):
    resultclass = Result

    def __init__(self, **kwargs):
        kwargs["stream"] = _open("log")
        kwargs["verbosity"] = 2
        super().__init__(**kwargs)

    def run(self, test):
        result = super().run(test)
        ids = lambda pairs: " ".join(sorted({t.id() for t, _ in pairs}))
        failed = result.failures + [(t, e) for t in result.unexpectedSuccesses for e in [""]]
        _open("counts").write(
            f"run={result.testsRun} skipped={len(result.skipped)}"
            f" xfail={len(result.expectedFailures)}"
            f" failed={len({t.id() for t, _ in failed})}"
            f" errors={len({t.id() for t, _ in result.errors})}\n"
            f"failed_ids={ids(failed)}\nerror_ids={ids(result.errors)}\n"
        )
        return result


if __name__ == "__main__":
    testdir, logdir = sys.argv[1], sys.argv[2]
    del sys.argv[1:3]
    sys.dont_write_bytecode = True
    sys.path.insert(0, testdir)
    sys.argv[0] = __file__ = os.path.join(testdir, "main.py")
    import main  # (mpi4py's test/main.py)

    main.main(module=None, testRunner=Runner)
