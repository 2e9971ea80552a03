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
#  - logical drives on QEMU's MegaRAID SAS 1078 (-device megasas: PCI
#    1000:0060, the PERC 6's chip, on an LSI 8708EM2's subsystem 1000:1013)
#    and SAS 2108 (-device megasas-gen2: 1000:0079, subsystem 1000:9261, the
#    9260-8i; the PERC H700/H800's chip) under the kernel's megaraid_sas:
#    recognised from what it exports, without --controller, or not, and why;
#    an LD on the 2108 naming itself a PERC H700; and a disk a second 2108
#    passes through (use_jbod=on): no array, so no profile, in plan and scan
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

# ---- megaraid_sas: QEMU's SAS1078 and SAS2108 ------------------------------
# The PCI ids are QEMU's (hw/scsi/megasas.c megasas_devices[]:
# PCI_DEVICE_ID_LSI_SAS1078 0x0060 subsystem 0x1013, PCI_DEVICE_ID_LSI_SAS0079
# 0x0079 subsystem 0x9261, vendor and subvendor 0x1000), the ones the
# kernel's megasas_pci_table binds as SAS1078R and SAS0079GEN2.
modprobe megaraid_sas
for _ in $(seq 300); do
	mr6=$(disk_on_pci 0x0060 2:0 2>/dev/null) && mrq=$(disk_on_pci 0x0060 2:1 2>/dev/null) &&
		mr2=$(disk_on_pci 0x0079 2:0 2>/dev/null) && mrh=$(disk_on_pci 0x0079 2:1 2>/dev/null) &&
		jb=$(disk_on_pci 0x0079 0:0 2>/dev/null) && break
	sleep 0.2
done
udevadm settle
echo "megasas: mr6=$mr6 mrq=$mrq; megasas-gen2: mr2=$mr2 mrh=$mrh, JBOD jb=$jb"
if [ -z "$mr6" ] || [ -z "$mrq" ] || [ -z "$mr2" ] || [ -z "$mrh" ] || [ -z "$jb" ]; then
	fail "megaraid_sas: its four logical drives (channel 2) and the JBOD disk (channel 0) within 60 s of modprobe"
	dmesg | tail -30
	vm_finish
	exit
fi
dmesg | grep -i megaraid_sas | grep -iE 'controller type|fw now|init adapter' | head -8
for d in "$mr6" "$mrq" "$mr2" "$mrh" "$jb"; do
	expect_eq "$d: its SCSI host's proc_name" "$(host_proc_name "$d")" megaraid_sas
done
expect_eq "$mr6: the 1078's PCI ids" "$(pci_ids "$mr6")" "0x1000:0x0060 0x1000:0x1013"
expect_eq "$mr2: the 2108's PCI ids" "$(pci_ids "$mr2")" "0x1000:0x0079 0x1000:0x9261"
expect_eq "$jb: the JBOD 2108's PCI ids" "$(pci_ids "$jb")" "0x1000:0x0079 0x1000:0x9261"
expect_eq "$mr6: INQUIRY as a PERC 6/i's logical drive" \
	"$(sed 's/ *$//' "/sys/block/$mr6/device/vendor")/$(sed 's/ *$//' "/sys/block/$mr6/device/model")" "DELL/PERC 6/i"
expect_eq "$mr2: megaraid_sas passes the LD's Block Limits on (min/opt I/O)" \
	"$(cat "/sys/block/$mr2/queue/minimum_io_size") $(cat "/sys/block/$mr2/queue/optimal_io_size")" "65536 196608"

R5=(--fs xfs --level 5 --disks 4 --chunk 64K)
# the 1078 with a PERC 6/i's INQUIRY: decided by the INQUIRY and the driver
# (QEMU's subsystem 1000:1013 is no Dell board: the chip alone decides nothing)
expect_rc 0 "plan $mr6 without --controller" stripeplan plan "${R5[@]}" --device "/dev/$mr6"
expect_out "$mr6: the PERC 6/i profile is chosen" "^stripeplan: dell-perc6i raid5, 4 disks"
expect_out "$mr6: the plan names the facts that decided" \
	"recognised by  INQUIRY vendor 'DELL' model 'PERC 6/i'"
expect_out "$mr6: ... and the driver" "^ +SCSI host proc_name 'megaraid_sas'"
expect_out "$mr6: the plan cites the profile's source for its tuning" "read_ahead_kb = 4096"
expect_out "$mr6: ... (seed 003)" "seed 003: blockdev --setra 8192"
expect_rc 0 "apply $mr6 without --controller" stripeplan apply "${R5[@]}" --device "/dev/$mr6" --root "$ROOT"
expect_eq "$mr6 partition start: lcm(192K, 1 MiB) = 3 MiB" \
	"$(sfdisk -d "/dev/$mr6" | sed -n "s|^/dev/${mr6}1 : start= *\([0-9]*\),.*|\1|p")" 6144
