#!/bin/bash
# The generated tune scripts: the goldens in golden/tuning-*.sh are what
# the formatter renders for the seed plans (unit/test-tuning compares
# them), so checking the goldens checks the generator.  Each must pass
# "shellcheck -s sh", and runs against copies of the fake sysfs trees
# in fixtures/sysfs/: values written and read back, knobs that are not
# there skipped, a failed write reported, and a second run changes nothing.
# Devices are found by identity: in a copy where the array, its members
# and other disks have moved to other kernel names, the planned devices
# are tuned under their new names and nothing else is touched.
# shellcheck source-path=SCRIPTDIR source=lib.bash
. "$(dirname "$0")/lib.bash"

: "${FIXTURES:?set by ctest}"

# tree NAME: a fresh copy of fixtures/sysfs/NAME; prints its path
tree() {
	rm -rf "${WORK:?}/$1"
	cp -R "$FIXTURES/sysfs/$1" "$WORK/$1"
	echo "$WORK/$1"
}

# tune TREE SCRIPT [ARG]: runs a golden script on TREE; stderr in $WORK/err
tune() {
	local root=$1 script=$2
	shift 2
	rc=0
	SYSFS_ROOT=$root sh "$GOLDEN_DIR/$script" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}

# expect_rc CODE: the last tune exited CODE and printed nothing on stdout
expect_rc() {
	checks=$((checks + 1))
	[ "$rc" = "$1" ] || fail "exited $rc, expected $1: $(cat "$WORK/err")"
	[ ! -s "$WORK/out" ] || fail "printed on stdout: $(cat "$WORK/out")"
}

# knob TREE REL VALUE: TREE/sys/block/REL holds VALUE
knob() {
	local have
	checks=$((checks + 1))
	have=$(cat "$1/sys/block/$2")
	[ "$have" = "$3" ] || fail "$2 is '$have', expected '$3'"
}

# stderr PATTERN [COUNT]: the last run's stderr has COUNT (default 1+) matching lines
stderr() {
	local n
	checks=$((checks + 1))
	n=$(grep -cE -- "$1" "$WORK/err" || true)
	if [ -n "${2:-}" ]; then
		[ "$n" = "$2" ] || fail "$n stderr lines match /$1/, expected $2: $(cat "$WORK/err")"
	else
		[ "$n" -gt 0 ] || fail "no stderr line matches /$1/: $(cat "$WORK/err")"
	fi
}

# unchanged_since MARKER TREE: no file in TREE was written after MARKER
unchanged_since() {
	local newer
	checks=$((checks + 1))
	newer=$(find "$2" -type f -newer "$1")
	[ -z "$newer" ] || fail "a second run wrote again: $newer"
}

