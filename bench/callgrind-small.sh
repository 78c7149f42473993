#!/bin/bash
# callgrind-small.sh: instructions per call on compi's small-message path, counted by
# callgrind (valgrind), so the numbers do not depend on how loaded the machine is.
#
#   pingpong   np 2: MPI_Send and MPI_Recv of 8 bytes, inclusive, per call
#   barrier    np 2: MPI_Barrier, inclusive, per call
#   allreduce  np 2: MPI_Allreduce of one double (MPI_SUM), inclusive, per call
#   self       np 1: MPI_Send + MPI_Recv of 8 bytes to oneself; then MPI_Irecv + MPI_Isend
#              + MPI_Waitall of the two
#   iprobe     np 2: MPI_Iprobe that finds nothing: pml_progress is one idle poll, the
#              round every waiting call repeats
#
# Instructions per call, inclusive, of the counted loop (after a warm-up of 20).  In the
# ping-pong each rank tells the other "sent" through a pipe, outside MPI, and receives
# only then: a receive finds its message at its first look, so its count is the work of
# one message, not time spent polling.  Before a collective rank 1 sleeps, so that it
# comes last; what a collective polls while its peer runs under valgrind still counts.
# The btl_sm_progress line is the sm BTL's progress per iteration, delivery included:
# far above what one delivery takes (about 190), it is polling.
#
# Usage: bench/callgrind-small.sh [ITERS]   (default 2000)
# Environment: COMPI_PREFIX (default <repo>/_build), KEEP (set: keep the work directory
# with the callgrind files, for callgrind_annotate), MODES (default "pingpong barrier
# allreduce self iprobe").  Needs valgrind.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
prefix=${COMPI_PREFIX:-$repo/_build}
iters=${1:-2000}
command -v valgrind >/dev/null || {
    echo "callgrind-small.sh: valgrind not found (Debian: apt-get install valgrind)" >&2
    exit 1
}
work=$(mktemp -d "${TMPDIR:-/tmp}/cg-small.XXXXXX")
trap '[ -n "${KEEP:-}" ] && echo "kept: $work" >&2 || rm -rf "$work"' EXIT
mkfifo "$work/fifo.a" "$work/fifo.b"

cat >"$work/loop.c" <<'EOF'
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

static int rank, fd_in, fd_out;
static double a = 1.0, b;

/* the pipes say "sent" outside MPI, so that each receive finds its message there */
static void signal_peer(void)
{
    char c = 0;
    if (write(fd_out, &c, 1) != 1)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

static void wait_peer(void)
{
    char c;
    if (read(fd_in, &c, 1) != 1)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

static void loop(const char *mode, int n)
{
    MPI_Request rq[2];
    if (strcmp(mode, "pingpong") == 0) {
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI_Send(&a, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
                signal_peer();
                wait_peer();
                MPI_Recv(&b, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                wait_peer();
                MPI_Recv(&b, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
                signal_peer();
            }
        }
    } else if (strcmp(mode, "barrier") == 0) {
        for (int i = 0; i < n; i++) {
            usleep(rank == 1 ? 2000 : 0);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else if (strcmp(mode, "allreduce") == 0) {
        for (int i = 0; i < n; i++) {
            usleep(rank == 1 ? 2000 : 0);
            MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    } else if (strcmp(mode, "iprobe") == 0) {
        int flag;
        for (int i = 0; i < n; i++)
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    } else if (strcmp(mode, "self") == 0) {
        for (int i = 0; i < n; i++) {
            MPI_Send(&a, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD);
            MPI_Recv(&b, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < n; i++) {
            MPI_Irecv(&b, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend(&a, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        }
    }
}

/* loop MODE N FIFO_A FIFO_B: counts only the N iterations after a warm-up of 20 */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(argv[1], "pingpong") == 0) {
        /* opened in the same order on both ranks: opening a fifo waits for the other end */
        if (rank == 0) {
            fd_out = open(argv[3], O_WRONLY);
            fd_in = open(argv[4], O_RDONLY);
        } else {
            fd_in = open(argv[3], O_RDONLY);
            fd_out = open(argv[4], O_WRONLY);
        }
    }
    loop(argv[1], 20);
    CALLGRIND_TOGGLE_COLLECT;
    loop(argv[1], atoi(argv[2]));
    CALLGRIND_TOGGLE_COLLECT;
    MPI_Finalize();
    return 0;
}
EOF
"$prefix/bin/mpicc" -O2 -g -o "$work/loop" "$work/loop.c"

# "CALLS INCLUSIVE" of function $2 in callgrind output $1, summed over its call sites
cost() {
    awk -v f="$2" '
        /^cfn=/ { name = substr($0, 5); sub(/^\([0-9]+\) /, "", name); want = name == f; next }
        /^calls=/ && want { split(substr($0, 7), a, " "); c += a[1]; take = 1; next }
        take { n += $2; take = 0; want = 0 }
        END { print c + 0, n + 0 }' "$1"
}

run() { # mode np
    local mode=$1 np=$2
    rm -f "$work"/cg.*
    "$prefix/bin/mpirun" -np "$np" valgrind --tool=callgrind --collect-atstart=no --compress-strings=no \
        --compress-pos=no --callgrind-out-file="$work/cg.%q{PMI_RANK}" \
        "$work/loop" "$mode" "$iters" "$work/fifo.a" "$work/fifo.b" >/dev/null 2>"$work/err.$mode" ||
        { cat "$work/err.$mode" >&2; exit 1; }
}

# per counted iteration (callgrind counts calls outside the collected loop too, so the
# costs are divided by the iterations, each of which calls every function reported once)
report() { # file label fn...
    local f=$1 label=$2 fn c n
    shift 2
    for fn in "$@" btl_sm_progress; do
        read -r c n < <(cost "$f" "$fn")
        printf '%-8s %-15s %9.1f\n' "$label" "$fn" "$(awk -v n="$n" -v c="$iters" 'BEGIN { print n / c }')"
    done
}

files() { ls "$work"/cg.* | sort; }

for mode in ${MODES:-pingpong barrier allreduce self iprobe}; do
    case $mode in
    pingpong) fns="PMPI_Send PMPI_Recv" np=2 ;;
    barrier) fns=PMPI_Barrier np=2 ;;
    allreduce) fns=PMPI_Allreduce np=2 ;;
    self) fns="PMPI_Send PMPI_Recv PMPI_Irecv PMPI_Isend PMPI_Waitall" np=1 ;;
    iprobe) fns="PMPI_Iprobe pml_progress" np=2 ;;
    *) echo "callgrind-small.sh: unknown mode $mode" >&2; exit 1 ;;
    esac
    run "$mode" "$np"
    # shellcheck disable=SC2086 # the function names are words
    for f in $(files); do report "$f" "$mode r${f##*cg.}" $fns; done
done
