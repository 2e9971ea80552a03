#!/bin/bash
# --stack: golden plans (text and JSON) of LUKS2 and LVM between the
# partition and the filesystem on the issue's 192 KiB stripe (RAID5
# 4 x 64 KiB, a hardware LUN) and on md RAID5 10 x 1 MiB (the whole
# device), and every refusal of the option and its names.  Kernel pinned.
# shellcheck source-path=SCRIPTDIR source=lib.bash disable=SC2054 # commas are in --members values
. "$(dirname "$0")/lib.bash"

# the device is given per command: an option given twice is an error
perc=(plan --controller dell-perc5e --level 5 --disks 4 --chunk 64K --fs xfs
	--size 100G --mountpoint /data --kernel 6.1.0)
md=(plan --controller md --level raid5 --disks 10 --chunk 1M --fs xfs
	--device /dev/md3 --size 1318680576K --mountpoint /r1
	--members sdb,sdc,sdd,sde,sdf,sdg,sdh,sdi,sdj,sdk --kernel 6.1.0)

golden stack-perc-luks-lvm.txt "$STRIPEPLAN" "${perc[@]}" --device /dev/sdb --stack luks,lvm
golden stack-perc-luks-lvm.json "$STRIPEPLAN" "${perc[@]}" --device /dev/sdb --stack luks,lvm --format json
golden stack-md-lvm-luks.txt "$STRIPEPLAN" "${md[@]}" --stack lvm,luks --vg data --lv r1 \
	--sector-size 4096
golden stack-md-lvm-luks.json "$STRIPEPLAN" "${md[@]}" --stack lvm,luks --vg data --lv r1 \
	--sector-size 4096 --format json

# the stack changes nothing but the filesystem's device and size: su/sw
# and the mount are the same as without it
"$STRIPEPLAN" "${perc[@]}" --device /dev/sdb --format json >"$WORK/plain.json"
"$STRIPEPLAN" "${perc[@]}" --device /dev/sdb --stack luks --format json >"$WORK/luks.json"
checks=$((checks + 1))
geometry='[.filesystem.xfs.su_bytes, .filesystem.xfs.sw, .mount.options]'
[ "$(jq -c "$geometry" "$WORK/plain.json")" = "$(jq -c "$geometry" "$WORK/luks.json")" ] ||
	fail "--stack luks changed the filesystem's stripe or the mount"
checks=$((checks + 1))
jq -e 'has("stack") | not' "$WORK/plain.json" >/dev/null ||
	fail "a plan without --stack has a 'stack' object"
# --stack none is no stack
checks=$((checks + 1))
"$STRIPEPLAN" "${perc[@]}" --device /dev/sdb --stack none --format json | cmp -s - "$WORK/plain.json" ||
	fail "--stack none differs from no --stack"

sp() { "$STRIPEPLAN" "${perc[@]}" --device /dev/sdb "$@"; }
expect_exit 2 "stack: unknown layer 'zfs' \(known: luks, lvm\)" sp --stack zfs
expect_exit 2 "stack: 'lvm' is named twice in 'lvm,lvm'" sp --stack lvm,lvm
expect_exit 2 "stack: 'luks,' is not a list of layers" sp --stack luks,
expect_exit 2 "vg: names an LVM volume, but the stack has no lvm" sp --stack luks --vg data
expect_exit 2 "luks-name: names a LUKS2 volume, but the stack has no luks" sp --luks-name x
expect_exit 2 "vg: the name is empty" sp --stack lvm --vg ''
expect_exit 2 "vg: '-data' starts with '-'" sp --stack lvm --vg=-data
expect_exit 2 "lv: 'a:b' holds ':'" sp --stack lvm --lv a:b
expect_exit 2 "lv: names holding '_rimage' are LVM's own" sp --stack lvm --lv x_rimage_0
expect_exit 2 "luks-name: 'control' is device-mapper's own" sp --stack luks --luks-name control
expect_exit 2 "luks-name: '.*' is too long" sp --stack luks --luks-name "$(printf '%0130d' 0)"
expect_exit 2 "size: /dev/md3 \(20 MiB\) leaves no room for data after the LUKS2 header's 18 MiB" \
	"$STRIPEPLAN" plan --controller md --level 5 --disks 10 --chunk 1M --fs xfs --device /dev/md3 \
	--size 20M --stack luks --kernel 6.1.0
# the installer snippets carry the stack, and for LUKS2 the path of a key
# the installer will hold (never the key, never read here)
golden stack-perc-luks-lvm.ks "$STRIPEPLAN" "${perc[@]}" --device /dev/sdb --stack luks,lvm \
	--format kickstart --key-file /run/stripeplan.key
