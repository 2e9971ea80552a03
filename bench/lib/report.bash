# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The report: Markdown ($OUT/report.md), an SVG plot ($OUT/bench.svg, gnuplot)
# and JSON ($OUT/bench.json, and --json FILE), from $OUT/cases.jsonl,
# $OUT/tuning.tsv and $OUT/cost.tsv, whichever parts ran.

# Headline workload first; reads last, since their minimum is another one.
REPORT_WORKLOADS=(stripewrite seqwrite smallfiles seqread)

# jq: numbers with two decimals ("1.00"), percentages with one ("99.7 %")
# shellcheck disable=SC2016 # a jq program: its $n and \(...) are jq's, not the shell's
JQ_FORMAT='
	def f2: if . == null then "—" else (. * 100 | round) as $n
		| "\($n / 100 | floor).\($n % 100 | tostring | if length < 2 then "0" + . else . end)" end;
	def pct: if . == null then "—" else (. * 1000 | round / 10 | tostring) + " %" end;
'
# A layout "reaches" the minimum when the member I/O per MiB is the least
# the level allows, but for the filesystem's own log and metadata writes
# that the workload causes (a few KiB, each a partial stripe, about 3 % in
# the quick run's few stripewrites): allow 5 %.
REACH_RATIO=1.05

_layout_order() {
	local l i=0

	for l in "${LAYOUTS[@]}"; do
		printf '%s\t%d\n' "$l" "$i"
		i=$((i + 1))
	done
}

_efficiency_tables() {
	local idx name w

	for idx in "${!ARRAYS[@]}"; do
		name=$(array_field "$idx" name)
		[ "$(jq -s --arg a "$name" 'any(.[]; .array == $a)' "$OUT/cases.jsonl")" = true ] || continue
		echo
		echo "### $(array_field "$idx" label)"
		echo
		jq -rs --arg a "$name" --argjson sw "$(jq '.array.stripe_width_bytes' \
			"$LOGS/plan.$name.offline.json")" '
			def num: (. * 100 | round / 100 | tostring);
			[.[] | select(.array == $a)] as $c
			| ($c | map(select(.direction == "write")) | first) as $w
			| ($c | map(select(.direction == "read")) | first) as $r
			| "Stripe width \(if $sw % 1048576 == 0 then "\($sw / 1048576) MiB" else "\($sw / 1024) KiB" end). "
			  + "The least member I/O the level allows: "
			  + (if $w then "\($w.min_member_ios_per_mib | num) per MiB written (every write a full stripe)" else "" end)
			  + (if $r then ", \($r.min_member_ios_per_mib | num) per MiB read (one I/O per chunk)." else "." end)
			' "$OUT/cases.jsonl"
		echo
		echo "| workload | layout | full-stripe writes | member I/Os per MiB | × minimum | × floor | member bytes per byte | × minimum | × floor | chunk crossings |"
		echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		for w in "${REPORT_WORKLOADS[@]}"; do
			jq -rs --arg a "$name" --arg w "$w" --argjson order "$(_layout_order |
				jq -Rn '[inputs | split("\t") | {(.[0]): (.[1] | tonumber)}] | add')" "$JQ_FORMAT"'
				[.[] | select(.array == $a and .workload == $w)]
				| sort_by($order[.layout] // 99)[]
				| "| \(.workload)\(if .direction == "read" then " (read)" else "" end) | \(.layout) | \(.full_stripe_write_fraction | pct) | \(.member_ios_per_mib | f2) | \(.ratio_to_min | f2) | \(.ratio_to_floor | f2) | \(.member_bytes_per_data_byte | f2) | \(.bytes_ratio_to_min | f2) | \(.bytes_ratio_to_floor | f2) | \(.chunk_crossing_fraction | pct) |"
				' "$OUT/cases.jsonl"
		done
	done
}

# One line per array: does the plan reach the minimum on stripewrite?
_efficiency_verdicts() {
	jq -rs --argjson r "$REACH_RATIO" "$JQ_FORMAT"'
		def verdict: if .ratio_to_min <= $r
			then "**reaches the minimum** (\(.ratio_to_min | f2)×, \(.full_stripe_write_fraction | pct) full stripes)"
			else "**misses the minimum**: \(.ratio_to_min | f2)×, \(.full_stripe_write_fraction | pct) full stripes" end;
		[.[] | select(.workload == "stripewrite")] | group_by(.array)[]
		| (map(select(.layout == "stripeplan")) | first) as $p
		| (map(select(.layout != "stripeplan")) | map("\(.layout) \(.ratio_to_min | f2)×") | join(", ")) as $o
		| "- \(.[0].array): stripeplan \(if $p == null then "not run" else ($p | verdict) end); \($o)"
		' "$OUT/cases.jsonl"
}

