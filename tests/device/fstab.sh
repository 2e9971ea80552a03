#!/bin/bash
# The fstab step through the CLI, on a loop device and scratch target roots:
# old lines kept byte for byte plus one owned line whose options mount; re-runs
# converge; conflicts exit 2 with nothing written; ENOSPC and a rejected mount
# option exit 4 with the old fstab intact; a dry run touches nothing.
# shellcheck source=tests/device/lib.bash
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K)
OPTS='noatime,nofail,x-systemd.device-timeout=30s'

# new_root NAME [FSTAB-TEXT]: a scratch target root with etc/fstab
new_root() {
	mkdir -p "$WORK/$1/etc"
	[ $# -lt 2 ] || printf '%s' "$2" >"$WORK/$1/etc/fstab"
	echo "$WORK/$1"
}

# register_mount DIR: loop.sh's exit trap unmounts it, failures included
register_mount() {
	mkdir -p "$1"
	echo "$1" >>"$SP_LOOP_TMPDIR/.mounts"
}

# same_bytes FILE COPY WHAT: FILE still holds exactly what COPY holds
same_bytes() {
	checks=$((checks + 1))
	cmp -s "$1" "$2" || fail "$3: '$1' changed: $(diff "$2" "$1")"
}

# no_temp_files DIR: the atomic writer left nothing behind
no_temp_files() {
	checks=$((checks + 1))
	if compgen -G "$1/.fstab.stripeplan-*" >/dev/null; then
		fail "temporary files left in $1: $(ls -a "$1")"
	fi
}

awkward=$'# /etc/fstab: static file system information.\n#\n'
awkward+=$'UUID=3e1a6c02-98b1-4b5a-9d3c-2f1e0a9b8c7d /               ext4    errors=remount-ro 0       1\n\n'
awkward+=$'   # indented comment\nUUID=6b2f\t/boot/efi\tvfat\tumask=0077\t0\t1\n'
awkward+=$'/dev/mapper/vg0-swap  none  swap  sw  0  0   \n'
awkward+=$'LABEL=media /mnt/my\\040disk ext4 defaults 0 2\n/dev/sdz9 /two-fields-only\n'
awkward+='# no final newline'

dev=$(sp_loop_create 1G) || exit 1
root=$(new_root root "$awkward")
cp "$root/etc/fstab" "$WORK/awkward.orig"

# --- dry run: says what it would do, touches nothing --------------------------
expect_ok "dry run" sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data \
	--root "$root" --dry-run
if ! grep -q '^\[4/[0-9]\] fstab' "$WORK/out"; then
	fail "apply does not run the fstab step (wire sp_step_fstab into system/pipeline.c): $(cat "$WORK/out")"
	device_finish
	exit 1
fi
expect_out "would: mount-test ${dev}p1 with $OPTS on a temporary directory"
expect_out "would: create $root/data\$"
expect_out "would: write $root/etc/fstab: add 'UUID=@FS_UUID@ /data xfs $OPTS 0 0'"
same_bytes "$root/etc/fstab" "$WORK/awkward.orig" "dry run"
checks=$((checks + 1))
[ ! -e "$root/data" ] || fail "the dry run created $root/data"

# --- apply: old lines intact, our line appended, the line mounts --------------
expect_ok "apply" sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$root"
expect_out '^\[4/[0-9]\] fstab .*done, verified'
uuid=$(blkid -p -o value -s UUID "${dev}p1")
line="UUID=$uuid /data xfs $OPTS 0 0"
printf '%s\n# stripeplan: /data\n%s\n' "$awkward" "$line" >"$WORK/awkward.expected"
same_bytes "$root/etc/fstab" "$WORK/awkward.expected" "apply"
checks=$((checks + 1))
[ "$(stat -c %a "$root/data")" = 755 ] || fail "$root/data is not a 0755 directory"
no_temp_files "$root/etc"
checks=$((checks + 1))
findmnt -S "${dev}p1" >/dev/null && fail "the mount test left ${dev}p1 mounted"

# mount(8) reads our line from the file and resolves UUID= itself, as at boot
register_mount "$root/data"
expect_ok "mount from the line" mount --fstab "$root/etc/fstab" --target-prefix "$root" /data
checks=$((checks + 1))
findmnt -n -o OPTIONS "$root/data" | grep -q noatime || fail "mounted without noatime"
umount "$root/data"

expect_ok "check" sp check --strict "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$root"
expect_out 'match: the device matches the plan'

# a second apply changes nothing: no new line, the file not even rewritten
inode=$(stat -c %i "$root/etc/fstab")
expect_ok "re-run" sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$root"
same_bytes "$root/etc/fstab" "$WORK/awkward.expected" "re-run"
checks=$((checks + 1))
[ "$(stat -c %i "$root/etc/fstab")" = "$inode" ] || fail "the re-run rewrote an fstab that matched"

# a line removed by hand is drift, and apply puts it back
printf '%s\n' "$awkward" >"$root/etc/fstab"
expect_rc 1 "costly: no line in $root/etc/fstab mounts ${dev}p1 \\(UUID=$uuid" \
	sp check "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$root"
expect_ok "apply restores" sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data \
	--root "$root"
same_bytes "$root/etc/fstab" "$WORK/awkward.expected" "restored"

# a new filesystem (new UUID, other options) replaces our line, never adds one
expect_ok "ext4 --force" sp apply "${P400[@]}" --fs ext4 --device "$dev" --mountpoint /data \
	--root "$root" --force
uuid4=$(blkid -p -o value -s UUID "${dev}p1")
checks=$((checks + 1))
[ "$uuid4" != "$uuid" ] || fail "mkfs.ext4 kept the old UUID"
checks=$((checks + 1))
[ "$(grep -c '^# stripeplan: /data$' "$root/etc/fstab")" = 1 ] || fail "not exactly one marker"
checks=$((checks + 1))
grep -q "^UUID=$uuid4 /data ext4 " "$root/etc/fstab" || fail "no ext4 line for $uuid4"
checks=$((checks + 1))
! grep -q "$uuid" "$root/etc/fstab" || fail "the old UUID is still in fstab"
checks=$((checks + 1))
[ "$(head -c ${#awkward} "$root/etc/fstab")" = "$awkward" ] || fail "old lines changed"

# --- refusals: exit 2, the file byte for byte as it was -----------------------
conflict=$(new_root conflict $'# hand-written\nLABEL=old /data ext4 defaults 0 2\n')
cp "$conflict/etc/fstab" "$WORK/conflict.orig"
expect_rc 2 "line 2 already mounts '/data'" \
	sp apply "${P400[@]}" --fs ext4 --device "$dev" --mountpoint /data --root "$conflict"
same_bytes "$conflict/etc/fstab" "$WORK/conflict.orig" "mount point conflict"
checks=$((checks + 1))
[ ! -e "$conflict/data" ] || fail "a refused run created $conflict/data"

byuuid=$(new_root byuuid "UUID=$uuid4 /srv ext4 defaults 0 2"$'\n')
cp "$byuuid/etc/fstab" "$WORK/byuuid.orig"
expect_rc 2 "line 1 already uses UUID=$uuid4" \
	sp apply "${P400[@]}" --fs ext4 --device "$dev" --mountpoint /data --root "$byuuid"
same_bytes "$byuuid/etc/fstab" "$WORK/byuuid.orig" "UUID conflict"

# --- ENOSPC: a 32 KiB tmpfs root, nearly full --------------------------------
# (the udev rule and script in place: the tuning, before the filesystem,
# writes nothing in the root, and the fstab step is the one that runs out)
tiny="$WORK/tiny"
disk=${dev#/dev/}
register_mount "$tiny"
mount -t tmpfs -o size=32k,mode=0755 stripeplan-test "$tiny"
mkdir -p "$tiny/etc/udev/rules.d" "$tiny/usr/local/sbin"
expect_ok "the udev rule" sp plan "${P400[@]}" --fs ext4 --device "$dev" --format udev \
	-o "$tiny/etc/udev/rules.d/60-stripeplan-$disk.rules"
expect_ok "the tune script" sp plan "${P400[@]}" --fs ext4 --device "$dev" --format script \
	-o "$tiny/usr/local/sbin/stripeplan-tune-$disk"
chmod 0644 "$tiny/etc/udev/rules.d/60-stripeplan-$disk.rules"
chmod 0755 "$tiny/usr/local/sbin/stripeplan-tune-$disk"
head -c 6000 /dev/zero | tr '\0' '#' >"$tiny/etc/fstab"
echo >>"$tiny/etc/fstab"
cp "$tiny/etc/fstab" "$WORK/tiny.orig"
dd if=/dev/zero of="$tiny/filler" bs=4k 2>/dev/null || true
expect_rc 4 "cannot write '$tiny/etc/fstab': No space left on device" \
	sp apply "${P400[@]}" --fs ext4 --device "$dev" --mountpoint /data --root "$tiny"
same_bytes "$tiny/etc/fstab" "$WORK/tiny.orig" "ENOSPC"
no_temp_files "$tiny/etc"
umount "$tiny"

# --- a plan made for an old kernel (4.9: nobarrier still took effect, the
# legacy noop scheduler) on this one: the tuning, which runs before the
# filesystem, fails on the scheduler this kernel lacks; the filesystem and
# fstab are left alone (the mount test that rejects nobarrier, which the
# fstab step would run next, is device/test-fstab-step's) ---------------------
old=$(new_root old-kernel $'# before\n')
expect_ok "xfs again" sp apply "${P400[@]}" --fs xfs --device "$dev" --force
uuid=$(blkid -s UUID -o value "${dev}p1")
expect_rc 4 "cannot set 'queue/scheduler' on '${dev#/dev/}' to noop" \
	sp apply "${P400[@]}" --fs xfs --kernel 4.9 --barriers off --device "$dev" \
	--mountpoint /data --root "$old"
expect_out "^  filesystem +skipped"
expect_out "^  fstab +skipped"
checks=$((checks + 1))
[ "$(blkid -o value -s UUID "${dev}p1")" = "$uuid" ] || fail "the filesystem was made anew although the tuning failed"
checks=$((checks + 1))
[ "$(cat "$old/etc/fstab")" = "# before" ] || fail "fstab written although the tuning failed"
checks=$((checks + 1))
findmnt -S "${dev}p1" >/dev/null && fail "the failed run left ${dev}p1 mounted"
checks=$((checks + 1))
! compgen -G "/run/stripeplan-mount*" >/dev/null || fail "mount test directory left in /run"

# --- one mount point, a second device: refused, both devices named ----------
# (issue 21: the second apply replaced the first device's line and exited 0)
two=$(new_root two $'# two devices\n')
expect_ok "the first device" sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data \
	--root "$two"
cp "$two/etc/fstab" "$WORK/two.orig"
second=$(sp_loop_create 512M) || exit 1
before=$(digest "$second")
for flags in "" --dry-run --force; do
	# shellcheck disable=SC2086 # one flag or none
	expect_rc 2 "mount point '/data' is ${dev}p1's \\(line 3: 'UUID=[0-9a-f-]+ /data xfs .*'\\); stripeplan will not give it to ${second}p1 as well" \
		sp apply "${P400[@]}" --fs xfs --device "$second" --mountpoint /data --root "$two" $flags
	same_bytes "$two/etc/fstab" "$WORK/two.orig" "second device${flags:+ $flags}"
	unchanged "$second" "$before" "second device${flags:+ $flags}"
done

# --- any spelling of what apply writes, mounted elsewhere ---------------------
# (issue 21: a PARTUUID= line was not refused, the UUID= spelling was)
uuid=$(blkid -p -o value -s UUID "${dev}p1")
partuuid=$(blkid -p -o value -s PART_ENTRY_UUID "${dev}p1")
expect_ok "a label" xfs_admin -L photos "${dev}p1"
before=$(digest "$dev")
for spelling in "PARTUUID=$partuuid" "PARTUUID=\"${partuuid^^}\"" "UUID=\"$uuid\"" \
	"LABEL=photos" "${dev}p1" "/dev/disk/by-partuuid/$partuuid" "/dev/disk/by-uuid/$uuid" \
	"/dev/disk/by-label/photos" "$dev"; do
	r=$(new_root "spelling-${#spelling}-$RANDOM" "$spelling /srv xfs defaults 0 2"$'\n')
	cp "$r/etc/fstab" "$WORK/spelling.orig"
	expect_rc 2 "line 1 (mounts|already uses) .*(is ${dev}p1 or on it, on '/srv'|UUID=$uuid)" \
		sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$r"
	same_bytes "$r/etc/fstab" "$WORK/spelling.orig" "the line '$spelling'"
	unchanged "$dev" "$before" "the line '$spelling'"
done
expect_ok "no label" xfs_admin -L -- "${dev}p1"
# a line about another device is not ours, and stays
r=$(new_root unrelated "PARTUUID=0e1f2a3b-0000-4000-8000-000000000000 /srv xfs defaults 0 2"$'\n')
expect_ok "an unrelated PARTUUID line" sp apply "${P400[@]}" --fs xfs --device "$dev" \
	--mountpoint /data --root "$r"
checks=$((checks + 1))
grep -q '^PARTUUID=0e1f2a3b-0000-4000-8000-000000000000 /srv ' "$r/etc/fstab" ||
	fail "the unrelated line was lost"

# --- a mount point that leads into a system directory through a link ---------
r=$(new_root linked-mp $'# mine\n')
mkdir -p "$r/usr/share"
ln -s usr/share "$r/data"
expect_rc 2 "mountpoint: '/data' leads to '/usr/share' inside the target root \\(a symbolic link on the way\\), which holds the operating system" \
	sp apply "${P400[@]}" --fs xfs --device "$dev" --mountpoint /data --root "$r"
checks=$((checks + 1))
[ "$(cat "$r/etc/fstab")" = "# mine" ] || fail "fstab written for a linked mount point"

device_finish
