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
			"$PAYLOAD_BYTES" "$REQUEST_BYTES" "$(basename "$trace").gz" >>"$CASES_TSV"
	fi
	odd=$(tail -1 "$CASES_OUT" | jq '.unmatched_completions + .forced_destages')
	[ "$odd" = 0 ] ||
		echo "bench: $trace: $odd completions unmatched or rows destaged early; see the case's JSON" >&2
}

stripe_bytes() {
	jq '.array.stripe_width_bytes' "$1"
}

# _efficiency_label LAYOUT ROUND: the layout's name in the cases, LAYOUT on
# the first round and "LAYOUT.R" on the R-th (each on fresh fixtures)
_efficiency_label() {
	if [ "$2" = 1 ]; then
		echo "$1"
	else
		echo "$1.$2"
	fi
}

# _group_fixture IDX GROUP LABEL TAG: GROUP's workloads on the fixture just
# made (fixture_make), traced and replayed through array IDX's model as
# LABEL (PROFILE: the plan's, for the planned layout); TAG names the
# traces; then the fixture is dropped
_group_fixture() {
	local idx=$1 group=$2 label=$3 tag=$4 profile=${5:-} name w stripe trace

	name=$(array_field "$idx" name)
	stripe=$(stripe_bytes "$LOGS/plan.$name.offline.json")
	CASE_TAG="$tag"
	for w in $group; do
		trace="$OUT/traces/$name.$label.$w.trace"
		bench_step "$name $label${profile:+ ($profile)} $w"
		run_workload "$w" "$stripe" "$trace"
		replay_case "$idx" "$label" "$w" "$trace" "$profile"
	done
	fixture_drop
}

# mkfs-topology knows the array: a fixture per array.
_topology_group() {
	local group=$1 label=$2 idx

	for idx in "${!ARRAYS[@]}"; do
		fixture_make mkfs-topology "$idx"
		_group_fixture "$idx" "$group" "$label" "$(array_field "$idx" name).$label"
	done
}

# The planned layout: for each array, a fixture planned and applied with
# the workload's --workload profile.  On the first round the default
# profile also runs the workloads it is not planned for, recorded as
# "stripeplan.general".
_planned_group() {
	local group=$1 label=$2 round=$3 idx profile name

	profile=$(workload_profile "${group%% *}")
	for idx in "${!ARRAYS[@]}"; do
		name=$(array_field "$idx" name)
		fixture_make stripeplan "$idx" "$profile"
		_group_fixture "$idx" "$group" "$label" "$name.$label.$profile" "$profile"
		if [ "$profile" != general ] && [ "$round" = 1 ]; then
			fixture_make stripeplan "$idx" general
			_group_fixture "$idx" "$group" stripeplan.general "$name.stripeplan.general" general
		fi
	done
}

# The layouts that ignore the array lay out the same bytes whatever it is:
# each workload traced once a round and replayed through every array's
# model; stripewrite once per stripe width, each on a fixture of its own.
_unplanned_group() {
	local layout=$1 group=$2 label=$3 idx w stripe trace

	CASE_TAG="any.$label"
	if [ "$group" = stripewrite ]; then
		for idx in "${!ARRAYS[@]}"; do
			fixture_make "$layout" 0
			_group_fixture "$idx" stripewrite "$label" "any.$label"
		done
		return 0
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
}

# _layout_group LAYOUT GROUP ROUND: one round of GROUP's workloads on LAYOUT
_layout_group() {
	local layout=$1 group=$2 round=$3 label

	label=$(_efficiency_label "$layout" "$round")
	case $layout in
	stripeplan) _planned_group "$group" "$label" "$round" ;;
	mkfs-topology) _topology_group "$group" "$label" ;;
	*) _unplanned_group "$layout" "$group" "$label" ;;
	esac
}

