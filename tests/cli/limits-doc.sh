#!/bin/bash
# stripeplan(8)'s LIMITS list is the limits table and the shipped profiles'
# documented limits, written by limits-doc: the page's copy must equal it
# (UPDATE_GOLDEN=1 rewrites it), and every row id the page or the README
# names must be a row.
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

# a row id named anywhere in the docs is a row: "(limits row xfs-swidth-max)"
ids=$(sed -n 's/^\.B \(.*\)$/\1/p' "$WORK/rows" | sed 's/\\-/-/g')
for doc in "$PAGE" "$SRCDIR/README.md"; do
	while read -r id; do
		checks=$((checks + 1))
		grep -qxF -- "$id" <<<"$ids" || fail "$(basename "$doc") names limits row '$id', which the table lacks"
	done < <(sed 's/\\-/-/g' "$doc" | grep -oE 'limits row [a-z0-9][a-z0-9-]*[a-z0-9]' | cut -d' ' -f3 | sort -u)
done
finish
