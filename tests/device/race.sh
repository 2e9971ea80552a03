#!/bin/bash
# The medium swapped under a running apply (issue 9, item 3): while apply
# runs, `losetup -d loopN; losetup loopN other.img`.  apply must never
# write the other image and never say "done" unless its own image holds
# exactly the plan.  apply locks the disk, then identifies what it holds
# (disk sequence, size, st_rdev) and keeps that descriptor open: an open
# loop device cannot be re-attached, and every write is re-checked.
#
# First, deterministically: apply pauses right before its first write
# (STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE, a test-only hook) while the test
# re-points the device path at the other image, swaps the backing file,
# or resizes the medium.  Then the random race, in a bounded loop.
#
# Other sessions attach loop devices at the same time: this test touches
# only a loop device while it is backed by one of its own two images.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1 --fs xfs)
# the random race is a smoke test on top of the cases above, which assert
# the refusal; bounded in time too: on a loaded machine the loop stops
# early, after at least MIN_ITERATIONS, rather than hit ctest's timeout
ITERATIONS=${RACE_ITERATIONS:-20}
BUDGET_SECONDS=${RACE_BUDGET_SECONDS:-180}
MIN_ITERATIONS=6

dev=$(sp_loop_create 1G) || exit 1
img_a=$(image_of "$dev")
img_b="$SP_LOOP_TMPDIR/other.img"
truncate -s 1G "$img_b"
printf 'the other disk\n' | dd of="$img_b" bs=1M seek=1 conv=notrunc status=none
digest_b=$("$IMAGE_DIGEST" "$img_b")

backing() {
	losetup --noheadings --output BACK-FILE "$1" 2>/dev/null || true
}

# ours DEV: DEV serves one of our images right now
ours() {
	local b
	b=$(backing "$1")
	[ "$b" = "$img_a" ] || [ "$b" = "$img_b" ]
}

# attach_a: DEV serves image A; a number we freed is anyone's, so a new
# attachment takes whatever number the kernel gives, and DEV follows it
attach_a() {
	if [ "$(backing "$dev")" = "$img_b" ]; then
		losetup -d "$dev"
	fi
	# a detach asked for while apply held the device happens when it closes
	for _ in $(seq 50); do
		[ "$(losetup --noheadings --output AUTOCLEAR "$dev" 2>/dev/null | tr -d ' ')" = 1 ] ||
			break
		sleep 0.1
	done
	[ "$(backing "$dev")" != "$img_a" ] || return 0
	dev=$(losetup --partscan --find --show "$img_a") || fail "cannot attach $img_a"
	printf '%s %s\n%s %s\n' "$dev" "$img_a" "$dev" "$img_b" >>"$SP_LOOP_TMPDIR/.devices"
}

sha() {
	"$IMAGE_DIGEST" "$1"
}

# the images' first GiB: what a resize leaves as it was
sha_gib() {
	head -c 1G "$1" | sha256sum | cut -d' ' -f1
}

# wait_paused DIR: apply is right before its first write
wait_paused() {
	for _ in $(seq 1200); do
		[ ! -e "$1/paused" ] || return 0
		sleep 0.05
	done
	touch "$1/resume"
	fail "apply never reached its pause before the first write: $(cat "$1/out")"
}

# expect_refused_mid_apply DIR PATTERN RC: apply refused (exit 3, nothing
# written) and its report says why
expect_refused_mid_apply() {
	checks=$((checks + 1))
	[ "$3" = 3 ] || fail "$1: apply exited $3, expected 3: $(cat "$1/out")"
	checks=$((checks + 1))
	grep -qE -- "$2" "$1/out" || fail "$1: the report does not say /$2/: $(cat "$1/out")"
	checks=$((checks + 1))
	grep -q 'refused: nothing was written' "$1/out" ||
		fail "$1: the report does not say nothing was written: $(cat "$1/out")"
}

# --- the device path re-pointed at the other image while apply waits -------
# In a private mount namespace (nothing outside sees it), the other image's
# loop node is bind-mounted over the node apply was given: libparted and
# mkfs open devices by path, so this is the swap that would write image B.
pause="$WORK/pause-path"
mkdir -p "$pause"
dev_b=$(losetup --partscan --find --show "$img_b") || fail "cannot attach $img_b"
printf '%s %s\n' "$dev_b" "$img_b" >>"$SP_LOOP_TMPDIR/.devices"
before_a=$(sha "$img_a")
rc=0
# shellcheck disable=SC2016 # the inner script's values come as its arguments
unshare --mount --propagation private bash -c '
	pause=$1 stripeplan=$2 node=$3 other=$4
	shift 4
	STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE=$pause "$stripeplan" "$@" >"$pause/out" 2>&1 &
	pid=$!
	for _ in $(seq 1200); do [ ! -e "$pause/paused" ] || break; sleep 0.05; done
	[ -e "$pause/paused" ] && mount --bind "$other" "$node"
	touch "$pause/resume"
	wait "$pid"
