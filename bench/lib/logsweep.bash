# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The log sweep: what the XFS log stripe unit, logbsize and ext4's stripe
# hints cost the members, measured rather than taken from lore.  For each
# array: the plan's partition and the plan's mkfs command with one thing
# changed, mounted with the plan's options with one thing changed, and the
# write workloads of the efficiency part (bench/lib/efficiency.bash) traced
# and replayed as there.  One JSON object per case in $OUT/log.jsonl, its
# "layout" naming the variant (".R" appended on the R-th of --repeat runs,
# each variant on a fresh fixture: the spread is the run-to-run noise):
#
#	xfs-lsu<S>-lbs<B>   mkfs.xfs -l su=<S> (chunk: the chunk itself, only
#	                    where it is at most 256 KiB, XFS's cap; 4k: one
#	                    block, the least mkfs.xfs takes once -d su is set),
#	                    mounted with logbsize=<B> (32k: the kernel's
#	                    default; XFS refuses a logbsize below the log
#	                    stripe unit, so those pairs are not run)
#	ext4-stripe         the plan's mke2fs -E stride=,stripe_width=
#	ext4-nostripe       the same without them
#
# ext4 is made with lazy_itable_init=0,lazy_journal_init=0 so that no
# background inode-table zeroing lands in the traces.

LOG_WORKLOADS=(smallfiles seqwrite stripewrite metadata)

# _replace_lsu LSU ARGV...: ARGV with its "-l su=..." replaced by LSU
_replace_lsu() {
	local lsu=$1 prev=""
	shift

	for a in "$@"; do
		if [ "$prev" = -l ]; then
			echo "su=$lsu"
		else
			echo "$a"
		fi
		prev=$a
	done
}

# _mount_with_lbs PLAN LBS: the plan's mount options with logbufs=8,logbsize=LBS
# whether the plan has log buffer options or not (32k: both left out, the
# kernel's default -- which is the log stripe unit where that is larger)
_mount_with_lbs() {
	jq -r --arg l "$2" '[.mount.options[]
		| select(. != "nofail" and (startswith("x-") | not)
			and (startswith("logbufs=") | not) and (startswith("logbsize=") | not))]
		+ (if $l == "32k" then [] else ["logbufs=8", "logbsize=" + $l] end) | join(",")' "$1"
}

# _sweep_case ARRAY VARIANT OPTS MKFS...
_sweep_case() {
	local idx=$1 variant=$2 opts=$3 plan stripe w trace name
	shift 3

	name=$(array_field "$idx" name)
	plan="$LOGS/plan.$name.offline.json"
	stripe=$(stripe_bytes "$plan")
	fixture_make_variant "$idx" "$plan" "$opts" "$@"
	for w in "${LOG_WORKLOADS[@]}"; do
		CASE_TAG="$name.$variant"
		trace="$OUT/traces/log.$CASE_TAG.$w.trace"
		bench_step "log: $name $variant $w"
		run_workload "$w" "$stripe" "$trace"
		replay_case "$idx" "$variant" "$w" "$trace"
	done
	fixture_drop
}

logsweep_run() {
	local r

	mkdir -p "$OUT/traces"
	: >"$OUT/log.jsonl"
	# shellcheck disable=SC2034 # replay_case's (efficiency.bash)
	CASES_OUT="$OUT/log.jsonl"
	# shellcheck disable=SC2034 # the sweep's traces are not the rule's
	CASES_TSV=""
	bt_init
	for r in $(seq 1 "$SWEEP_REPEAT"); do
		_logsweep_once "$([ "$r" = 1 ] || echo ".$r")"
	done
	bt_cleanup
}

# _logsweep_once SUFFIX: every variant on every array once, SUFFIX
# appended to the variants' names
_logsweep_once() {
	local sfx=$1 idx name plan chunk lsu lbs
	local -a argv

	for idx in "${!ARRAYS[@]}"; do
		name=$(array_field "$idx" name)
		plan="$LOGS/plan.$name.offline.json"
		chunk=$(array_chunk_bytes "$idx")
		for lsu in chunk 32k 4k; do
			if [ $lsu = chunk ]; then
				[ "$chunk" -le 262144 ] || continue
				lsu="$((chunk / 1024))k"
			fi
			for lbs in 256k 32k; do
				# logbsize below the log stripe unit: mount refuses it
				[ "${lsu%k}" -le "${lbs%k}" ] || continue
				mapfile -t argv < <(jq -r '.filesystem.mkfs_argv[]' "$plan")
				mapfile -t argv < <(_replace_lsu "$lsu" "${argv[@]}")
				_sweep_case "$idx" "xfs-lsu$lsu-lbs$lbs$sfx" "$(_mount_with_lbs "$plan" "$lbs")" \
					"${argv[@]}"
			done
		done
		plan="$LOGS/plan.$name.offline.ext4.json"
		# mke2fs -t ext4 -b 4096 -E stride=S,stripe_width=W PARTITION; a
		# second -E would replace the first, so the options are joined
		mapfile -t argv < <(jq -r '.filesystem.mkfs_argv[]' "$plan")
		if [ "${#argv[@]}" != 8 ] || [ "${argv[5]}" != -E ]; then
			bench_die "unexpected ext4 mkfs command in '$plan': ${argv[*]}"
		fi
		_sweep_case "$idx" "ext4-stripe$sfx" noatime "${argv[@]:0:6}" \
			"${argv[6]},lazy_itable_init=0,lazy_journal_init=0" -F -q "${argv[7]}"
		_sweep_case "$idx" "ext4-nostripe$sfx" noatime "${argv[@]:0:5}" \
			-E lazy_itable_init=0,lazy_journal_init=0 -F -q "${argv[7]}"
	done
}
