#!/bin/bash
# Input an attacker or an unlucky admin gives: mount points that escape,
# FIFOs and devices where files are expected, values that would add lines
# to an installer snippet.  Each is refused with exit 2 and one message,
# nothing is written, nothing hangs (every command runs under a timeout).
. "$(dirname "$0")/lib.bash"

sp() { timeout 10 "$STRIPEPLAN" "$@"; }
base=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --device /dev/sdb
	--size 2T --kernel 6.1.0)

# --- mount points: one spelling, nothing outside the directory meant ---------
for m in / // /. /./ ///.//; do
	expect_exit 2 "mountpoint: '$m' is the root filesystem" sp plan "${base[@]}" --mountpoint "$m"
done
for m in /data/.. /../../../X /a/../b /..; do
	expect_exit 2 "mountpoint: '$m' has a '\.\.' component" sp plan "${base[@]}" --mountpoint "$m"
done
for m in /usr /boot /boot/efi /var /etc /proc/x /sys/y /dev/shm /run/z; do
	expect_exit 2 "mountpoint: '$m' .*give --force" sp plan "${base[@]}" --mountpoint "$m"
done
checks=$((checks + 1))
if [ "$(sp plan "${base[@]}" --mountpoint /./data// --format fstab | awk '{ print $2 }')" != /data ]; then
	fail "'/./data//' is not planned as '/data'"
fi
checks=$((checks + 1))
if [ "$(sp plan "${base[@]}" --mountpoint /var --force --format fstab | awk '{ print $2 }')" != /var ]; then
	fail "--force does not accept /var"
fi
expect_exit 2 'installer snippets never carry --force' \
	sp plan "${base[@]}" --mountpoint /var --force --format kickstart

# --- control characters in any value ------------------------------------------
for flag in --device --kernel --profiles --controller --label --mountpoint --members; do
	expect_exit 2 "${flag#--}: control character 0x0a is not allowed" \
		sp plan "${base[@]}" "$flag" $'/x\n%end\n%pre\nreboot' --format kickstart
done
expect_exit 2 'control character 0x0d' sp plan "${base[@]}" --mountpoint $'/data\r' --format preseed

# --- -o writes only regular files ---------------------------------------------
# our own nodes of /dev/full and /dev/null: were the refusal ever to break,
# the machine's own nodes would be what it replaced
mknod "$WORK/full" c 1 7
mknod "$WORK/null" c 1 3
mkfifo "$WORK/fifo"
ln -s "$WORK/target" "$WORK/link"
mkdir "$WORK/dir"
for out in "$WORK/full" "$WORK/null" "$WORK/fifo" "$WORK/link" "$WORK/dir"; do
	before=$(stat -c '%F %t:%T %i' "$out")
	expect_exit 2 "output: '$out' is a .*; -o writes only regular files" \
		sp plan "${base[@]}" --format json -o "$out"
	checks=$((checks + 1))
	[ "$(stat -c '%F %t:%T %i' "$out")" = "$before" ] || fail "-o $out replaced it"
done
checks=$((checks + 1))
[ ! -e "$WORK/target" ] || fail "-o followed the symbolic link"
sp plan "${base[@]}" --format json -o "$WORK/plan.json" || fail "-o to a new file failed"
sp plan "${base[@]}" --format json -o "$WORK/plan.json" || fail "-o over a regular file failed"

# --- FIFOs, directories, empty and truncated files never hang -------------------
mkdir "$WORK/root" "$WORK/profiles"
mkfifo "$WORK/profiles/hang.json"
expect_exit 2 "profile: cannot read '$WORK/profiles/hang.json': is a FIFO, not a regular file" \
	sp plan "${base[@]}" --profiles "$WORK/profiles"
expect_exit 2 "cannot read '$WORK/fifo': is a FIFO, not a regular file" \
	sp plan --controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --facts "$WORK/fifo" --kernel 6.1
for cmd in apply check; do
	expect_exit 2 "plan: cannot read '$WORK/fifo': is a FIFO, not a regular file" \
		sp "$cmd" --plan "$WORK/fifo" --device /dev/sdb --root "$WORK/root"
	expect_exit 2 "plan: cannot read '$WORK/dir': is a directory, not a regular file" \
		sp "$cmd" --plan "$WORK/dir" --device /dev/sdb --root "$WORK/root"
	expect_exit 2 "plan: cannot read '/dev/zero': is a character device" \
		sp "$cmd" --plan /dev/zero --device /dev/sdb --root "$WORK/root"
	: >"$WORK/empty.json"
	expect_exit 2 "plan: '$WORK/empty.json' is empty" \
		sp "$cmd" --plan "$WORK/empty.json" --device /dev/sdb --root "$WORK/root"
	head -c 300 "$WORK/plan.json" >"$WORK/truncated.json"
	expect_exit 2 'plan: the JSON ends early \(an empty or truncated file\?\)' \
		sp "$cmd" --plan "$WORK/truncated.json" --device /dev/sdb --root "$WORK/root"
	echo '[1]' >"$WORK/array.json"
	expect_exit 2 'plan: not a stripeplan plan \(JSON error: the top level is not an object\)' \
		sp "$cmd" --plan "$WORK/array.json" --device /dev/sdb --root "$WORK/root"
done
checks=$((checks + 1))
[ -z "$(ls -A "$WORK/root")" ] || fail "a refused apply wrote into the root: $(ls -A "$WORK/root")"
# sizes beyond 64 bits are named, not wrapped
expect_exit 2 "size: '18446744073709551621' is too large" \
	sp plan "${base[@]/2T/18446744073709551621}"
finish
