#!/bin/bash
# Output and children, on loop devices: a closed standard output never
# becomes the disk; a lost report is exit 4 with a line saying what the run
# did, and an apply that wrote keeps its report under --root; mkfs runs in
# a fixed environment with a deadline and its own process group, and apply
# waits for it, not for its output; libparted never starts dmidecode; JSON
# is UTF-8.  Every case asserts the image's bytes, the exit code and the
# message.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --kernel 6.1)
LOGDIR="$SP_TEST_ROOT/var/log/stripeplan"
SYSTEM_DIRS=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# in_closed_pipe CMD...: CMD with standard output the write end of a pipe
# whose reader is gone, and SIGPIPE at its default, as a shell gives it
in_closed_pipe() {
	python3 -c '
import os, signal, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# to_full CMD...: CMD with standard output on /dev/full; err_full: error
to_full() { "$@" >/dev/full; }
err_full() { "$@" 2>/dev/full; }

# strict_json FILE: FILE is one JSON document, UTF-8 as strict parsers want it
strict_json() {
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"
}

# no_text DEV: neither end of DEV holds report text
no_text() {
	local img
	img=$(image_of "$1")
	checks=$((checks + 1))
	if { head -c 1M "$img"; tail -c 1M "$img"; } | grep -aqE '\[[0-9]/[0-9]\]|stripeplan|apply '; then
		fail "report text on $1"
	fi
}

# protective_mbr DEV: sector 0 holds the protective MBR of a GPT: one entry
# of type 0xee, the other three empty, the 55aa signature
protective_mbr() {
	local img entries
	img=$(image_of "$1")
	entries=$(od -An -tx1 -j 446 -N 66 -v "$img" | tr -s ' \n' ' ')
	checks=$((checks + 1))
	[ "$(od -An -tx1 -j 450 -N 1 "$img" | tr -d ' ')" = ee ] || fail "$1: entry 1 is not 0xee: $entries"
	checks=$((checks + 1))
	[ "$(od -An -tx1 -j 462 -N 48 -v "$img" | tr -d ' \n' | tr -d 0)" = "" ] ||
		fail "$1: more than the protective entry (a hybrid MBR?): $entries"
	checks=$((checks + 1))
	[ "$(od -An -tx1 -j 510 -N 2 "$img" | tr -d ' ')" = 55aa ] || fail "$1: no MBR signature"
}

# ran_none WHAT: no program of the caller's PATH left its mark
ran_none() {
	local marks=("$WORK"/ran-*)
	checks=$((checks + 1))
	[ ! -e "${marks[0]}" ] || fail "$1: ${marks[*]}"
}

reports() {
	find "$LOGDIR" -maxdepth 1 -name 'apply-*.json' 2>/dev/null | sort
}

# --- a closed standard output is /dev/null, never the disk -------------------
# Matching device: apply opens the disk after fd 1 was found closed.
dev=$(sp_loop_create 1G) || exit 1
expect_ok "apply" sp apply "${P400[@]}" --device "$dev" --mountpoint /data
before=$(digest "$dev")
for redir in '>&-' '>&- 2>&-' '<&- >&- 2>&-'; do
	rc=0
	eval "sp apply \"\${P400[@]}\" --device \"\$dev\" --mountpoint /data $redir" || rc=$?
	checks=$((checks + 1))
	[ "$rc" = 0 ] || fail "apply $redir on a matching device exited $rc"
	unchanged "$dev" "$before" "apply $redir on a matching device"
	rc=0
	eval "sp check --strict \"\${P400[@]}\" --device \"\$dev\" --mountpoint /data $redir" || rc=$?
	checks=$((checks + 1))
	[ "$rc" = 0 ] || fail "check $redir exited $rc"
	unchanged "$dev" "$before" "check $redir"
done
protective_mbr "$dev"
no_text "$dev"

# Output redirected to a block device (the disk itself, one slip away from
# --device) is refused before anything: the report would go over the label.
to_dev() { "$@" >"$dev"; }
err_to_dev() { "$@" 2>"$dev"; }
expect_untouched 2 "$dev" "^stripeplan: standard output is a block device; stripeplan writes its output to no disk: refused, nothing was done$" \
	to_dev sp apply "${P400[@]}" --device "$dev" --mountpoint /data
expect_untouched 2 "$dev" "^stripeplan: standard error is a block device" \
	err_to_dev sp check "${P400[@]}" --device "$dev" --mountpoint /data
expect_untouched 2 "$dev" "^stripeplan: standard output is a block device" to_dev sp --version

# Blank device: the disk gets exactly the plan and never the report.
blank=$(sp_loop_create 1G) || exit 1
rc=0
sp apply "${P400[@]}" --device "$blank" >&- 2>&- || rc=$?
checks=$((checks + 1))
[ "$rc" = 0 ] || fail "apply >&- 2>&- on a blank device exited $rc"
expect_ok "check after apply >&-" sp check --strict "${P400[@]}" --device "$blank"
protective_mbr "$blank"
no_text "$blank"

# --- a lost report: exit 4, one line saying what the run did -----------------
n=$(reports | wc -l)
expect_rc 4 "cannot write the report to standard output: No space left on device; the run itself: apply '$dev': unchanged: the device already matched the plan \(exit 0\)" \
	to_full sp apply "${P400[@]}" --device "$dev" --mountpoint /data
unchanged "$dev" "$before" "apply >/dev/full"
expect_rc 4 "cannot write the report to standard output: No space left on device; the run itself: check '$dev': match: the device matches the plan \(exit 0\)" \
	to_full sp check "${P400[@]}" --device "$dev" --mountpoint /data
expect_rc 4 "cannot write the report to standard output: Broken pipe; the run itself: check '$dev': match" \
	in_closed_pipe "$STRIPEPLAN" check "${P400[@]}" --device "$dev" --mountpoint /data --root "$SP_TEST_ROOT"
expect_rc 4 "cannot write the report to standard output: Broken pipe; the run itself: apply '$dev': unchanged" \
	in_closed_pipe "$STRIPEPLAN" apply "${P400[@]}" --device "$dev" --mountpoint /data --root "$SP_TEST_ROOT"
expect_rc 4 "cannot write the report to standard output: No space left on device; the run itself: apply '$dev': dry run: nothing was written" \
	to_full sp apply "${P400[@]}" --device "$dev" --mountpoint /srv --dry-run
unchanged "$dev" "$before" "lost reports of runs that wrote nothing"
checks=$((checks + 1))
[ "$(reports | wc -l)" = "$n" ] || fail "a run that wrote nothing kept a report: $(reports)"
# the messages of a refusal go to standard output when standard error is full
expect_rc 3 "holds an xfs filesystem.*without --force" \
	err_full sp apply "${P400[@]/xfs/ext4}" --device "$dev"
expect_out "^stripeplan: .*could not be written to standard error: No space left on device"
unchanged "$dev" "$before" "a refusal with standard error full"

# --- apply | head -1: the run completes, exit 4, the report is kept ---------
dev2=$(sp_loop_create 1G) || exit 1
{
	rc=0
	sp apply "${P400[@]}" --device "$dev2" --mountpoint /data2 2>"$WORK/err" || rc=$?
	echo "$rc" >"$WORK/rc"
} | head -1 >"$WORK/first"
rc=$(cat "$WORK/rc")
checks=$((checks + 1))
[ "$rc" = 4 ] || fail "apply | head -1 exited $rc: $(cat "$WORK/err")"
checks=$((checks + 1))
grep -q '^\[1/4\] partition ' "$WORK/first" || fail "head saw: $(cat "$WORK/first")"
checks=$((checks + 1))
grep -qE "^stripeplan: cannot write the report to standard output: Broken pipe; the run itself: apply '$dev2': done: the device now matches the plan; the report is kept in '$LOGDIR/apply-[0-9]{8}T[0-9]{6}Z-${dev2#/dev/}-[0-9]+\.json' \(exit 0\)\$" "$WORK/err" ||
	fail "apply | head -1 said: $(cat "$WORK/err")"
kept=$(sed -n "s/.*the report is kept in '\([^']*\)'.*/\1/p" "$WORK/err")
expect_ok "check after apply | head -1" sp check --strict "${P400[@]}" --device "$dev2" --mountpoint /data2
checks=$((checks + 1))
if [ ! -f "$kept" ] || ! strict_json "$kept" || ! jq -e '.command == "apply" and .outcome == "done" and .exit_code == 0 and (.steps | length) == 4' "$kept" >/dev/null; then
	fail "the kept report '$kept' is not apply's done report: $(cat "$kept" 2>&1)"
fi
checks=$((checks + 1))
[ "$(stat -c %a "$kept") $(stat -c %a "$LOGDIR")" = "640 750" ] || fail "modes $(stat -c %a "$kept") $(stat -c %a "$LOGDIR")"

# --- only a run that wrote keeps its report ----------------------------------
n=$(reports | wc -l)
expect_rc 3 "holds an xfs filesystem" sp apply "${P400[@]/xfs/ext4}" --device "$dev2"
expect_ok "a dry run" sp apply "${P400[@]/xfs/ext4}" --device "$dev2" --force --dry-run
expect_ok "an unchanged run" sp apply "${P400[@]}" --device "$dev2" --mountpoint /data2
checks=$((checks + 1))
[ "$(reports | wc -l)" = "$n" ] || fail "a refusal, dry run or unchanged run kept a report: $(reports)"
expect_ok "a run that writes" sp apply "${P400[@]/xfs/ext4}" --device "$dev2" --mountpoint /data2 --force --format json
checks=$((checks + 1))
if [ "$(reports | wc -l)" != $((n + 1)) ] || ! cmp -s "$(reports | tail -1)" "$WORK/out"; then
	fail "the kept report is not what --format json printed"
fi

# --- children: the fixed environment, found in the system's PATH -----------
fake="$WORK/fake"
evil="$WORK/evil"
mkdir -p "$fake" "$evil"
# what the caller's PATH holds first must not be what formats the disk
for tool in mkfs.xfs mke2fs dmidecode sh; do
	printf '#!/bin/sh\ntouch %q/ran-%s\nexit 1\n' "$WORK" "$tool" >"$evil/$tool"
	chmod +x "$evil/$tool"
done
# a mkfs.xfs put first by the test hook (which replaces the system
# directories; the fake needs them after its own), which records what it was given
cat >"$fake/mkfs.xfs" <<EOF
#!/bin/sh
env | grep -v '^PWD=' | sort >"$WORK/env"
exec /sbin/mkfs.xfs "\$@"
EOF
chmod +x "$fake/mkfs.xfs"
dev3=$(sp_loop_create 1G) || exit 1
expect_ok "apply, hostile environment" env PATH="$evil:$PATH" MKE2FS_CONFIG=/nonexistent \
	LD_PRELOAD= HOME=/nonexistent STRIPEPLAN_TEST_PROGRAM_DIRS="$fake:$SYSTEM_DIRS" PARTED_GPT_APPLE=1 \
	"$STRIPEPLAN" apply "${P400[@]}" --device "$dev3" --root "$SP_TEST_ROOT"
checks=$((checks + 1))
printf 'LC_ALL=C\nPATH=%s:%s\n' "$fake" "$SYSTEM_DIRS" | cmp -s - "$WORK/env" ||
	fail "mkfs.xfs ran with: $(cat "$WORK/env")"
ran_none "ran from the caller's PATH"
# PARTED_GPT_APPLE=1 would have libparted write a hybrid MBR
protective_mbr "$dev3"
expect_ok "check, hostile environment" env PATH="$evil:$PATH" PARTED_GPT_APPLE=1 \
	"$STRIPEPLAN" check --strict "${P400[@]}" --device "$dev3" --root "$SP_TEST_ROOT"
expect_ok "plan, hostile environment" env PATH="$evil:$PATH" "$STRIPEPLAN" plan "${P400[@]}" --device "$dev3"
ran_none "check or plan ran"

# --- libparted starts nothing: no shell, no dmidecode -----------------------
dev4=$(sp_loop_create 1G) || exit 1
# LeakSanitizer cannot run under ptrace: the sanitizer build's runs without it
no_lsan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
ASAN_OPTIONS=$no_lsan strace -f -qq -e trace=execve -o "$WORK/trace" "$STRIPEPLAN" apply "${P400[@]}" --device "$dev4" \
	--root "$SP_TEST_ROOT" >"$WORK/out" 2>&1 || fail "apply under strace: $(cat "$WORK/out")"
ASAN_OPTIONS=$no_lsan strace -f -qq -e trace=execve -o "$WORK/trace-check" "$STRIPEPLAN" check --strict "${P400[@]}" \
	--device "$dev4" --root "$SP_TEST_ROOT" >"$WORK/out" 2>&1 || fail "check under strace: $(cat "$WORK/out")"
checks=$((checks + 1))
started=$(cat "$WORK/trace" "$WORK/trace-check" | grep -o 'execve("[^"]*"' | sort | uniq -c)
if [ "$(grep -c . <<<"$started")" != 2 ] ||
	! grep -q 'execve("/sbin/mkfs.xfs"\|execve("/usr/sbin/mkfs.xfs"' <<<"$started"; then
	fail "apply and check started more than mkfs.xfs: $started"
fi

# --- apply waits for mkfs, not for what mkfs left holding its output ---------
cat >"$fake/mkfs.xfs" <<EOF
#!/bin/sh
sleep 120 &
echo \$! >"$WORK/left.pid"
exec /sbin/mkfs.xfs "\$@"
EOF
dev5=$(sp_loop_create 1G) || exit 1
start=$SECONDS
expect_ok "apply, mkfs leaves a process holding its output" env STRIPEPLAN_TEST_PROGRAM_DIRS="$fake:$SYSTEM_DIRS" \
	"$STRIPEPLAN" apply "${P400[@]}" --device "$dev5" --root "$SP_TEST_ROOT"
checks=$((checks + 1))
[ $((SECONDS - start)) -lt 30 ] || fail "apply took $((SECONDS - start)) s: it waited for the left-over process"
expect_ok "check" sp check --strict "${P400[@]}" --device "$dev5"
# what mkfs left in its process group is gone (or a zombie waiting for init)
checks=$((checks + 1))
left=$(cat "$WORK/left.pid")
sleep 0.5
state=$(awk '{ print $3 }' "/proc/$left/stat" 2>/dev/null || true)
[ -z "$state" ] || [ "$state" = Z ] || fail "the process mkfs left ($left) still runs: state $state"

# --- a deadline: a hung mkfs is killed with its group, the step fails --------
# (its dry run before the first write, -N, is the real one's: the hang is
# in the step itself)
cat >"$fake/mkfs.xfs" <<EOF
#!/bin/sh
case " \$* " in *" -N "*) exec /sbin/mkfs.xfs "\$@" ;; esac
trap '' TERM
sleep 120 &
echo \$! >"$WORK/hung.pid"
wait
EOF
dev6=$(sp_loop_create 1G) || exit 1
start=$SECONDS
expect_rc 4 "mkfs.xfs did not finish within 2 s; killed it and its process group" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$fake:$SYSTEM_DIRS" STRIPEPLAN_TEST_DEADLINE=2 \
	"$STRIPEPLAN" apply "${P400[@]}" --device "$dev6" --root "$SP_TEST_ROOT"
