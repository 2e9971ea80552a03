#!/bin/bash
# scan on loop devices (scan --device: a loop device is never listed on
# its own): an array stripeplan laid out (nothing costly), one with an
# msdos partition at sector 63 (costly, the same verdict check gives) and
# a blank one (a candidate, no verdict); exit 1; a mounted one is in use;
# every image unchanged, and strace sees no open for writing, no lock, no
# program run.  Bad --device values are exit 2.
. "$SRCDIR/tests/device/lib.bash"

G5=(--controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1)

aligned=$(sp_loop_create 1G) || exit 1
d63=$(sp_loop_create 1G) || exit 1
blank=$(sp_loop_create 1G) || exit 1

expect_ok "apply" sp apply "${G5[@]}" --fs xfs --device "$aligned"
parted -s "$d63" mklabel msdos mkpart primary 63s 100% 2>/dev/null || fail "parted"
for _ in $(seq 50); do [ -e "${d63}p1" ] && break; sleep 0.1; done
mkfs.xfs -q -f -d su=64k,sw=3 -l su=64k "${d63}p1" || fail "mkfs.xfs"

before_aligned=$(digest "$aligned")
before_d63=$(digest "$d63")
before_blank=$(digest "$blank")

SCAN=(scan --device "$aligned" --device "$d63" --device "$blank" "${G5[@]}" --root "$SP_TEST_ROOT")

# row DEV FIELD VALUE: the last JSON scan's row of DEV has FIELD == VALUE (JSON)
row() {
	checks=$((checks + 1))
	python3 - "$WORK/out" "$1" "$2" "$3" <<'EOF' || fail "row $1: $2 is not $3: $(cat "$WORK/out")"
import json, sys
scan = json.load(open(sys.argv[1]))
rows = [r for r in scan["devices"] if r["device"] == sys.argv[2]]
sys.exit(0 if len(rows) == 1 and rows[0][sys.argv[3]] == json.loads(sys.argv[4]) else 1)
EOF
}

# same_verdict DEV: the scan row's counts and worst code are check's own
same_verdict() {
	local rc=0
	sp check "${G5[@]}" --device "$1" --format json >"$WORK/check" 2>/dev/null || rc=$?
	checks=$((checks + 1))
	python3 - "$WORK/out" "$WORK/check" "$1" <<'EOF' || fail "scan and check differ on $1: $(cat "$WORK/check")"
import json, sys
scan = json.load(open(sys.argv[1]))
check = json.load(open(sys.argv[2]))
row = [r for r in scan["devices"] if r["device"] == sys.argv[3]][0]
count = {s: sum(1 for f in check["findings"] if f["severity"] == s)
         for s in ("costly", "suboptimal", "differs")}
worst = check["findings"][0]["code"] if check["findings"] else None
ok = all(row[s] == count[s] for s in count) and (row["worst_code"] == worst or
     any(f["code"] == row["worst_code"] and f["severity"] == row["worst_severity"]
         for f in check["findings"]))
sys.exit(0 if ok else 1)
EOF
}

# --- the three devices: exit 1 (one costly) -----------------------------------
expect_rc 1 "" sp "${SCAN[@]}" --format json
row "$aligned" checked true
row "$aligned" costly 0
row "$aligned" suboptimal 0
row "$aligned" level '"raid5"'
row "$aligned" stripe_width_bytes 196608
row "$aligned" geometry_from '"declared: --level, --disks, --chunk"'
row "$aligned" table '"gpt"'
row "$aligned" candidate false
row "$d63" checked true
row "$d63" costly 1
row "$d63" worst_code '"start-misaligned"'
row "$d63" table '"dos"'
row "$d63" system false
row "$blank" blank true
row "$blank" candidate true
row "$blank" checked false
row "$blank" not_checked '"nothing on it to judge"'
checks=$((checks + 1))
grep -q '"exit_code": 1,' "$WORK/out" || fail "the JSON's exit code is not 1"
same_verdict "$aligned"
same_verdict "$d63"

expect_rc 1 "" sp "${SCAN[@]}"
expect_out "^$d63 +1 GiB disk +generic +raid5 4 x 64K +1 costly, [0-9]+ suboptimal, [0-9]+ differs\$"
expect_out "^$blank +1 GiB disk +generic +raid5 4 x 64K +candidate\$"
expect_out "worst: costly: partition 1 of $d63 starts at sector 63"

# without the geometry: unknown, and nothing is judged (exit 0)
expect_ok "no geometry" sp scan --device "$aligned" --device "$blank" --root "$SP_TEST_ROOT"
expect_out "^$aligned +1 GiB disk +generic +unknown +not checked\$"
expect_out "geometry: unknown: $aligned is not an md array and exports no strip and full stripe \\(queue/minimum_io_size, optimal_io_size\\); give --device $aligned with --level"

# an aligned array alone: exit 0
expect_ok "aligned alone" sp scan --device "$aligned" "${G5[@]}" --root "$SP_TEST_ROOT"

