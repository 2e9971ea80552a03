# shellcheck shell=bash
# Guest side of the VM scenarios: sourced by every guest script (in the
# guest it is /share/lib.bash).  Each assertion prints one "ok" or "FAIL"
# line; vm_finish exits 1 when any failed.  The values asserted are read
# with tools other than stripeplan: cat of sysfs, xfs_db, dumpe2fs, sfdisk.
set -u
export PATH=/share/bin:/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C TZ=UTC
checks=0
failures=0
OUT=/tmp/sp.out
ERR=/tmp/sp.err

ok() {
	checks=$((checks + 1))
	echo "ok   - [${SECONDS}s] $*"
}

fail() {
	checks=$((checks + 1))
	failures=$((failures + 1))
	echo "FAIL - [${SECONDS}s] $*"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1: $2"; else fail "$1: got '$2', want '$3'"; fi
}

# expect_rc CODE WHAT CMD...: CMD exits CODE; its output is in $OUT and $ERR
expect_rc() {
	local code=$1 what=$2 rc=0
	shift 2
	"$@" >"$OUT" 2>"$ERR" || rc=$?
	if [ "$rc" = "$code" ]; then
		ok "$what (exit $rc)"
	else
		fail "$what: '$*' exited $rc, want $code"
		sed 's/^/    | /' "$ERR" "$OUT" | tail -40
	fi
}

# expect_out WHAT PATTERN: the last command's stdout or stderr matches
expect_out() {
	if grep -qE -- "$2" "$OUT" "$ERR"; then ok "$1"; else
		fail "$1: output does not match /$2/"
		sed 's/^/    | /' "$ERR" "$OUT" | tail -40
	fi
}

# knob PATH: a sysfs value as the kernel shows it; for a scheduler the
# selected one, for md's sync_speed_min/max the number without "(local)"
knob() {
	local v
	v=$(cat "$1" 2>/dev/null) || { echo "<missing>"; return; }
	case $v in
	*\[*\]*) v=${v#*[}; v=${v%%]*} ;;
	*" (local)" | *" (system)") v=${v%% (*} ;;
	esac
	echo "$v"
}

