# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The stored run (bench/traces): its traces replayed through the array
# model as bench/run replayed them, for the tests that judge it
# (tests/cli/bench-rule.sh, bench-report.sh, bench-docs.sh) and for
# bench/docs, which writes the docs' figures from it.
#
#	stored_replay REPLAY TRACES OUT [INDEX]
#	        sp-replay (REPLAY) on every trace INDEX (default cases.tsv; the
#	        read-ahead sweep's is readahead.tsv) in TRACES lists,
#	        appending one case a line to OUT; a trace stored compressed
#	        (NAME.gz) is read through gzip -dc.  Fails on the first trace
#	        sp-replay fails on, naming it.

stored_replay() {
	local replay=$1 traces=$2 out=$3 index=${4:-cases.tsv}
	local array level disks chunk layout profile workload dir payload request trace
	local -a label

	while IFS=$'\t' read -r array level disks chunk layout profile workload dir payload request trace; do
		label=()
		[ "$profile" = - ] || label=(--profile "$profile")
		case $trace in
		*.gz) gzip -dc "$traces/$trace" ;;
		*) cat "$traces/$trace" ;;
		esac | "$replay" --level "$level" --disks "$disks" --chunk "$chunk" --direction "$dir" \
			--payload-bytes "$payload" --request-bytes "$request" --array "$array" \
			--layout "$layout" --workload "$workload" "${label[@]}" - >>"$out" || {
			echo "stored_replay: sp-replay failed on '$traces/$trace'" >&2
			return 1
		}
	done < <(grep -v '^#' "$traces/$index")
}
