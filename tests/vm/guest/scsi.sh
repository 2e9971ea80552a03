#!/bin/bash
# SCSI LUNs as controllers export them, on a real kernel, in one boot:
#  - ctl: a hardware RAID LUN with no exported topology, a WWN and a serial:
#    apply with tuning; the generated udev rule, run by this guest's udevd
#    on "udevadm trigger", sets the same values as the live step
#  - topo: 4 KiB physical sectors and the geometry of a RAID5 of 4 x 128 KiB
#    exported (Block Limits VPD: granularity 128 KiB, optimal transfer
#    384 KiB): planned from --level alone, flags that contradict it
#    refused; a mirror on it gets no stripe unit from it (-d noalign)
#  - 4kn: 4096-byte logical sectors
#  - scsi_debug with an alignment offset
# shellcheck source=lib.bash
. /share/lib.bash
ROOT=/tmp/root
mkdir -p "$ROOT/etc"

ctl=$(disk_by_serial CTL0001)
topo=$(disk_by_serial TOPO0001)
kn=$(disk_by_serial 4KN00001)
echo "ctl=$ctl topo=$topo 4kn=$kn"

# ---- ctl: hp-p400 RAID10 8 x 256K, identity by WWN -------------------------
expect_eq "ctl exports no optimal I/O" "$(cat "/sys/block/$ctl/queue/optimal_io_size")" 0
expect_eq "ctl wwid" "$(cat "/sys/block/$ctl/device/wwid")" naa.5000c500a1b2c301
expect_eq "udev ID_SERIAL is 3 + the WWN" \
	"$(udevadm info -q property -n "/dev/$ctl" | sed -n 's/^ID_SERIAL=//p')" 35000c500a1b2c301
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --mountpoint /data)
expect_rc 0 "plan ctl" stripeplan plan "${P400[@]}" --device "/dev/$ctl"
cp "$OUT" /tmp/plan-ctl
expect_rc 0 "apply ctl" stripeplan apply "${P400[@]}" --device "/dev/$ctl" --root "$ROOT"
expect_eq "ctl partition start (sfdisk -d): 1 MiB" \
	"$(sfdisk -d "/dev/$ctl" | sed -n "s|^/dev/${ctl}1 : start= *\([0-9]*\),.*|\1|p")" 2048
expect_eq "ctl xfs sunit swidth (blocks): su=256k sw=4" \
	"$(xfs_sb "/dev/${ctl}1" unit) $(xfs_sb "/dev/${ctl}1" width)" "64 256"
expect_tuning "ctl live tuning" /tmp/plan-ctl
# named by the WWN it matches, not by the kernel name
rule="$ROOT/etc/udev/rules.d/60-stripeplan-wwn-$(cat "/sys/block/$ctl/device/wwid").rules"
echo "--- $rule"
cat "$rule"
expect_rc 0 "the udev rule names the LUN's WWN" grep -q 5000c500a1b2c301 "$rule"

# undo the live tuning, then let udevd run the generated rule (once the
# events of the run before are done, so none of them runs it instead)
udevadm settle
echo mq-deadline >"/sys/block/$ctl/queue/scheduler"
echo 128 >"/sys/block/$ctl/queue/read_ahead_kb"
expect_eq "ctl read_ahead_kb reset" "$(knob "/sys/block/$ctl/queue/read_ahead_kb")" 128
cp "$rule" /etc/udev/rules.d/
udevadm control --reload
udev_event change "/dev/$ctl"
expect_tuning_within 30 "ctl tuning set by udevd from the generated rule" /tmp/plan-ctl
expect_rc 0 "check ctl" stripeplan check "${P400[@]}" --device "/dev/$ctl" --root "$ROOT"
# the same rule on an add event, as at boot
echo 128 >"/sys/block/$ctl/queue/read_ahead_kb"
udev_event add "/dev/$ctl"
expect_tuning_within 30 "ctl tuning set by udevd on add" /tmp/plan-ctl

