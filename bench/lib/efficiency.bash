# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The RAID-efficiency bench: run each workload on each layout, capture the
# block requests the loop device received (bench/lib/trace.bash) and replay
# them through the model of each array (sp-replay).  One JSON object per
# case is appended to $OUT/cases.jsonl.
#
# Workloads (fio, sizes from bench/run's mode):
#	seqwrite     one file, buffered 4 MiB writes, fsync at the end
#	seqread      the same file read back cold (fio invalidates its cache)
#	stripewrite  direct random writes of exactly one stripe width, aligned
#	             to it within a file laid out beforehand (not traced)
#	smallfiles   many 64 KiB files, each written and fsynced
#	metadata     untar-like, no fsync: META_FILES files of 2 KiB in
#	             META_DIRS directories extracted from a tar archive made
#	             beforehand off the fixture (tar -xf) and written back by
#	             one sync, every directory then renamed (mv) and the tree
#	             removed (rm -rf), then sync.  The sync after extracting
#	             decides when the data is written: without it, whether
#	             the kernel wrote the files' data before rm freed it
#	             depended on the whole machine's dirty memory (background
#	             writeback), and one case swung by 16x between runs
# Each trace starts after a sync and ends after the workload's own sync, so
# it holds that workload's I/O, metadata and log included, and nothing else.
# Each workload runs on a filesystem made for it, seqread on seqwrite's
# (it reads seqwrite's file back): where a filesystem puts small files
# without a stripe unit depends on what was written before (the allocator
# packs them after the last allocation), so a workload run after others
# measured the history as much as the layout, and the layouts had unequal
# histories (the unplanned ones wrote one stripewrite file per array).

# The workloads that share a filesystem, in order; one group a fixture.
WORKLOAD_GROUPS=("seqwrite seqread" stripewrite smallfiles metadata)
# The planned layout is planned for the workload it runs: the plan's
# --workload profile for each workload (workload_profile, lib/plans.bash), one fixture per
# array and profile.  The default profile, general, also runs the workloads
# it does not serve, as "stripeplan.general": the report prints those cases
# beside the judged ones and the rule does not judge them, so what the
# default costs there stays on record in every run.
PROFILES=(general small-sync metadata)

# What the last workload itself wrote or read, in bytes: the report's "per
# MiB" is per MiB of this, so log and metadata writes count as cost.
PAYLOAD_BYTES=0
# The size of the last workload's own requests, for the model's achievable
# floor (each request alone, starting a stripe): a sequential file is one
# stream, a stripewrite one stripe, a small file one 64 KiB write, and
# metadata's files one stream too: their data is written back together by
# one sync, never a file alone.
REQUEST_BYTES=0

_fio() {
	local name=$1
	shift
	fio --name="$name" --output-format=json --output="$LOGS/fio.$CASE_TAG.$name.json" "$@" ||
		bench_die "fio $name failed (see $LOGS/fio.$CASE_TAG.$name.json)"
}

