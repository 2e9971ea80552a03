#!/bin/bash
# The bench's rule on the stored run: on every array and every workload the
# planned layout costs no more member I/Os and no more member bytes than
# what a user gets without it -- parted-default, mkfs-topology and
# legacy-63 -- as far as the runs can tell (bench/model/rule.h: Welch's t,
# a 95 % interval of the difference of the means).
#
# bench/traces/ holds the traces of one `bench/run --quick --parts
# efficiency` (cases.tsv, written by the bench, says which array, layout,
# profile, workload, payload and request size each is); every layout ran
# several times ("stripeplan", "stripeplan.2", ..., "legacy-63.20"), each
# on fresh fixtures.  The traces are replayed through the array model here
# and judged by sp-bench-report, the code the bench's report uses; so a
# change to the model, the rule or the traces shows.  The test fails
#  - when a comparison had too few runs (fewer than two of a side);
#  - when bench/traces/known-worse is not exactly the comparisons the plan
#    loses and those the runs cannot decide (it is written by
#    sp-bench-report, never by hand: a loss or an undecided comparison is
#    on record with its figures, and one that changes fails here);
#  - when a planned case was planned with another profile than its
#    workload's, or the planner now plans something else for one of the
#    arrays than the stored traces were captured with (plans.tsv).
# shellcheck source=tests/cli/lib.bash
. "$(dirname "$0")/lib.bash"

# shellcheck source=bench/lib/plans.bash
. "$SRCDIR/bench/lib/plans.bash"
# shellcheck source=bench/lib/arrays.bash
. "$SRCDIR/bench/lib/arrays.bash"
# shellcheck source=bench/lib/stored.bash
. "$SRCDIR/bench/lib/stored.bash"

REPLAY="${BUILDDIR:?set by ctest}/bench/sp-replay"
REPORT="$BUILDDIR/bench/sp-bench-report"
TRACES="$SRCDIR/bench/traces"
OUT="$WORK/results"
mkdir -p "$OUT/logs"

while IFS=$'\t' read -r array _ _ _ layout profile workload _; do
	[[ $layout =~ ^stripeplan(\.[0-9]+)?$ ]] || continue
	checks=$((checks + 1))
	[ "$profile" = "$(workload_profile "$workload")" ] ||
		fail "$array $layout $workload was planned with --workload $profile, not $(workload_profile "$workload")"
done < <(grep -v '^#' "$TRACES/cases.tsv")

checks=$((checks + 1))
stored_replay "$REPLAY" "$TRACES" "$OUT/cases.jsonl" || fail "the stored traces do not replay"
flags=()
while IFS= read -r a; do
	flags+=(--array "$a")
done < <(array_labels)
checks=$((checks + 1))
"$REPORT" --dir "$OUT" "${flags[@]}" --known-worse "$WORK/known-worse" >"$WORK/out" 2>&1 ||
	fail "sp-bench-report failed: $(cat "$WORK/out")"

# verdicts.tsv: array workload metric peer verdict plan_mean plan_sd plan_runs
# peer_mean peer_sd peer_runs diff_rel lo_rel hi_rel
echo "the plan against each peer (mean ± sd over the runs; the difference and its 95 % interval):"
while IFS=$'\t' read -r array workload metric peer verdict pm psd pn qm qsd qn d lo hi; do
	printf '  %-13s %-11s %-5s vs %-14s %-11s %9.4g ± %-8.3g (%2s) %9.4g ± %-8.3g (%2s) %+7.2f %% [%+.2f, %+.2f]\n' \
		"$array" "$workload" "$metric" "$peer" "$verdict" "$pm" "$psd" "$pn" "$qm" "$qsd" "$qn" \
		"$(awk -v x="$d" 'BEGIN { print x * 100 }')" "$(awk -v x="$lo" 'BEGIN { print x * 100 }')" \
		"$(awk -v x="$hi" 'BEGIN { print x * 100 }')"
	checks=$((checks + 1))
	case $verdict in
	"at or below" | worse | undecided) ;;
	*) fail "$array $workload $metric against $peer: $verdict ($pn and $qn runs): bench/run --repeat 2 or more" ;;
	esac
done < <(grep -v '^#' "$OUT/verdicts.tsv")

checks=$((checks + 1))
[ "$(grep -vc '^#' "$OUT/verdicts.tsv")" = 120 ] ||
	fail "the stored run gives $(grep -vc '^#' "$OUT/verdicts.tsv") comparisons, want 120 (4 arrays x 5 workloads x 2 metrics x 3 peers)"

# known-worse is sp-bench-report's, byte for byte
checks=$((checks + 1))
if ! diff -u "$TRACES/known-worse" "$WORK/known-worse" >&2; then
	fail "bench/traces/known-worse is not what the stored traces give (the diff above): it is generated, copy the bench's traces/known-worse (or run sp-bench-report --known-worse)"
fi
# and it holds exactly the comparisons verdicts.tsv does not pass
checks=$((checks + 1))
if ! diff <(grep -v '^#' "$TRACES/known-worse" | awk '{ print $1, $2, $3, $4, $5 }') \
	<(awk -F'\t' '!/^#/ && $5 != "at or below" { print $1, $2, $3, $4, $5 }' "$OUT/verdicts.tsv") >&2; then
	fail "known-worse does not list exactly the worse and undecided comparisons of verdicts.tsv"
fi

# The traces judge the plans they were captured with: a planner that now
# plans something else for one of the arrays fails here until the traces
# are captured anew, so the rule never passes on the old plan's figures.
n_plans=0
while IFS=$'\t' read -r array profile args stored; do
	n_plans=$((n_plans + 1))
	checks=$((checks + 1))
	# shellcheck disable=SC2086 # the plan's arguments, one word each
	now=$(plan_fingerprint "$STRIPEPLAN" "$profile" $args) ||
		fail "stripeplan cannot plan $array --workload $profile ($args)"
	[ "$now" = "$stored" ] ||
		fail "the planner's --workload $profile plan for $array is not the one bench/traces was captured with (was $stored, now $now): capture the traces anew (sudo bench/run --quick --parts efficiency, then copy its traces/ over bench/traces/)"
done < <(grep -v '^#' "$TRACES/plans.tsv")
checks=$((checks + 1))
[ "$n_plans" -ge 12 ] || fail "bench/traces/plans.tsv holds $n_plans plans, want 4 arrays x 3 profiles"
finish
