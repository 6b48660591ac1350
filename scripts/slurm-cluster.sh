# Sourced by the real-Slurm tests (slurm-test.sh, slurm-deploy-test.sh):
# a private single-node Slurm for 127.0.0.1 with its own munged, ports and
# state directory. The caller defines say and die, then calls
#   slurm_cluster NAME SCHEDULER_LINES PARTITION_LINES KILLWAIT
# which installs Slurm and munge from the distribution when missing (as
# root), sets W (the working directory, removed at exit unless KEEP is
# set), HOST, CPUS, MEM and SLURM_CONF, starts the daemons with a
# slurm.conf holding SCHEDULER_LINES and PARTITION_LINES, and waits for
# the node to be idle. The daemons are stopped at exit.

slurm_install() {
	if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null && command -v munged >/dev/null; then
		return
	fi
	[ "$(id -u)" = 0 ] || die "Slurm and munge are not installed and this is not root: install slurmctld slurmd slurm-client munge"
	command -v apt-get >/dev/null || die "Slurm and munge are not installed and there is no apt-get: install slurmctld slurmd slurm-client munge"
	say "installing slurmctld slurmd slurm-client munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
}

slurm_cleanup() {
	set +e
	local pids=()
	for f in "$W/slurmd.pid" "$W/slurmctld.pid" "$W/munged.pid"; do
		[ -s "$f" ] && pids+=("$(cat "$f")")
	done
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
		for _ in $(seq 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
	done
	if [ "${KEEP:-}" = "" ]; then rm -rf "$W"; else echo "kept $W"; fi
}

slurm_cluster() {
	local name=$1 scheduler=$2 partitions=$3 killwait=$4
	slurm_install
	W=$(mktemp -d "/tmp/$name.XXXXXX")
	trap slurm_cleanup EXIT
	mkdir -p "$W/state" "$W/spool" "$W/log"
	local key=/etc/munge/munge.key
	if [ ! -s "$key" ]; then
		key="$W/munge.key"
		dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
		chmod 600 "$key"
	fi
	munged --force --socket="$W/munge.sock" --pid-file="$W/munged.pid" --log-file="$W/munged.log" \
		--seed-file="$W/munge.seed" --key-file="$key" || die "munged did not start (see $W/munged.log)"
	HOST=$(hostname -s)
	CPUS=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' | head -1)
	MEM=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
	[ -n "$CPUS" ] && [ -n "$MEM" ] || die "slurmd -C did not report CPUs and RealMemory"
	# Ports of this test's own, so that it does not meet another Slurm.
	local ctld_port=$((20000 + RANDOM % 20000))
	local slurmd_port=$((ctld_port + 1))
	export SLURM_CONF="$W/slurm.conf"
	cat > "$SLURM_CONF" <<CONF
ClusterName=$name
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge.sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$scheduler
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=$killwait
MinJobAge=3600
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
$partitions
CONF
	say "starting slurmctld and slurmd ($HOST, $CPUS CPUs, $MEM MB, ports $ctld_port/$slurmd_port)"
	slurmctld -f "$SLURM_CONF" || die "slurmctld did not start (see $W/log/slurmctld.log)"
	slurmd -f "$SLURM_CONF" || die "slurmd did not start (see $W/log/slurmd.log)"
	local i
	for i in $(seq 60); do
		if sinfo -h -o %T 2>/dev/null | grep -qx idle; then break; fi
		[ "$i" = 60 ] && { tail -20 "$W/log/slurmctld.log" "$W/log/slurmd.log"; die "the node did not become idle in 30 s"; }
		sleep 0.5
	done
	sinfo
}
