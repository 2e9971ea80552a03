#!/bin/bash
# Fault injection: each case asserts the exit code, the message, and that
# nothing was lost (the device's bytes, or a converged re-run).
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --kernel 6.1)

# --- the medium disappears between plan and apply --------------------------
# Ejected, not detached: the loop device stays ours with 0 bytes behind it.
# A detached number is anyone's (other sessions attach with --find), and
# apply must never be pointed at a device another session may now hold.
dev=$(sp_loop_create 1G) || exit 1
expect_ok "plan" sp plan "${P400[@]}" --device "$dev" --format json -o "$WORK/plan.json"
img=$(image_of "$dev")
truncate -s 0 "$img"
losetup --set-capacity "$dev"
expect_rc 3 "'$dev' has no medium \(0 bytes: detached, ejected or removed\); the plan was made for 1073741824 bytes" \
	sp apply --plan "$WORK/plan.json" --device "$dev"
checks=$((checks + 1))
[ "$(stat -c %s "$img")" = 0 ] || fail "apply wrote to the ejected medium"
truncate -s 1G "$img"
losetup --set-capacity "$dev"

# --- another process holds the device exclusively during apply -------------
dev2=$(sp_loop_create 1G) || exit 1
"$HOLD_EXCL" "$dev2" >"$WORK/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$WORK/held" && break; sleep 0.1; done
before=$(digest "$dev2")
expect_rc 3 "$dev2 is open in process $holder \\(sp-hold-excl\\); stripeplan never touches a disk in use, even with --force" \
	sp apply "${P400[@]}" --device "$dev2" --force
kill "$holder"
wait "$holder" 2>/dev/null || true
unchanged "$dev2" "$before" "refusal of an exclusively held device"

# --- killed between steps: a re-run converges without redoing the first ----
expect_rc 4 "stopped after step 'partition'" \
	env STRIPEPLAN_TEST_STOP_AFTER=partition "$STRIPEPLAN" apply "${P400[@]}" --device "$dev2" \
	--root "$SP_TEST_ROOT"
checks=$((checks + 1))
[ -z "$(blkid -o value -s TYPE "${dev2}p1" 2>/dev/null)" ] || fail "a filesystem appeared although the run stopped"
expect_ok "re-run after the stop" sp apply "${P400[@]}" --device "$dev2"
expect_out '^\[1/[0-9]\] partition .*already matches'
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
expect_ok "check after convergence" sp check --strict "${P400[@]}" --device "$dev2"

# --- mkfs fails: exit 4 and mkfs's own words; the state is reported --------
dev3=$(sp_loop_create 1G) || exit 1
expect_ok "plan" sp plan "${P400[@]}" --device "$dev3" --format json -o "$WORK/plan3.json"
# (a mkfs.xfs that passes the preflight's dry run, -N, and fails the real
# one; apply looks for programs in the system directories only, so the
# test points it at its own with the test-only STRIPEPLAN_TEST_PROGRAM_DIRS)
mkdir -p "$WORK/bin"
printf '#!/bin/sh\ncase " $* " in *" -N "*) exit 0 ;; esac\necho "mkfs.xfs: pwrite failed: No space left on device" >&2\nexit 1\n' \
	>"$WORK/bin/mkfs.xfs"
chmod +x "$WORK/bin/mkfs.xfs"
expect_rc 4 "mkfs.xfs failed \(exit 1\) on '${dev3}p1': mkfs.xfs: pwrite failed: No space left" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$WORK/bin" "$STRIPEPLAN" apply --plan "$WORK/plan3.json" \
	--device "$dev3" --root "$SP_TEST_ROOT"
expect_out 'state left behind on '"$dev3"
expect_out '^  partition +done'
expect_out '^  filesystem +failed'
checks=$((checks + 1))
[ -z "$(blkid -o value -s TYPE "$dev3" 2>/dev/null)" ] || fail "the whole disk got a filesystem"

# --- a plan file whose mkfs points elsewhere is refused as input -----------
sed "/\"mkfs_argv\"/,/]/ s|\"${dev3}p1\"|\"/dev/vda\"|" "$WORK/plan3.json" >"$WORK/evil.json"
checks=$((checks + 1))
grep -q '"/dev/vda"' "$WORK/evil.json" || fail "the test could not make its evil plan"
expect_rc 2 "mkfs_argv must run mkfs.xfs on '${dev3}p1'" sp apply --plan "$WORK/evil.json" --device "$dev3"

# mounts_ro PART: the filesystem on PART mounts (read-only, on our directory)
mounts_ro() {
	local dir="$SP_LOOP_TMPDIR/mnt-check"
	mkdir -p "$dir"
	echo "$dir" >>"$SP_LOOP_TMPDIR/.mounts"
	mount -o ro "$1" "$dir" 2>/dev/null || return 1
	umount "$dir"
}

