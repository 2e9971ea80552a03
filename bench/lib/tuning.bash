# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The tuning bench: a cold-cache sequential buffered read of one file on a
# loop device doing direct I/O (so this kernel's page cache holds nothing
# of the "disk" once dropped), once per knob setting, rounds interleaved so
# that drift in the host hits every setting alike.  The file is read with
# 128 KiB read() calls, what cp and cat use: with larger calls the kernel
# reads at least the call's size and read-ahead matters less.  Each knob is
# compared with its baseline (the kernel's default for a RAID LUN) at every
# value the plans of the bench's arrays ask for.  Writes $OUT/tuning.tsv:
#	knob  value  label  median  q1  q3  min  max (MiB/s)  mean_request_KiB

# The value of a queue knob in the plans of every array, with the arrays asking for it.
_planned_values() {
	local knob=$1 idx plan v

	for idx in "${!ARRAYS[@]}"; do
		plan="$LOGS/plan.$(array_field "$idx" name).offline.json"
		v=$(jq -r --arg k "/queue/$knob" '.tuning[] | select(.path | endswith($k)) | .value' "$plan")
		if [ -n "$v" ]; then
			printf '%s %s\n' "$v" "$(array_field "$idx" controller)"
		fi
	done | awk '{ a[$1] = a[$1] (a[$1] ? ", " : "") $2 } END { for (v in a) print v "\t" a[v] }' | sort -n
}

# _cold_read FILE DISK: MiB/s of one cold read, and the mean read request size in KiB.
# On a VM the loop device's backing file sits behind the host's page cache,
# which other work on the host fills and empties at will: a first, untimed
# read makes it warm every time, so what is timed is what this kernel does
# (how many requests, how large), cold in this kernel's own cache.
_cold_read() {
	local file=$1 disk=$2 r0 s0 r1 s1 mibs

	sync
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$file" of=/dev/null bs=1M status=none || bench_die "cannot read '$file'"
	echo 3 >/proc/sys/vm/drop_caches
	read -r r0 _ s0 _ </sys/block/"$disk"/stat
	mibs=$(fio --name=coldread --filename="$file" --rw=read --bs=128k --ioengine=psync \
		--invalidate=1 --output-format=json | jq '.jobs[0].read.bw_bytes / 1048576') ||
		bench_die "fio cold read failed"
	read -r r1 _ s1 _ </sys/block/"$disk"/stat
	echo "$mibs $(((s1 - s0) / 2 / ((r1 - r0) > 0 ? (r1 - r0) : 1)))"
}

# _settings: knob|value|read_ahead_kb|scheduler|label, one a line; the
# first of each knob is its baseline, and the other knob is held fixed.
# Both knobs are always written: a loop device keeps a raised
# read_ahead_kb and its scheduler across detach and attach, so what a
# fresh one "defaults" to depends on who used the number before.
_settings() {
	local q=$1 value label ra_fixed

	echo "read_ahead_kb|128|128|none|kernel default for a LUN that exports no optimal I/O size (the seeds' LUNs)"
	while IFS=$'\t' read -r value label; do
		[ "$value" = 128 ] || echo "read_ahead_kb|$value|$value|none|planned ($label)"
		[ -n "${ra_fixed:-}" ] || ra_fixed=$value
	done < <(_planned_values read_ahead_kb)
	ra_fixed=${ra_fixed:-128}
	label=$(_planned_values scheduler | awk -F'\t' '$1 == "none" { print "; planned (" $2 ")" }')
	echo "scheduler|none|$ra_fixed|none|no scheduler, the default for a loop device${label}"
	while IFS=$'\t' read -r value label; do
		[ "$value" != none ] || continue
		grep -qw -- "$value" "$q/scheduler" || continue
		echo "scheduler|$value|$ra_fixed|$value|planned ($label), read_ahead_kb $ra_fixed"
	done < <(_planned_values scheduler)
}

tuning_run() {
	local q disk round knob value ra sched label line
	local -a settings combos

	fixture_make stripeplan 0
	disk=$(basename "$FX_DEV")
	q=/sys/block/$disk/queue
	bench_step "tuning: writing a ${TUNE_MIB} MiB file"
	fio --name=tunefile --filename="$FX_MNT/read" --rw=write --bs=4M --size="${TUNE_MIB}M" \
		--ioengine=psync --end_fsync=1 --output=/dev/null || bench_die "fio tune file failed"
	mapfile -t settings < <(_settings "$q")
	# each (read_ahead_kb, scheduler) pair is measured once, whatever rows share it
	mapfile -t combos < <(printf '%s\n' "${settings[@]}" | cut -d'|' -f3,4 | awk '!seen[$0]++')
	: >"$LOGS/tuning.raw"
	for round in $(seq "$TUNE_RUNS"); do
		for line in "${combos[@]}"; do
			IFS='|' read -r ra sched <<<"$line"
			bench_step "tuning: round $round of $TUNE_RUNS, read_ahead_kb=$ra scheduler=$sched"
			echo "$ra" >"$q/read_ahead_kb" || bench_die "cannot set read_ahead_kb=$ra on $disk"
			echo "$sched" >"$q/scheduler" || bench_die "cannot set scheduler=$sched on $disk"
			printf '%s|%s\t%s\n' "$ra" "$sched" "$(_cold_read "$FX_MNT/read" "$disk")" \
				>>"$LOGS/tuning.raw"
		done
	done
	# per setting row: median, middle half (2nd to 4th of 5), min and max
	# MiB/s and the mean request size
	for line in "${settings[@]}"; do
		IFS='|' read -r knob value ra sched label <<<"$line"
		awk -F'\t' -v key="$ra|$sched" -v row="$knob\t$value\t$label" '
			$1 == key { split($2, m, " "); v[++c] = m[1]; rq += m[2] }
			END {
				for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++)
					if (v[b] < v[a]) { t = v[a]; v[a] = v[b]; v[b] = t }
				med = c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
				q = int((c + 3) / 4)
				printf "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%d\n", row, med, v[q], v[c + 1 - q],
					v[1], v[c], rq / c
			}' "$LOGS/tuning.raw"
	done >"$OUT/tuning.tsv"
	fixture_drop
}
