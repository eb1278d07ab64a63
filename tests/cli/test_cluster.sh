#!/usr/bin/env bash
# tiers cluster without a cluster: the scripts it writes (quoting, the run
# key, the options), a shard task refusing a changed variant, cluster
# status on complete and incomplete shards, playout --run and merge --run.
# tests/cluster/run.sh runs the scripts on a real one-node Slurm and
# through GNU parallel.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

duel=$tmp/duel
cp -r "$variants/duel" "$duel"
key=$("$tiers" playout "$duel" --games 1 --db "$tmp/k.db" --json | sed -n 's/.*"run":"\([0-9a-f]*\)".*/\1/p')
check "a run key" "$([[ ${#key} -eq 16 ]]; echo $?)" "got '$key'"

# ------------------------------------------------------------ slurm
expect "slurm scripts" 0 "run [0-9a-f]{16}: 6 games of duel in 3 shards" - -- \
    cluster slurm "$duel" --games 6 --shards 3 --time 00:10:00 --partition short \
    --rule "army_cap=20" -o "$tmp/s"
# the rule changes the run: its key is not the plain one
skey=$(sed -n 's/^run=//p' "$tmp/s/cluster.conf")
check "the rule is part of the run" "$([[ $skey != "$key" && ${#skey} -eq 16 ]]; echo $?)" \
    "key '$skey'"
for f in playout.sbatch merge.sbatch submit.sh cluster.conf; do
    check_cmd "slurm writes $f" test -s "$tmp/s/$f"
done
check_cmd "array of 3" grep -q '^#SBATCH --array=1-3$' "$tmp/s/playout.sbatch"
check_cmd "time limit" grep -q '^#SBATCH --time=00:10:00$' "$tmp/s/playout.sbatch"
check_cmd "partition" grep -q '^#SBATCH --partition=short$' "$tmp/s/merge.sbatch"
check_cmd "first command sets tiers" grep -q "^TIERS=$tiers\$" "$tmp/s/playout.sbatch"
check_cmd "tasks play with --run" grep -q -- "--run $skey " "$tmp/s/playout.sbatch"
check_cmd "tasks keep the rule" grep -q -- "--rule army_cap=20" "$tmp/s/playout.sbatch"
check_cmd "merge after any end" grep -q 'dependency=afterany' "$tmp/s/submit.sh"
check_cmd "merge checks the shards" grep -q 'cluster status . || exit 2' "$tmp/s/merge.sbatch"
check_cmd "scripts are bash" bash -n "$tmp/s/playout.sbatch"

# a task run by hand plays its shard; status counts it
(cd / && SLURM_ARRAY_TASK_ID=2 bash "$tmp/s/playout.sbatch" >/dev/null 2>&1)
check "a task plays its shard" $? "SLURM_ARRAY_TASK_ID=2 failed"
expect "status: shards missing" 2 "1 of 3 shards complete, 2 of 6 games" - -- \
    cluster status "$tmp/s"
check_cmd "status names the missing" grep -q '^missing: 1 3$' "$tmp/out"
check_cmd "status gives the command" grep -q "sbatch --array=1,3 $tmp/s/playout.sbatch" "$tmp/out"
for k in 1 3; do
    (cd / && SLURM_ARRAY_TASK_ID=$k bash "$tmp/s/playout.sbatch" >/dev/null 2>&1)
done
expect "status: complete" 0 "3 of 3 shards complete, 6 of 6 games" - -- cluster status "$tmp/s"
(bash "$tmp/s/merge.sbatch" >/dev/null 2>&1)
check "the merge job" $? "merge.sbatch failed"
"$tiers" playout "$duel" --games 6 --rule army_cap=20 --db "$tmp/single.db" >/dev/null
q="select game, result, reason, plies, moves from games where run='$skey' order by game"
same "merged equals one process" "$(sqlite3 "$tmp/single.db" "$q")" "$(sqlite3 "$tmp/s/merged.db" "$q")"

# a changed variant: the task refuses to play
echo "# changed" >>"$duel/variant.yaml"
(cd / && SLURM_ARRAY_TASK_ID=1 bash "$tmp/s/playout.sbatch" >"$tmp/out" 2>"$tmp/err")
rc=$?
check "changed variant refused" "$([[ $rc -eq 2 ]]; echo $?)" "exit $rc"
check_cmd "changed variant named" grep -q "not run $skey: the variant, its options or the agents changed" "$tmp/err"

