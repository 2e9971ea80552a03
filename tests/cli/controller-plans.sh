#!/bin/bash
# A golden plan for each controller profile of issue 25 (the PERC 9 to 12,
# MegaRAID 94xx to 96xx, HPE SR and MR, SmartRAID 3100, Intel VROC), and the
# refusals their documented limits make, each naming its source.  Kernel
# pinned so goldens do not depend on the host.
. "$(dirname "$0")/lib.bash"

sp() { "$STRIPEPLAN" "$@"; }
common=(--fs xfs --device /dev/sdb --size 10T --mountpoint /data --kernel 6.12.0)

# name, level, disks, chunk (spans for RAID50/60 as a fifth word)
while read -r name level disks chunk spans; do
	args=(plan --controller "$name" --level "$level" --disks "$disks" --chunk "$chunk" "${common[@]}")
	[ -n "$spans" ] && args+=(--spans "$spans")
	golden "controller-$name.txt" "$STRIPEPLAN" "${args[@]}"
done <<'LIST'
dell-perc-h730p 6 8 256K
dell-perc-h740p 10 8 256K
dell-perc-h755 5 4 256K
dell-perc-h965i 60 16 256K 2
broadcom-mr9460 50 12 256K 2
broadcom-mr9560 6 10 256K
broadcom-mr9660 5 6 64K
hpe-mr416i 10 4 256K
hpe-sr-p408i-p816i 6 8 512K
hpe-sr932i-p 5 5 256K
microchip-smartraid-3100 6 12 256K
LIST
# Intel VROC is md: an IMSM RAID5 volume planned offline (table none, the
# members tuned), and in JSON, which carries the profile's warnings the same way
# shellcheck disable=SC2054 # the commas are in the --members value
vroc=(plan --controller intel-vroc --level 5 --disks 4 --chunk 512K --fs xfs --device /dev/md126
	--size 5T --mountpoint /data --members nvme0n1,nvme1n1,nvme2n1,nvme3n1 --kernel 6.12.0)
golden controller-intel-vroc.txt "$STRIPEPLAN" "${vroc[@]}"
golden controller-dell-perc-h755.json "$STRIPEPLAN" plan --controller dell-perc-h755 --level 5 \
	--disks 4 --chunk 256K "${common[@]}" --format json

# the documented limits refuse, naming where they come from
expect_exit 2 "chunk: 32K is outside what dell-perc-h730p supports \(64K..1M\) \(PERC H730P User's Guide p. 113" \
	sp plan --controller dell-perc-h730p --level 5 --disks 4 --chunk 32K "${common[@]}"
expect_exit 2 "disks: dell-perc-h730p raid10 takes at most 192 disks, not 194 \(PERC H730P User's Guide p. 113" \
	sp plan --controller dell-perc-h730p --level 10 --disks 194 --chunk 64K "${common[@]}"
expect_exit 2 "chunk: 2M is outside what dell-perc-h740p supports \(64K..1M\)" \
	sp plan --controller dell-perc-h740p --level 5 --disks 4 --chunk 2M "${common[@]}"
expect_exit 2 "spans: dell-perc-h965i raid60 takes 2 to 8 spans, not 9 \(perccli2 /c0 show all" \
	sp plan --controller dell-perc-h965i --level 60 --disks 36 --spans 9 --chunk 64K "${common[@]}"
expect_exit 2 "disks: dell-perc-h965i takes at most 32 disks per span, not 33 \(66 in 2 spans\)" \
	sp plan --controller dell-perc-h965i --level 60 --disks 66 --spans 2 --chunk 64K "${common[@]}"
expect_exit 2 "spans: broadcom-mr9460 raid50 takes 2 to 8 spans, not 9 \(Intel RAID Software User Guide" \
	sp plan --controller broadcom-mr9460 --level 50 --disks 27 --spans 9 --chunk 64K "${common[@]}"
expect_exit 2 "disks: raid5 needs at least 3 disks, not 2 \(openstack/proliantutils" \
	sp plan --controller hpe-sr-p408i-p816i --level 5 --disks 2 --chunk 64K "${common[@]}"
expect_exit 2 "level: raid6 is not supported by the intel-vroc profile" \
	sp plan --controller intel-vroc --level 6 --disks 4 --chunk 128K --fs xfs --device /dev/md126 --size 5T --kernel 6.12.0
expect_exit 2 "intel-vroc raid1 takes at most 2 disks, not 3 \(md-raid-utilities/mdadm" \
	sp plan --controller intel-vroc --level 1 --disks 3 --fs xfs --device /dev/md126 --size 5T --kernel 6.12.0
expect_exit 2 "layout" \
	sp plan --controller intel-vroc --level 10 --disks 4 --chunk 128K --layout f2 --fs xfs --device /dev/md126 --size 5T --kernel 6.12.0

# every profile without a documented strip list says so in every plan
for name in dell-perc-h755 dell-perc-h965i broadcom-mr9460 broadcom-mr9560 broadcom-mr9660 hpe-mr416i \
	hpe-sr-p408i-p816i hpe-sr932i-p microchip-smartraid-3100; do
	checks=$((checks + 1))
	sp controllers --format json | python3 -c '
import json, sys
p = [p for p in json.load(sys.stdin) if p["name"] == sys.argv[1]][0]["limits"]["strips"]
assert p["sizes_bytes"] is None and "not found in the vendor" in p["source"], p
' "$name" || fail "$name: a profile without a strip list must say its source was not found"
	checks=$((checks + 1))
	sp plan --controller "$name" --level 5 --disks 4 --chunk 64K "${common[@]}" >"$WORK/plan"
	grep -q '^  \[strips-not-documented\] .* --chunk is taken as declared' "$WORK/plan" ||
		fail "$name: a plan does not warn that the strip sizes are not documented"
done
finish