# ---- topo: 4 KiB physical sectors, a RAID5 4 x 128K exported by the LUN ----
expect_eq "topo physical_block_size" "$(cat "/sys/block/$topo/queue/physical_block_size")" 4096
expect_eq "topo minimum_io_size" "$(cat "/sys/block/$topo/queue/minimum_io_size")" 131072
expect_eq "topo optimal_io_size" "$(cat "/sys/block/$topo/queue/optimal_io_size")" 393216
# the kernel's geometry: no --chunk, no --disks
expect_rc 0 "plan topo from --level alone" stripeplan plan --controller dell-perc5e --level 5 \
	--fs xfs --device "/dev/$topo" --format json
expect_out "topo: the chunk and disks come from the exported topology" \
	'"disks": 4,'
expect_out "topo: chunk 128 KiB" '"chunk_bytes": 131072,'
expect_out "topo: the plan names the source" '"chunk": "topology"'
expect_rc 0 "plan topo, text" stripeplan plan --controller dell-perc5e --level 5 --fs xfs \
	--device "/dev/$topo"
expect_out "topo: the text says where the geometry came from" \
	"geometry +read from $topo's queue limits: minimum_io_size 131072 is the strip"
# flags that contradict the LUN: refused, both named
expect_rc 2 "plan topo with --chunk 64K --disks 5" stripeplan plan --controller dell-perc5e \
	--level 5 --disks 5 --chunk 64K --fs xfs --device "/dev/$topo"
expect_out "topo: a contradicting chunk is named with the source" \
	"chunk: --chunk 64K, but /dev/$topo exports a 128 KiB strip \\(queue/minimum_io_size 131072"
TOPO=(--controller dell-perc5e --level 5 --disks 4 --chunk 128K --fs xfs)
expect_rc 0 "plan topo" stripeplan plan "${TOPO[@]}" --device "/dev/$topo"
expect_rc 0 "apply topo" stripeplan apply "${TOPO[@]}" --device "/dev/$topo" --root "$ROOT"
start=$(sfdisk -d "/dev/$topo" | sed -n "s|^/dev/${topo}1 : start= *\([0-9]*\),.*|\1|p")
expect_eq "topo partition start: lcm(384K, 1 MiB, 4 KiB, exported 384K) = 3 MiB" "$start" 6144
expect_eq "topo xfs sector size follows the 4 KiB physical sector" "$(xfs_sb "/dev/${topo}1" sectsize)" 4096
expect_eq "topo xfs sunit swidth: su=128k sw=3" \
	"$(xfs_sb "/dev/${topo}1" unit) $(xfs_sb "/dev/${topo}1" width)" "32 96"
expect_rc 0 "check topo" stripeplan check "${TOPO[@]}" --device "/dev/$topo" --root "$ROOT"
# a mirror on the same LUN: mkfs.xfs left to itself takes the exported
# 128 KiB minimum and 384 KiB optimal I/O for a stripe; the plan has none
# and tells mkfs.xfs so (-d noalign)
expect_eq "topo: mkfs.xfs alone derives a stripe (sunit swidth blocks)" \
	"$(mkfs_derived "/dev/${topo}1")" "32 96"
MIRROR=(--controller dell-perc5e --level 1 --disks 2 --fs xfs)
expect_rc 0 "plan mirror on topo" stripeplan plan "${MIRROR[@]}" --device "/dev/$topo"
expect_out "the mirror's mkfs says -d noalign" "command +mkfs.xfs -b size=4096 -d noalign "
expect_rc 0 "apply mirror on topo (--force: the RAID5 plan's xfs is there)" \
	stripeplan apply "${MIRROR[@]}" --device "/dev/$topo" --root "$ROOT" --force
expect_eq "topo mirror xfs sunit swidth: none" \
	"$(xfs_sb "/dev/${topo}1" unit) $(xfs_sb "/dev/${topo}1" width)" "0 0"
