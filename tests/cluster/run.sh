#!/usr/bin/env bash
# The scripts of `tiers cluster` on a real one-node Slurm and through GNU
# parallel: a 4-shard run and its merge equal one process game for game;
# a task cancelled mid-run is named by `cluster status`, played again,
# and the merge then completes.  Installs slurm-wlm, munge and parallel
# from Debian when missing, starts a private munged, slurmctld and slurmd
# (state, sockets and ports of their own) and stops them by PID on exit.
# Usage: run.sh TIERS-BINARY TESTS-DIR.  Without TIERS_REQUIRE_CLUSTER=1 a
# cluster that cannot start is a skip (exit 0 with a message); with it, a
# failure.  Run by scripts/test against the Release build.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh"
pids=()
cli_cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null
    done
}
cli_begin "$@"

unavailable() {
    if [[ ${TIERS_REQUIRE_CLUSTER:-0} == 1 ]]; then
        fail "cluster: $*"
        cli_end
    fi
    echo "skip: $* (set TIERS_REQUIRE_CLUSTER=1 to fail instead)"
    exit 0
}

# ------------------------------------------------------------ install
install_missing() {
    local missing=()
    command -v sbatch >/dev/null || missing+=(slurm-wlm)
    command -v munged >/dev/null || missing+=(munge)
    command -v parallel >/dev/null || missing+=(parallel)
    [[ ${#missing[@]} -eq 0 ]] && return 0
    [[ $(id -u) -eq 0 ]] || return 1
    # package scripts must not start services (there is no systemd here)
    local rcd=/usr/sbin/policy-rc.d had=0
    [[ -e $rcd ]] && had=1
    [[ $had -eq 1 ]] || printf '#!/bin/sh\nexit 101\n' >"$rcd" && chmod +x "$rcd"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >"$tmp/apt.log" 2>&1
    local rc=$?
    [[ $had -eq 1 ]] || rm -f "$rcd"
    return $rc
}
install_missing || unavailable "cannot install slurm-wlm, munge and parallel"
[[ $(id -u) -eq 0 ]] || unavailable "the one-node cluster is started as root"

# ------------------------------------------------------------ munge
mdir=$tmp/munge
mkdir -p "$mdir"
chmod 755 "$tmp"
dd if=/dev/urandom of="$mdir/munge.key" bs=1024 count=1 2>/dev/null
chown -R munge:munge "$mdir" && chmod 711 "$mdir" && chmod 400 "$mdir/munge.key"
runuser -u munge -- /usr/sbin/munged -F --socket="$mdir/munge.sock" \
    --key-file="$mdir/munge.key" --log-file="$mdir/munged.log" \
    --pid-file="$mdir/munged.pid" --seed-file="$mdir/munged.seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)

# ------------------------------------------------------------ slurm
sdir=$tmp/slurm
mkdir -p "$sdir/state" "$sdir/spool" "$sdir/log"
port=$((20000 + RANDOM % 20000))
export SLURM_CONF=$sdir/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=tierstest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$mdir/munge.sock
CredType=cred/munge
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
StateSaveLocation=$sdir/state
SlurmdSpoolDir=$sdir/spool
SlurmctldPidFile=$sdir/slurmctld.pid
SlurmdPidFile=$sdir/slurmd.pid
SlurmctldLogFile=$sdir/log/slurmctld.log
SlurmdLogFile=$sdir/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
CONF
for i in $(seq 50); do [[ -S $mdir/munge.sock ]] && break; sleep 0.1; done
[[ -S $mdir/munge.sock ]] || unavailable "munged did not start: $(tail -n 2 "$tmp/munged.out")"
slurmctld -D -f "$SLURM_CONF" >"$sdir/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$sdir/log/slurmd.out" 2>&1 &
pids+=($!)
up=0
for i in $(seq 100); do
    sinfo -h -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)' && { up=1; break; }
    sleep 0.2
done
[[ $up -eq 1 ]] || unavailable "slurm did not come up: $(tail -n 3 "$sdir/log/slurmctld.log" 2>/dev/null)"

# wait_jobs ID...: until none of the jobs is queued or running (120 s).
wait_jobs() {
    local ids=$(IFS=,; echo "$*")
    for i in $(seq 600); do
        [[ -z $(squeue -h -j "$ids" 2>/dev/null) ]] && return 0
        sleep 0.2
    done
    return 1
}

q="select game, result, reason, plies, moves from games order by game"
# same_games NAME SINGLE.db MERGED.db KEY: the run's games are equal.
same_games() {
    local qk="select game, result, reason, plies, moves from games where run='$4' order by game"
    same "$1" "$(sqlite3 "$2" "$qk")" "$(sqlite3 "$3" "$qk")"
}

duel=$tmp/duel
cp -r "$variants/duel" "$duel"

# ------------------------------------------------------------ array + merge
"$tiers" cluster slurm "$duel" --games 12 --shards 4 -o "$tmp/a" --report r.html >/dev/null
key=$(sed -n 's/^run=//p' "$tmp/a/cluster.conf")
ids=$(bash "$tmp/a/submit.sh" | sed -n 's/^playout array job \([0-9]*\), merge job \([0-9]*\)$/\1 \2/p')
check "submit prints the job ids" "$([[ -n $ids ]]; echo $?)" "no ids"
wait_jobs $ids
check "the jobs end" $? "still queued after 120 s: $(squeue -h)"
check_cmd "merge job output" grep -q '4 of 4 shards complete, 12 of 12 games' "$tmp/a/logs/merge.out"
check_cmd "report written" test -s "$tmp/a/r.html"
"$tiers" playout "$duel" --games 12 --db "$tmp/one.db" >/dev/null
same_games "slurm merge equals one process" "$tmp/one.db" "$tmp/a/merged.db" "$key"

# ------------------------------------------------------------ a cancelled task
# mcts games last long enough to cancel a task while it plays
agents=(--side0 mcts:iterations=300 --side1 mcts:iterations=300)
"$tiers" cluster slurm "$duel" --games 16 --shards 4 "${agents[@]}" -o "$tmp/c" >/dev/null
ckey=$(sed -n 's/^run=//p' "$tmp/c/cluster.conf")
(cd "$tmp/c" && mkdir -p shards logs)
array=$(cd "$tmp/c" && sbatch --parsable playout.sbatch)
array=${array%%;*}
running=0
for i in $(seq 300); do
    squeue -h -j "${array}_2" -t R 2>/dev/null | grep -q . && { running=1; break; }
    sleep 0.1
done
check "task 2 runs" "$((1 - running))" "task 2 never ran"
sleep 0.5
scancel "${array}_2"
merge=$(cd "$tmp/c" && sbatch --parsable --dependency=afterany:"$array" merge.sbatch)
merge=${merge%%;*}
wait_jobs "$array" "$merge"
check "cancel: the jobs end" $? "still queued: $(squeue -h)"
check_cmd "cancel: merge refuses" grep -q '^missing: 2$' "$tmp/c/logs/merge.out"
check_cmd "cancel: no merged database" test ! -e "$tmp/c/merged.db"
expect "cancel: status names shard 2" 2 "sbatch --array=2 $tmp/c/playout.sbatch" - -- \
    cluster status "$tmp/c"
again=$(cd "$tmp/c" && sbatch --parsable --array=2 playout.sbatch)
wait_jobs "${again%%;*}"
expect "cancel: complete after the rerun" 0 "4 of 4 shards complete, 16 of 16 games" - -- \
    cluster status "$tmp/c"
merge=$(cd "$tmp/c" && sbatch --parsable merge.sbatch)
wait_jobs "${merge%%;*}"
"$tiers" playout "$duel" --games 16 "${agents[@]}" --db "$tmp/one-c.db" >/dev/null
same_games "cancel: merge equals one process" "$tmp/one-c.db" "$tmp/c/merged.db" "$ckey"

# ------------------------------------------------------------ GNU parallel
"$tiers" cluster parallel "$duel" --games 12 --shards 4 --slots 2 -o "$tmp/p" >/dev/null
pkey=$(sed -n 's/^run=//p' "$tmp/p/cluster.conf")
bash "$tmp/p/parallel.sh" 1 2 4 >"$tmp/p.out" 2>&1
rc=$?
check "parallel: a shard left out fails the merge" "$([[ $rc -eq 2 ]]; echo $?)" "exit $rc"
check_cmd "parallel: status names it" grep -q "bash $tmp/p/parallel.sh 3" "$tmp/p.out"
bash "$tmp/p/parallel.sh" 3 >"$tmp/p.out" 2>&1
check "parallel: the rerun merges" $? "$(tail -n 3 "$tmp/p.out")"
same_games "parallel merge equals one process" "$tmp/one.db" "$tmp/p/merged.db" "$pkey"

# a shard killed mid-run under parallel: named, played again, merged
"$tiers" cluster parallel "$duel" --games 16 --shards 4 --slots 2 "${agents[@]}" \
    -o "$tmp/k" >/dev/null
kkey=$(sed -n 's/^run=//p' "$tmp/k/cluster.conf")
bash "$tmp/k/parallel.sh" >"$tmp/k.out" 2>&1 &
ppid_=$!
pids+=("$ppid_")
killed=0
for i in $(seq 300); do
    if pkill -KILL -f -- "--shard 2/4 --db $tmp/k/shards/shard-2.db" 2>/dev/null; then
        killed=1
        break
    fi
    sleep 0.1
done
wait "$ppid_"
rc=$?
check "parallel: shard 2 killed while it played" "$((1 - killed))" "never saw it run"
check "parallel: the merge step refuses" "$([[ $rc -eq 2 ]]; echo $?)" "exit $rc"
expect "parallel: status names shard 2" 2 "bash $tmp/k/parallel.sh 2" - -- cluster status "$tmp/k"
bash "$tmp/k/parallel.sh" 2 >"$tmp/k.out" 2>&1
check "parallel: the rerun merges" $? "$(tail -n 3 "$tmp/k.out")"
same_games "parallel after a kill equals one process" "$tmp/one-c.db" "$tmp/k/merged.db" "$kkey"

cli_end
