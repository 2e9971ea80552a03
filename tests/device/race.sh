#!/bin/bash
# The medium swapped under a running apply (issue 9, item 3): while apply
# runs, `losetup -d loopN; losetup loopN other.img`.  apply must never
# write the other image and never say "done" unless its own image holds
# exactly the plan.  apply locks the disk, then identifies what it holds
# (disk sequence, size, st_rdev) and keeps that descriptor open: an open
# loop device cannot be re-attached, and every write is re-checked.
#
# Other sessions attach loop devices at the same time: this test touches
# only a loop device while it is backed by one of its own two images.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1 --fs xfs)
ITERATIONS=${RACE_ITERATIONS:-40}
# bounded in time too: on a loaded machine the loop stops early, after at
# least MIN_ITERATIONS, rather than hit ctest's timeout
BUDGET_SECONDS=${RACE_BUDGET_SECONDS:-300}
MIN_ITERATIONS=8

dev=$(sp_loop_create 1G) || exit 1
img_a=$(image_of "$dev")
img_b="$SP_LOOP_TMPDIR/other.img"
truncate -s 1G "$img_b"
printf 'the other disk\n' | dd of="$img_b" bs=1M seek=1 conv=notrunc status=none
digest_b=$(sha256sum "$img_b" | cut -d' ' -f1)

backing() {
	losetup --noheadings --output BACK-FILE "$1" 2>/dev/null || true
}

# ours DEV: DEV serves one of our images right now
ours() {
	local b
	b=$(backing "$1")
	[ "$b" = "$img_a" ] || [ "$b" = "$img_b" ]
}

# attach_a: DEV serves image A again, on the same number if it is free
attach_a() {
	if [ "$(backing "$dev")" = "$img_b" ]; then
		losetup -d "$dev"
	fi
	for _ in $(seq 50); do
		[ -n "$(backing "$dev")" ] || break
		sleep 0.1 # autoclear still pending: apply had it open
	done
	if [ -n "$(backing "$dev")" ] || ! losetup --partscan "$dev" "$img_a" 2>/dev/null; then
		# the number went to another session: take a new one
		dev=$(losetup --partscan --find --show "$img_a") || fail "cannot re-attach $img_a"
	fi
	printf '%s %s\n%s %s\n' "$dev" "$img_a" "$dev" "$img_b" >>"$SP_LOOP_TMPDIR/.devices"
}

swapped=0 done_runs=0 refused=0 failed=0 ran=0
for i in $(seq "$ITERATIONS"); do
	if [ "$i" -gt "$MIN_ITERATIONS" ] && [ "$SECONDS" -ge "$BUDGET_SECONDS" ]; then
		break
	fi
	ran=$i
	attach_a
	# the plan records image A's disk sequence: a swap before apply's own
	# probe is a different disk too (with flags it would be the disk named)
	expect_ok "plan $i" sp plan "${P400[@]}" --device "$dev" --format json -o "$WORK/race.json"
	"$STRIPEPLAN" apply --plan "$WORK/race.json" --device "$dev" --root "$SP_TEST_ROOT" --force \
		>"$WORK/race.out" 2>&1 &
	pid=$!
	# somewhere in apply's 0.1-0.6 s: probe, lock, label, mkfs
	sleep "$(printf '0.%02d' $((RANDOM % 40)))"
	if ours "$dev" && [ "$(backing "$dev")" = "$img_a" ]; then
		losetup -d "$dev" 2>/dev/null || true
		losetup "$dev" "$img_b" 2>/dev/null && swapped=$((swapped + 1))
	fi
	rc=0
	wait "$pid" || rc=$?
	checks=$((checks + 1))
	[ "$(sha256sum "$img_b" | cut -d' ' -f1)" = "$digest_b" ] ||
		fail "iteration $i: apply wrote the other image (exit $rc): $(cat "$WORK/race.out")"
	case $rc in
	0)
		done_runs=$((done_runs + 1))
		checks=$((checks + 1))
		grep -q 'done: the device now matches the plan' "$WORK/race.out" ||
			fail "iteration $i: exit 0 without done: $(cat "$WORK/race.out")"
		# "done" is true of image A: its xfs is at 1 MiB with the planned geometry
		checks=$((checks + 1))
		[ "$(blkid -p -O 1048576 -o value -s TYPE "$img_a" 2>/dev/null)" = xfs ] ||
			fail "iteration $i: said done, but image A has no xfs at 1 MiB: $(cat "$WORK/race.out")"
		;;
	3) refused=$((refused + 1)) ;;
	4)
		failed=$((failed + 1))
		[ -z "${RACE_VERBOSE:-}" ] || cat "$WORK/race.out"
		checks=$((checks + 1))
		grep -qE 'state left behind|failed' "$WORK/race.out" ||
			fail "iteration $i: exit 4 without saying what was left: $(cat "$WORK/race.out")"
		;;
	*) fail "iteration $i: exit $rc: $(cat "$WORK/race.out")" ;;
	esac
done
echo "race: $ran runs in ${SECONDS} s, swap went through $swapped times; done $done_runs, refused $refused, failed $failed"
attach_a
device_finish
