#!/bin/bash
# "In use" is what the kernel says, and only what this run made is ours
# (issue 21, rules 2 and 3).  Every refusal: exit 3 with one line naming who
# holds the node, the whole image, sfdisk's view and the scratch root
# unchanged, with and without --force, and in a dry run.  And nothing a run
# did not make is unmounted or removed: a user's mount on a directory named
# like an old version's mount test is still there after every apply.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1)

# register_mount DIR: loop.sh's exit trap unmounts it, failures included
register_mount() {
	mkdir -p "$1"
	echo "$1" >>"$SP_LOOP_TMPDIR/.mounts"
}

# refused_always DEV PATTERN [ARGS...]: refused (exit 3, nothing changed)
# plainly, with --force and in a dry run, for the plan the disk has (xfs)
# and for one that would re-make it (ext4)
refused_always() {
	local dev=$1 pattern=$2 fs
	shift 2
	for fs in xfs ext4; do
		expect_refused "$dev" "$pattern" sp apply "${P400[@]}" --fs $fs --device "$dev" "$@"
		expect_refused "$dev" "$pattern" sp apply "${P400[@]}" --fs $fs --device "$dev" --force "$@"
	done
	expect_refused "$dev" "$pattern" sp apply "${P400[@]}" --fs ext4 --device "$dev" --force \
		--dry-run "$@"
}

# still_mounted DEV DIR WHAT: DEV is mounted on DIR, and DIR is there
still_mounted() {
	checks=$((checks + 1))
	[ -d "$2" ] || fail "$3: '$2' was removed"
	checks=$((checks + 1))
	[ "$(findmnt -n -o SOURCE --mountpoint "$2" 2>/dev/null)" = "$1" ] ||
		fail "$3: '$1' is no longer mounted on '$2': $(findmnt -n --mountpoint "$2")"
}

# A disk with a user's xfs on partition 1, holding a file.
dev=$(sp_loop_create 512M) || exit 1
expect_ok "apply" sp apply "${P400[@]}" --fs xfs --device "$dev"
photos="$WORK/stripeplan-mount.photos"
register_mount "$photos"
mount "${dev}p1" "$photos"
echo "a photo" >"$photos/photo.jpg"
umount "$photos"

# --- a user's mount on a directory named like an old mount test --------------
# Earlier versions mounted their test on <dir>/stripeplan-mount.XXXXXX and
# "cleaned up" any mount named so: it is the user's, it stays.
# The mounts under refusal here are read-only: as much in use for the
# kernel (O_EXCL is refused all the same) and they write nothing of their
# own, so the image's checksum shows what stripeplan wrote.  A read-write
# XFS covers its log on a timer: one run saw the checksum change under a
# dry run's refusal that wrote nothing.
mount -o ro "${dev}p1" "$photos"
refused_always "$dev" "/dev/$(basename "$dev")p1 is mounted on $photos; stripeplan never touches a disk in use, even with --force"
expect_out "^  - .*$photos.* named like the mount test of an older stripeplan; if it is one, unmount it yourself"
still_mounted "${dev}p1" "$photos" "apply on the mounted disk"
# apply --force on another device leaves it alone as well
other=$(sp_loop_create 512M) || exit 1
expect_ok "apply --force on another device" sp apply "${P400[@]}" --fs xfs --device "$other" --force
still_mounted "${dev}p1" "$photos" "apply --force on another device"
checks=$((checks + 1))
[ "$(cat "$photos/photo.jpg")" = "a photo" ] || fail "the user's file is gone"
umount "$photos"

# --- a partition backing a loop device that is mounted ---------------------
inner=$(losetup --find --show "${dev}p1") || fail "cannot attach ${dev}p1"
printf '%s %s\n' "$inner" "${dev}p1" >>"$SP_LOOP_TMPDIR/.devices"
register_mount "$WORK/inner"
mount -o ro "$inner" "$WORK/inner"
refused_always "$dev" "/dev/$(basename "$dev")p1 backs loop device $inner"
umount "$WORK/inner"
# not mounted, the loop device alone still reads and writes the partition
refused_always "$dev" "/dev/$(basename "$dev")p1 backs loop device $inner"
losetup --detach "$inner"

# --- a process has the partition open (not exclusively) -----------------------
# (a subshell that opens it for reading and becomes sleep, keeping it open)
(
	exec 7<"${dev}p1"
	exec sleep 600
) &
reader=$!
refused_always "$dev" "/dev/$(basename "$dev")p1 is open in process $reader \\(sleep\\)"
kill "$reader"
wait "$reader" 2>/dev/null || true

# --- the partition's node bind-mounted elsewhere ----------------------------
: >"$WORK/node"
echo "$WORK/node" >>"$SP_LOOP_TMPDIR/.mounts"
mount --bind "${dev}p1" "$WORK/node"
refused_always "$dev" "/dev/$(basename "$dev")p1 is bind-mounted on $WORK/node"
umount "$WORK/node"

# --- mounted in another mount namespace: no mountinfo line here, no descriptor ---
# (unshare execs sh, which execs sleep: one pid, and the namespace dies with it)
mkdir -p "$WORK/elsewhere"
unshare -m --propagation private sh -c \
	"mount -o ro '${dev}p1' '$WORK/elsewhere' && echo mounted >'$WORK/ns' && exec sleep 600" &
ns=$!
for _ in $(seq 50); do [ -s "$WORK/ns" ] && break; sleep 0.1; done
checks=$((checks + 1))
[ -s "$WORK/ns" ] || fail "the test could not mount in another namespace"
refused_always "$dev" "'${dev}p1' is open exclusively by another program \\(a filesystem mounted in another mount namespace"
kill "$ns"
wait "$ns" 2>/dev/null || true

# --- held exclusively, by a process that holds the partition ----------------
"$HOLD_EXCL" "${dev}p1" >"$WORK/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$WORK/held" && break; sleep 0.1; done
refused_always "$dev" "/dev/$(basename "$dev")p1 is open"
kill "$holder"
wait "$holder" 2>/dev/null || true

# --- a read-only partition node on a writable disk ------------------------
blockdev --setro "${dev}p1"
refused_always "$dev" "'${dev}p1' is read-only; nothing was attempted"
blockdev --setrw "${dev}p1"

# with all of that gone, the disk is the user's again: refused for its data,
# written with --force
expect_refused "$dev" "holds an xfs filesystem" sp apply "${P400[@]}" --fs ext4 --device "$dev"
expect_ok "apply --force when free" sp apply "${P400[@]}" --fs ext4 --device "$dev" --force
device_finish
