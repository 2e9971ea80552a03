#!/bin/bash
# sp-bench-report on the stored traces: replayed into cases.jsonl as
# bench/run does, the report gives every layout's table, the rule's table
# with the noise of the repeated planned cases, and exactly the verdicts
# bench/traces/known-worse lists; bench.json holds every case; the plot's
# data has one row per array.
# shellcheck source=tests/cli/lib.bash
. "$(dirname "$0")/lib.bash"

REPLAY="${BUILDDIR:?set by ctest}/bench/sp-replay"
REPORT="$BUILDDIR/bench/sp-bench-report"
TRACES="$SRCDIR/bench/traces"
OUT="$WORK/results"
mkdir -p "$OUT/logs"

n=0
while IFS=$'\t' read -r array level disks chunk layout workload dir payload request trace; do
	"$REPLAY" --level "$level" --disks "$disks" --chunk "$chunk" --direction "$dir" \
		--payload-bytes "$payload" --request-bytes "$request" --array "$array" \
		--layout "$layout" --workload "$workload" "$TRACES/$trace" >>"$OUT/cases.jsonl" ||
		fail "sp-replay failed on $trace"
	n=$((n + 1))
done < <(grep -v '^#' "$TRACES/cases.tsv")

checks=$((checks + 1))
"$REPORT" --dir "$OUT" --array "raid10-8x256k|RAID10 8 x 256 KiB" --array "raid5-10x1m|RAID5 10 x 1 MiB" \
	--array "raid5-15x128k|RAID5 15 x 128 KiB" --array "raid5-4x64k|RAID5 4 x 64 KiB" \
	--command "bench/run --quick" --mode quick --seconds 1 >"$WORK/out" 2>&1 ||
	fail "sp-bench-report failed: $(cat "$WORK/out")"
md="$OUT/report.md"

expect_line() {
	checks=$((checks + 1))
	grep -qF -- "$1" "$md" || fail "report.md lacks '$1'"
}
expect_line "\`bench/run --quick\` — quick run"
expect_line '### RAID10 8 x 256 KiB'
expect_line 'Stripe width 9 MiB.'
expect_line 'Stripe width 192 KiB.'
expect_line '- raid5-4x64k: stripeplan **reaches the minimum**'
expect_line '| stripewrite | stripeplan.2 |'
expect_line '| stripewrite | mkfs-topology |'
expect_line '### The rule: the plan against the defaults, within the noise'
expect_line '**emulated**'

# the verdicts are known-worse's, no more and no fewer
grep -v '^#' "$TRACES/known-worse" | awk '{ print $1, $2, $3, $4 }' | sort >"$WORK/want"
awk -F' \\| ' '/worse than/ {
		sub(/^\| /, "", $1); m = $3 == "I/Os" ? "ios" : "bytes"
		split($8, w, ", ")
		for (i in w) { p = w[i]; sub(/^worse than /, "", p); sub(/ \|$/, "", p); print $1, $2, m, p }
	}' "$md" | sort >"$WORK/got"
checks=$((checks + 1))
cmp -s "$WORK/want" "$WORK/got" ||
	fail "the report's worse verdicts differ from known-worse: $(diff "$WORK/want" "$WORK/got")"
expect_line "$(wc -l <"$WORK/want" | tr -d ' ') of the cases above are worse than a peer beyond the noise."

checks=$((checks + 1))
[ "$(jq '.cases | length' "$OUT/bench.json")" = "$n" ] || fail "bench.json does not hold the $n cases"
checks=$((checks + 1))
[ "$(jq -r '.meta.mode' "$OUT/bench.json")" = quick ] || fail "bench.json's meta.mode is not quick"
checks=$((checks + 1))
[ "$(wc -l <"$OUT/logs/plot.stripewrite.dat")" = 5 ] || fail "plot.stripewrite.dat: not a header and 4 arrays"
finish
