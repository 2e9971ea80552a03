#!/bin/bash
# First boot of the persistence scenario (initramfs): the installer
# snippets' bodies, run as the installers would.
#  - preseed: the late_command, with the debootstrap root (/dev/vda) mounted
#    at /target, for the array LUN; the next boots check what it left
#  - kickstart: the %post --nochroot body, with a scratch /mnt/sysimage, for
#    a second disk (virtio-blk: the SCSI disks are the array's LUN and a
#    scratch LUN named ahead of it, so that the array is sdb here and sda,
#    alone, in the next boot)
# shellcheck source=lib.bash
. /share/lib.bash
# the disks are given to stripeplan by their stable names, as installers
# should name them: the snippets carry the by-id link, the partition is
# udev's "...-part1", found through the kernel where udev has not made it yet
scsi_names_in_order /dev/disk/by-id/wwn-0x5000c500a1b2c3e5 /dev/disk/by-id/wwn-0x5000c500a1b2c3d4
ARR_ID=/dev/disk/by-id/wwn-0x5000c500a1b2c3d4
ARR=$(readlink -f "$ARR_ID")
expect_eq "the scratch LUN is sda, the array's sdb" \
	"$(basename "$(readlink -f /dev/disk/by-id/wwn-0x5000c500a1b2c3e5)") $(basename "$ARR")" "sda sdb"
KS_ID=/dev/disk/by-id/virtio-KS00001
KS=$(readlink -f "$KS_ID")
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
expect_rc 0 "array LUN by WWN" test -b "$ARR"

# ---- preseed late_command against the debootstrap target ------------------
mkdir -p /target
expect_rc 0 "mount the debootstrap root at /target" mount LABEL=vmroot /target
expect_rc 0 "plan --format preseed" stripeplan plan "${P400[@]}" --device "$ARR_ID" --format preseed
expect_out "the late_command names the disk by its WWN" "--device $ARR_ID --root /\$"
late=$(sed -n 's|^d-i preseed/late_command string ||p' "$OUT")
# d-i's in-target: the command chrooted into /target, with the installer's
# /dev, /proc, /sys (and here the share that holds stripeplan) bound in
mkdir -p /target/share /tmp/bin
for d in dev proc sys share; do mount --bind "/$d" "/target/$d"; done
printf '#!/bin/sh\nexec chroot /target env PATH=/share/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"\n' >/tmp/bin/in-target
chmod +x /tmp/bin/in-target
PATH=/tmp/bin:$PATH
echo "late_command: $late"
expect_rc 0 "the late_command under busybox sh, as d-i runs it" busybox sh -c "$late"
uuid=$(blkid -o value -s UUID "${ARR}1")
expect_rc 0 "fstab line in the target" \
	grep -qx "UUID=$uuid /data xfs noatime,nofail,x-systemd.device-timeout=30s 0 0" \
	/target/etc/fstab
expect_rc 0 "the target's own root line kept" grep -q '^/dev/vda / ext4' /target/etc/fstab
expect_rc 0 "udev rule in the target" sh -c 'ls /target/etc/udev/rules.d/60-stripeplan-*.rules'
cat /target/etc/udev/rules.d/60-stripeplan-*.rules
expect_rc 0 "mount point in the target" test -d /target/data
expect_rc 0 "check against the target" stripeplan check "${P400[@]}" --device "$ARR_ID" --root /target
# udev names the partition after the link, some time after the kernel adds it
part_link() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(readlink -f "$1-part1")" != "$2" ] || return 0
		sleep 0.2
	done
	return 1
}
expect_rc 0 "udev made the partition's link" part_link "$ARR_ID" "${ARR}1"
# the next boot must see the array under another name: it reads this one
basename "$ARR" >/target/root/array-install-name
echo "array LUN at install: $(cat /target/root/array-install-name)"
for d in share sys proc dev; do umount "/target/$d"; done
umount /target

# ---- kickstart %post --nochroot with /mnt/sysimage -------------------------
mkdir -p /mnt/sysimage/etc
printf 'proc /proc proc defaults 0 0\n' >/mnt/sysimage/etc/fstab
expect_rc 0 "plan --format kickstart" stripeplan plan "${P400[@]}" --device "$KS_ID" --format kickstart
expect_out "kickstart's ignoredisk in Anaconda's by-id form" "^#   ignoredisk --drives=disk/by-id/virtio-KS00001\$"
expect_out "kickstart's apply names the disk by id" "--device $KS_ID --root /mnt/sysimage\$"
sed -n '/^%post --nochroot/,/^%end/{/^%/d;p}' "$OUT" >/tmp/post.sh
expect_rc 0 "the %post body under sh -e" busybox sh -e /tmp/post.sh
ks_uuid=$(blkid -o value -s UUID "${KS}1")
expect_rc 0 "kickstart fstab line" grep -q "^UUID=$ks_uuid /data xfs " /mnt/sysimage/etc/fstab
expect_eq "kickstart xfs sunit swidth (blocks)" \
	"$(xfs_sb "${KS}1" unit) $(xfs_sb "${KS}1" width)" "64 256"
expect_rc 0 "check the kickstart LUN" stripeplan check "${P400[@]}" --device "$KS_ID" --root /mnt/sysimage
vm_finish
