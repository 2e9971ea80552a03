#!/bin/bash
# Every later step is proven before the first write (issue 21, rule 4):
# the planned mkfs command run as mkfs -N/-n on a scratch file of the
# partition's size, each program apply runs found in the fixed list of
# system directories, the fstab lock opened, and the merged fstab within
# what stripeplan reads back.  Each refusal: the exit code, one line that
# says why, the whole image, sfdisk's view and the scratch root unchanged;
# --dry-run refuses the same way.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --kernel 6.1)

# both DEV CODE PATTERN ARGS...: apply and apply --dry-run exit CODE with
# PATTERN, nothing changed
both() {
	local dev=$1 code=$2 pattern=$3
	shift 3
	expect_untouched "$code" "$dev" "$pattern" sp apply --device "$dev" "$@"
	expect_untouched "$code" "$dev" "$pattern" sp apply --device "$dev" --dry-run "$@"
}

# --- a plan outside mkfs's limits: refused when planned -------------------
# RAID0 of 32 x 64 MiB: a 2 GiB stripe width, which libxfs refuses
# ("stripe width ... is too large": it must fit in a signed 32-bit count).
# The planner knows that limit (issue 23), so apply refuses it before it
# probes or opens anything.  The partition would start at 2 GiB, so the
# disk is 5 GiB; hashing all of it for every run would take minutes, so
# what is hashed is where apply writes first: both label areas and the
# partition's first 8 MiB (its superblock and first AG headers).
big=$(sp_loop_create 5G) || exit 1
big_img=$(image_of "$big")
big_state() {
	sync
	{
		dd if="$big_img" bs=1M count=8 status=none
		dd if="$big_img" bs=1M skip=2048 count=8 status=none
		dd if="$big_img" bs=1M skip=$((5 * 1024 - 8)) status=none
	} | sha256sum
	sfdisk -d "$big" 2>&1 | grep -v '^device:' || true
}
# big_refused PATTERN ARGS...: apply and apply --dry-run exit 2 with
# PATTERN and leave the disk as it was
big_refused() {
	local pattern=$1 dry before
	shift
	for dry in "" --dry-run; do
		before=$(big_state)
		expect_rc 2 "$pattern" "$@" --device "$big" $dry
		checks=$((checks + 1))
		[ "$(big_state)" = "$before" ] || fail "a refused run ${dry:-(real)} wrote to $big"
	done
}
big_refused "stripe width: mkfs.xfs refuses a stripe width \\(su x sw\\) above 2147483647 bytes .*xfs_validate_stripe_geometry.*: 32 data disks x 64 MiB = 2 GiB" \
	sp apply --controller generic --level 0 --disks 32 --chunk 64M --fs xfs --kernel 6.1

# --- mkfs.xfs refuses the plan's command: found before the label ----------
# What the planner does not know, mkfs itself says, run as mkfs.xfs -N on
# a scratch file before the first write: here a mkfs.xfs that refuses
# every command stands first among the program directories.
mkdir -p "$WORK/refusing"
printf '#!/bin/sh\necho "mkfs.xfs: this test refuses every geometry" >&2\nexit 1\n' \
	>"$WORK/refusing/mkfs.xfs"
chmod +x "$WORK/refusing/mkfs.xfs"
big_refused "mkfs.xfs would refuse this plan: mkfs.xfs: this test refuses every geometry \\(mkfs.xfs -b size=4096 -d su=1m,sw=4 -l su=4k ${big}p1, on a [0-9.]+ GiB partition\\); nothing was written" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$WORK/refusing:/usr/sbin:/usr/bin:/sbin:/bin" \
	"$STRIPEPLAN" apply --root "$SP_TEST_ROOT" --controller generic --level 0 --disks 4 --chunk 1M \
	--fs xfs --kernel 6.1
checks=$((checks + 1))
[ -z "$(blkid -p -o value -s PTTYPE "$big" 2>/dev/null)" ] || fail "a label was written on $big"

