# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Block request capture through tracefs, for bench/run and
# tests/device/bench-smoke.sh:
#
#	bt_init                 mount tracefs where only we look, make our instance
#	bt_start DEV            trace requests issued to and completed by DEV
#	bt_stop OUT             stop; write the requests to OUT, one a line:
#	                        "I W 18432 1024" (issued, write, sector, sectors)
#	                        "C W 18432 1024" (completed)
#	bt_cleanup              undo everything bt_init and bt_start did
#
# The events are enabled in a tracefs instance of our own
# (instances/stripeplan-bench.PID): it has its own buffer and its own event
# switches, so the global trace state, and any other tracer on the machine,
# never sees us.  bt_cleanup switches our events off, clears their filters
# and removes the instance; call it from the EXIT trap.  Sectors are the
# whole disk's, in 512-byte units: the block layer remaps partition I/O
# before the request tracepoints.
#
# bt_init mounts tracefs on a directory of its own (mktemp), whether or not
# it is mounted on /sys/kernel/tracing, and bt_cleanup unmounts only that:
# tracefs is one file system however often it is mounted, so another
# bench's (or tracer's) instance lives in it too, and unmounting a shared
# mount point would pull its files from under it (an earlier version did,
# and cut a concurrent bench short); nor can anyone else's unmount of
# /sys/kernel/tracing take ours away.  /sys/kernel/tracing stays as it was.

BT_ROOT=""
BT_INST=""
BT_MNT=""
BT_DEV=""
BT_EVENTS=(block_rq_issue block_rq_complete)
# Per-CPU buffer.  Each event takes about 100 bytes; the biggest bench
# workload issues some tens of thousands.
BT_BUFFER_KB=${BT_BUFFER_KB:-16384}

bt_die() {
	echo "trace: $*" >&2
	exit 1
}

bt_init() {
	[ -z "$BT_INST" ] || bt_die "bt_init called twice"
	# not under a directory anyone removes with rm -rf: through a mount
	# that would rmdir every instance, other tracers' too
	BT_MNT=$(mktemp -d "${TMPDIR:-/tmp}/stripeplan-tracefs.XXXXXX") ||
		bt_die "cannot create a mount point for tracefs"
	if ! mount -t tracefs tracefs "$BT_MNT"; then
		rmdir "$BT_MNT"
		BT_MNT=""
		bt_die "cannot mount tracefs (does the kernel have CONFIG_TRACING?)"
	fi
	BT_ROOT=$BT_MNT
	[ -d "$BT_ROOT/events/block/block_rq_issue" ] ||
		bt_die "the kernel has no block request tracepoints (CONFIG_BLK_DEV_IO_TRACE? events/block/block_rq_issue is missing)"
	BT_INST="$BT_ROOT/instances/stripeplan-bench.$$"
	mkdir "$BT_INST" || bt_die "cannot create the tracefs instance '$BT_INST'"
	echo 0 >"$BT_INST/tracing_on"
	echo "$BT_BUFFER_KB" >"$BT_INST/buffer_size_kb" ||
		bt_die "cannot size the trace buffer to $BT_BUFFER_KB KiB per CPU"
}

# bt_start DEV: DEV is a whole disk (requests are issued to disks, not partitions)
bt_start() {
	local dev=$1 major minor e

	[ -n "$BT_INST" ] || bt_die "call bt_init first"
	[ -b "$dev" ] || bt_die "'$dev' is not a block device"
	major=$((16#$(stat -L -c %t "$dev")))
	minor=$((16#$(stat -L -c %T "$dev")))
	BT_DEV="$major,$minor"
	echo 0 >"$BT_INST/tracing_on"
	: >"$BT_INST/trace" # clears the buffer
	for e in "${BT_EVENTS[@]}"; do
		# the kernel's dev_t: major in the bits above the low 20
		echo "dev == $(((major << 20) | minor))" >"$BT_INST/events/block/$e/filter" ||
			bt_die "cannot filter $e to $BT_DEV"
		echo 1 >"$BT_INST/events/block/$e/enable" || bt_die "cannot enable $e"
	done
	echo 1 >"$BT_INST/tracing_on"
}

_bt_events_off() {
	local e

	echo 0 >"$BT_INST/tracing_on" 2>/dev/null || true
	for e in "${BT_EVENTS[@]}"; do
		echo 0 >"$BT_INST/events/block/$e/enable" 2>/dev/null || true
		echo 0 >"$BT_INST/events/block/$e/filter" 2>/dev/null || true
	done
}

# Events the ring buffer had to drop: a trace with holes would give figures
# that look plausible and are wrong, so it is an error, not a warning.
_bt_lost() {
	awk '/^(overrun|commit overrun|dropped events):/ { n += $NF } END { print n + 0 }' \
		"$BT_INST"/per_cpu/cpu*/stats
}

# bt_stop OUT
bt_stop() {
	local out=$1 lost

	[ -n "$BT_DEV" ] || bt_die "bt_stop without bt_start"
	_bt_events_off
	lost=$(_bt_lost)
	[ "$lost" = 0 ] ||
		bt_die "the trace buffer lost $lost events; raise BT_BUFFER_KB (now $BT_BUFFER_KB KiB per CPU)"
	# A line: "<task>-<pid> [cpu] flags ts: block_rq_issue: 7,1 WS 4096 () 2048 + 8 ..."
	# (complete has no byte count; kernels before 6.3 end after the sector
	# count).  The task name may hold spaces, so fields are found after the
	# event name.  rwbs: W write, R read, D discard (ignored), F flush/FUA,
	# N none; requests without data (flushes) are dropped.
	awk -v want="$BT_DEV" '
		{
			if ((i = index($0, " block_rq_issue: ")) > 0) {
				kind = "I"; rest = substr($0, i + 17)
			} else if ((i = index($0, " block_rq_complete: ")) > 0) {
				kind = "C"; rest = substr($0, i + 20)
			} else
				next
			split(rest, f, " ")
			if (f[1] != want)
				next
			if (f[2] ~ /D/)
				dir = ""
			else if (f[2] ~ /W/)
				dir = "W"
			else if (f[2] ~ /R/)
				dir = "R"
			else
				dir = ""
			if (dir == "")
				next
			if (!match(rest, /\) [0-9]+ \+ [0-9]+/))
				next
			split(substr(rest, RSTART + 2, RLENGTH - 2), s, " ")
			if (s[3] + 0 == 0)
				next
			print kind, dir, s[1], s[3]
		}' "$BT_INST/trace" >"$out" || bt_die "cannot write '$out'"
	BT_DEV=""
}

bt_cleanup() {
	if [ -n "$BT_INST" ] && [ -d "$BT_INST" ]; then
		_bt_events_off
		# a reader still draining the buffer keeps the instance busy for a moment
		for _ in 1 2 3 4 5; do
			rmdir "$BT_INST" 2>/dev/null && break
			sleep 0.2
		done
		[ ! -d "$BT_INST" ] || echo "trace: cannot remove '$BT_INST'" >&2
	fi
	BT_INST=""
	if [ -n "$BT_MNT" ]; then
		# our own mount point: no other tracer uses it, so a lazy unmount
		# (a reader of ours still draining) takes nothing from anyone
		if umount "$BT_MNT" 2>/dev/null || umount --lazy "$BT_MNT"; then
			rmdir "$BT_MNT" 2>/dev/null || true
		else
			echo "trace: cannot unmount tracefs from '$BT_MNT'; left mounted" >&2
		fi
		BT_MNT=""
	fi
	BT_ROOT=""
	return 0
}
