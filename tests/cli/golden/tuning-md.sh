#!/bin/sh
# stripeplan-tune-md3: block-device tuning from stripeplan
#
# Sets the knobs stripeplan planned for /dev/md3
# (md raid5, 10 disks) and reads each value back.  Generated from the plan:
# change the plan and run stripeplan again rather than editing this file.
#
# usage: stripeplan-tune-md3 [KERNEL_NAME]
#   KERNEL_NAME  only tune /sys/block/KERNEL_NAME/ (a udev rule passes %k,
#                which spells cciss!c0d0 as cciss/c0d0; both work)
#   SYSFS_ROOT   (environment) put in front of every /sys path, so tests
#                can run this against a copy of a fake sysfs tree
#
# A knob the device does not have is logged and skipped; a value the
# kernel clamped is logged as a warning.  The exit status is 1 only when
# writing a knob that exists failed.  Running it again changes nothing.
set -u

SYSFS_ROOT=${SYSFS_ROOT:-}
only=$(printf '%s' "${1:-}" | tr '/' '!')
status=0

log() {
	printf 'stripeplan-tune: %s\n' "$*" >&2
}

# current FILE: sets cur to what the knob holds now; of a scheduler list
# such as "mq-deadline [none]", the bracketed entry is the active one
current() {
	cur=$(cat -- "$1" 2>/dev/null) || return 1
	case $cur in
	*\[*\]*)
		cur=${cur#*\[}
		cur=${cur%%\]*}
		;;
	esac
}

# matches VALUE: cur is VALUE; md reports sync_speed_min as "30000 (local)"
matches() {
	[ "$cur" = "$1" ] || [ "${cur%% *}" = "$1" ]
}

# tune PATH VALUE: writes VALUE unless the knob holds it already, then
# reads it back
tune() {
	if [ -n "$only" ]; then
		case $1 in
		"/sys/block/$only/"*) ;;
		*) return 0 ;;
		esac
	fi
	file=$SYSFS_ROOT$1
	if [ ! -e "$file" ]; then
		log "skip $1: not present"
		return 0
	fi
	if current "$file" && matches "$2"; then
		return 0
	fi
	if ! err=$({ printf '%s\n' "$2" >"$file"; } 2>&1); then
		# the shell says "script: 61: cannot create FILE: Invalid argument"
		err=${err##*: }
		log "cannot set $1 to '$2': ${err:-the write failed}"
		status=1
		return 0
	fi
	if ! current "$file"; then
		log "warning: cannot read $1 back after writing '$2'"
	elif ! matches "$2"; then
		log "warning: $1 is '$cur' after writing '$2': the kernel clamped it"
	fi
}

# seed 002: blockdev --setra 65536 on the md device (65536 sectors of 512 B = 32 MiB) for large sequential files (read_ahead_kb counts KiB: blockdev --setra 65536, in 512-byte sectors)
tune '/sys/block/md3/queue/read_ahead_kb' '32768'
# seed 002: a large stripe cache lets md gather full stripes before computing parity; the report calls it '16 MiB' but it costs entries x page size x member disks of RAM
tune '/sys/block/md3/md/stripe_cache_size' '16384'
# seed 002: pins resync at 30000 KiB/s (about 29 MiB/s); with large chunks and a big stripe cache the 2007 kernel's resync crawled at 1 MiB/s
tune '/sys/block/md3/md/sync_speed_min' '30000'
# seed 002: caps resync at 30000 KiB/s so it cannot swamp the array; raise it to rebuild faster when the array is idle
tune '/sys/block/md3/md/sync_speed_max' '30000'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdb/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdb/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdb/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdb/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdc/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdc/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdc/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdc/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdd/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdd/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdd/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdd/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sde/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sde/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sde/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sde/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdf/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdf/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdf/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdf/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdg/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdg/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdg/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdg/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdh/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdh/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdh/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdh/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdi/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdi/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdi/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdi/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdj/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdj/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdj/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdj/device/queue_depth' '1'
# member disks of an md array: deadline keeps reads from starving behind resync and writeback
tune '/sys/block/sdk/queue/scheduler' 'mq-deadline'
# seed 002: 128 KiB per request on each member disk (the kernel clamps to max_hw_sectors_kb)
tune '/sys/block/sdk/queue/max_sectors_kb' '128'
# seed 002: a deeper request queue per member (a count of requests, not KiB as the report says; the kernel may clamp it)
tune '/sys/block/sdk/queue/nr_requests' '512'
# seed 002: NCQ off (queue_depth 1) was 20-30 MiB/s faster on WD Raptors (2007)
tune '/sys/block/sdk/device/queue_depth' '1'

exit "$status"
