# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The bench's arrays: the four seeds' and one whose stripe width is not a
# power of two.  name|label|controller|level|disks|chunk.  bench/run
# measures them; bench/docs labels the docs' figures with them.
# shellcheck disable=SC2034 # used by the files that source this one
ARRAYS=(
	"raid10-8x256k|RAID10 8 × 256 KiB (HP Smart Array P400, seed 000)|hp-p400|10|8|256K"
	"raid5-10x1m|RAID5 10 × 1 MiB (md, seed 002)|md|5|10|1M"
	"raid5-15x128k|RAID5 15 × 128 KiB (Dell PERC 5/E, seed 003)|dell-perc5e|5|15|128K"
	"raid5-4x64k|RAID5 4 × 64 KiB: a 192 KiB stripe, not a power of two (Dell PERC 6/i)|dell-perc6i|5|4|64K"
)

# array_labels: sp-bench-report's --array arguments, one a line
array_labels() {
	local a name label

	for a in "${ARRAYS[@]}"; do
		IFS='|' read -r name label _ <<<"$a"
		printf '%s|%s\n' "$name" "$label"
	done
}
