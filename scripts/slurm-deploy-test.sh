#!/usr/bin/env bash
# Integration test of `evogp deploy slurm` (SPEC §20, docs/DEPLOY.md) on a
# real single-node Slurm: starts a private munged, slurmctld and slurmd for
# 127.0.0.1 with two partitions (short, long) on the node, CPUs standing in
# for GPUs (--gpus-from cpus, as the node has none), and then
#   1. keeps jobs of different sizes, time limits and submit times pending
#      behind a blocker job that holds every CPU (one more job is held);
#   2. --dry-run changes nothing (squeue before == after);
#   3. --once with a two-tree best.json; each job's partition and Slurm's
#      priority order per partition equal the plan computed by replaying
#      the snapshot that run saved; a second --once changes nothing;
#   4. --restore returns the queue to what it was;
#   5. --once again, then the blocker is cancelled and the jobs start in
#      the planned order in each partition.
# The cluster comes from scripts/slurm-cluster.sh, shared with slurm-test.sh.
# Run it as root (make test-slurm); it takes about a minute.
set -euo pipefail
export PATH="/usr/local/go/bin:${HOME}/go/bin:${PATH}"
cd "$(dirname "$0")/.."

say() { printf '== %s\n' "$*"; }
die() { printf 'slurm-deploy-test: FAIL: %s\n' "$*" >&2; exit 1; }

# --- a private single-node cluster with two partitions ----------------------
# priority/multifactor: slurmctld dispatches by job priority. (With the
# default priority/basic and sched/builtin, Slurm 22.05 starts jobs in
# submit order whatever their priority; see docs/DEPLOY.md.) sched/builtin
# starts a partition's jobs strictly in priority order, with no
# backfilling, so the start order can be checked.
. scripts/slurm-cluster.sh
slurm_cluster evogpdeploy "SchedulerType=sched/builtin
PriorityType=priority/multifactor" "PartitionName=short Nodes=ALL Default=YES MaxTime=INFINITE State=UP
PartitionName=long Nodes=ALL MaxTime=INFINITE State=UP" 5
[ "$CPUS" -ge 2 ] || die "the node has $CPUS CPU; the test needs 2 for jobs of two sizes"

# --- evogp and a two-tree best.json ------------------------------------------
say "building evogp; a two-tree best.json written by hand"
go build -o "$W/evogp" ./cmd/evogp
EVOGP="$W/evogp"
# R = h·(2 − g) sends 1-CPU jobs to the other partition and keeps 2-CPU
# ones (a tie goes to the current one); f = g·d − q runs small, short,
# long-waiting jobs first. Scope all: every pending job is routed.
cat > "$W/best.json" <<'JSON'
{
  "tree": ["-", ["*", "g", "d"], "q"],
  "infix": "g * d - q",
  "terminals": ["d", "q", "u", "g"],
  "candidate": "rule+formula+bestfit",
  "time_unit": "hours",
  "learn": ["routing", "ranking"],
  "routing_tree": ["*", "h", ["-", 2, "g"]],
  "routing_infix": "h * (2 - g)",
  "routing_terminals": ["g", "h"],
  "scope": "all"
}
JSON
DEPLOY=(deploy slurm "$W/best.json" --partitions short,long --gpus-from cpus --record "$W/record.json")

# --- a queue kept pending behind a blocker -----------------------------------
say "submitting a blocker and pending jobs"
sbatch -Q -p short -c "$CPUS" -t 10 -J blocker -o /dev/null --wrap 'sleep 600'
for i in $(seq 60); do
	[ "$(squeue -h -n blocker -o %T)" = RUNNING ] && break
	[ "$i" = 60 ] && die "the blocker did not start"
	sleep 0.5
done
# partition, CPUs, time limit (min): sizes, limits and submit times differ.
for spec in "short 1 7" "long 2 3" "short 2 9" "long 1 2" "short 1 4" "long 1 8"; do
	set -- $spec
	sbatch -Q -p "$1" -c "$2" -t "$3" -J "job-$1-$2-$3" -o /dev/null --wrap 'sleep 2'
	sleep 1
done
HELD=$(sbatch --parsable -p long -c 1 -t 5 --hold -J held -o /dev/null --wrap 'sleep 1')
queue() { squeue -h -t pending -o '%i|%P|%Q|%T' | sort; }
queue > "$W/before.txt"
cat "$W/before.txt"
[ "$(wc -l < "$W/before.txt")" = 7 ] || die "7 pending jobs expected"

