#!/bin/sh
# stripeplan-tune-cciss-c0d0: block-device tuning from stripeplan
#
# Sets the knobs stripeplan planned for /dev/cciss/c0d0
# (hp-p400 raid10, 8 disks) and reads each value back.  Generated from the plan:
# change the plan and run stripeplan again rather than editing this file.
#
# usage: stripeplan-tune-cciss-c0d0 [KERNEL_NAME]
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

# seed 000: noop lifted sequential reads 123 -> 201 MB/s and random reads 108 -> 206 MB/s; the controller orders I/O better than the host (noop is called none since Linux 5.0)
tune '/sys/block/cciss!c0d0/queue/scheduler' 'noop'
# seed 000: blockdev --setra 8192 took reads 201 -> 324 MB/s; 8192 sectors of 512 B is 4 MiB, not the 8 MB the report says; 16 MiB gained nothing more (read_ahead_kb counts KiB: blockdev --setra 8192, in 512-byte sectors)
tune '/sys/block/cciss!c0d0/queue/read_ahead_kb' '4096'

exit "$status"