expect_eq "$mr6 xfs sunit swidth (blocks): su=64k sw=3" \
	"$(xfs_sb "/dev/${mr6}1" unit) $(xfs_sb "/dev/${mr6}1" width)" "16 48"
expect_eq "$mr6 read_ahead_kb as the profile plans" "$(knob "/sys/block/$mr6/queue/read_ahead_kb")" 4096
expect_rc 0 "check $mr6 without --controller" sp_check "${R5[@]}" --device "/dev/$mr6" --root "$ROOT"
expect_rc 2 "plan $mr6 declared as a PERC 5/E" stripeplan plan "${R5[@]}" --controller dell-perc5e \
	--device "/dev/$mr6"
expect_out "$mr6: the refusal names both profiles" \
	"--controller dell-perc5e, but what the kernel says of /dev/$mr6 is the dell-perc6i profile's"

# the same 1078 with QEMU's own INQUIRY: nothing decides; the warning names
# what was seen and the one profile that shares the chip, which it does not decide
expect_rc 0 "plan $mrq without --controller" stripeplan plan "${R5[@]}" --device "/dev/$mrq"
expect_out "$mrq: planned as generic" "^stripeplan: generic raid5"
expect_out "$mrq: the warning names the driver, the INQUIRY and the PCI ids it saw" \
	"controller-not-recognised.*proc_name 'megaraid_sas', INQUIRY vendor 'QEMU' model 'QEMU HARDDISK'.*PCI 1000:0060 subsystem 1000:1013"
expect_out "$mrq: ... and the one profile it could be (every other lists its chips, not this one)" \
	"it could be dell-perc6i, which the kernel's facts do not decide"
expect_rc 0 "plan $mrq declared as the PERC 6/i (not contradicted)" stripeplan plan "${R5[@]}" \
	--controller dell-perc6i --device "/dev/$mrq"

# the 2108 on LSI's own 9260-8i board (subsystem 1000:9261), not a Dell one:
# the dell-perc-h700 profile lists the chip on Dell's boards only, so nothing
# decides; generic, the warning naming what was seen and the one profile not
# ruled out (the H700/H800's, the same chip)
expect_rc 0 "plan $mr2 without --controller" stripeplan plan "${R5[@]}" --device "/dev/$mr2"
expect_out "$mr2: planned as generic" "^stripeplan: generic raid5"
expect_out "$mr2: the warning names the driver and the 2108's PCI ids" \
	"controller-not-recognised.*proc_name 'megaraid_sas'.*PCI 1000:0079 subsystem 1000:9261\); it could be dell-perc-h700, which the kernel's facts do not decide"
# its 192 KiB stripe is larger than one transfer of the adapter
# (max_hw_sectors_kb 128 here), which is the HBA's limit, not the disk's
# dev_max: sd kept it, and so does the plan, disks and chunk left out
expect_eq "$mr2: max_hw_sectors_kb below the stripe" "$(cat "/sys/block/$mr2/queue/max_hw_sectors_kb")" "128"
expect_rc 0 "plan $mr2 from its exported stripe" stripeplan plan --fs xfs --level 5 --device "/dev/$mr2"
expect_out "$mr2: su and sw from the exported 64 KiB strip and 192 KiB stripe" "su=64k,sw=3"
expect_rc 1 "$mr2: the exported stripe is not ignored" grep -q topology-ignored "$OUT" "$ERR"
expect_rc 0 "apply $mr2 without --controller" stripeplan apply "${R5[@]}" --device "/dev/$mr2" --root "$ROOT"
expect_eq "$mr2 xfs sunit swidth (blocks): su=64k sw=3" \
	"$(xfs_sb "/dev/${mr2}1" unit) $(xfs_sb "/dev/${mr2}1" width)" "16 48"
expect_rc 0 "check $mr2 without --controller" sp_check "${R5[@]}" --device "/dev/$mr2" --root "$ROOT"

# the 2108 with a PERC H700's INQUIRY: decided by the INQUIRY, the chip and
# the driver not contradicting it (the board, LSI's, is no Dell one but a
# board the profile does not list rules nothing out).  The strings are the
# profile's own, set here: no real H700's INQUIRY was captured
expect_eq "$mrh: INQUIRY as a PERC H700's logical drive" \
	"$(sed 's/ *$//' "/sys/block/$mrh/device/vendor")/$(sed 's/ *$//' "/sys/block/$mrh/device/model")" "DELL/PERC H700"
expect_rc 0 "plan $mrh without --controller" stripeplan plan "${R5[@]}" --device "/dev/$mrh"
expect_out "$mrh: the PERC H700 profile is chosen" "^stripeplan: dell-perc-h700 raid5, 4 disks"
expect_out "$mrh: the plan names the facts that decided" \
	"recognised by  INQUIRY vendor 'DELL' model 'PERC H700'"