' race-path "$pause" "$STRIPEPLAN" "$dev" "$dev_b" \
	apply "${P400[@]}" --device "$dev" --root "$SP_TEST_ROOT" || rc=$?
checks=$((checks + 1))
[ -e "$pause/paused" ] || fail "apply never reached its pause: $(cat "$pause/out")"
expect_refused_mid_apply "$pause" "'$dev' is no longer the device apply identified" "$rc"
checks=$((checks + 1))
[ "$(sha "$img_b")" = "$digest_b" ] || fail "apply wrote the other image through the re-pointed path"
checks=$((checks + 1))
[ "$(sha "$img_a")" = "$before_a" ] || fail "apply wrote its own image after refusing"
losetup -d "$dev_b"

# --- the backing file swapped while apply waits: the kernel says no --------
# apply holds the device open: 'losetup -d' only marks it for detaching
# when the last user closes it, and attaching the other image fails.
pause="$WORK/pause-file"
mkdir -p "$pause"
STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE=$pause "$STRIPEPLAN" apply "${P400[@]}" --device "$dev" \
	--root "$SP_TEST_ROOT" >"$pause/out" 2>&1 &
pid=$!
wait_paused "$pause"
checks=$((checks + 1))
losetup -d "$dev" || fail "losetup -d $dev failed while apply held it"
swap_rc=0
losetup "$dev" "$img_b" 2>/dev/null || swap_rc=$?
touch "$pause/resume"
rc=0
wait "$pid" || rc=$?
checks=$((checks + 1))
[ "$swap_rc" != 0 ] || fail "the other image was attached under a device apply held open"
checks=$((checks + 1))
if [ "$rc" != 0 ] || ! grep -q 'done: the device now matches the plan' "$pause/out"; then
	fail "apply on the device it held exited $rc: $(cat "$pause/out")"
fi
checks=$((checks + 1))
[ "$(blkid -p -O 1048576 -o value -s TYPE "$img_a" 2>/dev/null)" = xfs ] ||
	fail "apply said done, but its image has no xfs at 1 MiB"
checks=$((checks + 1))
[ "$(sha "$img_b")" = "$digest_b" ] || fail "the other image was written"
attach_a # the detach took effect when apply closed the device

# --- the medium resized while apply waits ----------------------------------
pause="$WORK/pause-size"
mkdir -p "$pause"
before_a=$(sha_gib "$img_a")
STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE=$pause "$STRIPEPLAN" apply "${P400[@]/xfs/ext4}" --device "$dev" \
	--root "$SP_TEST_ROOT" --force >"$pause/out" 2>&1 &
pid=$!
wait_paused "$pause"
truncate -s +64M "$img_a"
losetup --set-capacity "$dev"
touch "$pause/resume"
rc=0
wait "$pid" || rc=$?
expect_refused_mid_apply "$pause" "'$dev' now has 1140850688 bytes, apply identified 1073741824" "$rc"
checks=$((checks + 1))
[ "$(sha_gib "$img_a")" = "$before_a" ] || fail "apply wrote the resized medium after refusing"
checks=$((checks + 1))
[ "$(sha "$img_b")" = "$digest_b" ] || fail "the other image was written"
truncate -s 1G "$img_a"
losetup --set-capacity "$dev"

# --- the random race ----------------------------------------------------------
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
	# somewhere in apply's 0.2-0.6 s (idle machine: 0.22 s): exec, lock,
	# label, mkfs; a later swap meets a finished run
	sleep "$(printf '0.%02d' $((RANDOM % 25)))"
	if ours "$dev" && [ "$(backing "$dev")" = "$img_a" ]; then
		losetup -d "$dev" 2>/dev/null || true
		losetup "$dev" "$img_b" 2>/dev/null && swapped=$((swapped + 1))
	fi
	rc=0
	wait "$pid" || rc=$?
	checks=$((checks + 1))
	[ "$("$IMAGE_DIGEST" "$img_b")" = "$digest_b" ] ||
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
