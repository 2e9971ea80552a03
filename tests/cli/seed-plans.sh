#!/bin/bash
# Golden plans (text and JSON) for the four seed arrays, and the
# controllers listing.  Kernel pinned so goldens do not depend on the host.
# shellcheck disable=SC2034,SC2054 # the arrays are read through declare -n; commas are in --members values
. "$(dirname "$0")/lib.bash"

p400=(plan --controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs
	--device /dev/sdb --size 2398G --mountpoint /data --kernel 6.1.0)
md=(plan --controller md --level raid5 --disks 10 --chunk 1M --fs xfs
	--device /dev/md3 --size 1318680576K --mountpoint /r1
	--members sdb,sdc,sdd,sde,sdf,sdg,sdh,sdi,sdj,sdk --kernel 6.1.0)
perc=(plan --controller dell-perc5e --level 5 --disks 15 --chunk 128K --fs ext3
	--device /dev/sdb --size 12732G --mountpoint /srv/md1000 --kernel 6.1.0)
# (/var/lib holds the system's and the packages' state: a mount point there takes --force)
lsi=(plan --controller lsi-megaraid-475 --level 5 --disks 3 --chunk 64K --fs ext3
	--device /dev/sda --size 33G --mountpoint /var/lib/db --force --kernel 6.1.0)

for name in p400 md perc lsi; do
	declare -n args=$name
	golden "$name.txt" "$STRIPEPLAN" "${args[@]}"
	golden "$name.json" "$STRIPEPLAN" "${args[@]}" --format json
done

# the same P400 array on the kernel the seed ran (RHEL 5.3) with barriers off
golden p400-rhel5.txt "$STRIPEPLAN" plan --controller hp-p400 --level 10 --disks 8 --chunk 256K \
	--fs xfs --device /dev/cciss/c0d0 --size 2398G --mountpoint /data --kernel 2.6.18-128.el5 \
	--barriers off
# the field report's whole md recipe, one flag away from the default
golden md-field-report.txt "$STRIPEPLAN" "${md[@]}" --tuning field-report
# fsync'd small files: XFS without a stripe unit (-d noalign, no swalloc) on
# the two XFS seeds, and ext3 planned as general, which the text says
golden md-small-sync.txt "$STRIPEPLAN" "${md[@]}" --workload small-sync
golden md-small-sync.json "$STRIPEPLAN" "${md[@]}" --workload small-sync --format json
golden p400-small-sync.txt "$STRIPEPLAN" "${p400[@]}" --workload small-sync
golden perc-small-sync.txt "$STRIPEPLAN" "${perc[@]}" --workload small-sync
# one artifact at a time, and installer snippets that re-plan on the target
golden p400.fstab "$STRIPEPLAN" "${p400[@]}" --format fstab
golden p400.ks "$STRIPEPLAN" "${p400[@]}" --format kickstart
# the same array mounted where a space must be quoted (an option is given once)
golden md.preseed "$STRIPEPLAN" "${md[@]/%\/r1//srv/raid data}" --format preseed
golden controllers.txt "$STRIPEPLAN" controllers
golden controllers.json "$STRIPEPLAN" controllers --format json

# -o writes the same JSON atomically, and the JSON is valid JSON
"$STRIPEPLAN" "${p400[@]}" --format json -o "$WORK/plan.json"
checks=$((checks + 1))
cmp -s "$WORK/plan.json" "$GOLDEN_DIR/p400.json" || fail "-o output differs from stdout output"
checks=$((checks + 1))
python3 -m json.tool "$WORK/plan.json" >/dev/null || fail "plan JSON does not parse"
finish
