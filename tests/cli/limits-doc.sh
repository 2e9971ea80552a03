#!/bin/bash
# stripeplan(8)'s LIMITS list is the limits table and the shipped profiles'
# documented limits, written by limits-doc: the page's copy must equal it
# (UPDATE_GOLDEN=1 rewrites it); every row id the page or the README names
# must be a row, and the numbers the prose states beside it the row's.
. "$(dirname "$0")/lib.bash"
: "${LIMITS_DOC:?set by ctest}"

PAGE="$SRCDIR/docs/stripeplan.8"
# the markers, matched as fixed strings at the start of a line
export BEGIN='.\" BEGIN GENERATED LIMITS' END='.\" END GENERATED LIMITS'

"$LIMITS_DOC" >"$WORK/rows" || fail "limits-doc failed"
awk 'index($0, ENVIRON["END"]) == 1 { on = 0 } on { print } index($0, ENVIRON["BEGIN"]) == 1 { on = 1 }' \
	"$PAGE" >"$WORK/page"
checks=$((checks + 1))
if [ "$(grep -cF -e "$BEGIN" -e "$END" "$PAGE")" != 2 ]; then
	fail "stripeplan.8 has no (or more than one) GENERATED LIMITS block"
elif [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	awk -v rows="$WORK/rows" '
		index($0, ENVIRON["END"]) == 1 { on = 0 }
		!on { print }
		index($0, ENVIRON["BEGIN"]) == 1 { on = 1; while ((getline l < rows) > 0) print l }' \
		"$PAGE" >"$WORK/new"
	cat "$WORK/new" >"$PAGE"
	echo "updated the LIMITS rows of stripeplan.8"
elif ! diff -u "$WORK/page" "$WORK/rows" >&2; then
	fail "stripeplan.8's LIMITS rows differ from the table (UPDATE_GOLDEN=1 rewrites them)"
fi

# a row id named anywhere in the docs is a row, and every number written
# beside it is the row's own (limits-prose.awk says which numbers count):
# "at most 2147483647 bytes, one byte under 2 GiB ... (limits row
# xfs-swidth-max)" fails once the table's bound moves and the prose does not
"$LIMITS_DOC" --rows >"$WORK/table" || fail "limits-doc --rows failed"
checks=$((checks + 1))
if ! awk -f "$SRCDIR/tests/cli/limits-prose.awk" "$WORK/table" "$PAGE" "$SRCDIR/README.md" \
	"$SRCDIR"/docs/*.md >"$WORK/prose"; then
	sed 's/^/  /' "$WORK/prose" >&2
	fail "a number beside a limits row cite in the docs is not the row's"
fi
# and the check itself sees a drift: a bound typed one off, a row not in the
# table behind a plural cite, while the true numbers pass
prose() { awk -f "$SRCDIR/tests/cli/limits-prose.awk" "$WORK/table" "$WORK/$1.md" >"$WORK/$1.out"; }
printf '%s\n' 'A stripe width is at most 2147483647 bytes, under 2 GiB (xfsprogs 5.11;' \
	'limits row xfs-swidth-max); md takes 17 to 32768 (limits rows md-stripe-cache).' >"$WORK/true.md"
printf '%s\n' 'A stripe width is at most 2147483648 bytes (limits row xfs-swidth-max).' >"$WORK/drift.md"
printf '%s\n' 'Logs are 64 MiB or more (limits rows xfs-log-min and xfs-log-max).' >"$WORK/unknown.md"
checks=$((checks + 3))
prose true || fail "limits-prose.awk refused the table's own numbers: $(cat "$WORK/true.out")"
! prose drift || fail "limits-prose.awk passed 2147483648 bytes beside xfs-swidth-max"
if prose unknown || ! grep -q "names limits row 'xfs-log-max'" "$WORK/unknown.out"; then
	fail "limits-prose.awk passed a cite of a row the table lacks: $(cat "$WORK/unknown.out")"
fi
# the docs cite the table: a check of nothing would pass
n=$(sed -n 's/^checked //p' "$WORK/prose")
checks=$((checks + 1))
[ "${n:-0}" -ge 40 ] || fail "only ${n:-0} numbers beside limits row cites were checked"
finish
