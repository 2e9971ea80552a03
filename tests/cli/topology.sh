#!/bin/bash
# A hardware LUN whose controller exports its geometry (the Block Limits
# VPD page: granularity = strip, optimal transfer length = full stripe,
# passed on as queue/minimum_io_size and optimal_io_size): the plan takes
# them as it takes md's -- --chunk and --disks optional, each one given
# checked against them -- and ignores, with a warning naming why, what
# the kernel's own rules or util-linux call bogus.  (Each rule: unit/
# test-plan; on a real kernel: vm/topology.)
. "$(dirname "$0")/lib.bash"

F="$SRCDIR/fixtures/facts"
lun() { "$STRIPEPLAN" plan --controller generic --kernel 6.1.0 --mountpoint /data --fs xfs "$@"; }

# raid5-lun-topology: minimum_io_size 256 KiB, optimal_io_size 1 MiB
golden topology-raid5.txt lun --level 5 --facts "$F/raid5-lun-topology.json"
golden topology-raid5.json lun --level 5 --facts "$F/raid5-lun-topology.json" --format json
# agreeing flags are taken; the geometry still says where it came from
checks=$((checks + 1))
lun --level 5 --disks 5 --chunk 256K --facts "$F/raid5-lun-topology.json" --format json >"$WORK/agree" ||
	fail "agreeing flags refused"
grep -q '"chunk": "topology"' "$WORK/agree" || fail "agreeing plan does not say topology"

# one line per difference, exit 2, nothing on stdout
checks=$((checks + 1))
rc=0
lun --level 5 --disks 6 --chunk 128K --facts "$F/raid5-lun-topology.json" >"$WORK/out" 2>"$WORK/err" || rc=$?
cat >"$WORK/want" <<'WANT'
stripeplan: chunk: --chunk 128K, but /dev/sdb exports a 256 KiB strip (queue/minimum_io_size 262144, the controller's optimal transfer length granularity)
stripeplan: disks: --disks 6 makes 5 data disks, but /dev/sdb exports a full stripe of 4 x 256 KiB (queue/optimal_io_size 1048576 / minimum_io_size 262144)
WANT
if [ "$rc" != 2 ] || [ -s "$WORK/out" ] || ! diff -u "$WORK/want" "$WORK/err" >&2; then
	fail "contradicting flags: exit $rc, stderr $(cat "$WORK/err")"
fi

# the value USB bridges and some firmware report: ignored, said, flags needed again
sed 's|"optimal_io_bytes": 1048576|"optimal_io_bytes": 33553920|' "$F/raid5-lun-topology.json" >"$WORK/bogus.json"
expect_exit 2 'disks: required: /dev/sdb is not an md array' lun --level 5 --facts "$WORK/bogus.json"
checks=$((checks + 1))
lun --level 5 --disks 5 --chunk 256K --facts "$WORK/bogus.json" >"$WORK/bogus.txt" || fail "bogus topology with flags"
grep -q "\[topology-ignored\] /dev/sdb exports minimum_io_size 262144 and optimal_io_size 33553920, which is no stripe: it is 0xffff 512-byte blocks" "$WORK/bogus.txt" ||
	fail "no topology-ignored warning: $(grep -i topology "$WORK/bogus.txt")"

finish