expect_out "left behind: partition, tuning written and verified; 'filesystem' failed; not run: fstab"
checks=$((checks + 1))
[ $((SECONDS - start)) -lt 20 ] || fail "the deadline took $((SECONDS - start)) s"
checks=$((checks + 1))
hung=$(cat "$WORK/hung.pid")
sleep 0.5
state=$(awk '{ print $3 }' "/proc/$hung/stat" 2>/dev/null || true)
[ -z "$state" ] || [ "$state" = Z ] || fail "the hung mkfs's child ($hung) still runs: state $state"
checks=$((checks + 1))
jq -e '.outcome == "failed" and (.error | test("did not finish within 2 s"))' "$(reports | tail -1)" >/dev/null ||
	fail "the failed run's kept report: $(cat "$(reports | tail -1)")"
# a mkfs that hangs already in its dry run is killed there, before the
# first write: refused, the disk and the root as they were
cat >"$fake/mkfs.xfs" <<EOF
#!/bin/sh
sleep 120 &
echo \$! >"$WORK/hung.pid"
wait
EOF
dev6b=$(sp_loop_create 1G) || exit 1
before=$(state "$dev6b")
start=$SECONDS
expect_rc 3 "mkfs.xfs did not finish within 2 s; killed it and its process group" \
	env STRIPEPLAN_TEST_PROGRAM_DIRS="$fake:$SYSTEM_DIRS" STRIPEPLAN_TEST_DEADLINE=2 \
	"$STRIPEPLAN" apply "${P400[@]}" --device "$dev6b" --root "$SP_TEST_ROOT"
