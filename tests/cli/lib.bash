# shellcheck shell=bash
# Helpers for CLI tests: run the binary, compare against goldens.
# Goldens are updated only on purpose: UPDATE_GOLDEN=1 ctest -R cli/...
set -euo pipefail

: "${STRIPEPLAN:?set by ctest}" "${SRCDIR:?set by ctest}"
GOLDEN_DIR="$SRCDIR/tests/cli/golden"
failures=0
checks=0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# golden NAME CMD...: stdout of CMD (which must exit 0) equals golden/NAME
golden() {
	local name=$1
	shift
	checks=$((checks + 1))
	if ! "$@" >"$WORK/out" 2>"$WORK/err"; then
		fail "$name: '$*' exited non-zero: $(cat "$WORK/err")"
		return
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$WORK/out" "$GOLDEN_DIR/$name"
		echo "updated $name"
		return
	fi
	if ! diff -u "$GOLDEN_DIR/$name" "$WORK/out" >&2; then
		fail "$name differs from its golden (see diff above)"
	fi
}

# expect_exit CODE PATTERN CMD...: CMD exits CODE, prints nothing on
# stdout, and one stderr line matching PATTERN (grep -E)
expect_exit() {
	local code=$1 pattern=$2 rc=0
	shift 2
	checks=$((checks + 1))
	"$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	if [ "$rc" != "$code" ]; then
		fail "'$*' exited $rc, expected $code; stderr: $(cat "$WORK/err")"
	elif [ -s "$WORK/out" ]; then
		fail "'$*' printed on stdout although it failed: $(head -3 "$WORK/out")"
	elif ! grep -qE -- "$pattern" "$WORK/err"; then
		fail "'$*' stderr does not match /$pattern/: $(cat "$WORK/err")"
	elif [ "$(grep -c '^stripeplan: ' "$WORK/err")" != 1 ]; then
		fail "'$*' should print exactly one 'stripeplan:' line: $(cat "$WORK/err")"
	fi
}

finish() {
	echo "$((checks - failures)) passed, $failures failed"
	[ "$failures" = 0 ]
}