# --- it only reads -------------------------------------------------------------
unchanged "$aligned" "$before_aligned" "scan"
unchanged "$d63" "$before_d63" "scan"
unchanged "$blank" "$before_blank" "scan"
rc=0
# LeakSanitizer cannot run under ptrace and aborts (the ASan build's run of
# this test): leaks are its business in the scans above, not here
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -qq -e trace=open,openat,openat2,creat,flock,execve,rename,unlink,unlinkat,mkdir \
	-o "$WORK/strace" "$STRIPEPLAN" "${SCAN[@]}" >/dev/null 2>&1 || rc=$?
checks=$((checks + 1))
[ "$rc" = 1 ] || fail "scan under strace exited $rc"
checks=$((checks + 1))
if grep -E 'O_WRONLY|O_RDWR|O_CREAT|flock\(|creat\(|rename|unlink|mkdir' "$WORK/strace" >"$WORK/bad"; then
	fail "scan opened for writing, locked or changed a file: $(head -5 "$WORK/bad")"
fi
checks=$((checks + 1))
[ "$(grep -c 'execve(' "$WORK/strace")" = 1 ] || fail "scan ran a program: $(grep execve "$WORK/strace")"
checks=$((checks + 1))
grep -q "openat(.*\"$d63\", O_RDONLY" "$WORK/strace" || fail "strace saw no read of $d63"

# --- a mounted filesystem: listed with it, no candidate ------------------------
sp_loop_mount "${d63}p1" "$SP_LOOP_TMPDIR/mnt" ro
expect_rc 1 "" sp scan --device "$d63" "${G5[@]}" --root "$SP_TEST_ROOT" --format json
row "$d63" in_use "\"$SP_LOOP_TMPDIR/mnt (${d63#/dev/}p1)\""
row "$d63" candidate false
umount "$SP_LOOP_TMPDIR/mnt" || fail "umount"

# --- a blank device a process holds open: in use, no candidate ----------------
"$HOLD_EXCL" "$blank" >"$WORK/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$WORK/held" && break; sleep 0.1; done
expect_ok "held" sp scan --device "$blank" --root "$SP_TEST_ROOT" --format json
row "$blank" candidate false
row "$blank" in_use "\"$blank is open in process $holder (sp-hold-excl)\""
expect_ok "held, text" sp scan --device "$blank" --root "$SP_TEST_ROOT"
expect_out "^$blank +1 GiB disk +generic +unknown +in use\$"
kill "$holder"
wait "$holder" 2>/dev/null || true

# --- the machine's own scan: no loop device; the disks under / are 'system' -------
rc=0
"$STRIPEPLAN" scan --format json --root "$SP_TEST_ROOT" >"$WORK/out" 2>"$WORK/err" || rc=$?
checks=$((checks + 1))
case $rc in 0 | 1 | 4) ;; *) fail "scan of the machine exited $rc: $(cat "$WORK/err")" ;; esac
checks=$((checks + 1))
! grep -q '"device": "/dev/loop' "$WORK/out" || fail "scan listed a loop device: $(grep loop "$WORK/out")"
root_dev=$(findmnt -no MAJ:MIN / | tr -d ' ')
if [ "${root_dev%%:*}" != 0 ]; then
	# / on a block device: every disk below it (lsblk walks the same slaves/)
	kname=$(basename "$(readlink -f "/sys/dev/block/$root_dev")")
	for d in $(lsblk -nrso KNAME,TYPE "/dev/$kname" | awk '$2 == "disk" { print $1 }'); do
		row "/dev/$d" system true
		row "/dev/$d" candidate false
	done
fi

# --- controllers' reports: each judges the disk it names ------------------------
# loop devices have no wwid: the reports are tied by the name they give
report() { # report FILE DEVICE: the storcli sample (RAID5 4 x 256 KiB) naming DEVICE
	sed "s|\"/dev/sdb\"|\"$2\"|" "$SRCDIR/fixtures/reports/storcli-raid5-vd1.json" >"$1"
}
report "$WORK/d63.json" "$d63"
report "$WORK/none.json" /dev/sdzz
expect_rc 1 "" sp scan --device "$aligned" --device "$d63" --root "$SP_TEST_ROOT" --format json \
	--controller-report "$WORK/d63.json" --controller-report "$WORK/none.json"
row "$d63" level '"raid5"'
row "$d63" chunk_bytes 262144
row "$d63" stripe_width_bytes 786432
row "$d63" costly 2 # the start, and xfs's su=64k on the 256 KiB strip
row "$d63" geometry_from "\"the storcli report $WORK/d63.json (VD 1), tied to this disk by the device name it gives, $d63 (the disk has no naa. wwid)\""
row "$aligned" geometry_from "\"unknown: $aligned is not an md array and exports no strip and full stripe (queue/minimum_io_size, optimal_io_size); give --device $aligned with --level, --disks and --chunk\""
checks=$((checks + 1))
python3 - "$WORK/out" "$WORK/none.json" <<'EOF' || fail "no warning of the report of no disk: $(cat "$WORK/out")"
import json, sys
w = json.load(open(sys.argv[1]))["warnings"]
sys.exit(0 if w == ["controller-report: storcli report %s (VD 1) is of no disk scanned (it gives "
                    "NAA id 6d0946602a1b3c002e4f5a6b7c8d9e0f and /dev/sdzz): nothing was judged "
                    "with it" % sys.argv[2]] else 1)
