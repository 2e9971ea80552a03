#!/bin/bash
# The bench's rule on stored traces: on every array and every workload the
# planned layout costs no more member I/Os and no more member bytes than
# parted-default.  bench/traces/ holds the traces of one `bench/run --quick`
# (cases.tsv says which array, workload, payload and request size each is);
# the array model replays them here, so a change to the model or to those
# traces that makes one case worse fails.  Cases where the plan is worse
# today are listed in bench/traces/known-worse: a listed case that is no
# longer worse fails too, so the list only ever shrinks.
# shellcheck source=tests/cli/lib.bash
. "$(dirname "$0")/lib.bash"

REPLAY="${BUILDDIR:?set by ctest}/bench/sp-replay"
TRACES="$SRCDIR/bench/traces"
# The figures are printed with 6 significant digits; a 0.5 % slack keeps
# rounding from deciding, not the run-to-run noise of capturing anew.
SLACK=1.005

# figures LAYOUT ARRAY WORKLOAD: "member_ios_per_mib member_bytes_per_data_byte"
figures() {
	local want_layout=$1 want_array=$2 want_workload=$3
	local array level disks chunk layout workload dir payload request trace

	while IFS=$'\t' read -r array level disks chunk layout workload dir payload request trace; do
		if [ "$array" != "$want_array" ] || [ "$layout" != "$want_layout" ] ||
			[ "$workload" != "$want_workload" ]; then
			continue
		fi
		# sp-replay prints one flat JSON object; the two numbers are read without jq
		"$REPLAY" --level "$level" --disks "$disks" --chunk "$chunk" --direction "$dir" \
			--payload-bytes "$payload" --request-bytes "$request" "$TRACES/$trace" |
			sed -n 's/.*"member_ios_per_mib": \([0-9.e+-]*\),.*"member_bytes_per_data_byte": \([0-9.e+-]*\),.*/\1 \2/p'
		return
	done < <(grep -v '^#' "$TRACES/cases.tsv")
	echo "missing"
}

known() {
	grep -v '^#' "$TRACES/known-worse" | awk -v k="$1 $2 $3" '$1 " " $2 " " $3 == k { f = 1 } END { exit !f }'
}

# worse PLANNED DEFAULT: the planned figure exceeds the default's beyond the slack
worse() {
	awk -v p="$1" -v d="$2" -v s="$SLACK" 'BEGIN { exit !(p > d * s) }'
}

mapfile -t cases < <(grep -v '^#' "$TRACES/cases.tsv" | awk -F'\t' '$5 == "stripeplan" { print $1 " " $6 }')
checks=$((checks + 1))
[ "${#cases[@]}" -ge 16 ] || fail "cases.tsv lists ${#cases[@]} planned cases, want 4 arrays x 4 workloads"

for c in "${cases[@]}"; do
	read -r array workload <<<"$c"
	read -r p_ios p_bytes <<<"$(figures stripeplan "$array" "$workload")"
	read -r d_ios d_bytes <<<"$(figures parted-default "$array" "$workload")"
	checks=$((checks + 1))
	if [ "$p_ios" = missing ] || [ "$d_ios" = missing ] || [ -z "$p_bytes" ] || [ -z "$d_bytes" ]; then
		fail "$array $workload: no figures for both layouts"
		continue
	fi
	for metric in ios bytes; do
		if [ $metric = ios ]; then p=$p_ios d=$d_ios; else p=$p_bytes d=$d_bytes; fi
		checks=$((checks + 1))
		if worse "$p" "$d"; then
			known "$array" "$workload" "$metric" ||
				fail "$array $workload: the plan costs $p member $metric (per MiB or per data byte), parted-default $d"
		elif known "$array" "$workload" "$metric"; then
			fail "$array $workload $metric is listed in bench/traces/known-worse but the plan is no longer worse ($p against $d): remove the line"
		fi
	done
done
finish
