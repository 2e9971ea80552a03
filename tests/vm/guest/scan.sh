#!/bin/bash
# stripeplan scan on the guest's kernel: the machine scanned whole lists the
# md RAID5 apply laid out (its geometry the kernel's, nothing costly), its
# four members as members, a RAID10 LUN that exports only its strip and full
# stripe (queue limits 64 KiB / 128 KiB, no level) with a hand-made msdos
# partition at sector 63: judged from that stripe, costly, its costs as
# raid0's (raid10's are the same), so the scan exits 1; a blank LUN whose
# geometry the kernel does not tell (unknown, a candidate) and the virtio
# disk holding /boot and swap (system, found through mountinfo and
# /proc/swaps); the LUN with --level 10 alone is judged as raid10 4 x 64K,
# as check says; the kernel counts no write to any disk.
# shellcheck source=lib.bash
. /share/lib.bash
ROOT=/tmp/root
mkdir -p "$ROOT/etc"

members=()
for i in 0 1 2 3; do members+=("$(disk_by_serial "m$i")"); done
lun=$(disk_by_serial LUN0001)
blank=$(disk_by_serial BLANK01)
sysd=$(basename "$(readlink -f /dev/disk/by-id/virtio-SYS0001)")
echo "members: ${members[*]}, lun: $lun, blank: $blank, system: $sysd"

# ---- the arrays ---------------------------------------------------------------
create_md /dev/md5 5 64 "${members[@]}"
expect_rc 0 "apply md5 (recognised, geometry from the kernel)" \
	stripeplan apply --fs xfs --device /dev/md5 --root "$ROOT"
expect_rc 0 "an msdos label with a partition at sector 63 on $lun" \
	parted -s "/dev/$lun" mklabel msdos mkpart primary 63s 100%
udevadm settle
expect_rc 0 "xfs su=64k,sw=2 on ${lun}1" mkfs.xfs -q -f -d su=64k,sw=2 "/dev/${lun}1"

# ---- the system disk: /boot and swap -------------------------------------------
printf 'label: gpt\nsize=256MiB\nsize=128MiB\n' | sfdisk -q "/dev/$sysd" >/dev/null
udevadm settle
mkfs.ext4 -q "/dev/${sysd}1"
mkdir -p /boot
expect_rc 0 "/boot on ${sysd}1" mount "/dev/${sysd}1" /boot
mkswap "/dev/${sysd}2" >/dev/null
expect_rc 0 "swap on ${sysd}2" swapon "/dev/${sysd}2"
udevadm settle

# writes() : the sectors the kernel counts written and discarded on each
# disk (/sys/block/X/stat), once what is cached is on the disks.  Exact
# where a checksum is not (a write of the same bytes counts), and free:
# hashing the 2.25 GiB under TCG took 90 s each time.  Not the write I/Os:
# check's libparted opens the label's disk for writing, and its flushes
# count there with no sector (6 on the LUN in one run).
writes() {
	local d
	sync
	for d in "${members[@]}" "$lun" "$blank"; do
		echo "$d $(awk '{ print $7, $14 }' "/sys/block/$d/stat")"
	done
}
# md marks md5 clean (a superblock write to each member) once idle
udevadm settle
sleep 1
before=$(writes)

# ---- the machine, scanned whole -------------------------------------------------
expect_eq "$lun exports a 64 KiB strip and a 128 KiB full stripe" \
	"$(cat "/sys/block/$lun/queue/minimum_io_size") $(cat "/sys/block/$lun/queue/optimal_io_size")" \
	"65536 131072"
expect_rc 1 "scan (the LUN judged from its exported stripe: costly)" stripeplan scan --root "$ROOT"
cp "$OUT" /tmp/scan.txt
expect_out "md5: md, raid5 4 x 64K from the kernel, nothing costly" \
	"^/dev/md5 +[0-9.]+ [KMG]iB md +md +raid5 4 x 64K +0 costly, [0-9]+ suboptimal, [0-9]+ differs\$"
expect_out "md5's geometry from its md attributes" \
	"geometry: raid5, 4 disks, 64 KiB chunk, full stripe 192 KiB \\(the kernel's md attributes"
for m in "${members[@]}"; do
	expect_out "$m: a member of md5" "^/dev/$m +[0-9.]+ MiB disk .* member of md5\$"
done
expect_out "$lun: level unknown, 2 x 64K, costly" \
	"^/dev/$lun +[0-9.]+ [MG]iB disk +[a-z0-9-]+ +level\\? 2 x 64K +[1-9][0-9]* costly, [0-9]+ suboptimal, [0-9]+ differs\$"
expect_out "$lun: its stripe from the exported topology" \
	"geometry: level unknown, 64 KiB strip, full stripe 128 KiB \\(the exported topology: queue/minimum_io_size 65536 is the strip, optimal_io_size 131072 the full stripe of 2 strips; level unknown: costs as raid0 over 2 disks"
expect_out "$lun: the worst finding, priced with the level unknown" \
	"worst: costly: partition 1 of /dev/$lun starts at sector 63 .*level unknown: costed as raid0, as raid10 of this stripe costs too"
