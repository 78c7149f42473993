# bench/osu.sh -- building OSU Micro-Benchmarks 7.4 with one MPI, as a user would, for the
# scripts that run OSU (run-osu.sh, run-nbc.sh).  Only defines; sourced after common.sh
# and lib.sh (find_compi has set CC) by scripts that set `build' (the OSU build folder,
# bench/build/osu) and `rebuild' (1: build again even when up to date).
#
# OSU_TARBALL (default /work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz) is
# unpacked into $build/<mpi>/ and built there with `./configure CC=<mpicc> CXX=<mpicxx>
# && make`; nothing of OSU is copied into the repository and OSU's files are not
# changed.

OSU_TARBALL=${OSU_TARBALL:-/work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz}
OSU=osu-micro-benchmarks-7.4
[ -r "$OSU_TARBALL" ] || die "no OSU tarball at $OSU_TARBALL (set OSU_TARBALL)"
declare -A CXX=([omp]=mpicxx.openmpi [mpich]=mpicxx.mpich [compi]=$compi_bin/mpicxx)

# configure's arguments for one MPI
conf_args() {
    printf 'CC=%s CXX=%s' "${CC[$1]}" "${CXX[$1]}"
}
build_osu() { # mpi -> 0 when $build/<mpi>/osu-micro-benchmarks-7.4 is built
    local mpi=$1 d=$build/$1 stamp args
    args=$(conf_args "$mpi")
    mkdir -p "$d"
    stamp="$(md5sum "$OSU_TARBALL" | cut -d' ' -f1) $args"
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
