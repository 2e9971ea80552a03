#!/bin/bash
# The bench's rule on stored traces: on every array and every workload the
# planned layout costs no more member I/Os and no more member bytes than
# parted-default and mkfs-topology, within the run-to-run noise (the larger
# of the plan's and the peer's: every judged layout ran more than once).
#
# bench/traces/ holds the traces of one `bench/run --quick --parts
# efficiency` (cases.tsv, written by the bench, says which array, layout,
# profile, workload, payload and request size each is).  The planned layout
# ran twice or more ("stripeplan", "stripeplan.2", ...), each on a fresh
# fixture planned with the workload's profile (seqwrite, seqread,
# stripewrite: general; smallfiles: small-sync; metadata: metadata): the
# spread of those runs, (max - min) / min, is the noise, and the planned
# figure is their mean; the peers ran as often ("parted-default.2", ...).
# "stripeplan.general" (the default profile on the workloads it is not
# planned for) is not judged.  The array model replays every trace
# here, so a change to the model or to the traces that makes one case worse
# fails.  Cases where the plan is worse beyond the noise are listed in
# bench/traces/known-worse: a listed case that is no longer worse fails
# too, so the list only ever shrinks.
# shellcheck source=tests/cli/lib.bash
. "$(dirname "$0")/lib.bash"

# shellcheck source=bench/lib/plans.bash
. "$SRCDIR/bench/lib/plans.bash"

REPLAY="${BUILDDIR:?set by ctest}/bench/sp-replay"
TRACES="$SRCDIR/bench/traces"
# The figures are printed with 6 significant digits; a 0.5 % slack keeps
# rounding from deciding.
SLACK=1.005
PEERS="parted-default mkfs-topology"

# Every case's figures: "array layout workload ios bytes", one a line.
figures="$WORK/figures"
: >"$figures"

while IFS=$'\t' read -r array level disks chunk layout profile workload dir payload request trace; do
	if [[ $layout =~ ^stripeplan(\.[0-9]+)?$ ]]; then
		checks=$((checks + 1))
		[ "$profile" = "$(workload_profile "$workload")" ] ||
			fail "$array $layout $workload was planned with --workload $profile, not $(workload_profile "$workload")"
	fi
	# sp-replay prints one flat JSON object; the two numbers are read without jq
	out=$("$REPLAY" --level "$level" --disks "$disks" --chunk "$chunk" --direction "$dir" \
		--payload-bytes "$payload" --request-bytes "$request" "$TRACES/$trace" |
		sed -n 's/.*"member_ios_per_mib": \([0-9.e+-]*\),.*"member_bytes_per_data_byte": \([0-9.e+-]*\),.*/\1 \2/p')
	checks=$((checks + 1))
	[ -n "$out" ] || fail "no figures from sp-replay for $trace"
	echo "$array $layout $workload $out" >>"$figures"
done < <(grep -v '^#' "$TRACES/cases.tsv")