# disk_by_serial SERIAL: the kernel name of the SCSI disk with that serial
disk_by_serial() {
	local d
	for d in /sys/block/sd*; do
		if [ "$(lsblk -dno SERIAL "/dev/${d##*/}" 2>/dev/null)" = "$1" ]; then
			echo "${d##*/}"
			return 0
		fi
	done
	echo "disk_by_serial: no disk with serial $1" >&2
	return 1
}

# disk_on_pci DEVICE CHANNEL:TARGET: the SCSI disk at CHANNEL:TARGET
# below a PCI function whose device id is DEVICE ("0x0060"), read from
# sysfs's own paths (.../0000:00:05.0/host2/target2:2:0/2:2:0:0/block/sda)
disk_on_pci() {
	local d dev ct
	for d in /sys/block/sd*; do
		dev=$(readlink -f "$d/device")
		ct=$(basename "$dev") && ct=${ct#*:} && ct=${ct%:*}
		if [ "$(cat "${dev%/host*}/device" 2>/dev/null)" = "$1" ] && [ "$ct" = "$2" ]; then
			echo "${d##*/}"
			return 0
		fi
	done
	echo "disk_on_pci: no disk at channel:target $2 below PCI device $1" >&2
	return 1
}

# pci_ids DISK: "vendor:device subvendor:subdevice" of the PCI function
# its SCSI host hangs off, as sysfs prints them ("0x1000:0x0060 ...")
pci_ids() {
	local pci
	pci=$(readlink -f "/sys/block/$1/device") && pci=${pci%/host*}
	echo "$(cat "$pci/vendor"):$(cat "$pci/device") $(cat "$pci/subsystem_vendor"):$(cat "$pci/subsystem_device")"
}

# host_proc_name DISK: its SCSI host's proc_name (the driver's name)
host_proc_name() {
	local h
	h=$(readlink -f "/sys/block/$1/device") && h=${h%/target*} && h=${h##*/}
	cat "/sys/class/scsi_host/$h/proc_name"
}

# scsi_names_in_order LINK...: the SCSI disks LINK... (by-id links) named
# sda, sdb ... in the order given.  sd names disks in the order its
# asynchronous probes run, which varies from boot to boot (seen here with
# two LUNs on one virtio-scsi bus), so each is removed and then scanned
# again alone, the next only once the last has its name.
scsi_names_in_order() {
	local link dev hctl host rest hctls=()
	for link; do
		dev=$(basename "$(readlink -f "$link")")
		hctls+=("$(basename "$(readlink -f "/sys/block/$dev/device")")")
		echo 1 >"/sys/block/$dev/device/delete"
	done
	udevadm settle
	for hctl in "${hctls[@]}"; do
		host=${hctl%%:*} rest=${hctl#*:}
		echo "${rest//:/ }" >"/sys/class/scsi_host/host$host/scan"
		for _ in $(seq 100); do
			[ -z "$(ls "/sys/class/scsi_device/$hctl/device/block" 2>/dev/null)" ] || break
			sleep 0.1
		done
		udevadm settle
	done
}

# udev_event ACTION DEV: a synthetic uevent, returning once udevd has run
# the rules for that very event.  "trigger; settle" is not enough: settle
# returns when udevd's queue is empty, and in one CI run both ctl checks
# read sysfs with the rule not (yet) run; "trigger --settle" waits for the
# events it sent.
udev_event() {
	udevadm trigger --settle --action="$1" "$2"
}

# expect_knob_within SECS WHAT PATH WANT: the knob reads WANT within SECS.
# For events the kernel sends itself (md's change when an array starts),
# where no "trigger --settle" can name the event to wait for.
expect_knob_within() {
	local deadline=$((SECONDS + $1)) got
	udevadm settle
	while got=$(knob "$3") && [ "$got" != "$4" ] && [ "$SECONDS" -lt "$deadline" ]; do
		sleep 0.2
	done
	expect_eq "$2" "$got" "$4"
}

# tuning_of PLANTEXT: "PATH VALUE" for each sysfs knob a text plan sets
tuning_of() {
	awk '$1 ~ /^\/sys\// && $2 == "=" { print $1, $3 }' "$1"
}

# expect_tuning WHAT PLANTEXT: every knob the plan lists reads back its value
expect_tuning() {
	local path want got n=0 bad=0
	while read -r path want; do
		n=$((n + 1))
		got=$(knob "$path")
		[ "$got" = "$want" ] || {
			bad=$((bad + 1))
			echo "    | $path is '$got', the plan says '$want'"
		}
	done < <(tuning_of "$2")
	if [ "$n" -gt 0 ] && [ "$bad" = 0 ]; then ok "$1: all $n knobs read back"; else
		fail "$1: $bad of $n knobs differ"
	fi
}

# tuning_differs PLANTEXT: true while a knob the plan lists reads otherwise
tuning_differs() {
	local path want
	while read -r path want; do
		[ "$(knob "$path")" = "$want" ] || return 0
	done < <(tuning_of "$1")
	return 1
}

# expect_tuning_within SECS WHAT PLANTEXT: expect_tuning, once the knobs
# read back or SECS have passed.  After a synthetic uevent: "trigger
# --settle" in Debian 12's udevadm returns on the first event udevd
# finishes for the device, and a CI run saw it return on an earlier one
# (a change from the run before, queued behind the guest's slow udevd)
# with the rule's event still queued: both knobs read their old values,
# and the same rule set them on the next event.
expect_tuning_within() {
	local deadline=$((SECONDS + $1))
	udevadm settle
	while tuning_differs "$3" && [ "$SECONDS" -lt "$deadline" ]; do
		sleep 0.2
	done
	expect_tuning "$2" "$3"
}

# xfs_sb DEV FIELD: a field of the XFS primary superblock, read by xfs_db
xfs_sb() {
	xfs_db -r -c 'sb 0' -c "p $2" "$1" | awk '{ print $3 }'
}

# mkfs_derived DEV: "sunit swidth" (blocks) that mkfs.xfs alone picks from
# the device's exported topology (-N: nothing is written)
mkfs_derived() {
	mkfs.xfs -N -f "$1" 2>/dev/null | sed -n 's/.*sunit=\([0-9]*\) *swidth=\([0-9]*\) blks.*/\1 \2/p' | head -1
}

# create_md DEV LEVEL CHUNK_KIB DISK...: a new array, no initial resync
create_md() {
	local dev=$1 level=$2 chunk=$3 d
	shift 3
	local -a paths=() opts=()
	for d in "$@"; do paths+=("/dev/$d"); done
	[ "$chunk" = - ] || opts=(--chunk="$chunk")
	expect_rc 0 "mdadm --create $dev raid$level ${#paths[@]} disks, chunk ${chunk}K" \
		mdadm --create "$dev" --run --quiet --assume-clean --metadata=1.2 --level="$level" \
		--raid-devices=${#paths[@]} "${opts[@]}" "${paths[@]}"
	udevadm settle
}

# sp_check ...: stripeplan check once udev is done with the events apply's
# writes caused (udevd re-reads a partition table when a writer closes the
# disk; a check during that re-read finds no partition)
sp_check() {
	udevadm settle
	stripeplan check "$@"
}

# xfs_matches_mkfs NAME MD PART: the filesystem on PART has the stripe
# geometry mkfs.xfs itself picks for MD from MD's exported topology
xfs_matches_mkfs() {
	local derived got
	derived=$(cat "/tmp/derived-$2")
	got="$(xfs_sb "$3" unit) $(xfs_sb "$3" width)"
	expect_eq "$1: xfs sunit swidth (blocks) on $3 = what mkfs.xfs derives for $2" "$got" "$derived"
}

vm_finish() {
	echo "== $checks checks, $failures failed"
	[ "$failures" = 0 ]
}