checks=$((checks + 1))
[ $((SECONDS - start)) -lt 20 ] || fail "the dry run's deadline took $((SECONDS - start)) s"
checks=$((checks + 1))
[ "$(state "$dev6b")" = "$before" ] || fail "the refused run changed $dev6b or the root"
checks=$((checks + 1))
hung=$(cat "$WORK/hung.pid")
sleep 0.5
state=$(awk '{ print $3 }' "/proc/$hung/stat" 2>/dev/null || true)
[ -z "$state" ] || [ "$state" = Z ] || fail "the hung dry run's child ($hung) still runs: state $state"
expect_rc 2 "STRIPEPLAN_TEST_DEADLINE: " env STRIPEPLAN_TEST_DEADLINE=0 "$STRIPEPLAN" apply "${P400[@]}" --device "$dev6"

# --- JSON is UTF-8, whatever the system holds --------------------------------
# an fstab line for our filesystem whose mount point is not UTF-8
dev7=$(sp_loop_create 1G) || exit 1
expect_ok "apply /data7" sp apply "${P400[@]}" --device "$dev7" --mountpoint /data7
sed -i "s|^\(UUID=[^ ]*\) /data7 |\1 /data7$(printf '\xff\xfe') |" "$SP_TEST_ROOT/etc/fstab"
checks=$((checks + 1))
grep -aq $'/data7\xff\xfe ' "$SP_TEST_ROOT/etc/fstab" || fail "the test could not edit fstab"
expect_rc 1 "" sp check --strict "${P400[@]}" --device "$dev7" --mountpoint /data7 --format json
checks=$((checks + 1))
strict_json "$WORK/out" || fail "check --format json is not UTF-8 JSON: $(head -c 2000 "$WORK/out")"
checks=$((checks + 1))
grep -qF '/data7\\xff\\xfe' "$WORK/out" || fail "the mount point is not escaped as \\xff\\xfe: $(grep -a data7 "$WORK/out")"
expect_rc 2 "mountpoint: '/data\\\\xff' is not valid UTF-8" sp apply "${P400[@]}" --device "$dev7" --mountpoint $'/data\xff'

device_finish