golden stack-md-lvm-luks.preseed "$STRIPEPLAN" "${md[@]}" --stack lvm,luks --vg data --lv r1 \
	--luks-name r1_crypt --format preseed --key-file '/run/key of r1'
checks=$((checks + 1))
if ! sp --stack lvm --format preseed >"$WORK/lvm.preseed" 2>&1 ||
	! grep -qx 'd-i pkgsel/include string stripeplan lvm2' "$WORK/lvm.preseed" ||
	grep -q -- '--key-file\|test -f' "$WORK/lvm.preseed"; then
	fail "--stack lvm: the preseed installs lvm2 and has no key: $(cat "$WORK/lvm.preseed")"
fi
expect_exit 2 "format: the LUKS2 layer's key cannot be in an installer snippet; give --key-file PATH" \
	sp --stack luks --format kickstart
expect_exit 2 "key-file: the plan has no LUKS2 layer \(--stack luks\) to use it" \
	sp --stack lvm --format preseed --key-file /run/key
expect_exit 2 "key-file: 'key' is not an absolute path" sp --stack luks --format kickstart --key-file key
expect_exit 2 "key-file: '-' is not an absolute path .*with no standard input" \
	sp --stack luks --format preseed --key-file -
expect_exit 2 "key-file: plan reads no key; only an installer snippet" sp --stack luks --key-file /run/key
expect_exit 2 "key-file: control character 0x0a" sp --stack luks --format kickstart --key-file $'/run/k\n%end'
# the key file is only named: one that does not exist here is no error
checks=$((checks + 1))
sp --stack luks --format kickstart --key-file /nonexistent/key | grep '^test -f /nonexistent/key || ' >/dev/null ||
	fail "the kickstart does not test for its key file"
# apply reads and judges the key before it opens the device (which does
# not exist here: were a refusal missed, the open would say so)
"$STRIPEPLAN" "${perc[@]}" --device /dev/stripeplan-test-none --stack luks,lvm --format json -o "$WORK/plan.json"
mkdir "$WORK/root"
printf 'secret' >"$WORK/key"
chmod 0644 "$WORK/key"
expect_exit 3 "key file '.*/key' has mode 0644: its group or others may use it" \
	"$STRIPEPLAN" apply --plan "$WORK/plan.json" --device /dev/stripeplan-test-none --root "$WORK/root" \
	--key-file "$WORK/key"
mkdir "$WORK/keydir"
chmod 0700 "$WORK/keydir"
expect_exit 2 "key file '.*/keydir' is not a regular file" \
	"$STRIPEPLAN" apply --plan "$WORK/plan.json" --device /dev/stripeplan-test-none --root "$WORK/root" \
	--key-file "$WORK/keydir"
chmod 0600 "$WORK/key"
expect_exit 2 "key-file: the plan has no LUKS2 layer \(--stack luks\) to use it" \
	"$STRIPEPLAN" "${perc[@]/plan/apply}" --device /dev/stripeplan-test-none --stack lvm --root "$WORK/root" \
	--key-file "$WORK/key"
expect_exit 2 "STRIPEPLAN_TEST_FAST_PBKDF: 'yes' is not 1" \
	env STRIPEPLAN_TEST_FAST_PBKDF=yes "$STRIPEPLAN" apply --plan "$WORK/plan.json" \
	--device /dev/stripeplan-test-none --root "$WORK/root" --key-file "$WORK/key"
# a good key: apply and check of a stack plan go on to the device (the
# reason on stderr; check's report lists its luks and lvm steps, not run)
stack_run() {
	local want=$1 rc=0
	shift
	checks=$((checks + 1))
	"$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	if [ "$rc" != "$want" ] || ! grep -q "'/dev/stripeplan-test-none'" "$WORK/err" ||
		{ [ "$want" = 2 ] && ! grep -Pzq '  partition +pending\n  tuning +pending\n  luks +pending\n  lvm +pending\n  filesystem' "$WORK/out"; }; then
		fail "'$*': exit $rc, expected $want: $(cat "$WORK/err" "$WORK/out")"
	fi
}
stack_run 3 "$STRIPEPLAN" apply --plan "$WORK/plan.json" --device /dev/stripeplan-test-none \
	--root "$WORK/root" --key-file "$WORK/key"
stack_run 2 "$STRIPEPLAN" check --plan "$WORK/plan.json" --device /dev/stripeplan-test-none \
	--root "$WORK/root"
finish
