#!/bin/bash
# apply --dry-run's actions are the real run's: for each scenario (blank,
# re-chunk with --force, mount point change, tuning change, keeping the
# 51st report, nothing to do)
# the dry run writes nothing and lists, in order, exactly the actions the
# real run then reports (and with --table none, from a label and then on
# the whole device); and what those actions say they destroy is what
# the run changed (the fstab lines, the old filesystem's UUID).
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --kernel 6.1 --fs xfs)

# actions FILE: the actions of a JSON report, one compact line each; the
# run's own report is named for its time and process (apply-TIME-DEV-PID)
actions() {
	jq -c '.actions[]' "$1" |
		sed -E 's/apply-[0-9]{8}T[0-9]{6}Z-([^"]+)-[0-9]+\.json/apply-TIME-\1-PID.json/'
}

# kept_report: the real run's last action keeps its report, and the file
# it names under the root is that report
kept_report() {
	local kept
	checks=$((checks + 1))
	kept=$(jq -r '.actions[-1] | select(.step == "report" and .action == "file") | .target' "$WORK/real.json")
	case "$kept" in
	"$SP_TEST_ROOT"/var/log/stripeplan/apply-*.json) ;;
	*) fail "the last action does not keep the run's report: $(actions "$WORK/real.json" | tail -1)" ;;
	esac
	checks=$((checks + 1))
	if ! { [ -f "$kept" ] && [ "$(jq -cS . "$kept")" = "$(jq -cS . "$WORK/real.json")" ]; }; then
		fail "'$kept' is not the report the run printed"
	fi
}

# same_actions NAME DEV ARGS...: dry run (nothing changes, exit 0), then
# the real run; their actions must be equal, the new filesystem's UUID
# standing for the dry run's placeholder.  The real report stays in
# $WORK/real.json, the dry one in $WORK/dry.json.
same_actions() {
	local name=$1 dev=$2 before uuid
	shift 2
	before=$(state "$dev")
	expect_ok "$name: dry run" sp apply "$@" --device "$dev" --dry-run --format json
	cp "$WORK/out" "$WORK/dry.json"
	checks=$((checks + 1))
	[ "$(state "$dev")" = "$before" ] || fail "$name: the dry run changed $dev or the root"
	expect_ok "$name: apply" sp apply "$@" --device "$dev" --format json
	cp "$WORK/out" "$WORK/real.json"
	uuid=$(jq -r '.fs_uuid // ""' "$WORK/real.json")
	checks=$((checks + 1))
	diff <(actions "$WORK/dry.json" | sed "s/@FS_UUID@/$uuid/g") \
		<(actions "$WORK/real.json") >"$WORK/diff" ||
		fail "$name: the dry run's actions are not the real run's: $(cat "$WORK/diff")"
	checks=$((checks + 1))
	[ "$(jq '.actions_dropped' "$WORK/real.json")" = 0 ] || fail "$name: actions dropped"
}

# has_action PATTERN: the real run's actions hold a line matching PATTERN
has_action() {
	checks=$((checks + 1))
	actions "$WORK/real.json" | grep -E -- "$1" >/dev/null ||
		fail "no action /$1/ in: $(actions "$WORK/real.json")"
}

# fstab_matches: every removed line is gone from the fstab, every added one there
fstab_matches() {
	local line
	while IFS= read -r line; do
		checks=$((checks + 1))
		! grep -qxF -- "$line" "$SP_TEST_ROOT/etc/fstab" || fail "removed line still there: $line"
	done < <(jq -r '.actions[] | select(.action == "fstab-remove") | .before' "$WORK/real.json")
	while IFS= read -r line; do
		checks=$((checks + 1))
		grep -qxF -- "$line" "$SP_TEST_ROOT/etc/fstab" || fail "added line missing: $line"
	done < <(jq -r '.actions[] | select(.action == "fstab-add") | .after' "$WORK/real.json")
}

