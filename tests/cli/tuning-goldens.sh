#!/bin/bash
# The generated tune scripts: the goldens in golden/tuning-*.sh are what
# the formatter renders for the seed plans (unit/test-tuning compares
# them), so checking the goldens checks the generator.  Each must pass
# "shellcheck -s sh", and runs against copies of the fake sysfs trees
# in fixtures/sysfs/: values written and read back, knobs that are not
# there skipped, a failed write reported, and a second run changes nothing.
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
[ "${#scripts[@]}" -ge 3 ] || fail "expected the md, lsi and p400-cciss scripts, found ${#scripts[@]}"

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

# md3 and two members in the tree, eight members absent: skipped, logged
t=$(tree md)
tune "$t" tuning-md.sh
expect_rc 0
stderr '^stripeplan-tune: skip /sys/block/sd[d-k]/(queue|device)/[a-z_]+: not present$' 32
stderr . 32
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
stderr . 32
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
stderr '^stripeplan-tune: skip /sys/block/sda/queue/scheduler: not present$' 1

# nothing was written into the fixtures themselves
checks=$((checks + 1))
[ "$(snapshot)" = "$fixtures_before" ] || fail "fixtures/sysfs changed while the test ran"
finish