# run_workload WORKLOAD STRIPE_BYTES TRACE_OUT
run_workload() {
	local w=$1 stripe=$2 out=$3 n

	case $w in
	seqwrite | seqread)
		PAYLOAD_BYTES=$((SEQ_MIB * 1048576))
		REQUEST_BYTES=$PAYLOAD_BYTES
		;;
	stripewrite)
		# enough writes to mean something, at least STRIPE_MIN of them
		n=$((STRIPE_TARGET_MIB * 1048576 / stripe))
		[ "$n" -ge "$STRIPE_MIN" ] || n=$STRIPE_MIN
		# laid out by writing it, so that the traced writes overwrite
		# written blocks and need no extent conversion; fio fallocates
		# the file before it writes it (fallocate=native, one request the
		# size of the file) unless LAYOUT_FALLOCATE=none, when writeback
		# allocates it in pieces (the ext4 sweep runs both)
		_fio "layout-$stripe" --filename="$FX_MNT/stripe.$stripe" --rw=write --bs=4M \
			--size=$((n * stripe)) --ioengine=psync --end_fsync=1 \
			--fallocate="${LAYOUT_FALLOCATE:-native}"
		# where the file landed decides whether its stripe-aligned offsets are
		# stripe-aligned on the LUN: keep the evidence
		{
			echo "== $CASE_TAG stripe.$stripe (partition at sector $FX_START, stripe $((stripe / 512)) sectors)"
			# xfs_bmap on another filesystem says so on stderr and exits 0
			if [ "$(findmnt -no FSTYPE "$FX_MNT")" = xfs ]; then
				xfs_bmap -v "$FX_MNT/stripe.$stripe"
			else
				filefrag -v "$FX_MNT/stripe.$stripe"
			fi
		} >>"$LOGS/extents.log" 2>&1
		PAYLOAD_BYTES=$((n * stripe))
		REQUEST_BYTES=$stripe
		;;
	smallfiles)
		mkdir -p "$FX_MNT/small"
		PAYLOAD_BYTES=$((SMALLFILES * 65536))
		REQUEST_BYTES=65536
		;;
	metadata)
		_metadata_tarball
		PAYLOAD_BYTES=$((META_FILES * 2048))
		REQUEST_BYTES=$PAYLOAD_BYTES
		;;
	esac
	sync -f "$FX_MNT"
	bt_start "$FX_DEV"
	case $w in
	seqwrite)
		_fio seqwrite --filename="$FX_MNT/seq" --rw=write --bs=4M --size="${SEQ_MIB}M" \
			--ioengine=psync --end_fsync=1
		;;
	seqread)
		_fio seqread --filename="$FX_MNT/seq" --rw=read --bs=4M --size="${SEQ_MIB}M" \
			--ioengine=psync --invalidate=1
		;;
	stripewrite)
		_fio "stripewrite-$stripe" --filename="$FX_MNT/stripe.$stripe" --rw=randwrite \
			--bs="$stripe" --size=$((n * stripe)) --direct=1 --ioengine=psync
		;;
	smallfiles)
		_fio smallfiles --directory="$FX_MNT/small" --nrfiles="$SMALLFILES" --filesize=64k \
			--bs=64k --rw=write --fsync=1 --ioengine=psync --openfiles=16 \
			--file_service_type=sequential --fallocate=none
		;;
	metadata) _metadata_run ;;
	esac
	sync -f "$FX_MNT"
	bt_stop "$out"
}

# The metadata workload's archive, made once a run off the fixtures (in
# the loop images' directory) so that the trace holds the extraction only.
META_TAR=""
_metadata_tarball() {
	local d f src

	[ -z "$META_TAR" ] || return 0
	src="$SP_LOOP_TMPDIR/meta-src"
	mkdir -p "$src"
	for ((d = 0; d < META_DIRS; d++)); do
		mkdir -p "$src/d$d"
		for ((f = 0; f < META_FILES / META_DIRS; f++)); do
			printf '%2048s' '' >"$src/d$d/f$f"
		done
	done
	META_TAR="$SP_LOOP_TMPDIR/meta.tar"
	tar -cf "$META_TAR" -C "$src" . || bench_die "cannot make the metadata workload's archive"
	rm -rf "$src"
}

_metadata_run() {
	local d

	mkdir -p "$FX_MNT/meta"
	tar -xf "$META_TAR" -C "$FX_MNT/meta" || bench_die "tar -xf into '$FX_MNT/meta' failed"
	sync -f "$FX_MNT"
	for ((d = 0; d < META_DIRS; d++)); do
		mv "$FX_MNT/meta/d$d" "$FX_MNT/meta/r$d"
	done
	rm -rf "$FX_MNT/meta"
}

# Where replay_case appends its case; and the index of the traces, one
# line a case (bench/traces/cases.tsv is a copy: tests/cli/bench-rule.sh
# replays the traces it lists).
CASES_OUT=""
CASES_TSV=""