expect_rc 0 "apply $mrh without --controller" stripeplan apply "${R5[@]}" --device "/dev/$mrh" --root "$ROOT"
expect_eq "$mrh xfs sunit swidth (blocks): su=64k sw=3" \
	"$(xfs_sb "/dev/${mrh}1" unit) $(xfs_sb "/dev/${mrh}1" width)" "16 48"
expect_rc 0 "check $mrh without --controller" sp_check "${R5[@]}" --device "/dev/$mrh" --root "$ROOT"
expect_rc 2 "plan $mrh declared as a PERC 6/i" stripeplan plan "${R5[@]}" --controller dell-perc6i \
	--device "/dev/$mrh"
expect_out "$mrh: the refusal names both profiles" \
	"--controller dell-perc6i, but what the kernel says of /dev/$mrh is the dell-perc-h700 profile's"

# ---- a disk the 2108 passes through (use_jbod=on): a system PD ------------------
# megaraid_sas puts a system PD on its physical-disk channels (MEGASAS_IS_LOGICAL()
# is channel >= MEGASAS_MAX_PD_CHANNELS 2; megasas_slave_alloc() reads the PD
# as channel * MEGASAS_MAX_DEV_PER_CHANNEL + target) and the LDs above them,
# which is what the passthrough rule reads
jb_addr=$(basename "$(readlink -f "/sys/block/$jb/device")")
expect_rc 0 "$jb: the JBOD disk at channel 0, target 0 ($jb_addr)" grep -qE '^[0-9]+:0:0:0$' <<<"$jb_addr"
expect_rc 0 "$mr2: the LD beside it at channel 2" \
	grep -qE '^[0-9]+:2:0:0$' <<<"$(basename "$(readlink -f "/sys/block/$mr2/device")")"
dmesg | grep -iE 'megaraid_sas.*(jbod|system pd|pd list)' | head -4
expect_rc 2 "plan $jb without --controller or geometry" stripeplan plan --fs xfs --device "/dev/$jb"
expect_out "$jb: the level is asked for, the disk named as passed through" \
	"^stripeplan: level: required: /dev/$jb is a disk megaraid_sas passes through \\(JBOD, SCSI address $jb_addr\\), no logical drive"
# a mirror plans no stripe, as a lone disk has none
JB=(--fs xfs --level 1 --disks 2)
expect_rc 0 "plan $jb without --controller" stripeplan plan "${JB[@]}" --device "/dev/$jb"
expect_out "$jb: planned as generic" "^stripeplan: generic raid1"
expect_out "$jb: the warning names the address and why it is no array" \
	"controller-not-recognised.*proc_name 'megaraid_sas'.*PCI 1000:0079 subsystem 1000:9261, SCSI address $jb_addr: a physical disk megaraid_sas passes through \\(JBOD\\)"
expect_rc 2 "plan $jb declared as an H700" stripeplan plan "${JB[@]}" --controller dell-perc-h700 \
	--device "/dev/$jb"
expect_out "$jb: refused naming the address" \
	"^stripeplan: controller: --controller dell-perc-h700, but /dev/$jb is no logical drive of it \\(.*SCSI address $jb_addr: a physical disk megaraid_sas passes through"
expect_rc 0 "plan $jb declared generic" stripeplan plan "${JB[@]}" --controller generic --device "/dev/$jb"
stripeplan scan --root "$ROOT" --format json >/tmp/scan-jbod.json 2>/tmp/scan-jbod.err
echo "scan --format json exited $?"
row() { grep -A4 "\"device\": \"/dev/$1\"" /tmp/scan-jbod.json; }
expect_eq "scan: $jb's controller is none" "$(row "$jb" | sed -n 's/.*"controller": "\(.*\)",$/\1/p')" none
expect_rc 0 "scan: $jb is not a logical drive, its address named" \
	grep -qF "\"controller_by\": \"not a logical drive: SCSI host proc_name 'megaraid_sas'" <<<"$(row "$jb")"
expect_rc 0 "scan: ... at $jb_addr" grep -qF "SCSI address $jb_addr: a physical disk megaraid_sas passes through (JBOD)" <<<"$(row "$jb")"
expect_eq "scan: $mr6 (an LD on the 1078) is still the PERC 6/i's" \
	"$(row "$mr6" | sed -n 's/.*"controller": "\(.*\)",$/\1/p')" dell-perc6i
expect_rc 0 "scan: $mr2 (an LD on the 2108, as the JBOD's adapter) is still an LD, not recognised as a board" \
	grep -qF "\"controller_by\": \"not recognised: SCSI host proc_name 'megaraid_sas'" <<<"$(row "$mr2")"
expect_rc 1 "scan: ... and not called a passed-through disk" grep -qF "passes through" <<<"$(row "$mr2")"
expect_eq "scan: $mrh (an LD on the 2108 naming itself a PERC H700) is the H700's" \
	"$(row "$mrh" | sed -n 's/.*"controller": "\(.*\)",$/\1/p')" dell-perc-h700
vm_finish
