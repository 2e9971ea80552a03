#!/bin/bash
# sp-bench-report on the stored traces: replayed into cases.jsonl as
# bench/run does, the report gives every layout's table with each run, the
# rule's table (each side's mean ± sd and runs, the difference's interval,
# the verdict) and exactly the worse verdicts bench/traces/known-worse
# lists, as verdicts.tsv does; bench.json holds every case; the plot's data
# has one row per array.  The read-ahead sweep's stored traces give its
# section: a row per array and file, read at the plan's read_ahead_kb (the
# one plans.tsv records) and at the kernel's for the array's geometry.
# shellcheck source=tests/cli/lib.bash
. "$(dirname "$0")/lib.bash"

# shellcheck source=bench/lib/stored.bash
. "$SRCDIR/bench/lib/stored.bash"

REPLAY="${BUILDDIR:?set by ctest}/bench/sp-replay"
REPORT="$BUILDDIR/bench/sp-bench-report"
TRACES="$SRCDIR/bench/traces"
OUT="$WORK/results"
mkdir -p "$OUT/logs" "$WORK/docs"

stored_replay "$REPLAY" "$TRACES" "$OUT/cases.jsonl" || fail "the stored traces do not replay"
n=$(grep -vc '^#' "$TRACES/cases.tsv")
stored_replay "$REPLAY" "$TRACES" "$OUT/readahead.jsonl" readahead.tsv ||
	fail "the stored read-ahead traces do not replay"

checks=$((checks + 1))
"$REPORT" --dir "$OUT" --array "raid10-8x256k|RAID10 8 x 256 KiB" --array "raid5-10x1m|RAID5 10 x 1 MiB" \
	--array "raid5-15x128k|RAID5 15 x 128 KiB" --array "raid5-4x64k|RAID5 4 x 64 KiB" \
	--command "bench/run --quick" --mode quick --seconds 1 --known-worse "$WORK/known-worse" \
	--docs "$WORK/docs" --meta "$TRACES/run.tsv" --readahead-meta "$TRACES/readahead.run.tsv" \
	>"$WORK/out" 2>&1 || fail "sp-bench-report failed: $(cat "$WORK/out")"
md="$OUT/report.md"

# every output of the tool at once (under the sanitizers this test is the
# one that replays the stored run: scripts/test): known-worse as stored, and
# each figure block bench/docs splices
checks=$((checks + 1))
cmp -s "$WORK/known-worse" "$TRACES/known-worse" || fail "--known-worse is not bench/traces/known-worse"
for block in run stripewrite smallfiles-bytes spread rule-summary rule-table plan-trades readahead; do
	checks=$((checks + 1))
	[ -s "$WORK/docs/$block.md" ] || fail "--docs wrote no '$block' block"
done
checks=$((checks + 1))
grep -qF '| raid10-8x256k | 1024 MiB | 4096 |' "$WORK/docs/readahead.md" ||
	fail "the readahead block has no RAID10 row for the 1024 MiB file"

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
# the peers the rule judges against ran more than once too
expect_line '| stripewrite | mkfs-topology.2 |'
expect_line '| smallfiles | parted-default.2 |'
expect_line '| smallfiles | legacy-63.2 |'
expect_line '### The rule: the plan against what a user gets without it'
# each workload planned with its profile; the default's trade on record
expect_line '| smallfiles | stripeplan | small-sync |'
expect_line '| metadata | stripeplan.2 | metadata |'
expect_line '| smallfiles | stripeplan.general | general |'
expect_line '| raid10-8x256k | smallfiles | I/Os |'
expect_line '### The trade: the default profile where a named one is planned (not judged)'
expect_line '**emulated**'
# the rule's rows: mean ± sd (runs) of both sides, the interval, the verdict
checks=$((checks + 1))
grep -qE '^\| raid10-8x256k \| stripewrite \| general \| I/Os \| [0-9.]+ ± [0-9.]+ \([0-9]+\) \| legacy-63 \| [0-9.]+ ± [0-9.]+ \([0-9]+\) \| [-+][0-9.]+ % \([-+][0-9.]+ to [-+][0-9.]+\) \| (at or below|\*\*worse\*\*) \|$' "$md" ||
	fail "report.md has no rule row of RAID10 stripewrite against legacy-63 in the expected form"

