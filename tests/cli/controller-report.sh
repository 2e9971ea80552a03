#!/bin/bash
# --controller-report FILE: a controller CLI's saved report of one logical
# drive (storcli/perccli "show all J", ssacli "show detail") gives the
# level, disks, spans and strip where the kernel exports nothing; the plan
# names the report, a flag, a device or a report that says otherwise is
# refused with exit 2 naming it.  (Each field of each parser: unit/
# test-report; the parsers on arbitrary bytes: fuzz-report-storcli and
# fuzz-report-ssacli.)
. "$(dirname "$0")/lib.bash"

F="$SRCDIR/fixtures/facts"
R="$SRCDIR/fixtures/reports"
# has FILE WHAT STRING...: each STRING is a line's part in FILE, else WHAT failed
has() {
	local file=$1 what=$2 s
	shift 2
	for s in "$@"; do
		grep -qF -- "$s" "$file" || { fail "$what: no '$s' in $(basename "$file")"; return; }
	done
}
# the LUN without its wwid: the samples' NAA ids are made up, and a report
# is tied by its id when the disk has one (below), by its name otherwise
grep -v '"wwn"' "$F/p400-lun.json" >"$WORK/lun.json"
lun() { "$STRIPEPLAN" plan --controller generic --kernel 6.1.0 --mountpoint /data --fs xfs \
	--facts "$WORK/lun.json" "$@"; }

# storcli RAID5, 4 x 256 KB on /dev/sdb: the plan's numbers and where they came from
checks=$((checks + 1))
lun --controller-report "$R/storcli-raid5-vd1.json" >"$WORK/raid5.txt" || fail "storcli report refused"
grep -qxF "  geometry       read from storcli report $R/storcli-raid5-vd1.json (VD 1): level, disks, strip" "$WORK/raid5.txt" ||
	fail "the text does not name the report: $(grep geometry "$WORK/raid5.txt")"
checks=$((checks + 1))
has "$WORK/raid5.txt" "RAID5 4 x 256 KiB" "(from the controller's report)" "  full stripe    768 KiB "
checks=$((checks + 1))
lun --controller-report "$R/storcli-raid5-vd1.json" --format json >"$WORK/raid5.json" || fail "json"
has "$WORK/raid5.json" "storcli JSON plan" '"level": "raid5"' '"disks": 4' '"chunk_bytes": 262144' \
	'"level": "report"' '"disks": "report"' '"chunk": "report"' \
	"\"report\": \"storcli report $R/storcli-raid5-vd1.json (VD 1)\""

# perccli RAID60 (2 spans of 6) and ssacli 1+0 and 6 (ADG): spans and levels as the tools say them
checks=$((checks + 1))
lun --controller-report "$R/perccli-raid60-vd0.json" --format json >"$WORK/raid60.json" || fail "perccli report refused"
has "$WORK/raid60.json" "RAID60 2 x 6 x 128 KiB" '"spans": 2' '"stripe_width_bytes": 1048576'
checks=$((checks + 1))
lun --controller-report "$R/ssacli-raid10-ld1.txt" --format json >"$WORK/raid10.json" || fail "ssacli 1+0 refused"
has "$WORK/raid10.json" "ssacli 1+0" '"level": "raid10"' '"disks": 4'
checks=$((checks + 1))
lun --controller-report "$R/ssacli-raid6-ld1.txt" --format json >"$WORK/raid6.json" || fail "ssacli 6 (ADG) refused"
has "$WORK/raid6.json" "ssacli 6 (ADG)" '"level": "raid6"' '"disks": 6'

# flags that agree are taken; each one that differs is a line, exit 2, nothing on stdout
checks=$((checks + 1))
lun --controller-report "$R/storcli-raid5-vd1.json" --level 5 --disks 4 --chunk 256K >/dev/null ||
	fail "agreeing flags refused"
checks=$((checks + 1))
rc=0
lun --controller-report "$R/storcli-raid5-vd1.json" --level 6 --disks 5 --chunk 64K >"$WORK/out" 2>"$WORK/err" || rc=$?
cat >"$WORK/want" <<WANT
stripeplan: level: --level 6, but storcli report $R/storcli-raid5-vd1.json (VD 1) says raid5
stripeplan: disks: --disks 5, but storcli report $R/storcli-raid5-vd1.json (VD 1) says 4 disks
stripeplan: chunk: --chunk 64K, but storcli report $R/storcli-raid5-vd1.json (VD 1) says a 256 KiB strip
WANT
if [ "$rc" != 2 ] || [ -s "$WORK/out" ] || ! diff -u "$WORK/want" "$WORK/err" >&2; then
	fail "contradicting flags: exit $rc, stderr $(cat "$WORK/err")"