# replay_case ARRAY LAYOUT WORKLOAD TRACE [PROFILE] (PAYLOAD_BYTES,
# REQUEST_BYTES: the trace's; PROFILE: the plan's --workload, for the
# planned layout only)
replay_case() {
	local idx=$1 layout=$2 w=$3 trace=$4 profile=${5:-} dir=write odd
	local -a profile_flag=()

	[ "$w" != seqread ] || dir="read"
	[ -z "$profile" ] || profile_flag=(--profile "$profile")
	"$SP_REPLAY" --level "$(array_field "$idx" level)" --disks "$(array_field "$idx" disks)" \
		--chunk "$(array_field "$idx" chunk)" --direction "$dir" --payload-bytes "$PAYLOAD_BYTES" \
		--request-bytes "$REQUEST_BYTES" \
		--array "$(array_field "$idx" name)" --layout "$layout" --workload "$w" "${profile_flag[@]}" \
		"$trace" >>"$CASES_OUT" || bench_die "sp-replay failed on '$trace'"
	if [ -n "$CASES_TSV" ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(array_field "$idx" name)" \
			"$(array_field "$idx" level)" "$(array_field "$idx" disks)" \
			"$(array_field "$idx" chunk)" "$layout" "${profile:--}" "$w" "$dir" \
			"$PAYLOAD_BYTES" "$REQUEST_BYTES" "$(basename "$trace")" >>"$CASES_TSV"
	fi
	odd=$(tail -1 "$CASES_OUT" | jq '.unmatched_completions + .forced_destages')
	[ "$odd" = 0 ] ||
		echo "bench: $trace: $odd completions unmatched or rows destaged early; see the case's JSON" >&2
}

stripe_bytes() {
	jq '.array.stripe_width_bytes' "$1"
}

# mkfs-topology knows the array: fixtures per array.  LABEL: the layout's
# name in the cases, "mkfs-topology" or a repeat "mkfs-topology.R".
_efficiency_topology() {
	local label=$1 idx group w stripe trace name

	for idx in "${!ARRAYS[@]}"; do
		name=$(array_field "$idx" name)
		stripe=$(stripe_bytes "$LOGS/plan.$name.offline.json")
		CASE_TAG="$name.$label"
		for group in "${WORKLOAD_GROUPS[@]}"; do
			fixture_make mkfs-topology "$idx"
			for w in $group; do
				trace="$OUT/traces/$CASE_TAG.$w.trace"
				bench_step "$name $label $w"
				run_workload "$w" "$stripe" "$trace"
				replay_case "$idx" "$label" "$w" "$trace"
			done
			fixture_drop
		done
	done
}

# _planned_group IDX GROUP PROFILE LABEL: GROUP's workloads on a fixture
# planned and applied with --workload PROFILE, recorded as LABEL
_planned_group() {
	local idx=$1 group=$2 profile=$3 label=$4 name w stripe trace

	name=$(array_field "$idx" name)
	stripe=$(stripe_bytes "$LOGS/plan.$name.offline.json")
	fixture_make stripeplan "$idx" "$profile"
	CASE_TAG="$name.$label.$profile"
	for w in $group; do
		trace="$OUT/traces/$name.$label.$w.trace"
		bench_step "$name $label ($profile) $w"
		run_workload "$w" "$stripe" "$trace"
		replay_case "$idx" "$label" "$w" "$trace" "$profile"
	done
	fixture_drop
}

# The planned layout: for each array and workload, a fixture planned and
# applied with the workload's --workload profile; its cases are named
# LABEL ("stripeplan", or "stripeplan.R" for the R-th run, on fixtures of
# their own: the noise).  On the first run the default profile also runs
# the workloads it is not planned for, recorded as "stripeplan.general".
_efficiency_planned() {
	local label=$1 idx group profile

	for idx in "${!ARRAYS[@]}"; do
		for group in "${WORKLOAD_GROUPS[@]}"; do
			profile=$(workload_profile "${group%% *}")
			_planned_group "$idx" "$group" "$profile" "$label"
			if [ "$profile" != general ] && [ "$label" = stripeplan ]; then
				_planned_group "$idx" "$group" general stripeplan.general
			fi
		done
	done
}

# The layouts that ignore the array lay out the same bytes whatever it is:
# each workload traced once a run and replayed through every array's model;
# stripewrite once per stripe width, each on a fixture of its own.
# LABEL: the layout's name in the cases, LAYOUT or a repeat "LAYOUT.R".
_efficiency_unplanned() {
	local layout=$1 label=${2:-$1} idx group w stripe trace

	CASE_TAG="any.$label"
	for group in "${WORKLOAD_GROUPS[@]}"; do
		if [ "$group" = stripewrite ]; then
			for idx in "${!ARRAYS[@]}"; do
				stripe=$(stripe_bytes "$LOGS/plan.$(array_field "$idx" name).offline.json")
				trace="$OUT/traces/$(array_field "$idx" name).$label.stripewrite.trace"
				fixture_make "$layout" 0
				bench_step "$(array_field "$idx" name) $label stripewrite"
				run_workload stripewrite "$stripe" "$trace"
				replay_case "$idx" "$label" stripewrite "$trace"
				fixture_drop
			done
			continue
		fi
		fixture_make "$layout" 0
		for w in $group; do
			trace="$OUT/traces/any.$label.$w.trace"
			bench_step "(every array) $label $w"
			run_workload "$w" 0 "$trace"
			for idx in "${!ARRAYS[@]}"; do
				replay_case "$idx" "$label" "$w" "$trace"
			done
		done
		fixture_drop
	done
}

# offline_plans: each array's plan for the fixture's size, for the stripe
# widths (and the log sweep's partition and mkfs command)
offline_plans() {
	local idx fs
	local -a args

	for idx in "${!ARRAYS[@]}"; do
		read -ra args <<<"$(array_args "$idx")"
		for fs in xfs ext4; do
			"$STRIPEPLAN" plan "${args[@]}" --fs "$fs" --device /dev/bench-offline \
				--size "$FIXTURE_SIZE" --mountpoint /srv/bench --format json \
				-o "$LOGS/plan.$(array_field "$idx" name).offline$([ $fs = xfs ] || echo ".$fs").json" ||
				bench_die "offline $fs plan for $(array_field "$idx" name) failed"
		done
	done
}

# The plans the planned cases were captured with, beside their traces
# (bench/lib/plans.bash): "array<TAB>profile<TAB>plan arguments<TAB>fingerprint"
_efficiency_plans() {
	local idx profile fp
	local -a args

	printf '# array\tprofile\tplan arguments\tplan (bench/lib/plans.bash)\n' >"$OUT/traces/plans.tsv"
	for idx in "${!ARRAYS[@]}"; do
		read -ra args <<<"$(array_args "$idx")"
		for profile in "${PROFILES[@]}"; do
			fp=$(plan_fingerprint "$STRIPEPLAN" "$profile" "${args[@]}") || fp=""
			[ -n "$fp" ] ||
				bench_die "cannot plan $(array_field "$idx" name) --workload $profile offline"
			printf '%s\t%s\t%s\t%s\n' "$(array_field "$idx" name)" "$profile" "${args[*]}" \
				"$fp" >>"$OUT/traces/plans.tsv"
		done
	done
}

efficiency_run() {
	local layout r

	mkdir -p "$OUT/traces"
	: >"$OUT/cases.jsonl"
	CASES_OUT="$OUT/cases.jsonl"
	CASES_TSV="$OUT/traces/cases.tsv"
	printf '# array\tlevel\tdisks\tchunk\tlayout\tprofile\tworkload\tdirection\tpayload_bytes\trequest_bytes\ttrace\n' \
		>"$CASES_TSV"
	_efficiency_plans
	bt_init
	for layout in "${LAYOUTS[@]}"; do
		case $layout in
		stripeplan)
			_efficiency_planned stripeplan
			# the run-to-run noise: the same cases again, each on a
			# fresh fixture (the report and bench-rule use the spread)
			for r in $(seq 2 "$REPEAT"); do
				_efficiency_planned "stripeplan.$r"
			done
			;;
		mkfs-topology)
			# the peers the rule judges against repeat too: their
			# mean and spread, not one run's luck (metadata's
			# writeback timing spreads 10-40 % between runs)
			_efficiency_topology mkfs-topology
			for r in $(seq 2 "$REPEAT"); do
				_efficiency_topology "mkfs-topology.$r"
			done
			;;
		parted-default)
			_efficiency_unplanned parted-default
			for r in $(seq 2 "$REPEAT"); do
				_efficiency_unplanned parted-default "parted-default.$r"
			done
			;;
		*) _efficiency_unplanned "$layout" ;;
		esac
	done
	bt_cleanup
}
