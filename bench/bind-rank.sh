#!/bin/sh
# bind-rank.sh: pins one MPI rank to one core, then runs the program.  run-p2p.sh starts
# every implementation through it with the launcher's own binding turned off, so all three
# MPIs are bound the same way (rank r on core r mod ncores) whatever their launchers offer.
# The rank comes from the variable each launcher sets: PMI_RANK (Hydra, compi, any PMI-1
# launcher), OMPI_COMM_WORLD_RANK (Open MPI), PMIX_RANK (PMIx launchers).
rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-}}}
if [ -z "$rank" ]; then
    echo "bind-rank.sh: no PMI_RANK, OMPI_COMM_WORLD_RANK or PMIX_RANK; cannot bind" >&2
    exit 1
fi
# the machine's CPUs, not this process's: a launcher may have bound the rank already
# (compi's mpirun binds to one core by default), and taskset re-pins it anyway
ncores=$(getconf _NPROCESSORS_ONLN)
exec taskset -c $((rank % ncores)) "$@"
