#!/bin/bash
# apply against target roots and files an attacker or an unlucky admin
# prepared: every refusal comes before the first write.  For every case the
# whole sparse image's sha256, `sfdisk -d`, every file under the scratch
# root (type, mode, size, content, link target) and a directory outside the
# root that links point to are snapshotted before and compared after, and
# the exit code is asserted.  Failures after a write exit 4 and say what was
# left behind.
# shellcheck source=tests/device/lib.bash
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs ext4)
OUTSIDE="$WORK/outside"
mkdir -p "$OUTSIDE/etc"

# tree DIR: every entry under DIR, one line each, contents hashed
tree() {
	(cd "$1" && find . -mindepth 1 -printf '%p %y %m %s %l\n' | sort &&
		find . -type f -print0 | sort -z | xargs -0r sha256sum)
}

# snap DEV ROOT: the state compared by same_state
snap() {
	sync
	{
		"$IMAGE_DIGEST" "$(image_of "$1")"
		sfdisk -d "$1" 2>&1 || true
		echo "-- root"
		tree "$2"
		echo "-- outside"
		tree "$OUTSIDE"
	} >"$WORK/snap.$3"
}

# same_state DEV ROOT WHAT: nothing changed since snap
same_state() {
	snap "$1" "$2" after
	checks=$((checks + 1))
	if ! cmp -s "$WORK/snap.before" "$WORK/snap.after"; then
		fail "$3: something changed: $(diff "$WORK/snap.before" "$WORK/snap.after" | head -20)"
	fi
}

# refused CODE PATTERN NAME ROOT [APPLY ARGS...]: apply on a blank disk is
# refused with CODE, and disk, root and the outside are as they were
refused() {
	local code=$1 pattern=$2 name=$3 root=$4
	shift 4
	snap "$dev" "$root" before
	expect_rc "$code" "$pattern" sp apply "${P400[@]}" --device "$dev" --root "$root" "$@"
	same_state "$dev" "$root" "$name"
	checks=$((checks + 1))
	grep -q 'nothing was written' "$WORK/out" || fail "$name: the report does not say nothing was written: $(cat "$WORK/out")"
}

# fresh NAME: an empty scratch root
fresh() {
	rm -rf "${WORK:?}/$1"
	mkdir -p "$WORK/$1/etc"
	echo "$WORK/$1"
}

dev=$(sp_loop_create 32M) || exit 1

# --- the fstab is not one apply may merge into ---------------------------------
r=$(fresh foreign)
printf '# mine\r\nLABEL=old /data ext4 defaults 0 2\n' >"$r/etc/fstab"
refused 2 "line 2 already mounts '/data'" "foreign line" "$r" --mountpoint /data
refused 2 "line 2 already mounts '/data'" "foreign line, other spelling" "$r" --mountpoint /./data//

r=$(fresh nul)
printf 'LABEL=a /a ext4 defaults 0 2\n\0\n' >"$r/etc/fstab"
refused 2 "has a NUL byte at offset 29" "NUL byte" "$r" --mountpoint /data

r=$(fresh big)
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$r/etc/fstab"
refused 2 "is larger than 1048576 bytes" "oversized fstab" "$r" --mountpoint /data

r=$(fresh linked)
echo '# the real one' >"$OUTSIDE/etc/fstab"
ln -s "$OUTSIDE/etc/fstab" "$r/etc/fstab"
refused 2 "fstab: cannot read .* is a symbolic link" "symlinked fstab" "$r" --mountpoint /data

r=$(fresh dir)
mkdir "$r/etc/fstab"
refused 2 "is a directory, not a regular file" "fstab a directory" "$r" --mountpoint /data

r=$(fresh fifo)
mkfifo "$r/etc/fstab"
refused 2 "is a FIFO, not a regular file" "fstab a FIFO" "$r" --mountpoint /data

r=$(fresh owned-by-user)
printf '# stripeplan: /data\n/dev/sdz1 /data ext4 defaults 0 2\n' >"$r/etc/fstab"
refused 2 "line 2 .*not one stripeplan wrote" "a user's line under the marker" "$r" --mountpoint /data

# --- paths that lead out of the root --------------------------------------------
r=$(fresh etc-link)
rmdir "$r/etc"
ln -s "$OUTSIDE/etc" "$r/etc"
refused 3 "link that leads out of the root" "symlinked etc" "$r" --mountpoint /data
rm "$r/etc"
ln -s ../../../../../../../.."$OUTSIDE/etc" "$r/etc"
refused 3 "link that leads out of the root" "relative symlink climbing out" "$r" --mountpoint /data

r=$(fresh mnt-link)
ln -s "$OUTSIDE" "$r/data"
refused 3 "cannot write '$r/data' inside the target root: .*link that leads out of the root" "symlinked mount point" \
	"$r" --mountpoint /data
r=$(fresh mnt-file)
: >"$r/data"
refused 2 "mount point '$r/data' cannot be reached inside the target root" \
	"mount point a file" "$r" --mountpoint /data