# --- the programs apply runs come from the system directories only ---------
dev=$(sp_loop_create 512M) || exit 1
mkdir -p "$WORK/empty" "$WORK/bin"
# STRIPEPLAN_TEST_PROGRAM_DIRS (tests only) replaces the system directories
expect_untouched 3 "$dev" "cannot find 'mkfs.xfs' in $WORK/empty; nothing was written" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$WORK/empty" "$STRIPEPLAN" apply "${P400[@]}" \
	--device "$dev" --root "$SP_TEST_ROOT"
expect_untouched 3 "$dev" "cannot find 'mkfs.xfs' in $WORK/empty; nothing was written" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$WORK/empty" "$STRIPEPLAN" apply "${P400[@]}" \
	--device "$dev" --root "$SP_TEST_ROOT" --dry-run
expect_untouched 3 "$dev" "cannot find 'mke2fs' in $WORK/empty; nothing was written" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$WORK/empty" "$STRIPEPLAN" apply "${P400[@]/#xfs/ext4}" \
	--device "$dev" --root "$SP_TEST_ROOT" --dry-run
# a mkfs.xfs earlier in the caller's PATH is not the one apply runs
printf '#!/bin/sh\ntouch %s/ran\nexit 1\n' "$WORK" >"$WORK/bin/mkfs.xfs"
chmod +x "$WORK/bin/mkfs.xfs"
expect_ok "apply with a mkfs.xfs in PATH" env PATH="$WORK/bin:$PATH" "$STRIPEPLAN" apply \
	"${P400[@]}" --device "$dev" --root "$SP_TEST_ROOT"
expect_out "^\\[3/4\\] filesystem .*done, verified"
checks=$((checks + 1))
[ ! -e "$WORK/ran" ] || fail "apply ran the mkfs.xfs found in the caller's PATH"
# the dry run names the program it would run by its absolute path
expect_ok "dry run names the program" sp apply "${P400[@]/#xfs/ext4}" --device "$dev" --force \
	--dry-run
expect_out "would: run: /(usr/)?s?bin/mke2fs -t ext4 "

# --- the fstab lock is no regular file ------------------------------------
expect_ok "back to blank" wipefs -q -a "$dev"
for kind in fifo dir link; do
	root="$WORK/root-$kind"
	mkdir -p "$root/etc" "$WORK/outside"
	printf '# mine\n' >"$root/etc/fstab"
	case $kind in
	fifo) mkfifo "$root/etc/.fstab.lock"; what="a FIFO" ;;
	dir) mkdir "$root/etc/.fstab.lock"; what="a directory" ;;
	link) : >"$WORK/outside/lock"; ln -s "$WORK/outside/lock" "$root/etc/.fstab.lock"
		what="a symbolic link" ;;
	esac
	SP_TEST_ROOT_SAVED=$SP_TEST_ROOT
	SP_TEST_ROOT=$root
	both "$dev" 2 "the fstab lock '$root/etc/.fstab.lock' is $what, not a regular file; nothing was written" \
		"${P400[@]}" --mountpoint /data --root "$root"
	SP_TEST_ROOT=$SP_TEST_ROOT_SAVED
done
checks=$((checks + 1))
[ ! -s "$WORK/outside/lock" ] || fail "the linked lock's target was written"

# --- the merged fstab would be more than stripeplan reads back -------------
root="$WORK/root-full"
mkdir -p "$root/etc"
# 1 MiB less 40 bytes: under the limit now, over it with our line
head -c $((1024 * 1024 - 41)) /dev/zero | tr '\0' '#' >"$root/etc/fstab"
echo >>"$root/etc/fstab"
SP_TEST_ROOT_SAVED=$SP_TEST_ROOT
SP_TEST_ROOT=$root
both "$dev" 2 "$root/etc/fstab: with the line for '/data', it would be 10486[0-9]{2} bytes, more than the 1048576 stripeplan reads back; nothing was written" \
	"${P400[@]}" --mountpoint /data --root "$root"
SP_TEST_ROOT=$SP_TEST_ROOT_SAVED

device_finish