# --- ENOSPC during mkfs: the image lives on a tmpfs too small for it -------
tiny="$SP_LOOP_TMPDIR/tiny"
mkdir -p "$tiny"
echo "$tiny" >>"$SP_LOOP_TMPDIR/.mounts"
mount -t tmpfs -o size=24m tmpfs "$tiny"
truncate -s 1G "$tiny/img"
dev5=$(losetup --partscan --find --show "$tiny/img") || fail "cannot attach $tiny/img"
printf '%s %s\n' "$dev5" "$tiny/img" >>"$SP_LOOP_TMPDIR/.devices"
expect_rc 4 "mkfs.xfs failed \(exit 1\) on '${dev5}p1': .*No space left on device" \
	sp apply "${P400[@]}" --device "$dev5"
expect_out 'state left behind on '"$dev5"
expect_out '^  partition +done'
expect_out '^  filesystem +failed'
checks=$((checks + 1))
! mounts_ro "${dev5}p1" || fail "the half-made xfs mounts, the test proves nothing"
# check tells the truth: the filesystem is not the plan's, and says why
expect_rc 1 "was never finished: its superblock says mkfs is still in progress" \
	sp check "${P400[@]}" --device "$dev5"
expect_out 'filesystem .*DIFFERS'
# with room again, the same command redoes the filesystem (no --force: it held no data)
mount -o remount,size=2g "$tiny"
expect_ok "re-run after ENOSPC" sp apply "${P400[@]}" --device "$dev5"
expect_out '^\[1/[0-9]\] partition .*already matches'
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
expect_ok "check after ENOSPC" sp check "${P400[@]}" --device "$dev5"
checks=$((checks + 1))
mounts_ro "${dev5}p1" || fail "check said match, but the filesystem does not mount"

# --- half-made ext4: needs recovery, or with errors: never "match" --------
dev6=$(sp_loop_create 1G) || exit 1
EXT=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs ext4 --kernel 6.1)
expect_ok "apply ext4" sp apply "${EXT[@]}" --device "$dev6"
debugfs -w -R 'feature needs_recovery' "${dev6}p1" >/dev/null 2>&1
expect_rc 1 "needs journal recovery" sp check "${EXT[@]}" --device "$dev6"
# it may hold data: refused without --force, untouched
expect_refused "$dev6" "holds an ext4 filesystem .*without --force" sp apply "${EXT[@]}" --device "$dev6"
debugfs -w -R 'feature -needs_recovery' "${dev6}p1" >/dev/null 2>&1
debugfs -w -R 'ssv state 3' "${dev6}p1" >/dev/null 2>&1
expect_rc 1 "records errors" sp check "${EXT[@]}" --device "$dev6"
expect_ok "apply --force redoes it" sp apply "${EXT[@]}" --device "$dev6" --force
expect_out '^\[3/[0-9]\] filesystem .*done, verified'
expect_ok "check after --force" sp check "${EXT[@]}" --device "$dev6"

# --- kill -9 at random points: check tells the truth, a re-run converges ---
dev7=$(sp_loop_create 1G) || exit 1
KILLS=${FAULTS_KILLS:-12}
for i in $(seq "$KILLS"); do
	delpart "$dev7" 1 2>/dev/null || true
	# a blank disk, all of it: the last round's filesystem with only its
	# first MiBs zeroed would still be a damaged filesystem (its secondary
	# superblocks), which apply rightly refuses without --force
	blkdiscard -f "$dev7"
	# its own process group, so mkfs dies with it, as on a power cut
	setsid "$STRIPEPLAN" apply "${P400[@]}" --device "$dev7" --root "$SP_TEST_ROOT" \
		>"$WORK/killed.out" 2>&1 &
	pid=$!
	sleep "$(printf '0.%02d' $((RANDOM % 60)))"
	kill -9 -- "-$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	rc=0
	sp check "${P400[@]}" --device "$dev7" >"$WORK/check.out" 2>&1 || rc=$?
	checks=$((checks + 1))
	case $rc in
	0) mounts_ro "${dev7}p1" || fail "kill $i: check said match, the filesystem does not mount: $(cat "$WORK/check.out")" ;;
	1) ;;
	*) fail "kill $i: check exited $rc: $(cat "$WORK/check.out")" ;;
	esac
	expect_ok "re-run after kill $i" sp apply "${P400[@]}" --device "$dev7"
	expect_ok "check after kill $i" sp check "${P400[@]}" --device "$dev7"
	checks=$((checks + 1))
	mounts_ro "${dev7}p1" || fail "kill $i: converged, but the filesystem does not mount"
done

device_finish
