# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The ext4 sweep (--parts ext4): what ext4's stride and stripe_width hints
# do to stripe-sized and sequential writes, against the peers the plan must
# not be worse than.  For each array, each variant on a fresh fixture,
# stripewrite and seqwrite (bench/lib/efficiency.bash) traced and replayed
# as there; one JSON object per case appended to $OUT/log.jsonl (the
# report's sweep table), the variant in "layout" (".R" on the R-th of
# --repeat runs):
#
#	ext4-plan            the plan's partition and mke2fs -E stride=,stripe_width=
#	ext4-stride          the same with stride= only
#	ext4-nohint          the same with neither
#	ext4-mkfs-topology   no partition; mke2fs -E stride=,stripe_width= as
#	                     mke2fs reads them from md (minimum_io_size /
#	                     optimal_io_size in blocks) on the whole device
#	ext4-parted-default  parted -a optimal 0% 100% (1 MiB), plain mke2fs
#
# Every mke2fs gets lazy_itable_init=0,lazy_journal_init=0, so that no
# background zeroing lands in a trace, and every mount the plan's noatime
# (the peers' defaults would add atime updates, not allocation choices).
# The extents of each stripewrite file are in $LOGS/extents.log, with the
# partition's start: where a file lands relative to the stripe is the cause.

EXT4_LAZY="lazy_itable_init=0,lazy_journal_init=0"

# _ext4_case ARRAY VARIANT: make the variant's fixture and run the workloads
_ext4_case() {
	local idx=$1 variant=$2 name plan stripe stride width w trace
	local -a argv

	name=$(array_field "$idx" name)
	plan="$LOGS/plan.$name.offline.ext4.json"
	stripe=$(stripe_bytes "$plan")
	stride=$(jq '.filesystem.ext.stride_blocks' "$plan")
	width=$(jq '.filesystem.ext.stripe_width_blocks' "$plan")
	case ${variant%.*} in
	ext4-plan | ext4-stride | ext4-nohint)
		mapfile -t argv < <(jq -r '.filesystem.mkfs_argv[]' "$plan")
		# mke2fs -t ext4 -b 4096 [-E stride=S,stripe_width=W] PARTITION
		if [ "${argv[0]}" != mke2fs ] || [ "${argv[5]:-}" != -E ]; then
			bench_die "unexpected ext4 mkfs command in '$plan': ${argv[*]}"
		fi
		case ${variant%.*} in
		ext4-plan) argv[6]="${argv[6]},$EXT4_LAZY" ;;
		ext4-stride) argv[6]="stride=$stride,$EXT4_LAZY" ;;
		ext4-nohint) argv[6]=$EXT4_LAZY ;;
		esac
		fixture_make_variant "$idx" "$plan" noatime "${argv[@]:0:7}" -F -q "${argv[-1]}"
		;;
	ext4-mkfs-topology)
		_fixture_loop
		FX_PART=$FX_DEV
		mke2fs -t ext4 -b 4096 -E "stride=$stride,stripe_width=$width,$EXT4_LAZY" -F -q \
			"$FX_PART" >>"$LOGS/mkfs.log" 2>&1 ||
			bench_die "mke2fs on '$FX_PART' failed (see $LOGS/mkfs.log)"
		_fixture_mount "${variant%.*}" "$idx" noatime
		;;
	ext4-parted-default)
		_fixture_loop
		parted -s -a optimal "$FX_DEV" mklabel gpt mkpart p 0% 100% ||
			bench_die "parted on '$FX_DEV' failed"
		_wait_node "$FX_PART"
		mke2fs -t ext4 -b 4096 -E "$EXT4_LAZY" -F -q "$FX_PART" >>"$LOGS/mkfs.log" 2>&1 ||
			bench_die "mke2fs on '$FX_PART' failed (see $LOGS/mkfs.log)"
		_fixture_mount "${variant%.*}" "$idx" noatime
		;;
	*) bench_die "_ext4_case: no variant '$variant'" ;;
	esac
	# stripewrite on the fresh filesystem, seqwrite beside it, then
	# stripewrite again on the filesystem seqwrite's file has aged (its
	# first file removed), laid out by fallocate and by writeback
	for w in stripewrite seqwrite stripewrite-aged stripewrite-written; do
		CASE_TAG="$name.$variant"
		[ "$w" = stripewrite ] || [ "$w" = seqwrite ] || CASE_TAG="$CASE_TAG.$w"
		trace="$OUT/traces/ext4.$CASE_TAG.$w.trace"
		bench_step "ext4: $name $variant $w"
		case $w in
		stripewrite-*) rm -f "$FX_MNT/stripe.$stripe" ;;
		esac
		LAYOUT_FALLOCATE=$([ "$w" = stripewrite-written ] && echo none || echo native) \
			run_workload "${w%-*}" "$stripe" "$trace"
		replay_case "$idx" "$variant" "$w" "$trace"
		[ "${w%-*}" != stripewrite ] || _ext4_extents "$stripe"
	done
	fixture_drop
}

# _ext4_extents STRIPE_BYTES: each extent of the stripewrite file, and how
# far into a stripe of the LUN its file offset 0 (mod the stripe) lands: 0
# for every extent, and every stripe-aligned write of the file is a
# full-stripe write
_ext4_extents() {
	local stripe=$1

	filefrag -e -b4096 "$FX_MNT/stripe.$stripe" | awk -v tag="$CASE_TAG" -v p="$FX_START" \
		-v s=$((stripe / 512)) '
		$1 ~ /^[0-9]+:$/ {
			split($0, f, ":"); split(f[2], l, /\.\./); split(f[3], b, /\.\./)
			printf "%s: file block %d at fs block %d, %d blocks: %d sectors off the stripe\n",
				tag, l[1], b[1], f[4], ((p + b[1] * 8 - l[1] * 8) % s + s) % s
		}' >>"$LOGS/extents.log" 2>&1
}

ext4sweep_run() {
	local r idx v sfx

	mkdir -p "$OUT/traces"
	# after the log sweep in the same run: beside its cases
	has_part log || : >"$OUT/log.jsonl"
	# shellcheck disable=SC2034 # replay_case's (efficiency.bash)
	CASES_OUT="$OUT/log.jsonl"
	# shellcheck disable=SC2034 # the sweep's traces are not the rule's
	CASES_TSV=""
	bt_init
	for r in $(seq 1 "$SWEEP_REPEAT"); do
		sfx=$([ "$r" = 1 ] || echo ".$r")
		for idx in "${!ARRAYS[@]}"; do
			for v in ext4-plan ext4-stride ext4-nohint ext4-mkfs-topology ext4-parted-default; do
				_ext4_case "$idx" "$v$sfx"
			done
		done
	done
	bt_cleanup
}