fi

# the report of another drive: RAID 50 on /dev/sdc, the plan for /dev/sdb
expect_exit 2 "device: ssacli report .*ssacli-raid50-ld2.txt \(logical drive 2\) is of /dev/sdc, not /dev/sdb" \
	lun --controller-report "$R/ssacli-raid50-ld2.txt"
# with the disk's wwid, the NAA id decides: another drive's id is refused, the
# report's own taken whatever the name it gives (names move between boots)
expect_exit 2 "device: storcli report .*storcli-raid5-vd1.json \(VD 1\) is of the drive with NAA id 6d0946602a1b3c002e4f5a6b7c8d9e0f, but /dev/sdb's wwid is naa.600508b1001c5e8f3a2b4c6d7e8f9012" \
	"$STRIPEPLAN" plan --controller generic --kernel 6.1.0 --fs xfs --facts "$F/p400-lun.json" \
	--controller-report "$R/storcli-raid5-vd1.json"
sed 's/"sdb"/"sdq"/; s|/dev/sdb|/dev/sdq|; s/naa.600508b1001c5e8f3a2b4c6d7e8f9012/naa.6d0946602a1b3c002e4f5a6b7c8d9e0f/' \
	"$F/p400-lun.json" >"$WORK/sdq.json"
checks=$((checks + 1))
"$STRIPEPLAN" plan --controller generic --kernel 6.1.0 --fs xfs --facts "$WORK/sdq.json" \
	--controller-report "$R/storcli-raid5-vd1.json" >/dev/null 2>"$WORK/sdq.err" ||
	fail "the report of the disk's NAA id, naming another name, is refused: $(cat "$WORK/sdq.err")"
# planned offline for /dev/sdc, it is taken
checks=$((checks + 1))
"$STRIPEPLAN" plan --controller generic --kernel 6.1.0 --fs xfs --device /dev/sdc --size 12T \
	--controller-report "$R/ssacli-raid50-ld2.txt" --format json >"$WORK/raid50.json" || fail "ssacli RAID 50 offline refused"
has "$WORK/raid50.json" "ssacli RAID 50" '"level": "raid50"' '"spans": 2'

# an installer's apply command carries what the report said: the target has no copy of it
checks=$((checks + 1))
"$STRIPEPLAN" plan --controller generic --kernel 6.1.0 --fs xfs --mountpoint /data --device /dev/sdb --size 6T \
	--controller-report "$R/storcli-raid5-vd1.json" --format kickstart >"$WORK/ks" || fail "kickstart"
grep -qF -- "--level 5 --disks 4 --chunk 256K" "$WORK/ks" || fail "kickstart's apply lacks the report's values: $(grep apply "$WORK/ks")"

# a malformed report, each kind: the field named
sed 's/"256 KB"/"256 kB"/' "$R/storcli-raid5-vd1.json" >"$WORK/bad-strip.json"
expect_exit 2 "controller-report: '$WORK/bad-strip.json': storcli report: \"Strip Size\": '256 kB' is not a size" \
	lun --controller-report "$WORK/bad-strip.json"
sed '/Fault Tolerance/d' "$R/ssacli-raid10-ld1.txt" >"$WORK/no-ft.txt"
expect_exit 2 "ssacli report: 'Fault Tolerance' is missing" lun --controller-report "$WORK/no-ft.txt"
sed 's/"TYPE" : "RAID5"/"TYPE" : "RAID1E"/' "$R/storcli-raid5-vd1.json" >"$WORK/raid1e.json"
expect_exit 2 "TYPE 'RAID1E' is not a level stripeplan plans" lun --controller-report "$WORK/raid1e.json"
: >"$WORK/empty"
expect_exit 2 "controller-report: '$WORK/empty': report: it is empty" lun --controller-report "$WORK/empty"
expect_exit 2 "controller-report: cannot read '$WORK': is a directory" lun --controller-report "$WORK"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$WORK/big"
expect_exit 2 "controller-report: cannot read '$WORK/big': is larger than 1048576 bytes" lun --controller-report "$WORK/big"
# md's geometry is the kernel's
expect_exit 2 "is an md array, whose geometry the kernel tells" \
	"$STRIPEPLAN" plan --controller md --kernel 6.1.0 --fs xfs --facts "$F/md-raid5.json" \
	--controller-report "$R/storcli-raid5-vd1.json"

finish