expect_out "$lun: what is on it" "on it: dos, 1 partition: 1 at sector 63 xfs"
expect_out "$blank: a candidate" "^/dev/$blank +[0-9.]+ MiB disk +[a-z0-9-]+ +unknown +candidate\$"
expect_out "$sysd: the system disk" "^/dev/$sysd +[0-9.]+ MiB disk +[a-z0-9-]+ +unknown +system disk\$"
expect_out "$sysd: /boot and swap" \
	"system disk: holds /boot \\(${sysd}1\\), swap \\(${sysd}2\\); never a candidate for apply"
expect_rc 1 "no loop, ram or partition listed" grep -E "^/dev/(loop|ram|zram|${sysd}1|${lun}1)" /tmp/scan.txt

expect_rc 1 "scan --format json" stripeplan scan --root "$ROOT" --format json
expect_eq "JSON: exit_code 1" "$(grep -c '"exit_code": 1' "$OUT")" 1
expect_eq "JSON: $lun checked, no level, the exported strip and stripe" \
	"$(grep -A25 "\"device\": \"/dev/$lun\"" "$OUT" | grep -cE '"level": null|"chunk_bytes": 65536|"stripe_width_bytes": 131072|"checked": true')" 4
expect_eq "JSON: $sysd is system" "$(grep -A24 "\"device\": \"/dev/$sysd\"" "$OUT" | grep -c '"system": true')" 1
expect_eq "JSON: $blank is a candidate" "$(grep -A24 "\"device\": \"/dev/$blank\"" "$OUT" | grep -c '"candidate": true')" 1

# ---- a controller's report tied by its NAA id: the LUN's wwn --------------------
# (QEMU's wwn=0x5000c5000000c101 is the wwid naa.5000c5000000c101); the name it
# gives is another disk's, and the identifier decides; its RAID10 of 2 spans
# of 2 x 64 KiB agrees with what the LUN exports
expect_eq "$lun's wwid" "$(cat "/sys/block/$lun/device/wwid")" "naa.5000c5000000c101"
cat >/tmp/vd2.json <<EOF
{ "Controllers": [ { "Command Status": { "Status": "Success" }, "Response Data": {
  "/c0/v2": [ { "DG/VD": "2/2", "TYPE": "RAID10" } ],
  "VD2 Properties": { "Strip Size": "64 KB", "Span Depth": 2, "Number of Drives Per Span": 2,
                      "OS Drive Name": "/dev/$blank", "SCSI NAA Id": "5000C5000000C101" } } } ] }
EOF
sed 's/5000C5000000C101/5000C5000000C1FF/' /tmp/vd2.json >/tmp/vd-none.json
expect_rc 1 "scan with the report of $lun and one of no disk" \
	stripeplan scan --root "$ROOT" --controller-report /tmp/vd2.json --controller-report /tmp/vd-none.json
expect_out "$lun: the report's geometry, costly" "^/dev/$lun +[0-9.]+ [MG]iB disk +[a-z0-9-]+ +raid10 4 x 64K +[1-9][0-9]* costly"
expect_out "$lun: tied by the NAA id" \
	"geometry: raid10, 4 disks, 64 KiB chunk, full stripe 128 KiB \\(the storcli report /tmp/vd2.json \\(VD 2\\), tied to this disk by its NAA id 5000c5000000c101, the disk's wwid naa.5000c5000000c101\\)"
expect_out "$blank: not the report's" "^/dev/$blank +[0-9.]+ MiB disk +[a-z0-9-]+ +unknown +candidate\$"
expect_out "the report of no disk: a warning" \
	"warning: controller-report: storcli report /tmp/vd-none.json \\(VD 2\\) is of no disk scanned \\(it gives NAA id 5000c5000000c1ff and /dev/$blank\\)"

# ---- the LUN's level given: raid10, the disks from its stripe, as check says ---------
R10=(--level 10 --disks 4 --chunk 64K)
expect_rc 1 "scan $lun with --level 10 alone" stripeplan scan --device "/dev/$lun" --level 10 --root "$ROOT"
expect_out "$lun: costly" "^/dev/$lun +[0-9.]+ [MG]iB disk +[a-z0-9-]+ +raid10 4 x 64K +[1-9][0-9]* costly"
expect_out "$lun: the level declared, the stripe exported" \
	"geometry: raid10, 4 disks, 64 KiB chunk, full stripe 128 KiB \\(declared: --level; the strip and full stripe the exported topology's"
expect_out "the worst finding" "worst: costly: partition 1 of /dev/$lun starts at sector 63 .*of this raid10"
expect_rc 2 "scan --disks without --level" stripeplan scan --device "/dev/$lun" --disks 4 --root "$ROOT"
expect_rc 1 "scan $lun as RAID10 4 x 64K in full" stripeplan scan --device "/dev/$lun" "${R10[@]}" --root "$ROOT"
expect_rc 1 "check $lun agrees" sp_check "${R10[@]}" --device "/dev/$lun" --root "$ROOT"
expect_out "check: the same finding" "costly: partition 1 of /dev/$lun starts at sector 63"

expect_eq "no sector written or discarded while scan and check ran" "$(writes)" "$before"
swapoff "/dev/${sysd}2"
umount /boot
vm_finish
