#!/bin/bash
# The figures README.md, bench/README.md and the plan text (formatters/
# text.c) quote from the bench are the stored run's (bench/traces): bench/docs --check replays the traces,
# writes each figure block as the bench's report would and fails, showing
# the difference, when the text between a block's markers is not that; and
# both files hold the blocks (a doc that dropped its markers would pass
# with figures of its own).
# shellcheck source=tests/cli/lib.bash
. "$(dirname "$0")/lib.bash"

checks=$((checks + 1))
BUILD_DIR="${BUILDDIR:?set by ctest}" "$SRCDIR/bench/docs" --check >"$WORK/out" 2>&1 ||
	fail "the docs' bench figures are not the stored run's: $(cat "$WORK/out")"

for block in README.md:run README.md:stripewrite README.md:smallfiles-bytes \
	README.md:rule-summary README.md:spread bench/README.md:run bench/README.md:rule-table \
	bench/README.md:rule-summary bench/README.md:spread; do
	checks=$((checks + 1))
	grep -q "^<!-- bench-figures: ${block#*:} " "$SRCDIR/${block%%:*}" ||
		fail "${block%%:*} has no '${block#*:}' figure block"
done
checks=$((checks + 1))
grep -q '^/\* bench-figures: plan-trades ' "$SRCDIR/formatters/text.c" ||
	fail "formatters/text.c has no 'plan-trades' block: the plan text would not state its trades"

# edited_is_found FILE SED SHOWN: FILE with SED applied, the others as they
# are, is a copy bench/docs --check refuses, showing SHOWN (a grep pattern)
mkdir -p "$WORK/root/bench" "$WORK/root/formatters"
edited_is_found() {
	local file=$1 edit=$2 shown=$3 doc
	for doc in README.md bench/README.md formatters/text.c; do
		cp "$SRCDIR/$doc" "$WORK/root/$doc"
	done
	sed "$edit" "$SRCDIR/$file" >"$WORK/root/$file"
	checks=$((checks + 1))
	if cmp -s "$SRCDIR/$file" "$WORK/root/$file"; then
		fail "the test's edit of $file did not apply"
	elif DOCS_ROOT="$WORK/root" BUILD_DIR="$BUILDDIR" "$SRCDIR/bench/docs" --check >"$WORK/out" 2>&1; then
		fail "bench/docs --check passed a $file whose figure was edited"
	elif ! grep -q -- "$shown" "$WORK/out"; then
		fail "bench/docs --check did not show the edited line of $file: $(cat "$WORK/out")"
	fi
}

# a figure edited by hand is found: in the README, and a trade the plan text states
edited_is_found README.md \
	's/^\(| RAID10 8 × 256 KiB (HP Smart Array P400, seed 000) | \)[0-9.]*/\10.99/' \
	'^-| RAID10 8 × 256 KiB (HP Smart Array P400, seed 000) | 0.99'
edited_is_found formatters/text.c \
	's/^\(\t"  *RAID5 15 x 128 KiB, fsync.d small files: \)[0-9.]*/\19.99/' \
	"RAID5 15 x 128 KiB, fsync'd small files: 9.99"
finish
