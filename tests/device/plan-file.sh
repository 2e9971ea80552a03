#!/bin/bash
# A plan file is untrusted input (issue 9, item 2): apply executes the plan
# stripeplan makes again from the file's fields, so an edited mkfs argv,
# tuning entry, mount option or fstab line is refused as invalid input
# (exit 2) before anything is touched: both disks and the scratch root
# stay exactly as they were.  jq edits the plan as a person's editor would.
. "$SRCDIR/tests/device/lib.bash"

# ext4 on small images: every case hashes both images twice
P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --kernel 6.1 --fs ext4 --mountpoint /data)
dev=$(sp_loop_create 96M) || exit 1
other=$(sp_loop_create 96M) || exit 1
expect_ok "plan" sp plan "${P400[@]}" --device "$dev" --format json -o "$WORK/plan.json"

# edited NAME JQ-FILTER: the plan with one edit
edited() {
	jq "$2" "$WORK/plan.json" >"$WORK/$1.json" || fail "jq could not make $1"
}

# refused_file NAME PATTERN: apply (with and without --force) and check
# refuse it; neither disk nor the scratch root changes
refused_file() {
	local before
	before="$(state "$dev")$(state "$other")"
	expect_rc 2 "$2" sp apply --plan "$WORK/$1.json" --device "$dev"
	expect_rc 2 "$2" sp apply --plan "$WORK/$1.json" --device "$dev" --force
	expect_rc 2 "$2" sp check --plan "$WORK/$1.json" --device "$dev"
	checks=$((checks + 1))
	[ "$(state "$dev")$(state "$other")" = "$before" ] || fail "$1: a disk or the root changed"
}

edited logdev '.filesystem.mkfs_argv |= (.[:-1] + ["-l", "logdev='"$other"',size=64m"] + .[-1:])'
refused_file logdev "filesystem.mkfs_argv has 10 entries, but stripeplan plans 8"
edited journal '.filesystem.mkfs_argv |= (.[:-1] + ["-J", "device='"$other"'"] + .[-1:])'
refused_file journal "filesystem.mkfs_argv has 10 entries, but stripeplan plans 8"
edited force '.filesystem.mkfs_argv |= (.[:1] + ["-F"] + .[1:])'
refused_file force "filesystem.mkfs_argv has 9 entries, but stripeplan plans 8"
edited stride '.filesystem.mkfs_argv[6] = "stride=3,stripe_width=12"'
refused_file stride "filesystem.mkfs_argv\\[6\\] is 'stride=3,stripe_width=12', but stripeplan plans 'stride=64,stripe_width=256'"
edited iostats '.tuning += [{"path": "/sys/block/'"${dev#/dev/}"'/queue/iostats", "value": "0", "kind": "sysfs", "why": "x"}]'
refused_file iostats "tuning has 3 entries, but stripeplan plans 2"
edited readahead '.tuning[1].path = "/sys/block/'"${other#/dev/}"'/queue/read_ahead_kb"'
refused_file readahead "tuning\\[1\\] device is '${other#/dev/}', but stripeplan plans '${dev#/dev/}'"
edited value '.tuning[1].value = "1"'
refused_file value "tuning\\[1\\].value is '1', but stripeplan plans '4096'"
edited member '.array.members = ["'"${other#/dev/}"'"]'
refused_file member "members applies to md arrays"
edited dotdot '.array.members = ["../../../etc"]'
refused_file dotdot "not a block device name|members applies to md arrays"
edited fstab '.mount.fstab |= sub("noatime"; "noatime,nobarrier")'
refused_file fstab "mount.fstab is '.*nobarrier.*', but stripeplan plans"
edited options '.mount.options += ["nobarrier"] | .mount.fstab |= sub("noatime"; "noatime,nobarrier")'
refused_file options "mount.options\\[[0-9]\\] is '[^']*', but stripeplan plans 'barrier=0'"
edited mountpoint '.mount.mountpoint = "/srv"'
refused_file mountpoint "mount.fstab is 'UUID=@FS_UUID@ /data .*', but stripeplan plans 'UUID=@FS_UUID@ /srv"
edited partition '.partition.start_bytes = 2097152'
refused_file partition "partition.start_bytes is 2097152, but stripeplan plans 1048576"
edited controller '.array.controller = "no-such"'
refused_file controller "unknown controller 'no-such'"

# --- the exit code is the kind of the error, as it was made -------------------
# The plan's device is gone: apply cannot open it and refuses (3, nothing
# was written); check finds the named device is not there (2, like plan).
# Where the plan saw a block device there is a regular file: apply refuses
# (3, the device is not the one the plan was made for), not as input (2).
nodev() {
	edited "$1" '.device.path = "'"$2"'" | .partition.path = "'"$2"'1" | .filesystem.mkfs_argv[-1] = "'"$2"'1"'
}
gone=/dev/stripeplan-gone
nodev gone "$gone"
expect_rc 3 "cannot open '$gone': No such file or directory \(the device vanished" \
	sp apply --plan "$WORK/gone.json" --device "$gone"
expect_rc 2 "cannot stat '$gone'" sp check --plan "$WORK/gone.json" --device "$gone"
: >"$WORK/not-a-disk"
nodev notdisk "$WORK/not-a-disk"
expect_rc 3 "'$WORK/not-a-disk' is not a block device \(any more\); nothing was written" \
	sp apply --plan "$WORK/notdisk.json" --device "$WORK/not-a-disk"
[ ! -s "$WORK/not-a-disk" ] || fail "apply wrote to the regular file"

# the workload is a field of the request: apply replans the file's mount
# options from it, and refuses a file whose workload and options disagree
# (xfs needs 300 MiB)
XFS=("${P400[@]}")
XFS[11]=xfs
big=$(sp_loop_create 320M) || exit 1
expect_ok "plan --workload metadata" sp plan "${XFS[@]}" --workload metadata --device "$big" \
	--format json -o "$WORK/meta.json"
[ "$(jq -r '.workload' "$WORK/meta.json")" = metadata ] || fail "the plan file has no workload"
expect_ok "apply --plan --dry-run (metadata)" sp apply --plan "$WORK/meta.json" --device "$big" --dry-run
expect_out "logbufs=8,logbsize=256k"
jq '.workload = "general"' "$WORK/meta.json" >"$WORK/meta-general.json"
before="$(state "$big")"
# metadata plans no stripe unit: the first field general plans otherwise
expect_rc 2 "filesystem.xfs.su_bytes is 0, but stripeplan plans 262144" \
	sp apply --plan "$WORK/meta-general.json" --device "$big"
[ "$(state "$big")" = "$before" ] || fail "meta-general: the disk changed"

# the plan as written still applies, exactly, and check agrees
expect_ok "apply --plan" sp apply --plan "$WORK/plan.json" --device "$dev"
expect_out '^\[4/[0-9]\] fstab .*done, verified'
expect_ok "check --plan" sp check --plan "$WORK/plan.json" --device "$dev"
expect_out 'match'
device_finish
