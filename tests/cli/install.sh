#!/bin/bash
# 'cmake --install' lays out exactly: the binary in sbin, the man page, an
# /etc/stripeplan/controllers.d holding only its README (whose example
# profile loads as written), and the bash completion.
. "$(dirname "$0")/lib.bash"

BUILD=${BUILDDIR:?set by ctest}
DEST="$WORK/dest"
checks=$((checks + 1))
DESTDIR="$DEST" cmake --install "$BUILD" --prefix /usr >"$WORK/out" 2>&1 ||
	fail "cmake --install failed: $(cat "$WORK/out")"

(cd "$DEST" && find . -mindepth 1 ! -type d | sort) >"$WORK/files"
cat >"$WORK/want" <<'LIST'
./etc/stripeplan/controllers.d/README
./usr/sbin/stripeplan
./usr/share/bash-completion/completions/stripeplan
./usr/share/man/man8/stripeplan.8
LIST
checks=$((checks + 1))
diff -u "$WORK/want" "$WORK/files" >&2 || fail "installed files differ from the expected layout"

checks=$((checks + 1))
"$DEST/usr/sbin/stripeplan" --version | grep -qE '^stripeplan [0-9]+\.[0-9]+\.[0-9]+$' ||
	fail "the installed binary does not print its version"

# the README's example profile, cut out of it, is a valid profile
mkdir "$WORK/profiles"
awk '/^    \{$/,/^    \}$/' "$DEST/etc/stripeplan/controllers.d/README" >"$WORK/profiles/example.json"
checks=$((checks + 1))
"$STRIPEPLAN" controllers --profiles "$WORK/profiles" >"$WORK/out" 2>"$WORK/err" ||
	fail "the README's example profile does not load: $(cat "$WORK/err")"
checks=$((checks + 1))
grep -qx 'acme-9000' "$WORK/out" || fail "the README's example profile is not listed"
# and the README itself is not taken for a profile
checks=$((checks + 1))
"$STRIPEPLAN" controllers --profiles "$DEST/etc/stripeplan/controllers.d" >/dev/null 2>"$WORK/err" ||
	fail "controllers.d with only its README does not load: $(cat "$WORK/err")"
finish
