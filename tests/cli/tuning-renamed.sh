#!/bin/bash
# A reboot that renames the devices leaves the files apply wrote as they
# are: the udev rule, tune script and modprobe.d options rendered for a
# device matched by identity (WWN, serial, md UUID) do not depend on its
# kernel name, so check, which renders them for the device as it is named
# now, finds them equal.  The same facts under two kernel names (sdb and
# sdc; md3 with members sdb..sdk and md127 with the member names reversed)
# must give byte-identical files.  Only a device matched by kernel name
# has it in its files, and a changed knob still changes them.
# shellcheck source-path=SCRIPTDIR source=lib.bash
. "$(dirname "$0")/lib.bash"

F="$SRCDIR/fixtures/facts"

# render OUT FACTS PLAN-ARGS...: the script, rule and JSON plan for FACTS in OUT.*
render() {
	local out=$1 facts=$2 fmt
	shift 2
	for fmt in script udev plan; do
		"$STRIPEPLAN" plan --kernel 6.1.0 --facts "$facts" "$@" --format "${fmt/plan/json}" \
			>"$out.$fmt" || fail "plan --facts $facts --format ${fmt/plan/json}: exit $?"
	done
}

# same A B WHAT: A.script and A.udev are byte-identical to B's
same() {
	local fmt
	for fmt in script udev; do
		checks=$((checks + 1))
		cmp "$1.$fmt" "$2.$fmt" >&2 ||
			fail "$3: the $fmt differs under another kernel name: $(diff "$1.$fmt" "$2.$fmt")"
	done
}

# names_absent FILE NAME...: no NAME appears as a word in FILE
names_absent() {
	local file=$1 name
	shift
	for name; do
		checks=$((checks + 1))
		! grep -qw -- "$name" "$file" || fail "$file names $name: $(grep -nw -- "$name" "$file")"
	done
}

# the hp-p400 LUN (WWN and serial) as sdb and as sdc
p400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs)
jq '.path = "/dev/sdc" | .kernel_name = "sdc"' "$F/p400-lun.json" >"$WORK/p400-sdc.json"
render "$WORK/sdb" "$F/p400-lun.json" "${p400[@]}"
render "$WORK/sdc" "$WORK/p400-sdc.json" "${p400[@]}"
checks=$((checks + 1))
grep -q '"kernel_name": *"sdc"' "$WORK/sdc.plan" || fail "the sdc plan is not for sdc"
same "$WORK/sdb" "$WORK/sdc" "hp-p400 LUN by WWN"
# the script's own comment uses sdb and sdc as examples; its per-device text does not
names_absent "$WORK/sdb.udev" sdb
grep -v '^# ' "$WORK/sdb.script" >"$WORK/sdb.script-code"
names_absent "$WORK/sdb.script-code" sdb

# matched by serial when the WWN is unusable
jq '.wwn = ""' "$F/p400-lun.json" >"$WORK/serial-sdb.json"
jq '.wwn = "" | .path = "/dev/sdc" | .kernel_name = "sdc"' "$F/p400-lun.json" >"$WORK/serial-sdc.json"
render "$WORK/serial-sdb" "$WORK/serial-sdb.json" "${p400[@]}"
render "$WORK/serial-sdc" "$WORK/serial-sdc.json" "${p400[@]}"
checks=$((checks + 1))
grep -q 'ATTRS{serial}=="PACCR9SZH1B4"' "$WORK/serial-sdb.udev" || fail "not matched by serial"
same "$WORK/serial-sdb" "$WORK/serial-sdc" "hp-p400 LUN by serial"

# md3 -> md127, and each member under another member's old name (sdb <-> sdk,
# sdc <-> sdj ...), listed by name as the probe lists them
jq '.path = "/dev/md127" | .kernel_name = "md127" |
	.md.members |= ([.[] | .name] as $n | to_entries |
		map(.value + {name: $n[-1 - .key], disk: $n[-1 - .key]}) | sort_by(.name))' \
	"$F/md-raid5.json" >"$WORK/md127.json"
md=(--controller md --fs xfs)
render "$WORK/md3" "$F/md-raid5.json" "${md[@]}"
render "$WORK/md127" "$WORK/md127.json" "${md[@]}"
checks=$((checks + 1))
[ "$(jq -r '.md.members[0] | .name + " " + .wwn' "$WORK/md127.json")" = "sdb naa.50014ee2b000006b" ] ||
	fail "md127's sdb is not md3's sdk: $(jq -c '.md.members[0]' "$WORK/md127.json")"
checks=$((checks + 1))
[ "$(grep -c 'ATTRS{wwid}==' "$WORK/md3.udev")" = 10 ] || fail "md3: not 10 members by WWN"
same "$WORK/md3" "$WORK/md127" "md array by UUID, members by WWN"
names_absent "$WORK/md3.udev" md3 sdb sdc sdd sde sdf sdg sdh sdi sdj sdk
grep -v '^# ' "$WORK/md3.script" >"$WORK/md3.script-code"
names_absent "$WORK/md3.script-code" md3 sdb sdc sdk

# matched by kernel name: the name is all there is, so the files name it
jq '.wwn = "" | .serial = ""' "$F/p400-lun.json" >"$WORK/noid-sdb.json"
jq '.wwn = "" | .serial = "" | .path = "/dev/sdc" | .kernel_name = "sdc"' \
	"$F/p400-lun.json" >"$WORK/noid-sdc.json"
render "$WORK/noid-sdb" "$WORK/noid-sdb.json" "${p400[@]}"
render "$WORK/noid-sdc" "$WORK/noid-sdc.json" "${p400[@]}"
checks=$((checks + 1))
grep -q 'KERNEL=="sdb"' "$WORK/noid-sdb.udev" || fail "no identity: not matched by kernel name"
checks=$((checks + 1))
grep -q '^# stripeplan: block-device tuning for /dev/sdb$' "$WORK/noid-sdb.udev" ||
	fail "no identity: the rule's header does not name /dev/sdb"
checks=$((checks + 1))
! cmp -s "$WORK/noid-sdb.udev" "$WORK/noid-sdc.udev" || fail "by kernel name, yet sdb's rule is sdc's"

# a knob the plan changes changes the files: identity does not hide drift
render "$WORK/md127-8m" "$WORK/md127.json" "${md[@]}" --memory-budget 8M
for fmt in script udev; do
	checks=$((checks + 1))
	! cmp -s "$WORK/md127.$fmt" "$WORK/md127-8m.$fmt" ||
		fail "a smaller stripe cache, the same $fmt"
done
finish
