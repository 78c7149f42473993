#!/bin/bash
# fake-agent.sh -- helper of launch.sh: a launch agent for mpirun --launch-agent that
# "reaches" host HOST by running the command here, as ssh would run it there:
#
#   fake-agent.sh HOST CMD...
#
# It appends "HOST RANK" (RANK from the PMI_RANK=R word of the command) to
# $FAKE_AGENT_LOG when that is set, closes every descriptor above 2 it inherited, and
# execs CMD with an environment emptied but for PATH: the rank gets only what mpirun put
# on its command line, and can reach mpirun only through PMI_PORT (TCP), as on a real
# remote host.  With FAKE_AGENT_STAY=1 it does not exec but waits for CMD (like ssh,
# which outlives its remote command) and exits with CMD's status.
# bash, not sh: closing descriptors above 9 needs it.

host=$1
shift
if [ -z "$host" ] || [ $# -eq 0 ]; then
    echo "fake-agent.sh: usage: fake-agent.sh HOST CMD..." >&2
    exit 255
fi
if [ -n "$FAKE_AGENT_LOG" ]; then
    rank=?
    for w in "$@"; do
        case $w in
        PMI_RANK=*) rank=${w#PMI_RANK=} ;;
        esac
    done
    echo "$host $rank" >>"$FAKE_AGENT_LOG"
fi
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
done
# The sanitizers' options (set by the tests of a --enable-sanitizers build) stay too: they
# are the machine's settings, which a real remote host would give the rank through its own
# login environment; without them a rank would run without its suppressions.
keep=()
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
    [ -n "${!v}" ] && keep+=("$v=${!v}")
done
if [ "$FAKE_AGENT_STAY" = 1 ]; then
    env -i PATH="$PATH" "${keep[@]}" "$@"
    exit $?
fi
exec env -i PATH="$PATH" "${keep[@]}" "$@"
