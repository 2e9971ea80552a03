#!/bin/bash
# The planner's knob values and mount options against the guest's kernel:
#  1. the kernel's own limits, each side of each bound the planner holds:
#     nr_requests with a scheduler (2048) and with none (the tag depth),
#     max_sectors_kb against max_hw_sectors_kb, read_ahead_kb, the SCSI
#     queue_depth, md's stripe cache (17..32768) and sync speeds, and the
#     scheduler names of other kernels (noop, cfq) refused here
#  2. what each profile plans for this kernel (default and field-report
#     recipes), written to a SCSI LUN, a virtio disk and an md array's
#     members, read back
#  3. every workload's mount options for xfs, ext4 and ext3, mounted
# shellcheck source=lib.bash
. /share/lib.bash
ROOT=/tmp/root
mkdir -p "$ROOT/etc" /mnt/k
kver=$(uname -r)
echo "kernel $kver"

lun=$(disk_by_serial KNOB0001)
k=()
for i in 0 1 2; do k+=("$(disk_by_serial "k$i")"); done
for d in /sys/block/vd*; do vd=${d##*/}; break; done
echo "lun=$lun md members=${k[*]} virtio=$vd"
q=/sys/block/$lun/queue

# set PATH VALUE: the kernel's exit status of 'echo VALUE > PATH'
set_knob() {
	(echo "$2" >"$1") 2>/dev/null
}

# accepts WHAT PATH VALUE [READBACK]: written and read back
accepts() {
	if set_knob "$2" "$3"; then expect_eq "$1: $3 accepted, reads back" "$(knob "$2")" "${4:-$3}"
	else fail "$1: the kernel refused $3 for $2"; fi
}

# refuses WHAT PATH VALUE: the write fails, the knob keeps its value
refuses() {
	local before
	before=$(knob "$2")
	if set_knob "$2" "$3"; then fail "$1: the kernel accepted $3 for $2 (now $(knob "$2"))"
	else expect_eq "$1: $3 refused, value unchanged" "$(knob "$2")" "$before"; fi
}

# ---- 1. the kernel's limits -------------------------------------------------
accepts "scheduler" "$q/scheduler" mq-deadline
accepts "nr_requests with a scheduler: 2048 (MAX_SCHED_RQ)" "$q/nr_requests" 2048
refuses "nr_requests with a scheduler: 2049" "$q/nr_requests" 2049
accepts "nr_requests with a scheduler: 4 (BLKDEV_MIN_RQ)" "$q/nr_requests" 4
accepts "nr_requests below 4 is raised to 4" "$q/nr_requests" 1 4
accepts "scheduler none" "$q/scheduler" none
depth=$(knob "$q/nr_requests")
echo "tag depth with none: $depth"
accepts "nr_requests without a scheduler: the tag depth" "$q/nr_requests" "$depth"
refuses "nr_requests without a scheduler: the tag depth + 1" "$q/nr_requests" $((depth + 1))
for name in noop cfq; do
	refuses "scheduler '$name' (legacy, removed in 5.0)" "$q/scheduler" "$name"
done
accepts "'deadline' is mq-deadline's alias" "$q/scheduler" deadline mq-deadline
hw=$(knob "$q/max_hw_sectors_kb")
echo "max_hw_sectors_kb $hw"
accepts "max_sectors_kb = max_hw_sectors_kb" "$q/max_sectors_kb" "$hw"
refuses "max_sectors_kb above max_hw_sectors_kb" "$q/max_sectors_kb" $((hw + 1))
accepts "max_sectors_kb: a page" "$q/max_sectors_kb" 4
refuses "max_sectors_kb: below a page" "$q/max_sectors_kb" 3
accepts "read_ahead_kb 0" "$q/read_ahead_kb" 0
accepts "read_ahead_kb 1048576" "$q/read_ahead_kb" 1048576
refuses "read_ahead_kb above UINT_MAX" "$q/read_ahead_kb" 4294967296
can_queue=$(cat "/sys/block/$lun/device/../../scsi_host/"*/can_queue 2>/dev/null | head -1)
echo "host can_queue ${can_queue:-?}"
accepts "queue_depth 1" "/sys/block/$lun/device/queue_depth" 1
refuses "queue_depth 0" "/sys/block/$lun/device/queue_depth" 0
if [ -n "$can_queue" ]; then
	refuses "queue_depth above the host's can_queue" "/sys/block/$lun/device/queue_depth" $((can_queue + 1))
fi

create_md /dev/md7 5 64 "${k[@]}"
md=/sys/block/md7/md
accepts "md stripe_cache_size 17" "$md/stripe_cache_size" 17
refuses "md stripe_cache_size 16" "$md/stripe_cache_size" 16
accepts "md stripe_cache_size 32768" "$md/stripe_cache_size" 32768
refuses "md stripe_cache_size 32769" "$md/stripe_cache_size" 32769
accepts "md stripe_cache_size back to 256" "$md/stripe_cache_size" 256
for s in sync_speed_min sync_speed_max; do
	accepts "md $s 1" "$md/$s" 1
	accepts "md $s 100000000" "$md/$s" 100000000
	refuses "md $s 0" "$md/$s" 0
	set_knob "$md/$s" system
done
refuses "nr_requests on md itself (bio-based)" /sys/block/md7/queue/nr_requests 128

# ---- 2. what the planner plans for this kernel, written and read back -----
# apply_knobs WHAT PLANTEXT PROFILEJSON: each knob line of a text plan
# written to its path, in the plan's order (a scheduler before
# nr_requests), then read back; none only where the profile has none
apply_knobs() {
	local path value n=0 bad=0
	while read -r path value; do
		n=$((n + 1))
		set_knob "$path" "$value" || {
			bad=$((bad + 1))
			echo "    | the kernel refused $value for $path"
		}
	done < <(tuning_of "$2")
	if [ "$n" = 0 ]; then
		expect_eq "$1: no knob planned, as the profile says" "$(grep -c '"knob"' "$3")" 0
		return
	fi
	if [ "$bad" = 0 ]; then ok "$1: the kernel took all $n knobs"; else
		fail "$1: $bad of $n knobs refused"; fi
	expect_tuning "$1" "$2"
}

stripeplan controllers --format json >/tmp/profiles.json
profiles=$(sed -n 's/^    "name": "\(.*\)",$/\1/p' /tmp/profiles.json)
echo "profiles: $(echo "$profiles" | tr '\n' ' ')"
# profile_json NAME: the profile's own entry of 'controllers --format json'
profile_json() {
	awk -v n="    \"name\": \"$1\"," '$0 == n { on = 1 } on { print } on && /^  }/ { exit }' \
		/tmp/profiles.json >"/tmp/profile-$1.json"
	echo "/tmp/profile-$1.json"
}
for c in $profiles; do
	# md profiles tune an md array (md7's knobs above), not a LUN
	case "$c" in md | intel-vroc) continue ;; esac
	for recipe in default field-report; do
		A=(--controller "$c" --level 5 --disks 4 --chunk 64K --fs xfs --tuning "$recipe")
		expect_rc 0 "plan $c $recipe on $lun (offline, kernel $kver)" \
			stripeplan plan "${A[@]}" --device "/dev/$lun" --size 2G --kernel "$kver"
		cp "$OUT" "/tmp/plan-$c-$recipe"
		apply_knobs "$c $recipe offline on $lun" "/tmp/plan-$c-$recipe" "$(profile_json "$c")"
	done