expect_rc 0 "check mirror on topo" stripeplan check "${MIRROR[@]}" --device "/dev/$topo" --root "$ROOT"
EMIRROR=(--controller dell-perc5e --level 1 --disks 2 --fs ext4)
expect_rc 0 "apply ext4 mirror on topo" stripeplan apply "${EMIRROR[@]}" --device "/dev/$topo" --root "$ROOT" --force
expect_eq "topo mirror ext4 RAID stride and stripe width (dumpe2fs): none, not the LUN's 32 96" \
	"$(dumpe2fs -h "/dev/${topo}1" 2>/dev/null | sed -n 's/^RAID str[a-z ]*: *//p' | tr '\n' ' ')" ""
expect_rc 0 "check ext4 mirror on topo" stripeplan check "${EMIRROR[@]}" --device "/dev/$topo" --root "$ROOT"

# ---- 4kn: 4096-byte logical sectors, ext4 ---------------------------------
expect_eq "4kn logical_block_size" "$(cat "/sys/block/$kn/queue/logical_block_size")" 4096
KN=(--controller lsi-megaraid-475 --level 5 --disks 3 --chunk 64K --fs ext4)
expect_rc 0 "apply 4kn" stripeplan apply "${KN[@]}" --device "/dev/$kn" --root "$ROOT"
expect_eq "4kn sfdisk sector size" "$(sfdisk -d "/dev/$kn" | sed -n 's/^sector-size: //p')" 4096
expect_eq "4kn partition start in 4096-byte sectors: 1 MiB" \
	"$(sfdisk -d "/dev/$kn" | sed -n "s|^/dev/${kn}1 : start= *\([0-9]*\),.*|\1|p")" 256
expect_eq "4kn ext4 RAID stride (dumpe2fs)" \
	"$(dumpe2fs -h "/dev/${kn}1" 2>/dev/null | sed -n 's/^RAID stride: *//p')" 16
expect_eq "4kn ext4 RAID stripe width (dumpe2fs)" \
	"$(dumpe2fs -h "/dev/${kn}1" 2>/dev/null | sed -n 's/^RAID stripe width: *//p')" 32
expect_rc 0 "check 4kn" stripeplan check "${KN[@]}" --device "/dev/$kn" --root "$ROOT"

# ---- scsi_debug: 4 KiB physical sectors, the first aligned one at LBA 7 ----
before=$(ls /sys/block)
modprobe scsi_debug dev_size_mb=320 physblk_exp=3 lowest_aligned=7 opt_blks=0
udevadm settle
dbg=""
for d in /sys/block/sd*; do
	case " $(echo "$before" | tr '\n' ' ') " in *" ${d##*/} "*) ;; *) dbg=${d##*/} ;; esac
done
echo "scsi_debug: $dbg"
expect_eq "scsi_debug vendor" "$(tr -d ' ' <"/sys/block/$dbg/device/vendor")" Linux
expect_eq "scsi_debug alignment_offset" "$(cat "/sys/block/$dbg/alignment_offset")" 3584
DBG=(--controller hp-p400 --level 5 --disks 3 --chunk 64K --fs ext4)
expect_rc 0 "plan scsi_debug" stripeplan plan "${DBG[@]}" --device "/dev/$dbg"
expect_out "the planner reports the alignment offset" "alignment-offset.*3584 bytes"
expect_rc 0 "apply scsi_debug" stripeplan apply "${DBG[@]}" --device "/dev/$dbg" --root "$ROOT"
expect_eq "scsi_debug partition start: 1 MiB from sector 0 (today's rule)" \
	"$(sfdisk -d "/dev/$dbg" | sed -n "s|^/dev/${dbg}1 : start= *\([0-9]*\),.*|\1|p")" 2048
expect_eq "scsi_debug ext4 RAID stripe width (dumpe2fs)" \
	"$(dumpe2fs -h "/dev/${dbg}1" 2>/dev/null | sed -n 's/^RAID stripe width: *//p')" 32
expect_rc 0 "check scsi_debug" stripeplan check "${DBG[@]}" --device "/dev/$dbg" --root "$ROOT"
vm_finish