# snapshot: every file of the fixture trees and its content
snapshot() {
	(cd "$FIXTURES/sysfs" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

# settle: a marker file newer than everything written so far
settle() {
	sleep 0.05
	touch "$WORK/marker"
	sleep 0.05
}

fixtures_before=$(snapshot)
scripts=("$GOLDEN_DIR"/tuning-*.sh)
for script in "${scripts[@]}"; do
	checks=$((checks + 1))
	shellcheck -s sh "$script" >&2 || fail "shellcheck: $(basename "$script")"
done
checks=$((checks + 1))
[ "${#scripts[@]}" -ge 4 ] || fail "expected the md, md-identity, lsi and p400-cciss scripts, found ${#scripts[@]}"

# cciss!c0d0: a '!' in every path, a 2.6-era scheduler list
t=$(tree cciss)
tune "$t" tuning-p400-cciss.sh
expect_rc 0
checks=$((checks + 1))
[ ! -s "$WORK/err" ] || fail "cciss: unexpected stderr: $(cat "$WORK/err")"
knob "$t" 'cciss!c0d0/queue/scheduler' noop
knob "$t" 'cciss!c0d0/queue/read_ahead_kb' 4096
knob "$t" 'cciss!c0d0/queue/nr_requests' 128
settle
tune "$t" tuning-p400-cciss.sh
expect_rc 0
unchanged_since "$WORK/marker" "$t"

# the same from a udev rule: %k spells the name cciss/c0d0
t=$(tree cciss)
tune "$t" tuning-p400-cciss.sh cciss/c0d0
expect_rc 0
knob "$t" 'cciss!c0d0/queue/read_ahead_kb' 4096
t=$(tree cciss)
tune "$t" tuning-p400-cciss.sh sdb
expect_rc 0
knob "$t" 'cciss!c0d0/queue/read_ahead_kb' 128

# md3 and two members in the tree, eight members absent: each skipped
# with one line (the plan knows them by kernel name only)
t=$(tree md)
tune "$t" tuning-md.sh
expect_rc 0
stderr '^stripeplan-tune: skip md member: no device with the name sd([d-k])$' 8
stderr . 8
knob "$t" md3/queue/read_ahead_kb 32768
knob "$t" md3/md/stripe_cache_size 16384
knob "$t" md3/md/sync_speed_min 30000
knob "$t" md3/md/sync_speed_max 30000
knob "$t" sdb/queue/scheduler '[mq-deadline] kyber bfq none'
knob "$t" sdc/queue/scheduler mq-deadline
for d in sdb sdc; do
	knob "$t" $d/queue/max_sectors_kb 128
	knob "$t" $d/queue/nr_requests 512
	knob "$t" $d/device/queue_depth 1
done
settle
tune "$t" tuning-md.sh
expect_rc 0
stderr . 8
unchanged_since "$WORK/marker" "$t"

# md reports a set sync speed as "30000 (local)": that is a match
printf '30000 (local)\n' >"$t/sys/block/md3/md/sync_speed_min"
settle
tune "$t" tuning-md.sh
unchanged_since "$WORK/marker" "$t"

# only one device: md3 stays as it was
t=$(tree md)
tune "$t" tuning-md.sh sdc
expect_rc 0
stderr . 0
knob "$t" md3/queue/read_ahead_kb 6144
knob "$t" sdb/queue/nr_requests 64
knob "$t" sdc/queue/nr_requests 512

# a value that reads back differently is a warning; a failed write is
# reported, the other knobs still set, and the exit status is 1
t=$(tree md)
ln -sf /dev/null "$t/sys/block/sdb/queue/nr_requests"
rm "$t/sys/block/md3/queue/read_ahead_kb"
mkdir "$t/sys/block/md3/queue/read_ahead_kb"
tune "$t" tuning-md.sh
expect_rc 1
stderr "^stripeplan-tune: cannot set /sys/block/md3/queue/read_ahead_kb to '32768': Is a directory$" 1
stderr "^stripeplan-tune: warning: /sys/block/sdb/queue/nr_requests is '' after writing '512': the kernel clamped it$" 1
knob "$t" md3/md/stripe_cache_size 16384
knob "$t" sdc/queue/nr_requests 512

# the LSI array's disk is not in this tree: skipped, exit 0
t=$(tree cciss)
tune "$t" tuning-lsi.sh
expect_rc 0
stderr '^stripeplan-tune: skip the device: no device with the name sda$' 1
stderr . 1

# a knob the device does not have: skipped, the others set
t=$(tree md)
rm "$t/sys/block/sdc/device/queue_depth"
tune "$t" tuning-md.sh
expect_rc 0
stderr '^stripeplan-tune: skip /sys/block/sdc/device/queue_depth: not present$' 1
knob "$t" sdc/queue/nr_requests 512

# identity: tuning-md-identity.sh knows md3 by its UUID, member sdb by its
# serial and member sdc by its WWN.  After a reboot md3 is md127, the disk
# with sdc's WWN is sdb, sdc is some other disk and no disk has sdb's
# serial: md127 and sdb are tuned, sdc is not touched, sdb's is skipped
md_sysfs_uuid=3f1c2a9e-6b0d-4e21-9a7f-5c33c2e81b04
# identity_tree [METADATA [UUID]]: the md tree moved like that; prints its path
identity_tree() {
	local t
	t=$(tree md)
	mv "$t/sys/block/md3" "$t/sys/block/md127"
	printf '%s\n' "${2:-$md_sysfs_uuid}" >"$t/sys/block/md127/md/uuid"
	printf '%s\n' "${1:-1.2}" >"$t/sys/block/md127/md/metadata_version"
	printf 'naa.50014ee2b0000062\n' >"$t/sys/block/sdb/device/wwid"
	printf 'naa.50014ee2b00000ff\n' >"$t/sys/block/sdc/device/wwid"
	printf 'WD-WMAP49999999\n' >"$t/sys/block/sdc/device/serial"
	echo "$t"
}
# same_as_fixture TREE REL [FIXTURE_REL]: TREE/sys/block/REL is what the
# fixture's is (its FIXTURE_REL, default REL)
same_as_fixture() {
	checks=$((checks + 1))
	cmp -s "$1/sys/block/$2" "$FIXTURES/sysfs/md/sys/block/${3:-$2}" ||
		fail "$2 was written: $(cat "$1/sys/block/$2")"
}
# untouched TREE DISK: none of the member knobs of DISK was written
untouched() {
	local k
	for k in queue/scheduler queue/max_sectors_kb queue/nr_requests device/queue_depth; do
		same_as_fixture "$1" "$2/$k"
	done
}
t=$(identity_tree)
tune "$t" tuning-md-identity.sh
expect_rc 0
stderr '^stripeplan-tune: skip md member: no disk with serial number WD-WMAP41234567$' 1
stderr . 1
knob "$t" md127/queue/read_ahead_kb 32768
knob "$t" md127/md/stripe_cache_size 16384
knob "$t" sdb/queue/max_sectors_kb 128
knob "$t" sdb/queue/nr_requests 512
knob "$t" sdb/device/queue_depth 1
untouched "$t" sdc
settle
tune "$t" tuning-md-identity.sh
expect_rc 0
stderr . 1
unchanged_since "$WORK/marker" "$t"

# the serial found again, as /sys/block/sdc/serial (the probe's second
# choice, where virtio disks have it): sdc is tuned as well
printf 'WD-WMAP41234567\n' >"$t/sys/block/sdc/serial"
rm "$t/sys/block/sdc/device/serial"
tune "$t" tuning-md-identity.sh
expect_rc 0
stderr . 0
knob "$t" sdc/queue/nr_requests 512

# KERNEL_NAME is the name the device has now: sdb is the planned sdc
t=$(identity_tree)
tune "$t" tuning-md-identity.sh sdb
expect_rc 0
stderr . 0
knob "$t" sdb/queue/nr_requests 512
same_as_fixture "$t" md127/queue/read_ahead_kb md3/queue/read_ahead_kb
untouched "$t" sdc
tune "$t" tuning-md-identity.sh sdc
expect_rc 0
stderr . 0
untouched "$t" sdc
tune "$t" tuning-md-identity.sh md127
expect_rc 0
knob "$t" md127/md/stripe_cache_size 16384

# two disks with sdc's WWN (two paths to one LUN, or a cloned disk): which
# was planned cannot be told, so neither is tuned and the exit status is 1
t=$(identity_tree)
printf 'naa.50014ee2b0000062\n' >"$t/sys/block/sdc/device/wwid"
tune "$t" tuning-md-identity.sh
expect_rc 1
stderr '^stripeplan-tune: refuse md member: 2 disks have WWN naa.50014ee2b0000062 \(sdb sdc\): none of them tuned$' 1
untouched "$t" sdb
untouched "$t" sdc
knob "$t" md127/md/stripe_cache_size 16384
# ...also when asked for one of them by name; not when asked for another
tune "$t" tuning-md-identity.sh sdc
expect_rc 1
stderr '^stripeplan-tune: refuse md member' 1
tune "$t" tuning-md-identity.sh md127
expect_rc 0
stderr . 0

# 0.90 metadata: the kernel keeps the UUID as four little-endian words,
# mdadm (and so MD_UUID) prints them as numbers
t=$(identity_tree 0.90 9e2a1c3f-214e-0d6b-335c-7f9a041be8c2)
tune "$t" tuning-md-identity.sh md127
expect_rc 0
knob "$t" md127/md/stripe_cache_size 16384
# the same bytes under 1.2 metadata are another UUID: not this array
t=$(identity_tree 1.2 9e2a1c3f-214e-0d6b-335c-7f9a041be8c2)
tune "$t" tuning-md-identity.sh
expect_rc 0
stderr '^stripeplan-tune: skip the array: no md array with UUID 3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04$' 1
same_as_fixture "$t" md127/md/stripe_cache_size md3/md/stripe_cache_size

# nothing was written into the fixtures themselves
checks=$((checks + 1))
[ "$(snapshot)" = "$fixtures_before" ] || fail "fixtures/sysfs changed while the test ran"
finish