_svg() {
	local w dat layout_json

	command -v gnuplot >/dev/null || {
		echo "bench: gnuplot missing, no SVG" >&2
		return 0
	}
	layout_json=$(printf '%s\n' "${LAYOUTS[@]}" | jq -Rn '[inputs]')
	for w in stripewrite seqwrite smallfiles seqread; do
		dat="$LOGS/plot.$w.dat"
		# rows: arrays; columns: layouts (ratio to the minimum)
		jq -rs --arg w "$w" --argjson layouts "$layout_json" '
			([.[] | select(.workload == $w)] | group_by(.array)) as $g
			| (["array"] + $layouts | @tsv),
			  ($g[] | . as $rows
			   | [$rows[0].array] + [$layouts[] as $l | ($rows | map(select(.layout == $l)) | first | .ratio_to_min // "NaN")]
			   | map(tostring) | @tsv)
			' "$OUT/cases.jsonl" >"$dat"
	done
	gnuplot <<EOF || echo "bench: gnuplot failed, no SVG" >&2
set terminal svg size 1100,820 dynamic enhanced font "sans,11" background rgb "white"
set output "$OUT/bench.svg"
set datafile separator "\t"
set datafile missing "NaN"
set multiplot layout 2,2 title "Member disk I/Os per MiB, as a multiple of the least the RAID level allows (1 = every write a full stripe)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key top left font ",9"
# headroom above the bars for the key
set offsets 0, 0, graph 0.35, 0
set xtics font ",9"
set ylabel "× minimum"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "black"
set title "stripewrite (direct writes of one stripe width)"
plot for [i=2:$((${#LAYOUTS[@]} + 1))] "$LOGS/plot.stripewrite.dat" using i:xtic(1) title columnheader(i)
set title "seqwrite (buffered 4 MiB writes)"
plot for [i=2:$((${#LAYOUTS[@]} + 1))] "$LOGS/plot.seqwrite.dat" using i:xtic(1) title columnheader(i)
set title "smallfiles (64 KiB files, fsync each; log scale)"
set logscale y
set yrange [0.5:*]
set offsets 0, 0, 0, 0
plot for [i=2:$((${#LAYOUTS[@]} + 1))] "$LOGS/plot.smallfiles.dat" using i:xtic(1) title columnheader(i)
unset logscale y
set yrange [0:*]
set offsets 0, 0, graph 0.35, 0
set title "seqread (cold, buffered)"
plot for [i=2:$((${#LAYOUTS[@]} + 1))] "$LOGS/plot.seqread.dat" using i:xtic(1) title columnheader(i)
unset multiplot
EOF
}

_tuning_table() {
	[ -s "$OUT/tuning.tsv" ] || return 0
	echo
	echo "## Tuning: cold sequential buffered read through the page cache"
	echo
	echo "One ${TUNE_MIB} MiB file read with 128 KiB read() calls on a loop device doing direct"
	echo "I/O; this kernel's caches dropped before each read, the host's warmed by an untimed"
	echo "read; ${TUNE_RUNS} interleaved rounds.  MiB/s: median, middle half, and min–max; the"
	echo "mean read request the device saw; the ratio of medians to the knob's baseline.  An"
	echo "effect counts only when the middle halves do not overlap."
	echo
	echo "| knob | value | setting | MiB/s | middle half | range | mean request | ratio | effect |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---|"
	awk -F'\t' '
		!($1 in base) { base[$1] = $4; blo[$1] = $5; bhi[$1] = $6; first = 1 }
		{
			b = base[$1]
			ratio = b > 0 ? $4 / b : 0
			if (first) eff = "(baseline)"
			else if ($5 > bhi[$1]) eff = "faster"
			else if ($6 < blo[$1]) eff = "slower"
			else eff = "none measurable"
			first = 0
			printf "| %s | %s | %s | %.0f | %.0f–%.0f | %.0f–%.0f | %d KiB | %.2f | %s |\n",
				$1, $2, $3, $4, $5, $6, $7, $8, $9, ratio, eff
		}' "$OUT/tuning.tsv"
}

_cost_table() {
	[ -s "$OUT/cost.tsv" ] || return 0
	echo
	echo "## What stripeplan itself costs"
	echo
	echo "| measure | value | how |"
	echo "|---|---:|---|"
	awk -F'\t' '
		{ v[$1] = $2; printf "| %s | %s %s | %s |\n", $1, $2, $3, $4 }
		END {
			if (v["hand_ms"] > 0)
				printf "| apply ÷ by hand | %.2f | the same partition, mkfs and blkid; apply also probes, locks and verifies |\n", v["apply_ms"] / v["hand_ms"]
		}' "$OUT/cost.tsv"
}

_json() {
	local out=$1 tuning="[]" cost="{}"

	if [ -s "$OUT/tuning.tsv" ]; then
		tuning=$(jq -Rn '[inputs | split("\t") | {knob: .[0], value: .[1], setting: .[2],
			median_mib_per_s: (.[3] | tonumber), q1_mib_per_s: (.[4] | tonumber),
			q3_mib_per_s: (.[5] | tonumber), min_mib_per_s: (.[6] | tonumber),
			max_mib_per_s: (.[7] | tonumber), mean_request_kib: (.[8] | tonumber)}]' <"$OUT/tuning.tsv")
	fi
	if [ -s "$OUT/cost.tsv" ]; then
		cost=$(jq -Rn '[inputs | split("\t") | {(.[0]): (.[1] | tonumber)}] | add' <"$OUT/cost.tsv")
	fi
	jq -s --argjson tuning "$tuning" --argjson cost "$cost" \
		--arg kernel "$(uname -r)" --arg mode "$MODE" --arg command "$COMMAND" \
		--arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --argjson seconds "$SECONDS" \
		--arg version "$("$STRIPEPLAN" --version 2>/dev/null | head -1)" '
		{meta: {date: $date, kernel: $kernel, mode: $mode, command: $command,
			seconds: $seconds, stripeplan: $version},
		 cases: ., tuning: $tuning, cost: $cost}' "$OUT/cases.jsonl" >"$out.tmp" ||
		bench_die "cannot write '$out.tmp'"
	mv "$out.tmp" "$out" || bench_die "cannot write '$out'"
}

report_write() {
	[ -f "$OUT/cases.jsonl" ] || : >"$OUT/cases.jsonl"
	_svg
	{
		echo "# stripeplan bench"
		echo
		echo "\`$COMMAND\` — $MODE run, $(date -u +%Y-%m-%d), Linux $(uname -r), $(nproc) CPUs, ${SECONDS} s."
		if [ -s "$OUT/cases.jsonl" ]; then
			echo
			echo "## RAID efficiency"
			echo
			echo "Block requests captured with tracefs on loop devices, replayed through a model of"
			echo "each array (bench/README.md).  *Full-stripe writes*: share of the data written as"
			echo "whole stripes.  *Member I/Os per MiB*: member disk reads and writes per MiB of the"
			echo "workload's own data (file bytes written; read, for seqread), so the filesystem's"
			echo "log and metadata writes count as cost.  *× minimum*: that, divided by the least"
			echo "the level allows.  *Member bytes per byte*: bytes read and written on the members"
			echo "per byte of the workload's data (a log write padded to the log stripe unit costs"
			echo "here even where it adds no I/O), and its multiple of the level's least (n/(n−1)"
			echo "for RAID5 of n disks, 2 for RAID10, 1 for reads).  *× floor*: the same against the"
			echo "achievable floor, what the workload's own requests cost when each starts a stripe"
			echo "and is written alone (a 64 KiB fsynced file: read-modify-write or reconstruct-write,"
			echo "whichever is cheaper; a stripe-sized write: a full stripe).  *Chunk crossings*: requests"
			echo "that touched more chunks than their size needs.  Writes in flight together are gathered per stripe, as md's stripe"
			echo "cache or a controller's write cache would, so a large write the block layer split"
			echo "still counts as one; writes that did not overlap in time are never combined."
			echo
			echo "Layouts: *stripeplan*: \`stripeplan apply\` and the plan's mount options (on parity"
			echo "RAID with XFS: allocation groups of whole stripes and \`swalloc\`).  *parted-default*: GPT from"
			echo "\`parted -a optimal ... 0% 100%\` (1 MiB), plain mkfs.xfs.  *legacy-63*: msdos label,"
			echo "partition at sector 63, plain mkfs.xfs.  The last two know nothing of the array:"
			echo "their traces are taken once and replayed through every array's model."
			echo
			echo "stripewrite, the planned layout against the theoretical minimum:"
			echo
			_efficiency_verdicts
			_efficiency_tables
			[ -f "$OUT/bench.svg" ] && printf '\n![member I/O relative to the minimum](bench.svg)\n'
		fi
		_tuning_table
		_cost_table
	} >"$OUT/report.md"
	_json "$OUT/bench.json"
	if [ -n "$JSON_OUT" ]; then
		cp "$OUT/bench.json" "$JSON_OUT.tmp" || bench_die "cannot write '$JSON_OUT.tmp'"
		mv "$JSON_OUT.tmp" "$JSON_OUT" || bench_die "cannot write '$JSON_OUT'"
	fi
}
