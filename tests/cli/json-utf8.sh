#!/bin/bash
# JSON is UTF-8, as strict parsers (Python's json, jq, Go) want it: values
# typed and JSON files read (plans, facts, profiles) that are not are
# refused (exit 2, one line showing each such byte as \xNN), and what is
# valid stays exactly as it was.  (Strings read from the system that are
# not UTF-8 are escaped as \xNN: device/output, unit/test-utf8,
# fuzz-json-utf8.)
. "$(dirname "$0")/lib.bash"

sp() { timeout 20 "$STRIPEPLAN" "$@"; }
base=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --device /dev/sdb
	--size 2T --kernel 6.1.0)

strict_json() {
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"
}

# --- what is typed must be UTF-8 text (it goes into the plan's JSON) --------
# base without FLAG and its value: an option is given once
without() {
	local i
	for ((i = 0; i < ${#base[@]}; i += 2)); do
		[ "${base[i]}" = "$1" ] || printf '%s\0%s\0' "${base[i]}" "${base[i + 1]}"
	done
}
for flag in --mountpoint --label --device --controller --kernel --members --profiles; do
	mapfile -d '' args < <(without "$flag")
	expect_exit 2 "^stripeplan: ${flag#--}: '/x\\\\xff\\\\xc3' is not valid UTF-8" \
		sp plan "${args[@]}" "$flag" $'/x\xff\xc3'
done
expect_exit 2 "mountpoint: '/d\\\\xed\\\\xa0\\\\x80' is not valid UTF-8" \
	sp plan "${base[@]}" --mountpoint $'/d\xed\xa0\x80'
# UTF-8 is welcome, as it is (backslashes too)
sp plan "${base[@]}" --mountpoint '/données\x41' --label 'été' --format json >"$WORK/utf8.json" ||
	fail "a UTF-8 mount point is refused"
checks=$((checks + 1))
if ! strict_json "$WORK/utf8.json" ||
	[ "$(jq -r '.mount.mountpoint + " " + .filesystem.label' "$WORK/utf8.json")" != '/données\x41 été' ]; then
	fail "UTF-8 values changed: $(jq -c '.mount, .filesystem.label' "$WORK/utf8.json")"
fi
# a file of ours on this machine may have any name
checks=$((checks + 1))
if ! sp plan "${base[@]}" --format json -o "$WORK/plan"$'\xff'".json" ||
	! strict_json "$WORK/plan"$'\xff'".json"; then
	fail "-o to a file whose name is not UTF-8"
fi

# --- JSON read as input must be UTF-8 too: refused, or it would not read ----
# back as written (json-c's own check lets an overlong form through)
sed 's/"ZC1ABCDE"/"ZC1\\u00e9 '$'\xff\xfe''"/' "$FIXTURES/facts/4kn.json" >"$WORK/facts.json"
expect_exit 2 "is not valid UTF-8" \
	sp plan --controller generic --level 5 --disks 4 --chunk 64K --fs xfs --facts "$WORK/facts.json"
checks=$((checks + 1))
grep -q "'ZC1é \\\\xff\\\\xfe' is not valid UTF-8" "$WORK/err" || fail "facts refusal: $(cat "$WORK/err")"
sed 's/"ZC1ABCDE"/"ZC1'$'\xc0\x80''"/' "$FIXTURES/facts/4kn.json" >"$WORK/overlong.json"
expect_exit 2 "'ZC1\\\\xc0\\\\x80' is not valid UTF-8" \
	sp plan --controller generic --level 5 --disks 4 --chunk 64K --fs xfs --facts "$WORK/overlong.json"
mkdir "$WORK/profiles"
sed -e 's/"name": "generic"/"name": "site"/' \
	-e 's/"description": "[^"]*"/"description": "caf'$'\xe9'' array"/' \
	"$SRCDIR/planner/profiles/generic.json" >"$WORK/profiles/site.json"
expect_exit 2 "profile '.*site.json': 'caf\\\\xe9 array' is not valid UTF-8" \
	sp controllers --profiles "$WORK/profiles" --format json
sp plan "${base[@]}" --mountpoint /data --format json >"$WORK/good.json" || fail "plan for the plan file"
sed 's|"/data"|"/data'$'\xff''"|' "$WORK/good.json" >"$WORK/bad-plan.json"
expect_exit 2 "plan: '/data\\\\xff' is not valid UTF-8" \
	sp apply --plan "$WORK/bad-plan.json" --device /dev/stripeplan-test-none --root "$WORK"
finish
