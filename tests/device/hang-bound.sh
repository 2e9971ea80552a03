#!/bin/bash
# A device test that hangs past its bound detaches what it made: every cli
# and device test runs under tests/bounded.sh (ctest's own TIMEOUT ends a
# test with SIGKILL, which no trap sees, and the loop devices of device
# tests that hung under load stayed attached).  A script that attaches a
# loop device, mounts it and then hangs is run under bounded.sh with a
# 3-second bound: it must end with 124, and its device, mount and
# directory must be gone.
# shellcheck source-path=SCRIPTDIR source=lib.bash
. "$(dirname "$0")/lib.bash"

cat >"$WORK/hangs.sh" <<'HANGS'
# shellcheck shell=bash
. "$SRCDIR/tests/device/lib.bash"
dev=$(sp_loop_create 64M) || exit 1
mkfs.ext4 -q "$dev"
sp_loop_mount "$dev" "$SP_LOOP_TMPDIR/mnt"
printf '%s %s %s\n' "$dev" "$(image_of "$dev")" "$SP_LOOP_TMPDIR" >"$REPORT"
sleep 600
HANGS

checks=$((checks + 1))
rc=0
start=$(date +%s)
REPORT="$WORK/made" sh "$SRCDIR/tests/bounded.sh" 3 "$WORK/hangs.sh" || rc=$?
took=$(($(date +%s) - start))
[ "$rc" = 124 ] || fail "the hanging script exited $rc, not 124 (timeout's)"
# TERM, not the KILL 30 s later: the traps ran
[ "$took" -lt 30 ] || fail "the hanging script took ${took}s to end: KILL, not its traps"

checks=$((checks + 1))
if read -r dev img dir <"$WORK/made"; then
	back=$(losetup --noheadings --output BACK-FILE "$dev" 2>/dev/null || true)
	[ "$back" != "$img" ] || fail "$dev still serves the hung script's image $img"
	! findmnt --mountpoint "$dir/mnt" >/dev/null || fail "$dir/mnt is still mounted"
	[ ! -e "$dir" ] || fail "the hung script's directory $dir is still there"
else
	fail "the hanging script did not get as far as attaching its device"
fi
device_finish
