#!/bin/bash
# Races and kills, in bounded loops: two applies on two devices sharing one
# --root never lose a line (the root's fstab lock), and an apply killed with
# SIGKILL at a random moment leaves nothing mounted anywhere, a whole fstab
# (old or new, never half), a `check` that tells the truth, and a re-run
# that converges.
# shellcheck source=tests/device/lib.bash
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs ext4)
RACES=${SP_RACE_ITERATIONS:-12}
KILLS=${SP_KILL_ITERATIONS:-12}

dev_a=$(sp_loop_create 32M) || exit 1
dev_b=$(sp_loop_create 32M) || exit 1

# mounted_anywhere DEV: the partition is mounted in this namespace
mounted_anywhere() {
	findmnt -rn -S "${1}p1" >/dev/null 2>&1
}

# --- a probe that opens the disk for a moment is no user -------------------------
# blkid, udev's workers and a second stripeplan resolving an fstab UUID= that
# no /dev/disk link names open every disk for milliseconds; apply must not
# call the disk in use for that.  This prober holds the disk a tenth of a
# second in every 0.4 s, so about one scan in four finds it open: before
# stripeplan looked again a quarter of a second later, most of these eight
# runs were refused.  A holder that stays is still found (device/in-use).
prober() {
	local j
	for ((j = 0; j < 300; j++)); do
		{ sleep 0.1; } <"$1"
		sleep 0.3
	done
}
prober "$dev_a" &
prober_pid=$!
mkdir -p "$WORK/probe-root/etc"
for ((i = 1; i <= 8; i++)); do
	expect_ok "dry run $i beside a probe" sp apply "${P400[@]}" --device "$dev_a" \
		--mountpoint /a --root "$WORK/probe-root" --dry-run
done
kill "$prober_pid" 2>/dev/null
wait "$prober_pid" 2>/dev/null || true

# --- parallel applies on one root: every line, every time -----------------------
for ((i = 1; i <= RACES; i++)); do
	root="$WORK/race-$i"
	mkdir -p "$root/etc"
	printf '# base\nLABEL=sys / ext4 defaults 0 1\n' >"$root/etc/fstab"
	rc_a=0 rc_b=0
	sp apply "${P400[@]}" --device "$dev_a" --mountpoint /a --root "$root" --force \
		>"$WORK/race-a.out" 2>&1 &
	pid_a=$!
	sp apply "${P400[@]}" --device "$dev_b" --mountpoint /b --root "$root" --force \
		>"$WORK/race-b.out" 2>&1 &
	pid_b=$!
	wait "$pid_a" || rc_a=$?
	wait "$pid_b" || rc_b=$?
	checks=$((checks + 1))
	if [ "$rc_a" != 0 ] || [ "$rc_b" != 0 ]; then
		fail "race $i: exit $rc_a and $rc_b: $(tail -3 "$WORK/race-a.out") $(tail -3 "$WORK/race-b.out")"
		continue
	fi
	checks=$((checks + 1))
	uuid_a=$(blkid -p -o value -s UUID "${dev_a}p1")
	uuid_b=$(blkid -p -o value -s UUID "${dev_b}p1")
	if ! grep -q "^UUID=$uuid_a /a ext4 " "$root/etc/fstab" ||
		! grep -q "^UUID=$uuid_b /b ext4 " "$root/etc/fstab" ||
		! grep -q '^LABEL=sys / ext4 defaults 0 1$' "$root/etc/fstab" ||
		[ "$(grep -c '^# stripeplan: ' "$root/etc/fstab")" != 2 ]; then
		fail "race $i: a line was lost: $(cat "$root/etc/fstab")"
	fi
	expect_ok "race $i: check a" sp check "${P400[@]}" --device "$dev_a" --mountpoint /a --root "$root"
	expect_ok "race $i: check b" sp check "${P400[@]}" --device "$dev_b" --mountpoint /b --root "$root"
done