say "--dry-run changes nothing"
"$EVOGP" "${DEPLOY[@]}" --dry-run | tee "$W/shadow.log"
grep -q 'would change' "$W/shadow.log" || die "the dry run would change nothing: the test queue does not exercise deploy"
grep -q "job $HELD (long, pending): held" "$W/shadow.log" || die "the held job $HELD is not noted as left alone"
queue > "$W/after-dry.txt"
cmp "$W/before.txt" "$W/after-dry.txt" || die "--dry-run changed the queue"
[ ! -e "$W/record.json" ] || die "--dry-run wrote a restore record"

# check_plan CSV: every job's partition and each partition's priority
# order equal the plan (job,partition,rank).
check_plan() {
	local plan=$1 job part rank
	while IFS=, read -r job part rank; do
		[ "$job" = job ] && continue
		[ "$(squeue -h -j "$job" -o %P)" = "$part" ] || die "job $job is in $(squeue -h -j "$job" -o %P), the plan says $part"
	done < "$plan"
	for p in short long; do
		local want got
		want=$(awk -F, -v p="$p" '$2 == p {print $3, $1}' "$plan" | sort -n | awk '{print $2}' | tr '\n' ' ')
		got=$(squeue -h -t pending -p "$p" -o '%Q %i' | grep -v "^[0-9]* $HELD\$" | sort -k1,1nr -k2,2n | awk '{print $2}' | tr '\n' ' ')
		[ "$want" = "$got" ] || die "partition $p: Slurm's priority order [$got], the plan's [$want]"
		echo "partition $p: Slurm's priority order = the plan's = [$want]"
	done
}

say "--once, then the plan replayed on the snapshot it saved"
"$EVOGP" "${DEPLOY[@]}" --once --save-snapshot "$W/snap" --decisions-out "$W/live.csv" | tee "$W/once.log"
grep -q ' changed' "$W/once.log" || die "--once changed nothing"
grep -q 'failed' "$W/once.log" && die "an update failed"
[ -s "$W/record.json" ] || die "no restore record"
"$EVOGP" deploy slurm "$W/best.json" --gpus-from cpus --snapshot "$W/snap" --decisions-out "$W/replay.csv" > "$W/replay.log"
cmp "$W/live.csv" "$W/replay.csv" || die "the decisions applied differ from the plan on the saved snapshot"
grep -Eq 'short -> long|long -> short' "$W/once.log" || die "no job changed partition: the routing tree is not exercised"
check_plan "$W/replay.csv"
squeue -h -j "$HELD" -o '%P|%Q|%r' | grep -q '^long|0|JobHeldUser' || die "the held job was changed"

say "a second --once changes nothing"
"$EVOGP" "${DEPLOY[@]}" --once | tee "$W/again.log"
grep -Eq ' (changed|skipped|failed)' "$W/again.log" && die "the second run changed something"

say "--restore returns the queue to before"
"$EVOGP" deploy slurm --restore --record "$W/record.json" | tee "$W/restore.log"
queue > "$W/after-restore.txt"
cmp "$W/before.txt" "$W/after-restore.txt" || { diff "$W/before.txt" "$W/after-restore.txt"; die "--restore did not return the queue to before"; }
[ ! -e "$W/record.json" ] || die "the record was kept after a full restore"

say "--once again, then release: the jobs start in the planned order"
"$EVOGP" "${DEPLOY[@]}" --once --save-snapshot "$W/snap2" --decisions-out "$W/live2.csv" >/dev/null
"$EVOGP" deploy slurm "$W/best.json" --gpus-from cpus --snapshot "$W/snap2" --decisions-out "$W/replay2.csv" >/dev/null
cmp "$W/live2.csv" "$W/replay2.csv" || die "second deploy: the decisions differ from the plan on its snapshot"
check_plan "$W/replay2.csv"
scancel -n blocker
for i in $(seq 240); do
	[ -z "$(squeue -h -t pending,running,completing -o %i | grep -vx "$HELD")" ] && break
	[ "$i" = 240 ] && { squeue; die "the jobs did not finish in 2 minutes"; }
	sleep 0.5
done
start_of() { date -d "$(scontrol -o show job "$1" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')" +%s; }
for p in short long; do
	prev=0 order=""
	for job in $(awk -F, -v p="$p" '$2 == p {print $3, $1}' "$W/replay2.csv" | sort -n | awk '{print $2}'); do
		s=$(start_of "$job")
		order="$order $job@$s"
		[ "$s" -ge "$prev" ] || die "partition $p: job $job started at $s, before a job ranked above it ($order)"
		prev=$s
	done
	echo "partition $p: started in the planned order:$order"
done
scancel "$HELD"
say "PASS: deploy --dry-run changed nothing; --once applied the plan of its snapshot (partitions and priority order); a second run changed nothing; --restore returned the queue; the jobs started in the planned order"