# --scratch: the task plays in $TMPDIR and copies the database back
cp -r "$variants/duel" "$tmp/duel4"
"$tiers" cluster slurm "$tmp/duel4" --games 4 --shards 2 --scratch -o "$tmp/sc" >/dev/null
mkdir -p "$tmp/node"
(cd / && TMPDIR=$tmp/node SLURM_ARRAY_TASK_ID=1 bash "$tmp/sc/playout.sbatch" >/dev/null 2>&1)
check "scratch task" $? "failed"
check_cmd "scratch: database copied back" test -s "$tmp/sc/shards/shard-1.db"
check_cmd "scratch: no .part left" test ! -e "$tmp/sc/shards/shard-1.db.part"
check "scratch: node folder cleaned" "$(ls -A "$tmp/node" | wc -l)" "left $(ls -A "$tmp/node")"
expect "scratch: status counts it" 2 "1 of 2 shards complete, 2 of 4 games" - -- \
    cluster status "$tmp/sc"
(cd / && TMPDIR=$tmp/node SLURM_ARRAY_TASK_ID=1 bash "$tmp/sc/playout.sbatch" >/dev/null 2>&1)
expect "scratch: a rerun resumes, nothing doubled" 2 "1 of 2 shards complete, 2 of 4 games" - -- \
    cluster status "$tmp/sc"

# ------------------------------------------------------------ parallel
cp -r "$variants/duel" "$tmp/duel2"
expect "parallel script" 0 "run with: bash $tmp/p/parallel.sh" - -- \
    cluster parallel "$tmp/duel2" --games 5 --shards 2 --slots 2 -o "$tmp/p"
check_cmd "parallel is bash" bash -n "$tmp/p/parallel.sh"
check_cmd "parallel --will-cite" grep -q 'parallel --will-cite' "$tmp/p/parallel.sh"
expect "parallel status" 2 "0 of 2 shards complete" - -- cluster status "$tmp/p"
check_cmd "parallel rerun command" grep -q "bash $tmp/p/parallel.sh 1 2" "$tmp/out"

# ------------------------------------------------------------ usage
expect "unknown kind" 1 - "unknown cluster kind 'pbs'" -- cluster pbs "$duel"
expect "status of nothing" 2 - "cluster.conf" -- cluster status "$tmp/nothing"
expect "more shards than games" 1 - "more than the 2 games" -- \
    cluster slurm "$tmp/duel2" --games 2 --shards 3 -o "$tmp/x"
expect "bad --time" 1 - "one word" -- cluster slurm "$tmp/duel2" --time "1 h" -o "$tmp/x"
expect "--submit for parallel" 1 - "--submit is for" -- \
    cluster parallel "$tmp/duel2" --submit -o "$tmp/x"
printf 'kind=slurm\nrun=zz\n' >"$tmp/bad.conf" && mkdir -p "$tmp/badc" &&
    mv "$tmp/bad.conf" "$tmp/badc/cluster.conf"
expect "bad cluster.conf" 2 - "not a cluster.conf" -- cluster status "$tmp/badc"

# ------------------------------------------------------------ --run
expect "playout --run other" 2 - "not run 0000000000000000" -- \
    playout "$variants/duel" --games 1 --db "$tmp/r.db" --run 0000000000000000
check_cmd "playout --run other plays nothing" test ! -e "$tmp/r.db"
expect "playout --run bad" 1 - "16 hex digits" -- \
    playout "$variants/duel" --games 1 --db "$tmp/r.db" --run xyz
"$tiers" playout "$variants/duel" --games 2 --db "$tmp/a.db" >/dev/null
"$tiers" playout "$variants/duel" --games 2 --seed 5 --db "$tmp/b.db" >/dev/null
expect "merge --run other run" 2 - "b.db holds run [0-9a-f]{16}, not $key: its seed differs" -- \
    merge --run "$key" "$tmp/a.db" "$tmp/b.db" -o "$tmp/m.db"
check_cmd "merge --run refused writes nothing" test ! -e "$tmp/m.db"
expect "merge --run" 0 "4 games added in all|2 games added in all" - -- \
    merge --run "$key" "$tmp/a.db" "$tmp/k.db" -o "$tmp/m.db"
expect "merge --run again adds nothing" 0 "0 games added in all" - -- \
    merge --run "$key" "$tmp/a.db" -o "$tmp/m.db"
expect "merge --run absent" 2 - "no input holds run 0000000000000000" -- \
    merge --run 0000000000000000 "$tmp/a.db" -o "$tmp/m2.db"
# without --run: a warning when only the content hash differs
cp -r "$variants/duel" "$tmp/duel3"
"$tiers" playout "$tmp/duel3" --games 1 --db "$tmp/h1.db" >/dev/null
echo "# edited" >>"$tmp/duel3/variant.yaml"
"$tiers" playout "$tmp/duel3" --games 1 --db "$tmp/h2.db" >/dev/null
expect "merge warns of a changed variant" 0 - "differ only in the variant's content hash" -- \
    merge "$tmp/h1.db" "$tmp/h2.db" -o "$tmp/h.db"

cli_end