# --- kill -9 at a random moment --------------------------------------------------
root="$WORK/kill"
mkdir -p "$root/etc"
printf '# before\n' >"$root/etc/fstab"
for ((i = 1; i <= KILLS; i++)); do
	# from a blank disk, so the kill can land in any step, the mount test included
	wipefs -a -q "$dev_a" >/dev/null 2>&1 || true
	sfdisk --delete "$dev_a" >/dev/null 2>&1 || true
	"$STRIPEPLAN" apply "${P400[@]}" --device "$dev_a" --mountpoint /data --root "$root" --force \
		>"$WORK/kill.out" 2>&1 &
	pid=$!
	sleep "0.$((RANDOM % 40))"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sleep 0.2 # the mount test's child dies with its parent
	checks=$((checks + 1))
	if mounted_anywhere "$dev_a"; then
		fail "kill $i: ${dev_a}p1 is still mounted: $(findmnt -rn -S "${dev_a}p1")"
		umount -l "${dev_a}p1" 2>/dev/null || true
	fi
	# (the test mount lives on a private tmpfs in the child's namespace, so
	# nothing of it has a name on the machine's /run either; a listing of /run
	# would also see other test runs on this machine, so it is not asserted)
	# the fstab is whole: "# before" and at most one complete block of ours
	checks=$((checks + 1))
	if [ "$(grep -v -e '^# stripeplan: /data$' -e '^UUID=[0-9a-f-]* /data ext4 [^ ]* 0 2$' \
		"$root/etc/fstab")" != "# before" ] || [ "$(tail -c 1 "$root/etc/fstab" | od -An -c | tr -d ' ')" != '\n' ]; then
		fail "kill $i: fstab is not whole: $(cat "$root/etc/fstab")"
	fi
	checks=$((checks + 1))
	[ "$(grep -c '^# stripeplan: /data' "$root/etc/fstab")" -le 1 ] || fail "kill $i: two blocks for /data"
	checks=$((checks + 1))
	if compgen -G "$root/etc/.fstab.stripeplan-*" >/dev/null; then
		# a temp file from a killed write is harmless but must not pile up
		rm -f "$root"/etc/.fstab.stripeplan-*
	fi
	# check tells the truth: "match" only if the fstab has the filesystem's line
	rc=0
	sp check "${P400[@]}" --device "$dev_a" --mountpoint /data --root "$root" >"$WORK/check.out" 2>&1 || rc=$?
	checks=$((checks + 1))
	case "$rc" in
	0)
		uuid=$(blkid -p -o value -s UUID "${dev_a}p1")
		grep -q "^UUID=$uuid /data " "$root/etc/fstab" ||
			fail "kill $i: check says match, but fstab has no line for $uuid"
		;;
	1 | 4) ;;
	*) fail "kill $i: check exited $rc: $(cat "$WORK/check.out")" ;;
	esac
	# the re-run converges (--force: the kill may have left a half-made disk)
	expect_ok "kill $i: re-run" sp apply "${P400[@]}" --device "$dev_a" --mountpoint /data \
		--root "$root" --force
	expect_ok "kill $i: check after the re-run" sp check "${P400[@]}" --device "$dev_a" \
		--mountpoint /data --root "$root"
done

# --- a mount named like an older stripeplan's killed mount test -------------------
# (before the private namespace it mounted on /run/stripeplan-mount.XXXXXX in the
# machine's own namespace).  A name proves nothing: it may be a user's
# (/srv/stripeplan-mount.photos).  It is in use: refused, even with --force,
# said in a note, and left mounted and in place.
old_dir=$(mktemp -d /run/stripeplan-mount.XXXXXX)
echo "$old_dir" >>"$SP_LOOP_TMPDIR/.mounts"
mount "${dev_a}p1" "$old_dir"
expect_rc 3 "${dev_a}p1 is mounted on $old_dir; stripeplan never touches a disk in use, even with --force" \
	sp apply "${P400[@]}" --device "$dev_a" --mountpoint /data --root "$root" --force
expect_out "'$old_dir' is named like the mount test of an older stripeplan; if it is one, unmount it yourself"
checks=$((checks + 1))
if ! mounted_anywhere "$dev_a" || [ ! -d "$old_dir" ]; then
	fail "apply unmounted or removed a mount it did not make"
fi
umount "$old_dir"
rmdir "$old_dir"
# a mount of the same partition anywhere else: refused the same way
mine="$WORK/users-mount"
mkdir -p "$mine"
echo "$mine" >>"$SP_LOOP_TMPDIR/.mounts"
mount "${dev_a}p1" "$mine"
expect_rc 3 "is mounted" sp apply "${P400[@]}" --device "$dev_a" --mountpoint /data --root "$root" --force
umount "$mine"
device_finish
