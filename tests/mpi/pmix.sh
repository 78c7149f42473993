#!/bin/sh
# TAP: compi ranks under a PMIx launcher (Open MPI's mpirun).
#
#  1. the 'pmix' lines of test-list.txt, run by mpirun.openmpi (PMIX_MPIRUN to use another
#     Open MPI mpirun): the programs are compi's (automake-built), so they find rank and
#     size through PMIx only (pmi_pmix.c), and a rank that dies must take the job down.
#  2. checks of this script: the PMI-1 wire stays first when both are in the environment
#     (compi's mpirun with stray PMIX_* variables), and a PMIx namespace that no server
#     serves gives a clear error at once, not a hang.
# Skipped when compi was configured without PMIx or no Open MPI mpirun is installed.
# Every run is under `timeout` (and mpirun's own --timeout).
. "$(dirname "$0")/lib.sh"

if ! grep -q '^#define COMPI_HAVE_PMIX 1' "$top_builddir/config.h" 2>/dev/null; then
    echo "1..0 # SKIP compi was configured without PMIx (Debian: libpmix-dev)"
    exit 0
fi
: "${PMIX_MPIRUN:=mpirun.openmpi}"
if ! ompi=$(command -v "$PMIX_MPIRUN"); then
    echo "1..0 # SKIP $PMIX_MPIRUN not found (Debian: openmpi-bin)"
    exit 0
fi
COMPI_MPIRUN="$top_builddir/bin/mpirun"
RING="$top_builddir/tests/mpi/ring"
unset MPICC COMPI_COLL_CONFIG
mt_stamp

lines=$(mt_lines pmix)
plan=2
for np in $(echo "$lines" | awk '{ print $4 }' | tr , ' '); do
    plan=$((plan + 1))
done
echo "1..$plan"

# --- 1. the list, under Open MPI's mpirun (lib.sh passes --oversubscribe, --timeout and
#        the run-as-root variables for the openmpi flavour) ------------------------------
MPIRUN=$ompi
MPI_FLAVOR=openmpi
MPIRUN_ARGS=
echo "# MPIRUN=$MPIRUN ($("$MPIRUN" --version 2>&1 | head -n 1))"
# (a here-document, not a pipe: the loop must run in this shell to keep the TAP count)
while read -r script prog args nps expect lim desc; do
    [ -n "$script" ] || continue
    for np in $(echo "$nps" | tr , ' '); do
        mt_run_one "$prog" "$args" "$np" "$expect" "$lim" "$desc" </dev/null
    done
done <<LINES
$lines
LINES

# --- 2. checks of this script ---------------------------------------------------------
out="$MT_TMP/out"
mt_why=
mt_elapsed=0

# PMI_FD from compi's mpirun wins over PMIX_* left in the environment
mt_cmd="PMIX_NAMESPACE=stray PMIX_RANK=0 $COMPI_MPIRUN -np 2 $RING"
PMIX_NAMESPACE=stray PMIX_RANK=0 PMIX_SERVER_URI41=stray \
    timeout -k 5 165 "$COMPI_MPIRUN" --timeout 150 -np 2 "$RING" >"$out" 2>&1 </dev/null
mt_rc=$?
if [ "$mt_rc" -eq 0 ] && grep -qx 'ok: ring np=2' "$out"; then
    mt_ok "compi's mpirun with stray PMIX_* variables: the PMI-1 wire is used"
else
    mt_why="expected exit 0 and 'ok: ring np=2'"
    mt_not_ok "compi's mpirun with stray PMIX_* variables: the PMI-1 wire is used"
fi

# a namespace no PMIx server serves: a clear error, at once
mt_cmd="PMIX_NAMESPACE=nobody PMIX_RANK=0 $RING (no launcher)"
start=$(mt_now)
env -u PMI_FD -u PMI_PORT -u PMI_RANK -u PMI_SIZE -u PMI_ID PMIX_NAMESPACE=nobody \
    PMIX_RANK=0 timeout -k 5 20 "$RING" >"$out" 2>&1 </dev/null
mt_rc=$?
mt_elapsed=$(mt_secs "$start" "$(mt_now)")
if [ "$mt_rc" -ne 0 ] && [ "$mt_rc" -ne 124 ] && [ "$mt_rc" -ne 137 ] &&
    grep -q 'PMIx' "$out" && ! grep -q '^ok:' "$out"; then
    mt_ok "PMIX_NAMESPACE without a PMIx server: a clear error, no hang ($mt_elapsed s)"
else
    mt_why="expected a non-zero exit (not a timeout) and a message naming PMIx"
    mt_not_ok "PMIX_NAMESPACE without a PMIx server: a clear error, no hang"
fi
