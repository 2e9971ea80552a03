# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The report: sp-bench-report (bench/model/report.c) writes $OUT/report.md,
# $OUT/bench.json and the plot's data from $OUT/cases.jsonl, $OUT/log.jsonl,
# $OUT/readahead.jsonl, $OUT/tuning.tsv and $OUT/cost.tsv, whichever parts
# ran; gnuplot draws $OUT/bench.svg from that data.

_svg() {
	# the data: $LOGS/plot.WORKLOAD.dat, written by sp-bench-report
	[ -f "$LOGS/plot.stripewrite.dat" ] || return 0
	command -v gnuplot >/dev/null || bench_die "gnuplot is missing: run scripts/setup"
	gnuplot <<EOF || echo "bench: gnuplot failed, no SVG" >&2
set terminal svg size 1100,1200 dynamic enhanced font "sans,11" background rgb "white"
set output "$OUT/bench.svg"
set datafile separator "\t"
set datafile missing "NaN"
set multiplot layout 3,2 title "Member disk I/Os per MiB, as a multiple of the least the RAID level allows (1 = every write a full stripe)"
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
set title "metadata (2 KiB files untarred, synced, renamed, removed)"
plot for [i=2:$((${#LAYOUTS[@]} + 1))] "$LOGS/plot.metadata.dat" using i:xtic(1) title columnheader(i)
unset multiplot
EOF
}

report_write() {
	local -a flags=()
	local idx

	for idx in "${!ARRAYS[@]}"; do
		flags+=(--array "$(array_field "$idx" name)|$(array_field "$idx" label)")
	done
	# the efficiency part's verdicts beside its traces (bench/traces/known-worse
	# is a copy), and the figures the docs quote (bench/docs)
	if [ -f "$OUT/traces/cases.tsv" ]; then
		mkdir -p "$OUT/docs"
		flags+=(--known-worse "$OUT/traces/known-worse" --docs "$OUT/docs"
			--meta "$OUT/traces/run.tsv" --readahead-meta "$OUT/traces/readahead.run.tsv")
	fi
	"$SP_BENCH_REPORT" --dir "$OUT" "${flags[@]}" --layouts "$LAYOUT_LIST" \
		--command "$COMMAND" --mode "$MODE" --seconds "$SECONDS" \
		--version "$("$STRIPEPLAN" --version 2>/dev/null | head -1)" \
		--tune-mib "$TUNE_MIB" --tune-runs "$TUNE_RUNS" ||
		bench_die "sp-bench-report failed on '$OUT'"
	_svg
	if [ -n "$JSON_OUT" ]; then
		cp "$OUT/bench.json" "$JSON_OUT.tmp" || bench_die "cannot write '$JSON_OUT.tmp'"
		mv "$JSON_OUT.tmp" "$JSON_OUT" || bench_die "cannot write '$JSON_OUT'"
	fi
}
