# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Fixtures for the bench: a loop device standing in for a RAID LUN, laid
# out one of four ways and mounted under the loop helpers' directory
# (fixtures/loop.sh: everything made here is undone by its EXIT trap).
#
#	fixture_make LAYOUT ARRAY [PROFILE]
#	                            sets FX_DEV, FX_PART, FX_MNT, FX_START (sectors);
#	                            PROFILE: stripeplan's --workload (general
#	                            when not given), for the stripeplan layout
#	fixture_make_variant ARRAY PLAN OPTS MKFS...
#	                            the plan's partition (or none, as md's
#	                            plan has), then MKFS (its last
#	                            word the partition) and mount -o OPTS: the
#	                            log sweep's variants of the plan
#	fixture_drop                unmount, detach and delete the current fixture
#
# Layouts:
#	stripeplan          `stripeplan apply` with the plan; mounted with the plan's options
#	mkfs-topology       no partition table; mkfs.xfs on the whole device with the
#	                    su/sw an md device (or a LUN reporting optimal I/O) exports,
#	                    default AGs, log and mount options; the read-ahead the
#	                    kernel gives such a device
#	parted-default      GPT from `parted -a optimal ... 0% 100%`, plain mkfs
#	legacy-63           msdos label, partition at sector 63, plain mkfs
#
# ARRAY is an index into ARRAYS (bench/run); parted-default and legacy-63
# ignore it: they know nothing about the array, which is the point.
#
# mkfs-topology emulates what mkfs.xfs does by itself on a device that
# exports its geometry: a loop device exports none, so mkfs.xfs is given
# exactly what it would read (blkid's topology: minimum_io_size = the chunk
# as su, optimal_io_size = chunk x data disks as sw) and nothing else; the
# log stripe unit, AG count and mount options stay mkfs's and mount's own.
# The kernel reads that optimal I/O size too: it sets such a device's
# read-ahead to twice it (topology_read_ahead_kb), where a device that
# exports none keeps 128 KiB; the fixture gets the same.
# No partition: on such a device parted and fdisk align a partition to the
# optimal I/O size anyway (1 MiB when it divides 1 MiB), and `mkfs.xfs
# /dev/md0` is what md's users type.

FX_DEV=""
FX_PART=""
FX_MNT=""
FX_START=0
FX_COUNT=0

# array_field INDEX FIELD: name label controller level disks chunk
array_field() {
	local name label controller level disks chunk

	IFS='|' read -r name label controller level disks chunk <<<"${ARRAYS[$1]}"
	case $2 in
	name) echo "$name" ;;
	label) echo "$label" ;;
	controller) echo "$controller" ;;
	level) echo "$level" ;;
	disks) echo "$disks" ;;
	chunk) echo "$chunk" ;;
	*) bench_die "array_field: no field '$2'" ;;
	esac
}

# array_args INDEX: the plan options describing the array
array_args() {
	echo "--controller $(array_field "$1" controller) --level $(array_field "$1" level)" \
		"--disks $(array_field "$1" disks) --chunk $(array_field "$1" chunk)"
}

# plan_json INDEX DEV OUT PROFILE: the plan for DEV, with a mount point so
# that it carries mount options (apply is run without one: no fstab is
# touched)
plan_json() {
	local -a args
	read -ra args <<<"$(array_args "$1")"
	"$STRIPEPLAN" plan "${args[@]}" --fs xfs --workload "$4" --device "$2" \
		--mountpoint /srv/bench --format json -o "$3" ||
		bench_die "stripeplan plan --workload $4 for $(array_field "$1" name) failed"
}

# array_data_disks INDEX: the disks holding data in one stripe
array_data_disks() {
	local level disks

	level=$(array_field "$1" level)
	disks=$(array_field "$1" disks)
	case $level in
	10) echo $((disks / 2)) ;;
	5) echo $((disks - 1)) ;;
	6) echo $((disks - 2)) ;;
	*) bench_die "array_data_disks: level $level is not a bench array's" ;;
	esac
}

