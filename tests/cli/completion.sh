#!/bin/bash
# The bash completion (dist/bash-completion/stripeplan) offers every command,
# every option each command's --help prints (apply and check also take the
# plan options), only options the command accepts, and every embedded
# controller profile plus those of a --profiles DIR on the line.
. "$(dirname "$0")/lib.bash"

COMPLETION="$SRCDIR/dist/bash-completion/stripeplan"
# shellcheck source=../../dist/bash-completion/stripeplan
. "$COMPLETION"

# complete WORD...: what <TAB> offers after 'stripeplan WORD...' (the last
# word is the one being completed), one per line
complete_line() {
	COMP_WORDS=("$STRIPEPLAN" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_stripeplan "$STRIPEPLAN" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}

# help_opts CMD: every option 'stripeplan CMD --help' mentions
help_opts() {
	"$STRIPEPLAN" "$1" --help >"$WORK/help"
	{
		grep -oE -- '--[a-z][a-z-]+' "$WORK/help"
		grep -oE -- '^ +-[a-zA-Z],' "$WORK/help" | tr -d ' ,'
	} | sort -u
}

# offers LIST WHAT: each word of LIST (a file) is in the completion output $WORK/offered
offers() {
	local w
	while read -r w; do
		checks=$((checks + 1))
		grep -qxF -- "$w" "$WORK/offered" || fail "$2: <TAB> does not offer '$w'"
	done <"$1"
}

# value_for OPT: a value OPT accepts when parsed
value_for() {
	case $1 in
	--controller) echo hp-p400 ;; --level) echo 10 ;; --disks) echo 8 ;; --spans) echo 1 ;;
	--chunk) echo 256K ;; --members) echo sdb ;; --device) echo /dev/sdb ;; --table) echo gpt ;;
	--fs) echo xfs ;; --mountpoint) echo /data ;; --barriers) echo on ;; --kernel) echo 6.1.0 ;;
	--profiles | --root) echo "$WORK" ;; --format) echo text ;; --size) echo 1G ;;
	--stack) echo luks,lvm ;; --vg | --lv | --luks-name) echo data ;;
	--sector-size) echo 512 ;; --tuning) echo field-report ;; --workload) echo metadata ;; --memory-budget) echo 128M ;; --layout) echo n2 ;;
	*) echo "$WORK/file" ;;
	esac
}

complete_line "" >"$WORK/offered"
"$STRIPEPLAN" --help | awk '/^Commands:/ { on = 1; next } on && /^[[:space:]]*$/ { exit }
	on { print $1 }' >"$WORK/commands"
checks=$((checks + 1))
[ "$(wc -l <"$WORK/commands")" -ge 4 ] || fail "'stripeplan --help' lists fewer than 4 commands"
offers "$WORK/commands" "stripeplan <TAB>"

help_opts plan >"$WORK/plan-opts"
for cmd in plan apply check controllers; do
	help_opts "$cmd" >"$WORK/want"
	# apply and check plan on the spot: the plan options are theirs too,
	# except those that describe a device without probing it, and
	# --key-file, which plan only names in an installer snippet (apply's
	# own help has it; check reads no key)
	if [ "$cmd" = apply ] || [ "$cmd" = check ]; then
		grep -vxE -- '--size|--sector-size|--facts|--output|-o|--key-file' "$WORK/plan-opts" >>"$WORK/want"
	fi
	complete_line "$cmd" - >"$WORK/offered"
	offers "$WORK/want" "stripeplan $cmd -<TAB>"
	# nothing offered that the command rejects as not its own: all of them
	# at once, each with a value it takes, before a final --help (options
	# are judged in order, so a foreign one fails before the help prints)
	argv=()
	while read -r opt; do
		case $opt in
		# -o is --output, which may be given once (it is offered and tried too)
		-h | --help | -o) ;;
		--force | --dry-run) argv+=("$opt") ;;
		*) argv+=("$opt" "$(value_for "$opt")") ;;
		esac
	done <"$WORK/offered"
	checks=$((checks + 1))
	"$STRIPEPLAN" "$cmd" "${argv[@]}" --help >"$WORK/out" 2>"$WORK/err" ||
		fail "stripeplan $cmd -<TAB> offers an option $cmd rejects: $(cat "$WORK/err")"
done

# controllers: the embedded profiles, by their "name" field
for f in "$SRCDIR"/planner/profiles/*.json; do
	sed -n 's/^[[:space:]]*"name":[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -1
done | sort -u >"$WORK/embedded"
checks=$((checks + 1))
[ "$(wc -l <"$WORK/embedded")" -ge 5 ] || fail "found fewer than 5 embedded profile names"
complete_line plan --controller "" >"$WORK/offered"
offers "$WORK/embedded" "stripeplan plan --controller <TAB>"
complete_line apply --level 5 --controller hp- >"$WORK/offered"
checks=$((checks + 1))
[ "$(cat "$WORK/offered")" = hp-p400 ] || fail "--controller hp-<TAB> gave '$(cat "$WORK/offered")', not hp-p400"

# a site profile in a --profiles DIR given earlier on the line
mkdir "$WORK/site"
sed 's/"name": *"generic"/"name": "site-array"/' "$SRCDIR/planner/profiles/generic.json" \
	>"$WORK/site/site-array.json"
complete_line plan --profiles "$WORK/site" --controller s >"$WORK/offered"
checks=$((checks + 1))
grep -qxF site-array "$WORK/offered" || fail "a --profiles DIR's profile is not offered: $(cat "$WORK/offered")"

# values
complete_line plan --fs "" >"$WORK/offered"
checks=$((checks + 1))
[ "$(sort "$WORK/offered" | tr '\n' ' ')" = "ext3 ext4 xfs " ] || fail "--fs <TAB>: $(cat "$WORK/offered")"
complete_line apply --format "" >"$WORK/offered"
checks=$((checks + 1))
[ "$(sort "$WORK/offered" | tr '\n' ' ')" = "json text " ] || fail "apply --format <TAB>: $(cat "$WORK/offered")"
finish
