# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The read-ahead sweep (--parts readahead): what the plan's read_ahead_kb
# costs the members on a cold sequential read, against the read-ahead the
# kernel gives a device that exports the array's geometry (twice its
# optimal I/O size: topology_read_ahead_kb), which is what the
# mkfs-topology layout of the efficiency part reads with.  Only the knob
# differs: for each array, one fixture made by the plan, files of each
# size in RA_SIZES_MIB written once, then in rounds (the two settings
# taking turns going first) each file read back cold (fio, 4 MiB reads,
# --invalidate=1) at each setting, traced and replayed through the array
# model as the efficiency part replays seqread.  The same files on the
# same blocks every time, so what moves is what the kernel's read-ahead
# asks for.
#
# Writes, beside the efficiency part's, $OUT/traces/readahead.tsv (an
# index in cases.tsv's columns: layout "ra-plan" or "ra-topology" (".R"
# appended on the R-th round, as the efficiency part names its runs),
# workload "seqread-<MiB>m", the setting's read_ahead_kb in the profile
# column), $OUT/traces/readahead.run.tsv (what ran, as run.tsv) and the
# replayed cases in $OUT/readahead.jsonl; bench/docs replays the stored
# copies for the README's table and the plan text's trade.

# _planned_read_ahead_kb IDX: the plan's queue/read_ahead_kb for the array's device
_planned_read_ahead_kb() {
	jq -r '[.tuning[] | select(.path | endswith("/queue/read_ahead_kb")) | .value][0] // empty' \
		"$LOGS/plan.$(array_field "$1" name).offline.json"
}

# _ra_read IDX SETTING KB MIB RUN: one traced cold read of the MIB file at KB
_ra_read() {
	local idx=$1 setting=$2 kb=$3 mib=$4 run=$5 name trace label
	local -a replay_flags

	name=$(array_field "$idx" name)
	label=$(_efficiency_label "ra-$setting" "$run")
	trace="$OUT/traces/readahead.$name.$setting.${mib}m.$run.trace"
	echo "$kb" >"/sys/block/$(basename "$FX_DEV")/queue/read_ahead_kb" ||
		bench_die "cannot set the read-ahead of '$FX_DEV' to $kb KiB"
	CASE_TAG="readahead.$name.$setting.${mib}m.$run"
	sync -f "$FX_MNT"
	bt_start "$FX_DEV"
	_fio seqread --filename="$FX_MNT/seq.$mib" --rw=read --bs=4M --size="${mib}M" \
		--ioengine=psync --invalidate=1
	bt_stop "$trace"
	replay_flags=(--level "$(array_field "$idx" level)" --disks "$(array_field "$idx" disks)"
		--chunk "$(array_field "$idx" chunk)" --direction read
		--payload-bytes $((mib * 1048576)) --request-bytes $((mib * 1048576)))
	"$SP_REPLAY" "${replay_flags[@]}" --array "$name" --layout "$label" \
		--workload "seqread-${mib}m" --profile "$kb" "$trace" >>"$OUT/readahead.jsonl" ||
		bench_die "sp-replay failed on '$trace'"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" \
		"$(array_field "$idx" level)" "$(array_field "$idx" disks)" \
		"$(array_field "$idx" chunk)" "$label" "$kb" "seqread-${mib}m" read \
		$((mib * 1048576)) $((mib * 1048576)) "$(basename "$trace").gz" \
		>>"$OUT/traces/readahead.tsv"
	gzip -9n "$trace" || bench_die "cannot compress '$trace'"
}

# _ra_array IDX: the sweep on one array, when its plan reads ahead other
# than the kernel would
_ra_array() {
	local idx=$1 planned topo mib r first second setting

	planned=$(_planned_read_ahead_kb "$idx")
	topo=$(topology_read_ahead_kb "$idx")
	if [ -z "$planned" ] || [ "$planned" = "$topo" ]; then
		bench_step "$(array_field "$idx" name): the plan reads ahead as the kernel would; no sweep"
		return 0
	fi
	fixture_make stripeplan "$idx" general
	for mib in "${RA_SIZES_MIB[@]}"; do
		bench_step "$(array_field "$idx" name) readahead: writing a $mib MiB file"
		# shellcheck disable=SC2034 # names the fio log: _fio (efficiency.bash)
		CASE_TAG="readahead.$(array_field "$idx" name).write"
		_fio "ra-write-$mib" --filename="$FX_MNT/seq.$mib" --rw=write --bs=4M --size="${mib}M" \
			--ioengine=psync --end_fsync=1
	done
	for ((r = 1; r <= RA_RUNS; r++)); do
		first=plan second=topology
		[ $((r % 2)) = 1 ] || first=topology second=plan
		bench_step "$(array_field "$idx" name) readahead round $r: plan $planned KiB, kernel $topo KiB"
		for mib in "${RA_SIZES_MIB[@]}"; do
			for setting in "$first" "$second"; do
				if [ "$setting" = plan ]; then
					_ra_read "$idx" plan "$planned" "$mib" "$r"
				else
					_ra_read "$idx" topology "$topo" "$mib" "$r"
				fi
			done
		done
	done
	fixture_drop
}

readahead_run() {
	local idx t0=$SECONDS

	mkdir -p "$OUT/traces"
	: >"$OUT/readahead.jsonl"
	printf '# array\tlevel\tdisks\tchunk\tlayout\tread_ahead_kb\tworkload\tdirection\tpayload_bytes\trequest_bytes\ttrace\n' \
		>"$OUT/traces/readahead.tsv"
	LOAD_LOG="$LOGS/load.readahead"
	: >"$LOAD_LOG"
	bt_init
	for idx in "${!ARRAYS[@]}"; do
		_ra_array "$idx"
	done
	bt_cleanup
	_efficiency_meta $((SECONDS - t0)) >"$OUT/traces/readahead.run.tsv"
	LOAD_LOG=""
}
