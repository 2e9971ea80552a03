# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# What stripeplan itself costs: `apply` end to end against the commands a
# person would type for the same result (parted, the planned mkfs.xfs,
# blkid for the UUID), alternated on the same fixture from the same blank
# state; `plan` latency offline and with a probe; peak memory.  Writes
# $OUT/cost.tsv: measure  value  unit  note

_now_ns() {
	date +%s%N
}

_median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Back to a blank disk: the old filesystem's signature first (mkfs.xfs would
# refuse to overwrite it), then both GPT headers, then the kernel's view.
_cost_reset() {
	if [ -b "$FX_PART" ]; then
		wipefs -q -a "$FX_PART" >>"$LOGS/cost.log" 2>&1 || bench_die "wipefs '$FX_PART' failed"
	fi
	# (wipefs re-reads the partition table itself and says so on stdout)
	wipefs -q -a "$FX_DEV" >>"$LOGS/cost.log" 2>&1 || bench_die "wipefs '$FX_DEV' failed"
	blockdev --rereadpt "$FX_DEV" >>"$LOGS/cost.log" 2>&1 || bench_die "cannot re-read the partition table of '$FX_DEV'"
	[ ! -b "$FX_PART" ] || bench_die "'$FX_PART' still exists after wiping '$FX_DEV'"
}

_max_rss_kib() {
	local f=$1
	shift
	/usr/bin/time -v -o "$f" "$@" >/dev/null 2>&1 || bench_die "'$*' failed under /usr/bin/time"
	sed -n 's/.*Maximum resident set size (kbytes): //p' "$f"
}

cost_run() {
	local plan start size i t0 t1 dev part
	local -a args argv

	# a bare loop device: apply makes the partition itself
	FX_COUNT=$((FX_COUNT + 1))
	FX_DEV=$(sp_loop_create "$FIXTURE_SIZE") || exit 1
	FX_PART="${FX_DEV}p1"
	dev=$FX_DEV
	part=$FX_PART
	read -ra args <<<"$(array_args 0)"
	plan="$LOGS/plan.cost.json"
	"$STRIPEPLAN" plan "${args[@]}" --fs xfs --device "$dev" --format json -o "$plan" ||
		bench_die "plan for the cost bench failed"
	start=$(jq '.partition.start_sector' "$plan")
	size=$(jq '.partition.size_sectors' "$plan")
	mapfile -t argv < <(jq -r '.filesystem.mkfs_argv[]' "$plan")
	: >"$LOGS/cost.apply" && : >"$LOGS/cost.hand"

	for i in $(seq "$COST_RUNS"); do
		bench_step "cost: run $i of $COST_RUNS"
		_cost_reset
		t0=$(_now_ns)
		"$STRIPEPLAN" apply "${args[@]}" --fs xfs --device "$dev" --root "$APPLY_ROOT" \
			>>"$LOGS/cost.log" 2>&1 ||
			bench_die "stripeplan apply failed (see $LOGS/cost.log)"
		t1=$(_now_ns)
		echo $(((t1 - t0) / 1000)) >>"$LOGS/cost.apply"

		_cost_reset
		t0=$(_now_ns)
		{
			parted -s -a optimal "$dev" mklabel gpt unit s mkpart primary "$start" \
				$((start + size - 1)) &&
				_wait_node "$part" &&
				"${argv[@]}" &&
				blkid -p -o export "$part"
		} >>"$LOGS/cost.log" 2>&1 || bench_die "the commands by hand failed (see $LOGS/cost.log)"
		t1=$(_now_ns)
		echo $(((t1 - t0) / 1000)) >>"$LOGS/cost.hand"
		[ "$(cat "/sys/class/block/$(basename "$part")/start")" = "$start" ] ||
			bench_die "parted did not put the partition at sector $start"
	done

	: >"$LOGS/cost.plan.offline" && : >"$LOGS/cost.plan.probe"
	for i in $(seq "$PLAN_RUNS"); do
		t0=$(_now_ns)
		"$STRIPEPLAN" plan "${args[@]}" --fs xfs --device /dev/bench-offline --size 1T \
			>/dev/null || bench_die "offline plan failed"
		t1=$(_now_ns)
		echo $(((t1 - t0) / 1000)) >>"$LOGS/cost.plan.offline"
		t0=$(_now_ns)
		"$STRIPEPLAN" plan "${args[@]}" --fs xfs --device "$dev" >/dev/null ||
			bench_die "plan with a probe failed"
		t1=$(_now_ns)
		echo $(((t1 - t0) / 1000)) >>"$LOGS/cost.plan.probe"
	done

	{
		printf 'apply_ms\t%s\tms\tmedian of %s, stripeplan apply, verification included\n' \
			"$(_median <"$LOGS/cost.apply" | awk '{ printf "%.1f", $1 / 1000 }')" "$COST_RUNS"
		printf 'hand_ms\t%s\tms\tmedian of %s, parted + %s + blkid\n' \
			"$(_median <"$LOGS/cost.hand" | awk '{ printf "%.1f", $1 / 1000 }')" "$COST_RUNS" \
			"${argv[0]}"
		printf 'plan_offline_ms\t%s\tms\tmedian of %s, --size (nothing probed)\n' \
			"$(_median <"$LOGS/cost.plan.offline" | awk '{ printf "%.2f", $1 / 1000 }')" "$PLAN_RUNS"
		printf 'plan_probe_ms\t%s\tms\tmedian of %s, probing the loop device\n' \
			"$(_median <"$LOGS/cost.plan.probe" | awk '{ printf "%.2f", $1 / 1000 }')" "$PLAN_RUNS"
		printf 'plan_rss_kib\t%s\tKiB\tpeak RSS of stripeplan plan (probe)\n' \
			"$(_max_rss_kib "$LOGS/time.plan" "$STRIPEPLAN" plan "${args[@]}" --fs xfs --device "$dev")"
		_cost_reset
		printf 'apply_rss_kib\t%s\tKiB\tpeak RSS of stripeplan apply and the children it waits for (mkfs.xfs)\n' \
			"$(_max_rss_kib "$LOGS/time.apply" "$STRIPEPLAN" apply "${args[@]}" --fs xfs \
				--device "$dev" --root "$APPLY_ROOT")"
		printf 'mkfs_rss_kib\t%s\tKiB\tpeak RSS of %s alone, for comparison\n' \
			"$(_max_rss_kib "$LOGS/time.mkfs" "${argv[@]:0:${#argv[@]}-1}" -f "$part")" "${argv[0]}"
	} >"$OUT/cost.tsv"
	fixture_drop
}