# One line a verdict: "array workload metric peer verdict planned peer noise runs",
# verdict "ok", "worse" or "missing".
awk -v slack="$SLACK" -v peers="$PEERS" '
	{
		key = $1 " " $3
		if ($2 ~ /^stripeplan(\.[0-9]+)?$/) {
			n[key]++
			for (m = 1; m <= 2; m++) {
				v = $(3 + m)
				sum[key, m] += v
				if (!((key, m) in lo) || v < lo[key, m]) lo[key, m] = v
				if (!((key, m) in hi) || v > hi[key, m]) hi[key, m] = v
			}
		} else {
			# a peer and its repeats ("parted-default.2", ...): their
			# mean, judged within the larger of the two spreads
			base = $2
			sub(/\.[0-9]$/, "", base)
			pn[key, base]++
			for (m = 1; m <= 2; m++) {
				v = $(3 + m)
				psum[key, base, m] += v
				if (!((key, base, m) in plo) || v < plo[key, base, m]) plo[key, base, m] = v
				if (!((key, base, m) in phi) || v > phi[key, base, m]) phi[key, base, m] = v
			}
		}
	}
	END {
		np = split(peers, p, " ")
		for (key in n) {
			for (m = 1; m <= 2; m++) {
				mean = sum[key, m] / n[key]
				noise = lo[key, m] > 0 ? (hi[key, m] - lo[key, m]) / lo[key, m] : 0
				for (i = 1; i <= np; i++) {
					metric = m == 1 ? "ios" : "bytes"
					if (!((key, p[i]) in pn)) {
						print key, metric, p[i], "missing", mean, 0, noise, n[key]
						continue
					}
					d = psum[key, p[i], m] / pn[key, p[i]]
					lo_p = plo[key, p[i], m]
					both = noise
					if (lo_p > 0 && (phi[key, p[i], m] - lo_p) / lo_p > both)
						both = (phi[key, p[i], m] - lo_p) / lo_p
					verdict = mean > d * (1 + both) * slack ? "worse" : "ok"
					printf "%s %s %s %s %.6g %.6g %.4f %d\n", key, metric, p[i], verdict, mean, d, both, n[key]
				}
			}
		}
	}' "$figures" | sort >"$WORK/verdicts"

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
		fail "the planner's --workload $profile plan for $array is not the one bench/traces was captured with (was $stored, now $now): capture the traces anew (sudo bench/run --quick --parts efficiency, then copy its traces/ over bench/traces/ and review known-worse)"
done < <(grep -v '^#' "$TRACES/plans.tsv")
checks=$((checks + 1))
[ "$n_plans" -ge 12 ] || fail "bench/traces/plans.tsv holds $n_plans plans, want 4 arrays x 3 profiles"

known() {
	grep -v '^#' "$TRACES/known-worse" |
		awk -v k="$1 $2 $3 $4" '$1 " " $2 " " $3 " " $4 == k { f = 1 } END { exit !f }'
}

checks=$((checks + 1))
cases=$(awk '{ print $1, $2 }' "$WORK/verdicts" | sort -u | wc -l)
[ "$cases" -ge 20 ] || fail "the stored traces hold $cases planned array x workload cases, want 4 arrays x 5 workloads"
checks=$((checks + 1))
awk '$9 < 2 { bad = 1 } END { exit bad }' "$WORK/verdicts" ||
	fail "a planned case ran once: the noise is measured by repeating it (bench/run --repeat 2)"

for peer in $PEERS; do
	checks=$((checks + 1))
	cut -f5 "$TRACES/cases.tsv" | grep -qx "$peer.2" ||
		fail "$peer ran once in the stored traces: the rule judges the plan against its mean (bench/run --repeat 2)"
done

echo "noise (the larger spread of the planned layout's and the peer's repeated runs) and verdicts:"
while read -r array workload metric peer verdict planned theirs noise runs; do
	printf '  %-14s %-11s %-5s vs %-14s %-7s planned %-9s %-14s %-9s noise %5.2f %% (%s runs)\n' \
		"$array" "$workload" "$metric" "$peer" "$verdict" "$planned" "$peer" "$theirs" \
		"$(awk -v n="$noise" 'BEGIN { print n * 100 }')" "$runs"
	checks=$((checks + 1))
	case $verdict in
	missing) fail "$array $workload: no $peer case in the stored traces" ;;
	worse)
		known "$array" "$workload" "$metric" "$peer" ||
			fail "$array $workload: the plan costs $planned member $metric (per MiB or per data byte), $peer $theirs, beyond the noise ($noise)"
		;;
	ok)
		if known "$array" "$workload" "$metric" "$peer"; then
			fail "$array $workload $metric against $peer is listed in bench/traces/known-worse but the plan is no longer worse ($planned against $theirs): remove the line"
		fi
		;;
	esac
done <"$WORK/verdicts"
# every line of known-worse names a case there is
while read -r array workload metric peer _; do
	checks=$((checks + 1))
	grep -q "^$array $workload $metric $peer " "$WORK/verdicts" ||
		fail "known-worse names $array $workload $metric $peer, which the stored traces do not have"
done < <(grep -v '^#' "$TRACES/known-worse")
finish
