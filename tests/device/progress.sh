#!/bin/bash
# Long steps show progress on a terminal only: under script(1) (a pty) the
# step's line appears when it starts and its elapsed time is rewritten in
# place while mkfs runs (a mkfs.xfs that takes 3 s); into a pipe, and in
# JSON even on a terminal, not one byte of it.
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --kernel 6.1 --fs xfs --mountpoint /data)
SYSTEM_DIRS=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
fake="$WORK/fake"
mkdir -p "$fake"
# the real mkfs.xfs, 3 s late (its dry run, -N, on time)
cat >"$fake/mkfs.xfs" <<'EOF'
#!/bin/sh
case " $* " in *" -N "*) ;; *) sleep 3 ;; esac
exec /sbin/mkfs.xfs "$@"
EOF
chmod +x "$fake/mkfs.xfs"
export STRIPEPLAN_TEST_PROGRAM_DIRS="$fake:$SYSTEM_DIRS"

# on_tty FILE ARGS...: stripeplan ARGS on a pseudo-terminal, what it wrote in FILE
on_tty() {
	local file=$1 cmd
	shift
	printf -v cmd '%q ' "$STRIPEPLAN" "$@"
	script -qfec "$cmd" "$file.raw" >/dev/null
	# without script's own header and trailer lines
	tail -n +2 "$file.raw" | grep -av '^Script done' >"$file"
}

dev=$(sp_loop_create 1G) || exit 1

# --- a terminal: the running line, its seconds, then the step's own line ----
checks=$((checks + 1))
on_tty "$WORK/tty" apply "${P400[@]}" --chunk 256K --device "$dev" --root "$SP_TEST_ROOT" ||
	fail "apply on a terminal failed: $(cat "$WORK/tty")"
for want in '\r\[1/4\] partition    running, 0 s\x1b\[K' \
	'\r\[3/4\] filesystem   running, 2 s\x1b\[K\r\[3/4\] filesystem   running, 3 s\x1b\[K' \
	'\r\x1b\[K\[3/4\] filesystem  xfs su=256k sw=4 log su=4k, UUID [0-9a-f-]+  3\.[0-9]{2} s  done, verified'; do
	checks=$((checks + 1))
	grep -qaP "$want" "$WORK/tty" || fail "no /$want/ on the terminal: $(cat -A "$WORK/tty")"
done
checks=$((checks + 1))
grep -qa 'apply .*: done: the device now matches the plan' "$WORK/tty" || fail "no outcome: $(cat -A "$WORK/tty")"

# --- a pipe: the same run prints no progress at all --------------------------
expect_ok "apply into a pipe" sp apply "${P400[@]}" --chunk 128K --force --device "$dev"
checks=$((checks + 1))
! grep -qaP '\r|running, |\x1b' "$WORK/out" || fail "progress into a pipe: $(cat -A "$WORK/out")"
expect_out '^\[3/4\] filesystem +xfs su=128k.* done, verified$'

# --- JSON on a terminal: JSON only --------------------------------------------
checks=$((checks + 1))
on_tty "$WORK/json" apply "${P400[@]}" --chunk 256K --force --device "$dev" --root "$SP_TEST_ROOT" \
	--format json || fail "apply --format json on a terminal failed: $(cat "$WORK/json")"
checks=$((checks + 1))
! grep -qaP 'running, |\x1b' "$WORK/json" || fail "progress in JSON: $(cat -A "$WORK/json")"
checks=$((checks + 1))
tr -d '\r' <"$WORK/json" | jq -e '.outcome == "done"' >/dev/null || fail "not JSON: $(cat -A "$WORK/json")"

# --- TERM=dumb: a terminal that cannot rewrite a line gets none ---------------
checks=$((checks + 1))
TERM=dumb on_tty "$WORK/dumb" apply "${P400[@]}" --chunk 128K --force --device "$dev" \
	--root "$SP_TEST_ROOT" || fail "apply with TERM=dumb failed: $(cat "$WORK/dumb")"
checks=$((checks + 1))
! grep -qa 'running, ' "$WORK/dumb" || fail "progress with TERM=dumb: $(cat -A "$WORK/dumb")"

device_finish