EOF
checks=$((checks + 1))
grep -q "^stripeplan: warning: controller-report: storcli report $WORK/none.json (VD 1) is of no disk scanned" "$WORK/err" ||
	fail "no warning on standard error: $(cat "$WORK/err")"
expect_rc 1 "worst: costly: partition 1 of $d63 starts at sector 63 .*of this raid5" \
	sp scan --device "$d63" --controller-report "$WORK/d63.json" --root "$SP_TEST_ROOT"
expect_out "^$d63 +1 GiB disk +generic +raid5 4 x 256K +2 costly"
expect_rc 2 "controller-report: storcli report $WORK/d63.json \\(VD 1\\) and storcli report $WORK/d63.json \\(VD 1\\) are both of $d63: give one report a drive" \
	sp scan --device "$d63" --controller-report "$WORK/d63.json" --controller-report "$WORK/d63.json"
echo '{}' >"$WORK/bad.json"
expect_rc 2 "controller-report: '$WORK/bad.json': storcli report: \"Controllers\" \\(one controller\\) is missing" \
	sp scan --device "$d63" --controller-report "$WORK/bad.json"

# a blank LUN too small for mkfs.xfs: no plan fits, so no verdict, but the
# report's geometry is still the row's, and why nothing is judged names the
# limits row
small=$(sp_loop_create 200M) || exit 1
report "$WORK/small.json" "$small"
expect_ok "small" sp scan --device "$small" --controller-report "$WORK/small.json" --root "$SP_TEST_ROOT" \
	--format json
row "$small" level '"raid5"'
row "$small" disks 4
row "$small" chunk_bytes 262144
row "$small" stripe_width_bytes 786432
row "$small" geometry_from "\"the storcli report $WORK/small.json (VD 1), tied to this disk by the device name it gives, $small (the disk has no naa. wwid)\""
row "$small" candidate true
row "$small" checked false
row "$small" not_checked '"size: xfs needs at least 300 MiB (mkfs.xfs refuses smaller; limits row xfs-min-size); the aligned partition would be 196.50 MiB"'
expect_ok "small, text" sp scan --device "$small" --controller-report "$WORK/small.json" --root "$SP_TEST_ROOT"
expect_out "^$small +200 MiB disk +generic +raid5 4 x 256K +candidate\$"
expect_out "^  geometry: raid5, 4 disks, 256 KiB chunk, full stripe 768 KiB \\(the storcli report $WORK/small.json"
expect_out "^  not checked: size: xfs needs at least 300 MiB \\(mkfs.xfs refuses smaller; limits row xfs-min-size\\)"
# the same geometry declared: the same row
expect_ok "small, declared" sp scan --device "$small" "${G5[@]}" --root "$SP_TEST_ROOT" --format json
row "$small" level '"raid5"'
row "$small" stripe_width_bytes 196608
row "$small" geometry_from '"declared: --level, --disks, --chunk"'
row "$small" not_checked '"size: xfs needs at least 300 MiB (mkfs.xfs refuses smaller; limits row xfs-min-size); the aligned partition would be 196.87 MiB"'

# --- a listed disk that cannot be opened (here: no node in /dev): exit 4, the
# row says the probe failed and still gives the size sysfs has, never "0 B"
mkdir -p "$WORK/sys/sys/block/sdzz"
echo 2097152 >"$WORK/sys/sys/block/sdzz/size"
echo 8:1008 >"$WORK/sys/sys/block/sdzz/dev"
rc=0
SP_SYSFS_ROOT="$WORK/sys" sp scan --format json >"$WORK/out" 2>"$WORK/err" || rc=$?
checks=$((checks + 1))
[ "$rc" = 4 ] || fail "scan with an unopenable disk: exit $rc, not 4: $(cat "$WORK/err")"
row /dev/sdzz size_bytes 1073741824
row /dev/sdzz error '"cannot stat '"'"'/dev/sdzz'"'"': No such file or directory (no such device: it vanished, or was never there)"'

# --- bad input: exit 2, nothing printed ------------------------------------------
expect_rc 2 "device: '${d63}p1' is a partition of ${d63#/dev/}; give the whole disk" \
	sp scan --device "${d63}p1"
expect_rc 2 "device: '$blank' is ${blank#/dev/}, given twice" sp scan --device "$blank" --device "$blank"
expect_rc 2 "device: '$WORK/err': Block device required" sp scan --device "$WORK/err"
expect_rc 2 "device: '/dev/nonexistent': No such file or directory" sp scan --device /dev/nonexistent
expect_rc 2 "scan: give --level with --disks and --chunk" sp scan --device "$blank" --chunk 64K
expect_rc 2 "scan: give --level with --disks and --chunk" sp scan --device "$blank" --disks 4

device_finish
