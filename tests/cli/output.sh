#!/bin/bash
# Standard output and error as daemons, pipes and full disks leave them,
# for the commands that touch no device (apply and check: device/output):
# a lost output is exit 4 with one line saying what was done; a closed
# descriptor is /dev/null; lines standard error cannot take go to standard
# output.
. "$(dirname "$0")/lib.bash"

sp() { timeout 20 "$STRIPEPLAN" "$@"; }
base=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --device /dev/sdb
	--size 2T --kernel 6.1.0)

to_full() { "$@" >/dev/full; }
err_full() { "$@" 2>/dev/full; }
closed_out() { "$@" >&-; }
# in_closed_pipe CMD...: standard output a pipe whose reader is gone, and
# SIGPIPE at its default, as a shell gives it
in_closed_pipe() {
	python3 -c '
import os, signal, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
strict_json() {
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"
}

# --- every command: a lost output is exit 4 and says what was done ----------
expect_exit 4 "^stripeplan: cannot write the plan to standard output: No space left on device; the plan was made; nothing was touched \(exit 0\)$" \
	to_full sp plan "${base[@]}"
expect_exit 4 "cannot write the plan to standard output: No space left on device" \
	to_full sp plan "${base[@]}" --format json
expect_exit 4 "^stripeplan: cannot write the controller list to standard output: No space left on device; the profiles were read; nothing was touched \(exit 0\)$" \
	to_full sp controllers
expect_exit 4 "^stripeplan: cannot write the help text to standard output: No space left on device; nothing was done \(exit 0\)$" \
	to_full sp --help
expect_exit 4 "cannot write the help text to standard output" to_full sp plan --help
expect_exit 4 "^stripeplan: cannot write the version to standard output: No space left on device; nothing was done \(exit 0\)$" \
	to_full sp --version
for cmd in "plan ${base[*]}" "plan ${base[*]} --format kickstart" controllers --help --version; do
	# shellcheck disable=SC2086 # one word per argument
	expect_exit 4 "cannot write .* to standard output: Broken pipe; " in_closed_pipe "$STRIPEPLAN" $cmd
done
# an error is told, not lost, when standard output is full as well
expect_exit 2 "mountpoint: '/' is the root filesystem" to_full sp plan "${base[@]}" --mountpoint /
# -o FILE does not use standard output: nothing to lose there
checks=$((checks + 1))
to_full sp plan "${base[@]}" --format json -o "$WORK/plan.json" || fail "plan -o with stdout full failed"

# --- a closed descriptor is /dev/null: nothing printed, nothing lost --------
for cmd in "plan ${base[*]}" controllers --version; do
	checks=$((checks + 1))
	# shellcheck disable=SC2086
	closed_out sp $cmd 2>"$WORK/err" || fail "'$cmd >&-' exited $?: $(cat "$WORK/err")"
	checks=$((checks + 1))
	[ ! -s "$WORK/err" ] || fail "'$cmd >&-' said: $(cat "$WORK/err")"
done
checks=$((checks + 1))
sp plan "${base[@]}" --format json -o "$WORK/closed.json" >&- 2>&- <&- || fail "plan -o with 0, 1 and 2 closed"
checks=$((checks + 1))
strict_json "$WORK/closed.json" || fail "plan -o with 0, 1 and 2 closed wrote: $(head -3 "$WORK/closed.json")"

# --- standard error full: its lines go to standard output -------------------
rc=0
err_full sp plan "${base[@]}" --mountpoint / >"$WORK/out" || rc=$?
checks=$((checks + 1))
[ "$rc" = 2 ] || fail "plan --mountpoint / 2>/dev/full exited $rc"
checks=$((checks + 1))
if ! grep -qx "stripeplan: mountpoint: '/' is the root filesystem, not a data array" "$WORK/out" ||
	! grep -qx "stripeplan: (the lines above could not be written to standard error: No space left on device)" "$WORK/out"; then
	fail "the lost lines are not on standard output: $(cat "$WORK/out")"
fi
rc=0
err_full sp plan --bogus >"$WORK/out" || rc=$?
checks=$((checks + 1))
if [ "$rc" != 2 ] || ! grep -q "unknown option '--bogus'" "$WORK/out"; then
	fail "usage error with 2>/dev/full: $rc $(cat "$WORK/out")"
fi

finish
