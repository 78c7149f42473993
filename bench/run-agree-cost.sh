#!/bin/bash
# run-agree-cost.sh: what the agreement of coll_check_determinism adds to a cache hit.
#
#   1. builds bench/agree_cost.c (a 12-byte MPI_Bcast from rank 0, back to back) with
#      compi's mpicc and, when COMPI_BASE_PREFIX names one (bench/build-base.sh builds
#      an earlier revision), with that build's too
#   2. runs it at NPS ranks (default 2 and 4), pinned by bench/bind-rank.sh, natively
#      (the default creators) and behind examples/configs/timing-wrapper.scm (a Scheme
#      closure around every blocking collective), each at coll_check_determinism DETS
#      (default 0, 1 and 2: off; the first run of a Scheme closure agreed on and its
#      later runs ending with the exchange of their outcome; every run agreed on)
#   3. ROUNDS rounds (default 3), the order of the builds rotating every round; writes
#      bench/results/agree-cost.csv (every run) and agree-cost-summary.txt (machine,
#      command, the median over rounds of each case, and what settings 1 and 2 add to 0)
#
# Usage: bench/run-agree-cost.sh [--quick]   (--quick: 1 round, fewer iterations)
# Environment:
#   COMPI_PREFIX       where compi's mpicc and mpirun are (default: <repo>/_build)
#   COMPI_BASE_PREFIX  an earlier build to compare with, as implementation "base"
#   ROUNDS, NPS, DETS  as above; TRIALS, ITERS: agree_cost's (default 21, 2000)
#   RUN_TIMEOUT        seconds per run (default 120)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"

bench_script_args "$@"
if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} TRIALS=${TRIALS:-5} ITERS=${ITERS:-200}
fi
ROUNDS=${ROUNDS:-3}
NPS=${NPS:-2 4}
DETS=${DETS:-0 1 2}
TRIALS=${TRIALS:-21}
ITERS=${ITERS:-2000}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
build=$here/build/agree-cost
wrapper=$repo/examples/configs/timing-wrapper.scm

find_compi
[ -n "$compi_bin" ] || die "no mpicc and mpirun under $COMPI_PREFIX (build compi first)"
members=(compi)
[ -z "$base_bin" ] || members+=(base)
rm -rf "$build"
mkdir -p "$build" "$results"
for m in "${members[@]}"; do
    "${CC[$m]}" -O2 -o "$build/agree_cost-$m" "$here/agree_cost.c" >>"$build/build.log" 2>&1 ||
        die "agree_cost: the build with ${CC[$m]} failed, see $build/build.log"
done

csv=$results/agree-cost.csv
echo "build,np,config,coll_check_determinism,round,median_us,min_us,max_us" >"$csv"
failures=()
cells=$(for np in $NPS; do for cfg in none timing-wrapper; do
    for d in $DETS; do echo "$np $cfg $d"; done
done; done)

# one run: round, build, np, config, setting
step() {
    local r=$1 m=$2 np=$3 cfg=$4 d=$5 raw line
    raw=$build/$m-np$np-$cfg-d$d-r$r
    local args=(--mca coll_check_determinism "$d")
    [ "$cfg" = none ] || args+=(--coll-config "$wrapper")
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "$m np=$np $cfg coll_check_determinism=$d round $r" \
        $(launcher "$m" "$np") "${args[@]}" "$here/bind-rank.sh" "$build/agree_cost-$m" \
        "$TRIALS" "$ITERS" || return 0
    line=$(grep '^bcast12 ' "$raw.out") || {
        failures+=("$m np=$np $cfg coll_check_determinism=$d round $r: no result line")
        return 0
    }
    # bcast12 np=N median_us=A min_us=B max_us=C
    echo "$line" | awk -v b="$m" -v c="$cfg" -v d="$d" -v r="$r" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%s,%s,%s,%s,%s,%s,%s,%s\n", b, v["np"], c, d, r, v["median_us"],
            v["min_us"], v["max_us"] }' >>"$csv"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
say "$ROUNDS round(s): ${members[*]} x np $NPS x (none, timing-wrapper) x setting $DETS"
bench_rounds members "$cells" step
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "The agreement's cost on a cache hit: a 12-byte MPI_Bcast (bench/run-agree-cost.sh)"
    echo
    machine_section "the benchmark keeps up to NP cores busy (its ranks are pinned, rank r" \
        "on core r mod $(nproc)); more means other work ran too"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS NPS=\"$NPS\" DETS=\"$DETS\" TRIALS=$TRIALS ITERS=$ITERS"
    for m in "${members[@]}"; do
        echo "  $m: $(launcher "$m" NP) --mca coll_check_determinism D" \
            "[--coll-config $wrapper] $here/bind-rank.sh agree_cost $TRIALS $ITERS"
    done
    echo
    echo "Each run: $TRIALS trials of $ITERS calls; a trial's time is the slowest rank's"
    echo "mean per call; a run gives the median and the best over trials.  Below: the"
    echo "median over rounds of the runs' medians (us per call), its difference to setting"
    echo "0 of the same build, np and config, and the best trial of any round."
    echo
    awk -F, 'NR > 1 { k = $1 "," $2 "," $3 "," $4; v[k] = v[k] " " $6
        if (!(k in best) || $7 + 0 < best[k]) best[k] = $7 + 0 }
    END {
        for (k in v) {
            n = split(substr(v[k], 2), a, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
            m[k] = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
            c[k] = n
        }
        printf "  %-6s %3s %-15s %7s %10s %12s %8s %7s\n", "build", "np", "config", "setting",
            "us/call", "vs setting 0", "best", "rounds"
        for (k in m) {
            split(k, f, ",")
            z = f[1] "," f[2] "," f[3] ",0"
            d = (z in m) ? sprintf("%+.2f", m[k] - m[z]) : "n/a"
            printf "  %-6s %3s %-15s %7s %10.2f %12s %8.2f %7d\n", f[1], f[2], f[3], f[4], m[k], d,
                best[k], c[k]
        }
    }' "$csv" | { IFS= read -r head; echo "$head"; sort -k1,1r -k2,2n -k3,3 -k4,4n; }
    if [ ${#failures[@]} -gt 0 ]; then
        echo
        echo "Failed runs (left out above)"
        printf '  %s\n' "${failures[@]}"
    fi
    echo
    echo "Every run: $csv; raw output: $build/"
} >"$results/agree-cost-summary.txt"
cat "$results/agree-cost-summary.txt"
[ ${#failures[@]} -eq 0 ]
