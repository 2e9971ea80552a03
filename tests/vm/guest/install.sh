#!/bin/bash
# First boot of the persistence scenario (initramfs): the installer
# snippets' bodies, run as the installers would.
#  - preseed: the late_command, with the debootstrap root (/dev/vda) mounted
#    at /target, for the array LUN; the next boots check what it left
#  - kickstart: the %post --nochroot body, with a scratch /mnt/sysimage, for
#    a second disk (virtio-blk: the SCSI disks are the array's LUN and a
#    scratch LUN named ahead of it, so that the array is sdb here and sda,
#    alone, in the next boot)
#  - kickstart with --stack luks,lvm: the %post body on a third disk
#    (virtio-blk), its key file where the snippet says Anaconda keeps it,
#    the layers and the files it leaves read back with other tools
# shellcheck source=lib.bash disable=SC2054 # commas are in --stack values
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

# ---- kickstart %post --nochroot with --stack luks,lvm -----------------------
# The snippet names the key file by the path Anaconda's root has it at and
# tests for it before apply; the key itself is in no snippet.  Anaconda's
# own storage code has device-mapper and dm-crypt loaded by then.
t_stack=$SECONDS
STK_ID=/dev/disk/by-id/virtio-KS00002
STK=$(readlink -f "$STK_ID")
KEY=/run/stripeplan.key
S=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /stack
	--stack luks,lvm --vg vgks --lv data --luks-name ks_crypt)
for m in dm_mod dm_crypt; do
	expect_rc 0 "modprobe $m" modprobe "$m"
done
expect_rc 0 "plan --stack luks,lvm --format kickstart --key-file $KEY" \
	stripeplan plan "${S[@]}" --device "$STK_ID" --format kickstart --key-file "$KEY"
cp "$OUT" /tmp/stack.ks
expect_out "the %post tests for the key file first" "^test -f $KEY \|\| \{ echo stripeplan: "
expect_out "... and its apply carries the stack, its names and the key file's path" \
	"^stripeplan apply .* --stack luks,lvm --vg vgks --lv data --luks-name ks_crypt --key-file $KEY .*--device $STK_ID --root /mnt/sysimage\$"
expect_out "... and names lvm2 and cryptsetup for %packages" "^# packages cryptsetup lvm2 "
sed -n '/^%post --nochroot/,/^%end/{/^%/d;p}' /tmp/stack.ks >/tmp/stack-post.sh
# the numbers to read back: the plan's JSON (one key a line)
expect_rc 0 "plan --stack luks,lvm --format json" stripeplan plan "${S[@]}" --device "$STK_ID" --format json
plan_luks=$(sed -n 's/^ *"offset_sectors": \([0-9]*\),*$/\1/p' "$OUT")
plan_pe=$(sed -n 's/^ *"pe_start_bytes": \([0-9]*\),*$/\1/p' "$OUT")
echo "plan: LUKS2 offset $plan_luks sectors, pe_start $plan_pe bytes"
expect_rc 0 "the plan gives both" test -n "$plan_luks" -a -n "$plan_pe"
export STRIPEPLAN_TEST_FAST_PBKDF=1
mkdir -p /run
rm -f "$KEY"
head_sum=$(dd if="$STK" bs=1M count=4 2>/dev/null | sha256sum)
expect_rc 1 "the %post without its key file stops (Anaconda's --erroronfail)" busybox sh -e /tmp/stack-post.sh
expect_out "... with a line naming the file" "^stripeplan: the LUKS2 key file $KEY is not there\$"
expect_eq "... before apply wrote to the disk (its first 4 MiB)" \
	"$(dd if="$STK" bs=1M count=4 2>/dev/null | sha256sum)" "$head_sum"
head -c 64 /dev/urandom >"$KEY"
chmod 0600 "$KEY"
t0=$SECONDS
expect_rc 0 "the %post body under sh -e: apply --stack luks,lvm" busybox sh -e /tmp/stack-post.sh
echo "apply of the stack from the %post: $((SECONDS - t0)) s"
udevadm settle
luks_uuid=$(blkid -o value -s UUID "${STK}1")
fs_uuid=$(blkid -o value -s UUID /dev/vgks/data)
expect_eq "crypttab in the target: the LUKS2 volume by its UUID, nofail as fstab" \
	"$(cat /mnt/sysimage/etc/crypttab)" "ks_crypt UUID=$luks_uuid none luks,nofail"
expect_rc 0 "fstab line in the target: the LV's XFS by its UUID" \
	grep -qx "UUID=$fs_uuid /stack xfs noatime,nofail,x-systemd.device-timeout=30s 0 0" /mnt/sysimage/etc/fstab
expect_rc 0 "... beside the first kickstart's line" grep -q "^UUID=$ks_uuid /data xfs " /mnt/sysimage/etc/fstab
dump_off=$(cryptsetup luksDump "${STK}1" | awk '/^Data segments:/ { s = 1 } s && /offset:/ { print $2; exit }')
expect_eq "LUKS2 data offset (luksDump, bytes) = the plan's" "$dump_off" "$((plan_luks * 512))"
expect_eq "dm-crypt data offset (dmsetup table, sectors) = the plan's" \
	"$(dmsetup table ks_crypt | awk '{ print $NF }')" "$plan_luks"
pe_start=$(pvs --noheadings --units b --nosuffix -o pe_start /dev/mapper/ks_crypt | tr -d ' ')
expect_eq "pe_start (pvs) = the plan's" "$pe_start" "$plan_pe"
expect_eq "... whole 1 MiB stripes (4 x 256 KiB)" "$((pe_start % 1048576)) $(((plan_luks * 512) % 1048576))" "0 0"
expect_eq "xfs sunit swidth (blocks) on the LV" "$(xfs_sb /dev/vgks/data unit) $(xfs_sb /dev/vgks/data width)" "64 256"
expect_rc 0 "check --stack --strict against the target" \
	sp_check --strict "${S[@]}" --device "$STK_ID" --root /mnt/sysimage
expect_rc 0 "the %post again (a retried install): nothing to do" busybox sh -e /tmp/stack-post.sh
expect_out "... unchanged" "unchanged: the device already matched the plan"
unset STRIPEPLAN_TEST_FAST_PBKDF
echo "kickstart --stack luks,lvm: $((SECONDS - t_stack)) s"
vm_finish
