# shellcheck shell=bash
# Device tests: the CLI helpers plus loop devices that are always
# detached, failures included (fixtures/loop.sh owns the EXIT trap).
# shellcheck source=../cli/lib.bash
. "$SRCDIR/tests/cli/lib.bash"
# shellcheck source=../../fixtures/loop.sh
. "$FIXTURES/loop.sh"

rm -rf "$WORK"
sp_require_root
sp_loop_init
WORK="$SP_LOOP_TMPDIR/work"
mkdir -p "$WORK"

# Every apply and check in a test writes its files (fstab, udev rule, tune
# script) into a scratch target root, never the machine's own /etc.
SP_TEST_ROOT="$SP_LOOP_TMPDIR/root"
mkdir -p "$SP_TEST_ROOT/etc"
sp() {
	local arg
	case "${1:-}" in
	apply | check)
		for arg in "$@"; do
			[ "$arg" != --root ] || {
				"$STRIPEPLAN" "$@"
				return
			}
		done
		"$STRIPEPLAN" "$@" --root "$SP_TEST_ROOT"
		;;
	*) "$STRIPEPLAN" "$@" ;;
	esac
}

# image_of DEV: the sparse file behind a loop device we created
image_of() {
	awk -v d="$1" '$1 == d { print $2 }' "$SP_LOOP_TMPDIR/.devices"
}

# digest DEV: what is on the device, byte for byte (its image's data
# extents and their bytes: tests/device/image-digest.c)
digest() {
	sync
	"$IMAGE_DIGEST" "$(image_of "$1")"
}

# unchanged DEV BEFORE WHAT: the device still holds exactly BEFORE
unchanged() {
	checks=$((checks + 1))
	[ "$(digest "$1")" = "$2" ] || fail "$3: the device's bytes changed"
}

# expect_ok NAME CMD...: CMD exits 0
expect_ok() {
	local name=$1 rc=0
	shift
	checks=$((checks + 1))
	"$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	[ "$rc" = 0 ] || fail "$name: '$*' exited $rc: $(cat "$WORK/err") $(tail -5 "$WORK/out")"
}

# expect_out PATTERN: the last command's stdout matches
expect_out() {
	checks=$((checks + 1))
	grep -qE -- "$1" "$WORK/out" || fail "stdout does not match /$1/: $(cat "$WORK/out")"
}

# expect_rc CODE PATTERN CMD...: exit CODE and stderr matching PATTERN
expect_rc() {
	local code=$1 pattern=$2 rc=0
	shift 2
	checks=$((checks + 1))
	"$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	if [ "$rc" != "$code" ]; then
		fail "'$*' exited $rc, expected $code: $(cat "$WORK/err") $(tail -5 "$WORK/out")"
	elif ! grep -qE -- "$pattern" "$WORK/err" "$WORK/out"; then
		fail "'$*' output does not match /$pattern/: $(cat "$WORK/err") $(cat "$WORK/out")"
	fi
}

# kernel_start PARTNODE: where the kernel thinks the partition starts (512-byte units)
kernel_start() {
	cat "/sys/class/block/$(basename "$1")/start"
}

device_finish() {
	local ours="$SP_LOOP_TMPDIR/" left
	checks=$((checks + 1))
	sp_loop_cleanup
	# none of our images is still attached (other sessions attach and
	# detach their own meanwhile: the whole list is theirs to change)
	left=$(losetup --list --noheadings --output NAME,BACK-FILE |
		awk -v d="$ours" 'index($2, d) == 1')
	[ -z "$left" ] || fail "loop devices of this test are still attached: $left"
	finish
}

# state DEV: everything a refusal must leave alone, as text: the whole
# sparse image's digest, the label as sfdisk reads it, and every path
# under the scratch root with its type, mode and content digest.
state() {
	digest "$1"
	sfdisk -d "$1" 2>&1 | grep -v '^device:' || true
	(cd "$SP_TEST_ROOT" && find . -printf '%p %y %m %s\n' | sort &&
		find . -type f -exec sha256sum {} + | sort)
}

# expect_untouched CODE DEV PATTERN CMD...: exit CODE with PATTERN, and DEV
# and the scratch root exactly as before
expect_untouched() {
	local code=$1 dev=$2 pattern=$3 before
	shift 3
	before=$(state "$dev")
	expect_rc "$code" "$pattern" "$@"
	checks=$((checks + 1))
	[ "$(state "$dev")" = "$before" ] || fail "'$*' exited $code but changed $dev or the root:
$(diff <(echo "$before") <(state "$dev"))"
}

# expect_refused DEV PATTERN CMD...: refused for safety (exit 3), nothing changed
expect_refused() {
	expect_untouched 3 "$@"
}
