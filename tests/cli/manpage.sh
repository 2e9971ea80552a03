#!/bin/bash
# The man page documents what the CLI offers: every command that
# 'stripeplan --help' lists has a subsection under COMMANDS, and every
# option that a command's --help prints is in the OPTIONS section.
# Reads the roff source only: needs neither groff nor man.
. "$(dirname "$0")/lib.bash"

PAGE="$SRCDIR/docs/stripeplan.8"

# section NAME: the lines of the .SH NAME section, with roff's escaped
# hyphen (\-) turned into a plain one so options read as typed
section() {
	sed 's/\\-/-/g' "$PAGE" |
		awk -v name="$1" '
			/^\.SH / { s = $0; sub(/^\.SH +/, "", s); gsub(/"/, "", s); on = (s == name); next }
			on'
}

# help CMD...: stdout of 'stripeplan CMD... --help', which must exit 0
help() {
	checks=$((checks + 1))
	if ! "$STRIPEPLAN" "$@" --help >"$WORK/help" 2>"$WORK/err"; then
		fail "'stripeplan $* --help' exited non-zero: $(cat "$WORK/err")"
		: >"$WORK/help"
	elif [ ! -s "$WORK/help" ]; then
		fail "'stripeplan $* --help' printed nothing"
	fi
	cat "$WORK/help"
}

checks=$((checks + 1))
if [ ! -s "$PAGE" ]; then
	fail "$PAGE is missing or empty"
	finish
	exit 1
fi
checks=$((checks + 1))
grep -qE '^\.TH +"?STRIPEPLAN"? +"?8"?( |$)' "$PAGE" || fail "$PAGE has no '.TH STRIPEPLAN 8' header"
for name in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" "SEE ALSO"; do
	checks=$((checks + 1))
	grep -qE "^\.SH +\"?$name\"?$" "$PAGE" || fail "$PAGE has no '.SH $name' section"
done

section COMMANDS >"$WORK/commands"
section OPTIONS >"$WORK/options"

# the commands: the first word of each line between 'Commands:' and the next blank line
help >"$WORK/main-help"
mapfile -t commands < <(awk '/^Commands:/ { on = 1; next } on && /^[[:space:]]*$/ { exit }
	on { print $1 }' "$WORK/main-help")
for want in plan controllers; do
	checks=$((checks + 1))
	printf '%s\n' "${commands[@]}" >"$WORK/help-commands"
	grep -qxF -- "$want" "$WORK/help-commands" ||
		fail "'stripeplan --help' does not list the command '$want' (help format changed?)"
done

for cmd in "${commands[@]}"; do
	checks=$((checks + 1))
	grep -qE "^\.SS +\"?(stripeplan +)?$cmd\"?( |$)" "$WORK/commands" ||
		fail "command '$cmd' has no '.SS $cmd' subsection under COMMANDS in $PAGE"

	help "$cmd" >"$WORK/cmd-help"
	mapfile -t opts < <(grep -oE -- '--[a-z][a-z-]+' "$WORK/cmd-help" | sort -u)
	# short options as the help lists them: "  -o, --output FILE"
	mapfile -t -O "${#opts[@]}" opts < <(grep -oE -- '^ +-[a-zA-Z],' "$WORK/cmd-help" |
		tr -d ' ,' | sort -u)
	if [ "$cmd" = plan ] || [ "$cmd" = controllers ]; then
		checks=$((checks + 1))
		[ "${#opts[@]}" -ge 2 ] ||
			fail "'stripeplan $cmd --help' lists no options (help format changed?)"
	fi
	for opt in "${opts[@]}"; do
		checks=$((checks + 1))
		# --size must not be found inside --sector-size, nor -o inside --output
		if ! grep -qE -- "(^|[^a-zA-Z-])$opt([^a-z-]|\$)" "$WORK/options"; then
			fail "'stripeplan $cmd --help' lists $opt, which the OPTIONS section of $PAGE does not"
		fi
	done
done

# the top-level options
for opt in -h --help -V --version; do
	checks=$((checks + 1))
	grep -qE -- "(^|[^a-zA-Z-])$opt([^a-z-]|\$)" "$WORK/options" ||
		fail "the OPTIONS section of $PAGE does not document $opt"
done
finish
