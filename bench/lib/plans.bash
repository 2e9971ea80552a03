# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# What the planner plans for the bench's arrays, as one line: the stored
# traces (bench/traces) were captured with these plans, and
# tests/cli/bench-rule.sh fails when the planner now plans something else
# for one of them, so a planner change cannot make a workload worse while
# the check keeps judging traces of the old plan.
#
#	plan_fingerprint STRIPEPLAN PROFILE PLAN-ARGS...
#	                prints the partition, mkfs command, mount options and
#	                tuning of the offline XFS plan for PLAN-ARGS (the array)
#	                with --workload PROFILE, as compact JSON
#
# Offline, for a fixed device name, size and kernel release, so that the
# line depends on the planner only, not on the machine that runs it.

PLAN_FP_SIZE=2G
PLAN_FP_KERNEL=6.1.0-27-amd64

# workload_profile WORKLOAD: the profile (stripeplan --workload) the bench
# plans WORKLOAD with; for the bench and for tests/cli/bench-rule.sh, which
# checks each stored planned case was captured with it
workload_profile() {
	case $1 in
	seqwrite | seqread | stripewrite) echo general ;;
	smallfiles) echo small-sync ;;
	metadata) echo metadata ;;
	*)
		echo "(no profile for '$1')"
		return 1
		;;
	esac
}

plan_fingerprint() {
	local stripeplan=$1 profile=$2
	shift 2

	"$stripeplan" plan "$@" --fs xfs --workload "$profile" --device /dev/bench-offline \
		--size "$PLAN_FP_SIZE" --kernel "$PLAN_FP_KERNEL" --mountpoint /srv/bench \
		--format json |
		jq -c '{partition: .partition | {table, start_bytes, size_bytes},
			mkfs: .filesystem.mkfs_argv, mount: .mount.options,
			tuning: [.tuning[]? | {path, value}]}'
}