done
# probed: the scheduler is chosen from the device's own list
A=(--controller dell-perc6i --level 5 --disks 4 --chunk 64K --fs xfs --tuning field-report)
expect_rc 0 "plan dell-perc6i on $lun (probed)" stripeplan plan "${A[@]}" --device "/dev/$lun"
cp "$OUT" /tmp/plan-probed
apply_knobs "dell-perc6i probed on $lun" /tmp/plan-probed "$(profile_json dell-perc6i)"
A=(--controller hp-p400 --level 5 --disks 4 --chunk 64K --fs xfs --tuning field-report)
expect_rc 0 "plan hp-p400 on virtio $vd (probed)" stripeplan plan "${A[@]}" --device "/dev/$vd"
cp "$OUT" /tmp/plan-vd
apply_knobs "hp-p400 on virtio $vd" /tmp/plan-vd "$(profile_json hp-p400)"
for recipe in default field-report; do
	expect_rc 0 "plan md $recipe on md7" stripeplan plan --controller md --fs ext4 \
		--tuning "$recipe" --device /dev/md7
	cp "$OUT" "/tmp/plan-md-$recipe"
	apply_knobs "md $recipe on md7 and its members" "/tmp/plan-md-$recipe" "$(profile_json md)"
done
mdadm --stop /dev/md7 >/dev/null 2>&1

