#!/bin/bash
# Each limit the planner holds, from the command line: a value outside
# one is exit 2 with one line naming the tool, the bound and its source;
# what depends on the kernel release and the disk's driver family follows
# them.  (The rows themselves: unit/test-limit; against mkfs: mkfs-sweep;
# against a real kernel: vm/knobs.)
. "$(dirname "$0")/lib.bash"

sp() { "$STRIPEPLAN" "$@"; }
plan_text() { sp plan "$@" --size 12T --fs xfs --mountpoint /data; }
checks_ok() {
	checks=$((checks + 1))
	"$@" || fail "$*"
}

# mkfs.xfs's stripe width
expect_exit 2 'stripe width: mkfs.xfs refuses a stripe width \(su x sw\) above 2147483647 bytes \(xfsprogs 5.11, libxfs/xfs_sb.c xfs_validate_stripe_geometry\(\).*\): 32 data disks x 64 MiB = 2 GiB' \
	sp plan --controller generic --level 0 --disks 32 --chunk 64M --fs xfs --device /dev/sdb --size 100T --kernel 6.1.0
checks_ok sp plan --controller generic --level 0 --disks 31 --chunk 64M --fs xfs --device /dev/sdb --size 100T --kernel 6.1.0 -o "$WORK/p31"
# a controller's documented spans: the PERC 6/i's RAID50 takes 2-8
expect_exit 2 'spans: dell-perc6i raid50 takes 2 to 8 spans, not 9 \(Intel RAID Software User Guide' \
	sp plan --controller dell-perc6i --level 50 --disks 27 --spans 9 --chunk 64K --fs xfs --device /dev/sdb --size 10T --kernel 6.1.0
# md's own rules: RAID0 with a 48 KiB chunk, a 2-disk RAID5
checks_ok sp plan --controller md --level 0 --disks 4 --chunk 48K --table gpt --fs xfs --device /dev/md0 --size 1T --kernel 6.1.0 -o "$WORK/md0"
checks_ok grep -q 'su=48k,sw=4' "$WORK/md0"
checks_ok sp plan --controller md --level 5 --disks 2 --chunk 64K --fs xfs --device /dev/md0 --size 1T --kernel 6.1.0 -o "$WORK/md5"

# nr_requests: above 2048 with a scheduler on blk-mq is refused (MAX_SCHED_RQ)
mkdir -p "$WORK/profiles"
site() { # site NAME SCHEDULER NR_REQUESTS
	cat >"$WORK/profiles/$1.json" <<JSON
{ "name": "$1", "description": "a site's controller", "levels": [5], "chunk_min": "64K",
  "chunk_max": "64K", "scheduler": { "name": "$2", "why": "site" },
  "tuning": [ { "target": "device", "knob": "queue/nr_requests", "value": "$3", "why": "site" } ] }
JSON
}
site site-deep deadline 4096
site site-edge deadline 2048
site site-none noop 4096
P=(--level 5 --disks 4 --chunk 64K --fs xfs --device /dev/sdb --size 1T --profiles "$WORK/profiles")
expect_exit 2 'sdb/queue/nr_requests: Linux refuses a queue/nr_requests with a scheduler above 2048 requests \(Linux 6.1, block/blk-mq-tag.c blk_mq_tag_update_depth\(\).*MAX_SCHED_RQ.*\): the site-deep profile asks for 4096 with mq-deadline on Linux 6.1.0' \
	sp plan --controller site-deep "${P[@]}" --kernel 6.1.0
checks_ok sp plan --controller site-edge "${P[@]}" --kernel 6.1.0 -o "$WORK/edge"
# scheduler none (the profile's noop on blk-mq): the tag depth decides, read on the running kernel
checks_ok sp plan --controller site-none "${P[@]}" --kernel 6.1.0 -o "$WORK/none"
# the single-queue path before scsi-mq takes any value
checks_ok sp plan --controller site-deep "${P[@]}" --kernel 4.14.0 -o "$WORK/legacy"
# 4.19 made SCSI blk-mq by default: the same profile is refused there
expect_exit 2 'the site-deep profile asks for 4096 with mq-deadline on Linux 4.19.0' \
	sp plan --controller site-deep "${P[@]}" --kernel 4.19.0

# the disk's own bounds (facts: queue/max_hw_sectors_kb, the tag depth): a
# profile's larger max_sectors_kb, or nr_requests without a scheduler, is
# lowered to them and said; a facts file without them plans as asked
cat >"$WORK/profiles/site-big.json" <<JSON
{ "name": "site-big", "description": "a site's controller", "levels": [5], "chunk_min": "64K",
  "chunk_max": "64K", "scheduler": { "name": "noop", "why": "site" },
  "tuning": [ { "target": "device", "knob": "queue/nr_requests", "value": "4096", "why": "site" },
              { "target": "device", "knob": "queue/max_sectors_kb", "value": "4096", "why": "site" } ] }
JSON
sed 's|"alignment_offset_bytes": 0,|"alignment_offset_bytes": 0, "max_hw_sectors_kib": 512, "tag_depth": 256,|' \
	"$SRCDIR/fixtures/facts/p400-lun.json" >"$WORK/bounded.json"
