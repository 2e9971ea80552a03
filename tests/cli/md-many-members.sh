#!/bin/bash
# An md array takes 1920 members (a version-1 superblock: 2 bytes a device
# in the 4 KiB after its 256-byte head); stripeplan plans and tunes every
# one of them, given with --members or probed into a facts file, and
# refuses one more (exit 2) naming the limit, never dropping a member.
# shellcheck source-path=SCRIPTDIR source=lib.bash
. "$(dirname "$0")/lib.bash"

sp() { "$STRIPEPLAN" "$@"; }

# names N: sdm0,sdm1,... (N of them)
names() {
	local i out=""
	for ((i = 0; i < $1; i++)); do
		out+="${out:+,}sdm$i"
	done
	echo "$out"
}

offline=(plan --controller md --level 6 --disks 16 --chunk 512K --fs xfs --device /dev/md3
	--size 10T --kernel 6.1.0 --format json)
for n in 256 1920; do
	checks=$((checks + 1))
	if ! "$STRIPEPLAN" "${offline[@]}" --members "$(names "$n")" >"$WORK/plan.json" 2>"$WORK/err"; then
		fail "--members of $n: exit non-zero: $(cat "$WORK/err")"
		continue
	fi
	# every member: its scheduler and nr_requests
	checks=$((checks + 1))
	got=$(jq '[.tuning[] | select(.path | test("^/sys/block/sdm[0-9]+/queue/nr_requests$"))] | length' \
		"$WORK/plan.json")
	[ "$got" = "$n" ] || fail "--members of $n: $got members get nr_requests"
	checks=$((checks + 1))
	[ "$(jq '.array.members | length' "$WORK/plan.json")" = "$n" ] || fail "--members of $n: not every member listed"
done
expect_exit 2 "members: more than 1920 member disks" sp "${offline[@]}" --members "$(names 1921)"

# a facts file: md's members as the probe reads them from slaves/
for n in 1920 1921; do
	jq --argjson n "$n" '.md.members = [range(0; $n) | {name: "sdm\(.)", disk: "sdm\(.)",
		wwn: "naa.5000c500\(.)", serial: "S\(.)", has_queue_depth: true}]' \
		"$SRCDIR/fixtures/facts/md-raid5.json" >"$WORK/md-$n.json"
done
checks=$((checks + 1))
if "$STRIPEPLAN" plan --facts "$WORK/md-1920.json" --controller md --fs xfs --kernel 6.1.0 \
	--format script >"$WORK/tune.sh" 2>"$WORK/err"; then
	checks=$((checks + 1))
	[ "$(grep -c "^if found wwn 'naa.5000c500[0-9]*' 'md member'; then$" "$WORK/tune.sh")" = 1920 ] ||
		fail "the tune script does not find each of 1920 members by WWN"
else
	fail "a facts file of 1920 members: exit non-zero: $(cat "$WORK/err")"
fi
expect_exit 2 "md.members has more than 1920 entries" \
	sp plan --facts "$WORK/md-1921.json" --controller md --fs xfs --kernel 6.1.0
finish