r=$(fresh udev-link)
ln -s "$OUTSIDE/etc" "$r/etc/udev"
refused 3 "60-stripeplan-.*link that leads out of the root" "symlinked udev directory" "$r"
r=$(fresh rule-fifo)
mkdir -p "$r/etc/udev/rules.d"
mkfifo "$r/etc/udev/rules.d/60-stripeplan-$(basename "$dev").rules"
refused 3 "is a FIFO; not replacing it" "udev rule a FIFO" "$r"

# (/usr/lib/x, /var/lib/x, /etc/ssh: inside trees the system owns, issue 21)
for m in //  /. /data/.. /../../../X /usr /usr/lib/x /var/lib/x /etc/ssh; do
	r=$(fresh "mp-${#m}")
	snap "$dev" "$r" before
	expect_rc 2 "mountpoint: '$m'" sp apply "${P400[@]}" --device "$dev" --root "$r" --mountpoint "$m"
	same_state "$dev" "$r" "mount point '$m'"
done
checks=$((checks + 1))
if [ -e "$WORK/X" ] || [ -e /X ]; then
	fail "--mountpoint /../../../X created a directory outside the root"
fi

# a plan file is untrusted: its mount point is checked as the flag is
r=$(fresh planfile)
expect_ok "plan" sp plan "${P400[@]}" --device "$dev" --mountpoint /data --format json -o "$WORK/plan.json"
sed 's|"mountpoint": "/data"|"mountpoint": "/data/.."|' "$WORK/plan.json" >"$WORK/escape.json"
snap "$dev" "$r" before
expect_rc 2 "'/data/\.\.' has a '\.\.' component" sp apply --plan "$WORK/escape.json" --device "$dev" --root "$r"
same_state "$dev" "$r" "plan file with /data/.."

# --- a read-only root -------------------------------------------------------------
# (the tuning, the first step that writes in the root, refuses it; the
# fstab step's own refusal is below, where the tuning has nothing to do)
ro="$WORK/ro"
mkdir -p "$ro"
echo "$ro" >>"$SP_LOOP_TMPDIR/.mounts"
mount -t tmpfs -o size=1m stripeplan-test "$ro"
mkdir -p "$ro/etc"
echo '# ro' >"$ro/etc/fstab"
mount -o remount,ro "$ro"
refused 3 "cannot reach the directory of '$ro/etc/udev/rules.d/[^']*' inside the target root: Read-only file system" \
	"read-only root" "$ro" --mountpoint /data
umount "$ro"

# --- a failure after the disk was written: exit 4, and what is left ----------------
# (the udev rule and script are in place, so the tuning writes nothing
# in the root and the fstab step, the last, is the one that runs out)
tiny="$WORK/tiny"
disk=${dev#/dev/}
mkdir -p "$tiny"
echo "$tiny" >>"$SP_LOOP_TMPDIR/.mounts"
mount -t tmpfs -o size=32k,mode=0755 stripeplan-test "$tiny"
mkdir -p "$tiny/etc/udev/rules.d" "$tiny/usr/local/sbin"
expect_ok "the udev rule" sp plan "${P400[@]}" --device "$dev" --format udev \
	-o "$tiny/etc/udev/rules.d/60-stripeplan-$disk.rules"
expect_ok "the tune script" sp plan "${P400[@]}" --device "$dev" --format script \
	-o "$tiny/usr/local/sbin/stripeplan-tune-$disk"
chmod 0644 "$tiny/etc/udev/rules.d/60-stripeplan-$disk.rules"
chmod 0755 "$tiny/usr/local/sbin/stripeplan-tune-$disk"
head -c 6000 /dev/zero | tr '\0' '#' >"$tiny/etc/fstab"
echo >>"$tiny/etc/fstab"
dd if=/dev/zero of="$tiny/filler" bs=4k 2>/dev/null || true
expect_rc 4 "No space left on device" sp apply "${P400[@]}" --device "$dev" --root "$tiny" --mountpoint /data
expect_out "left behind: partition, tuning, filesystem written and verified; 'fstab' failed; re-run apply to finish"
checks=$((checks + 1))
! grep -q '^   [0-9]*\. tuning *file' "$WORK/out" || fail "the tuning rewrote its files in the full root: $(cat "$WORK/out")"
umount "$tiny"
# and the re-run converges on a root with room
r=$(fresh rerun)
expect_ok "re-run" sp apply "${P400[@]}" --device "$dev" --root "$r" --mountpoint /data
expect_ok "check" sp check "${P400[@]}" --device "$dev" --root "$r" --mountpoint /data

# --- a read-only root where only the fstab line is missing: the fstab
# step refuses it (the tuning's files are in place and not run)
mount -t tmpfs -o size=1m stripeplan-test "$ro"
cp -a "$r/etc" "$r/usr" "$ro/"
echo '# ro' >"$ro/etc/fstab"
mount -o remount,ro "$ro"
refused 3 "cannot write '$ro/etc/fstab' inside the target root: Read-only file system" \
	"read-only root, only the fstab line missing" "$ro" --mountpoint /data
umount "$ro"
checks=$((checks + 1))
if [ -e "$OUTSIDE/etc/udev" ] || [ -e "$OUTSIDE/data" ] || [ "$(cat "$OUTSIDE/etc/fstab")" != '# the real one' ]; then
	fail "something was written outside the root: $(tree "$OUTSIDE")"
fi
device_finish
