#!/bin/bash
# The bench's capture path (bench/lib/trace.bash) on one loop device, so
# the harness cannot rot while the bench itself is not run in CI: tracefs
# must record exactly the direct I/O that dd issued -- sector, length,
# direction, partition I/O at whole-disk sectors -- and sp-replay must
# accept the trace.  Events are switched off and our tracefs instance
# removed whatever happens; another bench starting and ending meanwhile
# leaves our instance alone, and /sys/kernel/tracing stays mounted or not
# as it was (bt_init mounts tracefs where only it looks).
. "$SRCDIR/tests/device/lib.bash"
# shellcheck source=../../bench/lib/trace.bash
. "$SRCDIR/bench/lib/trace.bash"

REPLAY="$(dirname "$STRIPEPLAN")/bench/sp-replay"
smoke_exit() {
	local rc=$?

	bt_cleanup
	sp_loop_cleanup
	exit "$rc"
}
trap smoke_exit EXIT

global_state() {
	if [ -d /sys/kernel/tracing/events/block ]; then
		cat /sys/kernel/tracing/tracing_on \
			/sys/kernel/tracing/events/block/block_rq_issue/{enable,filter} \
			/sys/kernel/tracing/events/block/block_rq_complete/{enable,filter}
	else
		echo "tracefs not mounted"
	fi
	findmnt -n --mountpoint /sys/kernel/tracing -o FSTYPE || true
}
STATE_BEFORE=$(global_state)

dev=$(sp_loop_create 64M) || exit 1
parted -s -a optimal "$dev" mklabel gpt mkpart p 1MiB 100% || fail "parted on $dev"
for _ in $(seq 50); do
	[ -b "${dev}p1" ] && break
	sleep 0.1
done

# Another bench, in a process of its own, starts before ours and ends while
# ours runs: its cleanup must leave our instance, and the tracefs under it,
# be (an earlier trace.bash unmounted the tracefs it had mounted).
SRCDIR="$SRCDIR" WORK="$WORK" bash -c '. "$SRCDIR/bench/lib/trace.bash"
	bt_init
	: >"$WORK/other-ready"
	for _ in $(seq 200); do [ -e "$WORK/other-go" ] && break; sleep 0.05; done
	bt_cleanup' &
other=$!
for _ in $(seq 200); do
	[ -e "$WORK/other-ready" ] && break
	sleep 0.05
done
bt_init
inst=$(basename "$BT_INST")
mnt=${BT_MNT:-}
: >"$WORK/other-go"
checks=$((checks + 1))
wait "$other" || fail "the other bench's bt_init/bt_cleanup failed"
[ -d "$BT_INST/events/block" ] || fail "another bench's cleanup took our instance '$BT_INST' away"
bt_start "$dev"
# Each write is small enough (at most 64 pages) that the block layer does
# not split it, so each must be exactly one request.
dd if=/dev/zero of="${dev}p1" bs=4K count=1 oflag=direct status=none # partition sector 0 = disk 2048
dd if=/dev/zero of="$dev" bs=64K count=1 seek=3 oflag=direct conv=notrunc status=none
dd if=/dev/zero of="$dev" bs=4K count=1 seek=1000 oflag=direct conv=notrunc status=none
dd if=/dev/zero of="$dev" bs=128K count=1 seek=40 oflag=direct conv=notrunc status=none
dd if="$dev" of=/dev/null bs=64K count=1 skip=7 iflag=direct status=none
bt_stop "$WORK/trace"

checks=$((checks + 1))
printf 'I W %s\n' "2048 8" "384 128" "8000 8" "10240 256" >"$WORK/want"
grep '^I W ' "$WORK/trace" >"$WORK/got" || true
diff -u "$WORK/want" "$WORK/got" >&2 || fail "issued writes differ from what dd wrote (trace above)"
checks=$((checks + 1))
grep -qx 'I R 896 128' "$WORK/trace" || fail "the direct read at sector 896 was not captured: $(cat "$WORK/trace")"
checks=$((checks + 1))
[ "$(grep -c '^C W ' "$WORK/trace")" = 4 ] || fail "expected 4 write completions: $(cat "$WORK/trace")"

# RAID5 4 x 64 KiB (rows of 384 sectors): each write lands in one column of
# one row, except the 128 KiB one, which fills a column in each of two
# rows.  One column of three: rmw and rcw both read 2 -> rcw, 2 reads + 2
# writes a row; 5 rows: 10 reads and 10 writes.
checks=$((checks + 1))
if "$REPLAY" --level 5 --disks 4 --chunk 64K --array smoke --layout loop --workload dd \
	"$WORK/trace" >"$WORK/case.json" 2>"$WORK/err"; then
	for want in '"requests": 4,' '"member_reads": 10, "member_writes": 10,' \
		'"other_direction_requests": 1,' '"unmatched_completions": 0,'; do
		grep -qF -- "$want" "$WORK/case.json" ||
			fail "sp-replay output lacks '$want': $(cat "$WORK/case.json")"
	done
else
	fail "sp-replay ($REPLAY) failed: $(cat "$WORK/err")"
fi

bt_cleanup
checks=$((checks + 1))
# look through a mount of our own, as bt_init does
look=$(mktemp -d "${TMPDIR:-/tmp}/bench-smoke-tracefs.XXXXXX")
mount -t tracefs tracefs "$look" || fail "cannot mount tracefs to look for our instance"
left=0
[ ! -e "$look/instances/$inst" ] || left=1
umount "$look" && rmdir "$look"
[ "$left" = 0 ] || fail "our tracefs instance was left behind"
checks=$((checks + 1))
if [ -z "$mnt" ] || [ -e "$mnt" ]; then
	fail "bt_init mounted no tracefs of its own, or bt_cleanup left its mount point '$mnt'"
fi
checks=$((checks + 1))
[ "$(global_state)" = "$STATE_BEFORE" ] || fail "the global tracefs state changed"
device_finish