# the report's worse rows are known-worse's lines, and verdicts.tsv has one
# line a comparison, the same verdicts
grep -v '^#' "$TRACES/known-worse" | awk '$5 == "worse" { print $1, $2, $3, $4 }' | sort >"$WORK/want"
awk -F' \\| ' '/\*\*worse\*\*/ {
		sub(/^\| /, "", $1); print $1, $2, ($4 == "I/Os" ? "ios" : "bytes"), $6
	}' "$md" | sort >"$WORK/got"
checks=$((checks + 1))
cmp -s "$WORK/want" "$WORK/got" ||
	fail "the report's worse verdicts differ from known-worse: $(diff "$WORK/want" "$WORK/got")"
awk -F'\t' '!/^#/ && $5 == "worse" { print $1, $2, $3, $4 }' "$OUT/verdicts.tsv" | sort >"$WORK/got"
checks=$((checks + 1))
cmp -s "$WORK/want" "$WORK/got" ||
	fail "verdicts.tsv's worse verdicts differ from known-worse: $(diff "$WORK/want" "$WORK/got")"
expect_line "$(wc -l <"$WORK/want" | tr -d ' ') worse,"

checks=$((checks + 1))
[ "$(jq '.cases | length' "$OUT/bench.json")" = "$n" ] || fail "bench.json does not hold the $n cases"
checks=$((checks + 1))
[ "$(jq -r '.meta.mode' "$OUT/bench.json")" = quick ] || fail "bench.json's meta.mode is not quick"
checks=$((checks + 1))
[ "$(jq -r '[.cases[] | select(.layout == "stripeplan") | .workload + "=" + .profile] | unique | join(" ")' \
	"$OUT/bench.json")" = "metadata=metadata seqread=general seqwrite=general smallfiles=small-sync stripewrite=general" ] ||
	fail "bench.json's planned cases do not each record their profile"
checks=$((checks + 1))
[ "$(jq '[.cases[] | select(.layout == "parted-default" and .profile != null)] | length' "$OUT/bench.json")" = 0 ] ||
	fail "bench.json gives a profile to a layout that was not planned"
checks=$((checks + 1))
[ "$(wc -l <"$OUT/logs/plot.stripewrite.dat")" = 5 ] || fail "plot.stripewrite.dat: not a header and 4 arrays"

# the read-ahead sweep: every array x file has both settings, as many runs
# of each, and reads at the plan's own value
expect_line '## Read-ahead sweep'
checks=$((checks + 1))
[ "$(grep -c '^| raid[0-9a-z-]* | [0-9]* MiB | ' "$md")" = 8 ] ||
	fail "the read-ahead table has not 4 arrays x 2 files"
checks=$((checks + 1))
awk -F'\t' '!/^#/ { split($5, l, "."); print $1, $7, l[1] }' "$TRACES/readahead.tsv" |
	sort | uniq -c | awk '{ print $1 }' | sort -u >"$WORK/runs"
[ "$(wc -l <"$WORK/runs")" = 1 ] || fail "the read-ahead sweep's settings ran unequally often: $(cat "$WORK/runs")"
# each array's sweep read at the read_ahead_kb its stored plan has (the
# planner's own plan is checked against plans.tsv by cli/bench-rule)
while IFS=$'\t' read -r array plan_kib; do
	checks=$((checks + 1))
	planned=$(awk -F'\t' -v a="$array" '$1 == a && $2 == "general" { print $4 }' "$TRACES/plans.tsv" |
		jq -r '.tuning[] | select(.path | endswith("/read_ahead_kb")) | .value')
	[ "$plan_kib" = "$planned" ] ||
		fail "the read-ahead sweep read $array at $plan_kib KiB, its plan reads ahead ${planned:-nothing}: run bench/run --quick --parts readahead"
done < <(awk -F'\t' '!/^#/ && $5 ~ /^ra-plan(\.|$)/ { print $1 "\t" $6 }' "$TRACES/readahead.tsv" | sort -u)
checks=$((checks + 1))
planned=$(awk -F'\t' '$1 == "raid10-8x256k" && $2 == "general" { print $4 }' "$TRACES/plans.tsv" |
	jq -r '.tuning[] | select(.path | endswith("/read_ahead_kb")) | .value')
grep -qE "^\| raid10-8x256k \| 128 MiB \| $planned \| [0-9.]+ ± [0-9.]+ \| 2048 \| [0-9.]+ ± [0-9.]+ \| [-+][0-9.]+ % \([-+][0-9.]+ to [-+][0-9.]+ %\) \|\$" "$md" ||
	fail "the read-ahead table has no RAID10 row at the planned $planned KiB against 2048 KiB"
finish