B=(--controller site-big --level 5 --disks 4 --chunk 64K --fs xfs --mountpoint /data --kernel 6.1.0 --profiles "$WORK/profiles")
checks_ok sp plan "${B[@]}" --facts "$WORK/bounded.json" -o "$WORK/bounded.txt"
checks_ok grep -q "queue/max_sectors_kb is planned lower than the site-big profile's 4096 on sdb (512): the queue/max_hw_sectors_kb, above which Linux refuses it (limits row max-sectors-kb-hw: Linux 6.1, block/blk-sysfs.c queue_max_sectors_store()" "$WORK/bounded.txt"
checks_ok grep -q "queue/nr_requests is planned lower than the site-big profile's 4096 on sdb (256): the tag depth (mq/\*/nr_tags) with scheduler none" "$WORK/bounded.txt"
checks_ok sp plan "${B[@]}" --facts "$WORK/bounded.json" --format script -o "$WORK/bounded.sh"
checks_ok grep -q "tune 'queue/max_sectors_kb' '512'" "$WORK/bounded.sh"
checks_ok grep -q "tune 'queue/nr_requests' '256'" "$WORK/bounded.sh"
# the plan file carries the bounds, and apply's replan check accepts it
checks_ok sp plan "${B[@]}" --facts "$WORK/bounded.json" --format json -o "$WORK/bounded.plan"
checks_ok grep -q '"max_hw_sectors_kib": 512' "$WORK/bounded.plan"
checks_ok sp plan "${B[@]}" --facts "$SRCDIR/fixtures/facts/p400-lun.json" --format script -o "$WORK/unbounded.sh"
checks_ok grep -q "tune 'queue/max_sectors_kb' '4096'" "$WORK/unbounded.sh"
sed 's|"tag_depth": 256|"tag_depth": 10241|' "$WORK/bounded.json" >"$WORK/deep.json"
expect_exit 2 'tag_depth: 10241 is above 10240' sp plan "${B[@]}" --facts "$WORK/deep.json"

# scheduler names by release and driver family
sched() { sp plan "$@" --format script 2>/dev/null | sed -n "s|.*tune 'queue/scheduler' '\([a-z-]*\)'.*|\1|p" | head -1; }
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --size 2T)
checks_ok test "$(sched "${P400[@]}" --device /dev/sdb --kernel 4.14.0)" = noop
checks_ok test "$(sched "${P400[@]}" --device /dev/sdb --kernel 4.19.0)" = none
checks_ok test "$(sched "${P400[@]}" --device /dev/sdb --kernel 4.20.17)" = none
checks_ok test "$(sched "${P400[@]}" --device /dev/nvme0n1 --kernel 4.14.0)" = none
checks_ok test "$(sched "${P400[@]}" --device /dev/vdb --kernel 4.14.0)" = none
# blk-mq's own schedulers by release (limits rows mq-deadline, bfq-kyber):
# the perc5e's deadline is mq-deadline on an NVMe disk from 4.11, and none
# is planned before (4.9 has none only on blk-mq), nor on the P400's SCSI disk
P5E=(--controller dell-perc5e --level 5 --disks 4 --chunk 64K --fs xfs --size 2T)
checks_ok test "$(sched "${P5E[@]}" --device /dev/nvme0n1 --kernel 4.11.0)" = mq-deadline
checks_ok test -z "$(sched "${P5E[@]}" --device /dev/nvme0n1 --kernel 4.9.0)"
checks_ok test "$(sched "${P5E[@]}" --device /dev/sdb --kernel 4.9.0)" = deadline
# and the plan says the scheduler was dropped, naming the row
golden scheduler-not-in-release.txt sp plan "${P5E[@]}" --device /dev/nvme0n1 --kernel 4.9.0

# inode64 above 2 TiB before 3.7 (RHEL 6), not from 3.7 on
H=(--controller dell-perc6i --level 5 --disks 4 --chunk 64K --device /dev/sdb)
checks_ok grep -q 'options .*inode64' <(plan_text "${H[@]}" --kernel 2.6.32-754.el6.x86_64)
checks_ok test "$(plan_text "${H[@]}" --kernel 3.10.0-1160.el7.x86_64 | grep -c inode64)" = 0
checks_ok test "$(sp plan "${H[@]}" --size 2T --fs xfs --kernel 2.6.32-754.el6.x86_64 | grep -c inode64)" = 0

# x-systemd.* only where the release boots systemd: not RHEL 6, not an
# Ubuntu kernel 14.04 may run (3.13 to 4.4: Upstart, util-linux 2.20's
# mount(8) hands x-* to the filesystem), said in a warning for Ubuntu
fstab_of() { plan_text "${H[@]}" --kernel "$1" | sed -n 's/^  fstab *//p'; }
checks_ok grep -q 'nofail,x-systemd.device-timeout=30s 0 0$' <(fstab_of 3.10.0-1160.el7.x86_64)
checks_ok grep -q 'nofail,x-systemd.device-timeout=30s 0 0$' <(fstab_of 4.15.0-213-generic)
for k in 2.6.32-754.el6.x86_64 3.13.0-170-generic 4.4.0-210-generic; do
	checks_ok grep -q ',nofail 0 0$' <(fstab_of "$k")
done
checks_ok grep -q 'no-device-timeout\] kernel 3.13.0-170-generic may boot Ubuntu 14.04' \
	<(plan_text "${H[@]}" --kernel 3.13.0-170-generic)
checks_ok test "$(plan_text "${H[@]}" --kernel 2.6.32-754.el6.x86_64 | grep -c no-device-timeout)" = 0
finish