# array_chunk_bytes INDEX
array_chunk_bytes() {
	local c

	c=$(array_field "$1" chunk)
	case $c in
	*K) echo $((${c%K} * 1024)) ;;
	*M) echo $((${c%M} * 1048576)) ;;
	*) bench_die "array_chunk_bytes: '$c'" ;;
	esac
}

# topology_read_ahead_kb INDEX: the read-ahead the kernel gives a device
# that exports the array's optimal I/O size (chunk x data disks): twice
# that, and at least 128 KiB (block/blk-settings.c: blk_apply_bdi_limits(),
# disk_update_readahead() before it; md's RAID5 and RAID10 set the same
# themselves since 2.6)
topology_read_ahead_kb() {
	local kb

	kb=$((2 * $(array_chunk_bytes "$1") * $(array_data_disks "$1") / 1024))
	[ "$kb" -ge 128 ] || kb=128
	echo "$kb"
}

# Mount options of the plan that mean something to mount(8) itself.
plan_mount_options() {
	jq -r '[.mount.options[] | select(. != "nofail" and (startswith("x-") | not))] | join(",")' "$1"
}

_wait_node() {
	for _ in $(seq 100); do
		[ -b "$1" ] && return 0
		sleep 0.05
	done
	bench_die "partition node '$1' did not appear"
}

# A fresh loop device where a RAID LUN that exports no topology starts.
_fixture_loop() {
	FX_COUNT=$((FX_COUNT + 1))
	FX_DEV=$(sp_loop_create "$FIXTURE_SIZE") || exit 1
	# A real LUN completes I/O asynchronously; so does a loop device doing
	# direct I/O on its backing file, and the host's page cache stays out.
	losetup --direct-io=on "$FX_DEV" || bench_die "cannot switch '$FX_DEV' to direct I/O"
	# A loop device keeps a raised read_ahead_kb and its scheduler across
	# detach and attach: start every fixture where a RAID LUN that exports
	# no topology starts (128 KiB), whatever the number's last user (an
	# earlier stripeplan fixture, say) left.  stripeplan apply sets its own.
	if ! echo 128 >"/sys/block/$(basename "$FX_DEV")/queue/read_ahead_kb" ||
		! echo none >"/sys/block/$(basename "$FX_DEV")/queue/scheduler"; then
		bench_die "cannot reset the queue knobs of '$FX_DEV'"
	fi
	FX_PART="${FX_DEV}p1"
}

# _fixture_mount LAYOUT ARRAY OPTS
_fixture_mount() {
	local layout=$1 idx=$2 opts=$3

	if [ "$FX_PART" = "$FX_DEV" ]; then
		FX_START=0
	else
		# the kernel re-reads the label after apply: wait for the node
		_wait_node "$FX_PART"
		FX_START=$(cat "/sys/class/block/$(basename "$FX_PART")/start") ||
			bench_die "no start sector for '$FX_PART' in sysfs"
	fi
	FX_MNT="$SP_LOOP_TMPDIR/mnt.$FX_COUNT"
	sp_loop_mount "$FX_PART" "$FX_MNT" "$opts" || exit 1
	{
		echo "== $layout on $FX_DEV (array $(array_field "$idx" name)): partition at sector $FX_START, mount -o '${opts:-defaults}'"
		case $(findmnt -no FSTYPE "$FX_MNT") in
		xfs) xfs_info "$FX_MNT" ;;
		*) dumpe2fs -h "$FX_PART" 2>/dev/null | grep -Ei 'stride|stripe|journal (size|features)|^block size' ;;
		esac
	} >>"$LOGS/fixtures.log"
}