# md RAID4, which md has and controllers mostly do not: planned from the
# kernel's own description and applied; its XFS geometry is the topology
# md exports (mkfs.xfs alone ignores it on a volume under 1 GiB)
create_md /dev/md8 4 64 "${k[@]}"
expect_eq "md8 level" "$(cat /sys/block/md8/md/level)" raid4
io="$(($(cat /sys/block/md8/queue/minimum_io_size) / 4096)) $(($(cat /sys/block/md8/queue/optimal_io_size) / 4096))"
expect_rc 0 "plan md raid4 (probed)" stripeplan plan --controller md --fs xfs --device /dev/md8
cp "$OUT" /tmp/plan-md8
expect_rc 0 "apply md raid4" stripeplan apply --controller md --fs xfs --device /dev/md8 --root "$ROOT"
expect_eq "raid4: xfs sunit swidth (blocks) on md8 = md's exported minimum and optimal I/O" \
	"$(xfs_sb /dev/md8 unit) $(xfs_sb /dev/md8 width)" "$io"
apply_knobs "md raid4 stripe cache" /tmp/plan-md8 "$(profile_json md)"
mdadm --stop /dev/md8 >/dev/null 2>&1

# ---- 3. every workload's mount options, mounted ---------------------------
# options WHAT PLANTEXT: the plan's mount options
options() {
	awk '$1 == "options" { print $2; exit }' "$1"
}
for fs in xfs ext4 ext3; do
	dev=$(disk_by_serial "FS-$fs")
	# a mount point of its own: one root holds each fs's fstab line
	F=(--controller dell-perc6i --level 6 --disks 6 --chunk 128K --fs "$fs" --mountpoint "/data-$fs")
	expect_rc 0 "apply $fs on $dev" stripeplan apply "${F[@]}" --device "/dev/$dev" --root "$ROOT"
	tried=" "
	for workload in general metadata small-sync; do
		for barriers in on off; do
			rc=0
			stripeplan plan "${F[@]}" --workload "$workload" --barriers "$barriers" \
				--device "/dev/$dev" >"$OUT" 2>"$ERR" || rc=$?
			if [ "$rc" != 0 ]; then
				# XFS has no nobarrier since 4.19: refused at plan time
				expect_eq "$fs $workload barriers=$barriers: refused (exit 2), naming 4.19" \
					"$rc $(grep -c "removed in 4\.19" "$ERR")" "2 1"
				continue
			fi
			mount_opts=$(options "$OUT")
			# each distinct set once: mounting is slow under TCG
			case $tried in *" $mount_opts "*) continue ;; esac
			tried+="$mount_opts "
			# nofail makes mount(8) exit 0 on a missing device: findmnt says
			if mount -t "$fs" -o "$mount_opts" "/dev/${dev}1" /mnt/k 2>"$ERR" &&
				[ "$(findmnt -no SOURCE /mnt/k)" = "/dev/${dev}1" ]; then
				ok "$fs $workload barriers=$barriers: mounted with $mount_opts"
				umount /mnt/k
			else
				fail "$fs $workload barriers=$barriers: mount -o $mount_opts: $(cat "$ERR"), mounted: '$(findmnt -no SOURCE /mnt/k)'"
				umount /mnt/k 2>/dev/null
				dmesg | tail -3
			fi
		done
	done
done
vm_finish