dev=$(sp_loop_create 1G) || exit 1
ra=/sys/block/${dev#/dev/}/queue/read_ahead_kb

# --- blank: label, mkfs, fstab, the mount point and the files --------------
same_actions blank "$dev" "${P400[@]}" --chunk 256K --mountpoint /data
has_action '"action":"label","target":"'"$dev"'","before":"none","after":"gpt, 1 partition, partition 1 at 1 MiB \+ 1022 MiB","destroys":true'
has_action '"action":"mkfs","target":"'"${dev}p1"'","before":"","after":"xfs \(a new UUID\)"'
has_action '"action":"file","target":"'"$SP_TEST_ROOT"'/data","before":"","after":"directory"'
has_action '"action":"file","target":"[^"]*/60-stripeplan-[^"]*.rules"'
checks=$((checks + 1))
actions "$WORK/real.json" | grep '"action":"wipe"' >/dev/null && fail "blank: a wipe on a blank device"
fstab_matches
kept_report

# --- re-chunk with --force: every signature, the old UUID, its fstab line ---
old_uuid=$(blkid -o value -s UUID "${dev}p1")
same_actions "re-chunk" "$dev" "${P400[@]}" --chunk 128K --mountpoint /data --force
has_action '"step":"partition","action":"wipe","target":"'"$dev"'","before":"gpt signature at offset 512"'
has_action '"step":"partition","action":"wipe","target":"'"$dev"'","before":"PMBR signature'
has_action '"step":"filesystem","action":"wipe","target":"'"${dev}p1"'","before":"xfs signature at offset 0"'
has_action '"action":"mkfs","target":"'"${dev}p1"'","before":"xfs UUID='"$old_uuid"'","after":"xfs \(a new UUID\)","destroys":true'
has_action '"action":"fstab-remove",[^}]*"before":"UUID='"$old_uuid"' /data xfs'
has_action '"action":"fstab-add",[^}]*"after":"UUID='"$(jq -r .fs_uuid "$WORK/real.json")"' /data xfs'
checks=$((checks + 1))
[ "$(blkid -o value -s UUID "${dev}p1")" != "$old_uuid" ] || fail "re-chunk: the UUID did not change"
fstab_matches

# --- mount point change: the old line removed, the new one added -----------
same_actions "mount point" "$dev" "${P400[@]}" --chunk 128K --mountpoint /data2
checks=$((checks + 1))
[ "$(jq -r '[.actions[].step] | unique | join(",")' "$WORK/real.json")" = fstab,report ] ||
	fail "mount point: actions beyond fstab: $(actions "$WORK/real.json")"
has_action '"action":"fstab-remove",[^}]*"before":"UUID=[^"]* /data xfs'
has_action '"action":"fstab-add",[^}]*"after":"UUID=[^"]* /data2 xfs'
fstab_matches

# --- tuning change: a knob set back by hand is set again, old -> new -------
want=$(cat "$ra")
echo 128 >"$ra"
same_actions "tuning" "$dev" "${P400[@]}" --chunk 128K --mountpoint /data2
checks=$((checks + 1))
[ "$(actions "$WORK/real.json")" = '{"step":"tuning","action":"knob","target":"'"$ra"'","before":"128","after":"'"$want"'","destroys":false}
{"step":"report","action":"file","target":"'"$SP_TEST_ROOT"'/var/log/stripeplan/apply-TIME-'"${dev#/dev/}"'-PID.json","before":"","after":"this run'"'"'s report","destroys":false}' ] ||
	fail "tuning: $(actions "$WORK/real.json")"

# --- keeping the report prunes the oldest: said as it is done -------------
logs=$SP_TEST_ROOT/var/log/stripeplan
kept=$(find "$logs" -name 'apply-*.json' | wc -l)
for i in $(seq $((50 - kept))); do
	printf '{}\n' >"$logs/apply-20000101T0000$(printf %02d "$i")Z-old-1.json"
done
echo 128 >"$ra"
same_actions "tuning, 50 reports kept" "$dev" "${P400[@]}" --chunk 128K --mountpoint /data2
has_action '"step":"report","action":"file",[^}]*"after":"this run'"'"'s report; the 1 oldest there removed \(the newest 50 kept\)"'
checks=$((checks + 1))
if ! { [ ! -e "$logs/apply-20000101T000001Z-old-1.json" ] &&
	[ -e "$logs/apply-20000101T000002Z-old-1.json" ] &&
	[ "$(find "$logs" -name 'apply-*.json' | wc -l)" = 50 ]; }; then
	fail "keeping the 51st report did not remove exactly the oldest: $(ls "$logs")"
fi

# --- nothing to do: no actions, in either run -------------------------------
same_actions "nothing to do" "$dev" "${P400[@]}" --chunk 128K --mountpoint /data2
checks=$((checks + 1))
[ "$(jq -c .actions "$WORK/real.json")" = '[]' ] || fail "nothing to do: $(actions "$WORK/real.json")"

# --- --table none: from the gpt layout, then a re-chunk on the whole device ---
# the partition step's wipe goes over the whole device before the
# filesystem step's: the dry run must not list a signature twice
same_actions "table none" "$dev" "${P400[@]}" --chunk 128K --mountpoint /data2 --table none --force
has_action '"step":"partition","action":"wipe","target":"'"$dev"'","before":"gpt signature'
has_action '"step":"partition","action":"label","target":"'"$dev"'","before":"gpt, 1 partition, partition 1 at 1 MiB[^"]*","after":"none"'
checks=$((checks + 1))
[ "$(jq '[.actions[] | select(.step == "filesystem" and .action == "wipe")] | length' "$WORK/real.json")" = 0 ] ||
	fail "table none: the filesystem step wiped what the partition step did: $(actions "$WORK/real.json")"
same_actions "table none, re-chunk" "$dev" "${P400[@]}" --chunk 256K --mountpoint /data2 --table none --force
has_action '"step":"filesystem","action":"wipe","target":"'"$dev"'","before":"xfs signature at offset 0"'
checks=$((checks + 1))
[ "$(jq -r '[.actions[].step] | unique | join(",")' "$WORK/real.json")" = filesystem,fstab,report ] ||
	fail "table none, re-chunk: $(actions "$WORK/real.json")"

# --- the text of a dry run names every destructive action -------------------
expect_ok "dry run text" sp apply "${P400[@]}" --chunk 256K --mountpoint /data --force --device "$dev" --dry-run
expect_out '^actions apply would take:'
expect_out '^ +[0-9]+\. filesystem mkfs +'"${dev}p1"': \(nothing\) -> xfs \(a new UUID\)  \[destroys\]$'
expect_out '^ +[0-9]+\. partition +label +'"$dev"': none -> gpt, .*\[destroys\]$'
expect_out '^ +[0-9]+\. fstab +fstab-remove .* /data2 xfs .*\[destroys\]$'
expect_out '^ +[0-9]+\. report +file +'"$SP_TEST_ROOT"'/var/log/stripeplan/apply-[0-9]{8}T[0-9]{6}Z-'"${dev#/dev/}"'-[0-9]+\.json: \(nothing\) -> this run'"'"'s report(; the 1 oldest there removed \(the newest 50 kept\))?$'

device_finish