fixture_make_variant() {
	local idx=$1 plan=$2 opts=$3 start size
	shift 3

	_fixture_loop
	if [ "$(jq -r '.partition.table' "$plan")" = none ]; then
		FX_PART=$FX_DEV
	else
		start=$(jq '.partition.start_sector' "$plan")
		size=$(jq '.partition.size_sectors' "$plan")
		parted -s "$FX_DEV" mklabel gpt unit s mkpart p "$start" $((start + size - 1)) ||
			bench_die "parted on '$FX_DEV' failed"
		_wait_node "$FX_PART"
	fi
	"${@:1:$#-1}" "$FX_PART" >>"$LOGS/mkfs.log" 2>&1 || bench_die "'$*' failed (see $LOGS/mkfs.log)"
	_fixture_mount variant "$idx" "$opts"
}

fixture_make() {
	local layout=$1 idx=$2 profile=${3:-general} opts="" plan
	local -a args

	_fixture_loop
	case $layout in
	stripeplan)
		plan="$LOGS/plan.$(array_field "$idx" name).$FX_COUNT.$profile.json"
		plan_json "$idx" "$FX_DEV" "$plan" "$profile"
		read -ra args <<<"$(array_args "$idx")"
		"$STRIPEPLAN" apply "${args[@]}" --fs xfs --workload "$profile" --device "$FX_DEV" \
			--root "$APPLY_ROOT" >>"$LOGS/apply.log" 2>&1 ||
			bench_die "stripeplan apply --workload $profile on '$FX_DEV' failed (see $LOGS/apply.log)"
		# the profile the case records is the plan's own
		[ "$(jq -r '.workload // "general"' "$plan")" = "$profile" ] ||
			bench_die "the plan in '$plan' is not for --workload $profile"
		opts=$(plan_mount_options "$plan")
		# md's plan has no partition table: the filesystem on the device
		FX_PART=$(jq -r '.partition.path' "$plan")
		;;
	mkfs-topology)
		FX_PART=$FX_DEV
		mkfs.xfs -q -d "su=$(array_chunk_bytes "$idx"),sw=$(array_data_disks "$idx")" \
			"$FX_PART" >>"$LOGS/mkfs.log" 2>&1 ||
			bench_die "mkfs.xfs on '$FX_PART' failed (see $LOGS/mkfs.log)"
		# the kernel's read-ahead for a device with that optimal I/O size
		topology_read_ahead_kb "$idx" \
			>"/sys/block/$(basename "$FX_DEV")/queue/read_ahead_kb" ||
			bench_die "cannot set the read-ahead of '$FX_DEV'"
		;;
	parted-default)
		parted -s -a optimal "$FX_DEV" mklabel gpt mkpart p 0% 100% ||
			bench_die "parted on '$FX_DEV' failed"
		_wait_node "$FX_PART"
		mkfs.xfs -q "$FX_PART" || bench_die "mkfs.xfs on '$FX_PART' failed"
		;;
	legacy-63)
		parted -s -a none "$FX_DEV" mklabel msdos mkpart primary 63s 100% ||
			bench_die "parted on '$FX_DEV' failed"
		_wait_node "$FX_PART"
		mkfs.xfs -q "$FX_PART" || bench_die "mkfs.xfs on '$FX_PART' failed"
		;;
	*) bench_die "unknown layout '$layout'" ;;
	esac
	_fixture_mount "$layout${3:+ --workload $profile}" "$idx" "$opts"
}

fixture_drop() {
	local img

	[ -n "$FX_DEV" ] || return 0
	img=$(awk -v d="$FX_DEV" '$1 == d { print $2 }' "$SP_LOOP_TMPDIR/.devices" | tail -1)
	if [ -n "$FX_MNT" ] && findmnt --mountpoint "$FX_MNT" >/dev/null; then
		umount "$FX_MNT" || bench_die "cannot unmount '$FX_MNT'"
	fi
	# only while it still serves our image (fixtures/loop.sh does the same)
	if [ -n "$img" ] && [ "$(losetup --noheadings --output BACK-FILE "$FX_DEV")" = "$img" ]; then
		losetup --detach "$FX_DEV" || bench_die "cannot detach '$FX_DEV'"
		rm -f "$img"
	fi
	FX_DEV=""
	FX_MNT=""
}