# The first run of a workload in a session costs more than the runs after
# it: the metadata workload's first traced run came out 20-60 % above the
# rest in three of three experiments (on whichever layout ran first; cold
# caches of tar, the archive and the fixtures' directory), which charged
# the plan, traced first, with it.  One untraced round of every group on a
# scratch fixture (parted's default) takes that first run.
_efficiency_warmup() {
	local group w

	for group in "${WORKLOAD_GROUPS[@]}"; do
		_group_selected "$group" || continue
		fixture_make parted-default 0
		CASE_TAG="warmup"
		for w in $group; do
			bench_step "warm-up $w (not traced for the report)"
			run_workload "$w" 1048576 "$SP_LOOP_TMPDIR/warmup.trace"
		done
		fixture_drop
	done
	rm -f "$SP_LOOP_TMPDIR/warmup.trace"
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

# _efficiency_meta SECONDS: the run's record beside its traces (the docs
# quote it: bench/docs): what ran, where (the loop images' directory and
# its file system: bench/run, images_place), and how loaded the machine
# was (the 1-minute load average at every step)
_efficiency_meta() {
	printf 'command\t%s\n' "$COMMAND"
	printf 'date\t%s\n' "$(date -u +%Y-%m-%d)"
	printf 'kernel\t%s\n' "$(uname -r)"
	printf 'cpus\t%s\n' "$(nproc)"
	printf 'seconds\t%s\n' "$1"
	printf 'images\t%s\n' "$IMAGES_DIR"
	printf 'images_fs\t%s\n' "$IMAGES_FS"
	awk 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 } { s += $1 }
		END { if (NR) printf "load_min\t%.1f\nload_mean\t%.1f\nload_max\t%.1f\n", lo, s / NR, hi }' \
		"$LOAD_LOG"
}

# _group_selected GROUP: one of GROUP's workloads was asked for (--workloads)
_group_selected() {
	local w

	for w in $1; do
		[[ ",$WORKLOAD_LIST," != *",$w,"* ]] || return 0
	done
	return 1
}

# _group_repeats GROUP: the rounds GROUP runs, the most any of its
# workloads asks for (--repeat)
_group_repeats() {
	local w n=0

	for w in $1; do
		[ "$(workload_repeats "$w")" -le "$n" ] || n=$(workload_repeats "$w")
	done
	echo "$n"
}

# Rounds, each a fresh fixture of every layout for every workload group
# whose repeat count reaches it; within a round the layouts take turns
# going first, so that neither a slow drift of the machine's load nor
# being first in a round falls on one layout.  Every layout the rule
# judges the plan against (mkfs-topology, parted-default, legacy-63) runs
# as often as the plan: the rule compares means, with the spread of each.
efficiency_run() {
	local r k group layout t0 rounds=0 n_layouts=${#LAYOUTS[@]}

	mkdir -p "$OUT/traces"
	: >"$OUT/cases.jsonl"
	CASES_OUT="$OUT/cases.jsonl"
	CASES_TSV="$OUT/traces/cases.tsv"
	printf '# array\tlevel\tdisks\tchunk\tlayout\tprofile\tworkload\tdirection\tpayload_bytes\trequest_bytes\ttrace\n' \
		>"$CASES_TSV"
	_efficiency_plans
	LOAD_LOG="$LOGS/load.efficiency"
	: >"$LOAD_LOG"
	t0=$SECONDS
	bt_init
	_efficiency_warmup
	for group in "${WORKLOAD_GROUPS[@]}"; do
		[ "$(_group_repeats "$group")" -le "$rounds" ] || rounds=$(_group_repeats "$group")
	done
	for ((r = 1; r <= rounds; r++)); do
		for group in "${WORKLOAD_GROUPS[@]}"; do
			_group_selected "$group" || continue
			[ "$r" -le "$(_group_repeats "$group")" ] || continue
			for ((k = 0; k < n_layouts; k++)); do
				layout=${LAYOUTS[(k + r - 1) % n_layouts]}
				_layout_group "$layout" "$group" "$r"
			done
		done
	done
	bt_cleanup
	_efficiency_meta $((SECONDS - t0)) >"$OUT/traces/run.tsv"
	LOAD_LOG=""
	# stored compressed (bench/traces holds them so): 10-15x smaller
	grep -v '^#' "$CASES_TSV" | cut -f11 | sort -u | while read -r gz; do
		[ -e "$OUT/traces/$gz" ] || gzip -9n "$OUT/traces/${gz%.gz}" ||
			bench_die "cannot compress '$OUT/traces/${gz%.gz}'"
	done
}
