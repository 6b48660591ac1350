#!/usr/bin/env bash
# Integration test of the Slurm launcher (SPEC §15) on a real single-node
# Slurm: installs slurmctld, slurmd, the Slurm client and munge from the
# distribution when they are missing, starts a private munged, slurmctld
# and slurmd for 127.0.0.1 from a minimal slurm.conf, and then
#   1. runs a 6-point `learn -m` sweep on the smoke config with the local
#      launcher and the same sweep with --launcher slurm;
#   2. cancels one array task with scancel while it runs, sees it failed in
#      `evogp status`, resubmits it with `evogp collect --resubmit-failed`;
#   3. collects and compares the merged tables and every point's outputs
#      byte for byte with the local launcher's;
# and stops the daemons. Run it as root (make test-slurm); it takes a few
# minutes on 2 cores.
set -euo pipefail
export PATH="/usr/local/go/bin:${HOME}/go/bin:${PATH}"
cd "$(dirname "$0")/.."
ROOT=$(pwd)

say() { printf '== %s\n' "$*"; }
die() { printf 'slurm-test: FAIL: %s\n' "$*" >&2; exit 1; }

# --- a private single-node cluster -------------------------------------------
. scripts/slurm-cluster.sh
slurm_cluster evogptest "SchedulerType=sched/backfill" \
	"PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP" 30

# --- the Go test against this cluster (it skips where no cluster runs) --------
say "go test -run TestRealSlurm ./cmd/evogp"
go test -count=1 -run '^TestRealSlurm$' -v ./cmd/evogp | tee "$W/gotest.txt"
grep -q -- '--- PASS: TestRealSlurm' "$W/gotest.txt" || die "TestRealSlurm did not pass"
while [ -n "$(squeue -h -t pending,running,completing -o %i)" ]; do sleep 0.5; done

# --- the sweep, locally and through Slurm ------------------------------------
say "building evogp"
go build -o "$W/evogp" ./cmd/evogp
EVOGP="$W/evogp"
# 6 points of about 10 s each, so that a task can be cancelled while it runs.
SWEEP=(learn -m --config smoke objective.kind=single objective.omega=0,0.5,1 seed=1,2
	gp.generations=1000 gp.population=48 data.train=8 gp.subset=4 --quiet)

say "local launcher"
(cd "$W" && "$EVOGP" "${SWEEP[@]}" --jobs 2 --out "$W/local" >/dev/null)

say "slurm launcher"
OUT=$(cd "$W" && "$EVOGP" "${SWEEP[@]}" --out "$W/slurm" --launcher slurm --cpus-per-task 1 --throttle 2 --time 30:00)
echo "$OUT"
JOB=$(echo "$OUT" | sed -n 's/^submitted job \([0-9]*\).*/\1/p')
[ -n "$JOB" ] || die "no job id in: $OUT"
grep -q -- '--array=0-5%2' "$W/slurm/slurm/array.sbatch" || die "array script lacks --array=0-5%2"

# Cancel one task while it runs, once it has a checkpoint to resume from.
PDIR=()
for t in 0 1 2 3 4 5; do
	PDIR[t]=$W/slurm/$(sed -n 's/.*"output": "\(.*\)".*/\1/p' "$W/slurm/tasks/000$t.json")
done
victim=""
for i in $(seq 1200); do
	for t in 0 1 2 3 4 5; do
		# A learn run builds its directory in a temporary sibling until it ends.
		if grep -qs '"running"' "$W/slurm/tasks/000$t.state" &&
			compgen -G "$(dirname "${PDIR[t]}")/.$(basename "${PDIR[t]}").tmp-*/checkpoint/state.json" >/dev/null; then
			victim=$t
			break 2
		fi
	done
	sleep 0.1
done
[ -n "$victim" ] || die "no task was seen running with a checkpoint; cannot test cancellation"
say "scancel ${JOB}_$victim"
scancel "${JOB}_$victim"

wait_queue() { # until no job of this sweep is pending or running
	for i in $(seq 1200); do
		if [ -z "$(squeue -h -t pending,running,completing -o %i 2>/dev/null)" ]; then return 0; fi
		sleep 0.5
	done
	squeue
	die "the jobs did not finish in 10 minutes"
}
wait_queue
"$EVOGP" status "$W/slurm" | tee "$W/status.txt"
grep -Eq "^$victim +failed" "$W/status.txt" || die "status does not show task $victim failed"
if "$EVOGP" collect "$W/slurm" >/dev/null 2>&1; then die "collect succeeded with a failed task"; fi

say "resubmitting the failed task"
"$EVOGP" collect "$W/slurm" --resubmit-failed | tee "$W/resubmit.txt"
grep -q "resubmitted tasks $victim as job" "$W/resubmit.txt" || die "resubmission was not of task $victim alone"
wait_queue
"$EVOGP" status "$W/slurm"
[ "$(grep -c '"start"' "${PDIR[victim]}/provenance.json")" -ge 2 ] || die "task $victim was not resumed (one run recorded in its provenance)"
"$EVOGP" collect "$W/slurm"

say "comparing with the local launcher"
for f in sweep.parquet baselines.parquet; do
	cmp "$W/local/$f" "$W/slurm/$f" || die "$f differs between the local and the slurm launcher"
done
# Every file of every point, but the clock readings (generations.parquet's
# wall_seconds, provenance.json), the checkpoint and report.html, which
# quotes the provenance and the directory it was written in; it must exist.
for d in "$W"/local/points/*/; do
	p=$(basename "$d")
	n=0
	for f in "$d"*; do
		b=$(basename "$f")
		case "$b" in generations.parquet | provenance.json | checkpoint) continue ;; esac
		if [ "$b" = report.html ]; then
			[ -s "$W/slurm/points/$p/$b" ] || die "points/$p/$b is missing from the slurm sweep"
			continue
		fi
		cmp "$f" "$W/slurm/points/$p/$b" || die "points/$p/$b differs"
		n=$((n + 1))
	done
	[ "$n" -ge 5 ] || die "points/$p: only $n files compared"
done
"$EVOGP" report "$W/slurm" >/dev/null || die "evogp report failed on the collected directory"
say "PASS: slurm and local sweeps are byte-identical; the cancelled task $victim was resubmitted and resumed"
