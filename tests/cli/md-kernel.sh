#!/bin/bash
# md arrays as the kernel describes them (facts files with an "md" object,
# the shape the probe reads from /sys/block/mdN/md and slaves/): plans
# with no geometry flags, md's own RAID10 and RAID1 rules, members that
# are partitions, and every declared value checked against the kernel.
. "$(dirname "$0")/lib.bash"

F="$SRCDIR/fixtures/facts"
md() { "$STRIPEPLAN" plan --controller md --kernel 6.1.0 --mountpoint /r1 "$@"; }

golden md-kernel-raid5.txt md --fs xfs --facts "$F/md-raid5.json"
golden md-kernel-raid5.json md --fs xfs --facts "$F/md-raid5.json" --format json
golden md-kernel-raid10-n2-3.txt md --fs xfs --facts "$F/md-raid10-n2-3.json"
golden md-kernel-raid10-f2-4.txt md --fs ext4 --facts "$F/md-raid10-f2-4.json"
golden md-kernel-raid1.txt md --fs xfs --facts "$F/md-raid1.json"
golden md-kernel-raid1.json md --fs ext4 --facts "$F/md-raid1.json" --format json
golden md-kernel-raid6.txt md --fs xfs --facts "$F/md-raid6.json"
golden md-kernel-degraded.txt md --fs xfs --facts "$F/md-degraded.json"
golden md-kernel-partitions.txt md --fs xfs --facts "$F/md-partitions.json"
# the field report's recipe sets device/queue_depth, which the NVMe member lacks
golden md-kernel-partitions-field-report.txt md --fs xfs --facts "$F/md-partitions.json" \
	--tuning field-report

# persistence by identity: the array by MD_UUID, members by WWN or serial
golden md-kernel-raid5.rules md --fs xfs --facts "$F/md-raid5.json" --format udev
golden md-kernel-partitions.rules md --fs xfs --facts "$F/md-partitions.json" --format udev

# declared values that agree are accepted and recorded as the kernel's
golden md-kernel-raid5-agreeing.txt md --fs xfs --facts "$F/md-raid5.json" --level 5 --disks 10 \
	--chunk 1M --members sdk,sdj,sdi,sdh,sdg,sdf,sde,sdd,sdc,sdb

# one line per difference, exit 2, nothing on stdout
checks=$((checks + 1))
rc=0
md --fs xfs --facts "$F/md-raid5.json" --level 6 --disks 8 --chunk 512K --members sdb,sdc \
	>"$WORK/out" 2>"$WORK/err" || rc=$?
cat >"$WORK/want" <<'WANT'
stripeplan: level: --level 6, but md3 is raid5
stripeplan: disks: --disks 8, but md3 has 10 disks
stripeplan: chunk: --chunk 512K, but md3 has a 1 MiB chunk
stripeplan: members: --members sdb,sdc, but md3's members are sdb,sdc,sdd,sde,sdf,sdg,sdh,sdi,sdj,sdk
WANT
if [ "$rc" != 2 ] || [ -s "$WORK/out" ] || ! diff -u "$WORK/want" "$WORK/err"; then
	fail "contradicting geometry: exit $rc, stderr above"
fi
expect_exit 2 '^stripeplan: chunk: --chunk 512K, but md3 has a 1 MiB chunk$' \
	md --fs xfs --facts "$F/md-raid5.json" --chunk 512K
expect_exit 2 '^stripeplan: layout: --layout f2, but md0 has the n2 layout$' \
	md --fs xfs --facts "$F/md-raid10-n2-3.json" --layout f2
expect_exit 2 'layout: --layout is for raid10, not raid5' \
	md --fs xfs --facts "$F/md-raid5.json" --layout n2

# offline plans keep needing the flags; a probed LUN too
expect_exit 2 '^stripeplan: level: required for an offline plan \(--size\)' \
	md --fs xfs --device /dev/md3 --size 1T
expect_exit 2 '^stripeplan: chunk: required for an offline plan' \
	md --fs xfs --device /dev/md3 --size 1T --level 5 --disks 4
expect_exit 2 "^stripeplan: level: required: /dev/sda is not an md array" \
	"$STRIPEPLAN" plan --controller lsi-megaraid-475 --fs ext3 --facts "$F/lsi475.json" --kernel 6.1.0

# md's RAID10 takes odd counts and layouts; a hardware RAID10 does not
golden md-offline-raid10-n2-3.txt md --fs xfs --device /dev/md0 --size 750G --level 10 --disks 3 --chunk 512K
golden md-offline-raid10-o3-5.txt md --fs xfs --device /dev/md0 --size 750G --level 10 --disks 5 --chunk 64K --layout o3
expect_exit 2 'disks: raid10 needs an even number of disks, not 5' \
	"$STRIPEPLAN" plan --controller hp-p400 --fs xfs --device /dev/sdb --size 1T --level 10 --disks 5 --chunk 64K --kernel 6.1.0
expect_exit 2 "layout: --layout is md raid10's; the hp-p400 profile's raid10 has mirrored pairs" \
	"$STRIPEPLAN" plan --controller hp-p400 --fs xfs --device /dev/sdb --size 1T --level 10 --disks 4 --chunk 64K --layout f2 --kernel 6.1.0
expect_exit 2 'layout: n3 keeps 3 copies of each chunk, more than the 2 disks' \
	md --fs xfs --device /dev/md0 --size 1T --level 10 --disks 2 --chunk 64K --layout n3
expect_exit 2 'disks: raid10 needs at least 2 disks, not 1' \
	md --fs xfs --device /dev/md0 --size 1T --level 10 --disks 1 --chunk 64K
golden md-offline-raid0-1.txt md --fs ext4 --device /dev/md7 --size 100G --level 0 --disks 1 --chunk 512K
expect_exit 2 'disks: raid0 needs at least 2 disks, not 1' \
	"$STRIPEPLAN" plan --controller generic --fs ext4 --device /dev/sdb --size 100G --level 0 --disks 1 --chunk 512K --kernel 6.1.0

# a hardware mirror has no stripe either; its chunk is ignored with a warning
golden p400-raid1.txt "$STRIPEPLAN" plan --controller hp-p400 --fs xfs --device /dev/sdb --size 300G \
	--level 1 --disks 2 --chunk 256K --kernel 6.1.0 --mountpoint /data
golden p400-raid1.json "$STRIPEPLAN" plan --controller hp-p400 --fs ext4 --device /dev/sdb --size 300G \
	--level 1 --disks 2 --kernel 6.1.0 --format json
# LUNs keep GPT by default; md can have one when asked
golden md-kernel-raid5-gpt.txt md --fs xfs --facts "$F/md-raid5.json" --table gpt

# every plan above is one apply --plan accepts (the JSON reads back)
for f in md-raid5 md-raid1 md-raid10-n2-3 md-partitions; do
	checks=$((checks + 1))
	md --fs xfs --facts "$F/$f.json" --format json -o "$WORK/$f.plan.json" ||
		fail "$f: plan --format json failed"
	"$STRIPEPLAN" apply --plan "$WORK/$f.plan.json" --device /nonexistent --dry-run >"$WORK/out" 2>"$WORK/err" || true
	grep -q "the plan was made for" "$WORK/err" || fail "$f: plan file not read back: $(cat "$WORK/err")"
done
finish
