#!/bin/bash
# Fault injection: each case asserts the exit code, the message, and that
# nothing was lost (the device's bytes, or a converged re-run).
. "$SRCDIR/tests/device/lib.bash"

P400=(--controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --kernel 6.1)

# --- the device disappears between plan and apply --------------------------
dev=$(sp_loop_create 1G) || exit 1
expect_ok "plan" sp plan "${P400[@]}" --device "$dev" --format json -o "$WORK/plan.json"
img=$(image_of "$dev")
before=$(sha256sum "$img" | cut -d' ' -f1)
losetup -d "$dev"
expect_rc 3 "'$dev' has no medium \(0 bytes: detached, ejected or removed\); the plan was made for 1073741824 bytes" \
	sp apply --plan "$WORK/plan.json" --device "$dev"
checks=$((checks + 1))
[ "$(sha256sum "$img" | cut -d' ' -f1)" = "$before" ] || fail "the detached image was written"
losetup --partscan "$dev" "$img" # so the fixture detaches it as usual

# --- another process holds the device exclusively during apply -------------
dev2=$(sp_loop_create 1G) || exit 1
"$HOLD_EXCL" "$dev2" >"$WORK/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$WORK/held" && break; sleep 0.1; done
before=$(digest "$dev2")
expect_rc 3 "cannot open '$dev2' exclusively: Device or resource busy; another program is using it" \
	sp apply "${P400[@]}" --device "$dev2" --force
kill "$holder"
wait "$holder" 2>/dev/null || true
unchanged "$dev2" "$before" "refusal of an exclusively held device"

# --- killed between steps: a re-run converges without redoing the first ----
expect_rc 4 "stopped after step 'partition'" \
	env STRIPEPLAN_TEST_STOP_AFTER=partition "$STRIPEPLAN" apply "${P400[@]}" --device "$dev2" \
	--root "$SP_TEST_ROOT"
checks=$((checks + 1))
[ -z "$(blkid -o value -s TYPE "${dev2}p1" 2>/dev/null)" ] || fail "a filesystem appeared although the run stopped"
expect_ok "re-run after the stop" sp apply "${P400[@]}" --device "$dev2"
expect_out '^\[1/[0-9]\] partition .*already matches'
expect_out '^\[2/[0-9]\] filesystem .*done, verified'
expect_ok "check after convergence" sp check --strict "${P400[@]}" --device "$dev2"

# --- mkfs fails: exit 4 and mkfs's own words; the state is reported --------
dev3=$(sp_loop_create 1G) || exit 1
expect_ok "plan" sp plan "${P400[@]}" --device "$dev3" --format json -o "$WORK/plan3.json"
mkdir -p "$WORK/bin"
printf '#!/bin/sh\necho "mkfs.xfs: pwrite failed: No space left on device" >&2\nexit 1\n' \
	>"$WORK/bin/mkfs.xfs"
chmod +x "$WORK/bin/mkfs.xfs"
expect_rc 4 "mkfs.xfs failed \(exit 1\) on '${dev3}p1': mkfs.xfs: pwrite failed: No space left" \
	env PATH="$WORK/bin:$PATH" "$STRIPEPLAN" apply --plan "$WORK/plan3.json" --device "$dev3" \
	--root "$SP_TEST_ROOT"
expect_out 'state left behind on '"$dev3"
expect_out '^  partition +done'
expect_out '^  filesystem +failed'
checks=$((checks + 1))
[ -z "$(blkid -o value -s TYPE "$dev3" 2>/dev/null)" ] || fail "the whole disk got a filesystem"

# --- a plan file whose mkfs points elsewhere is refused as input -----------
sed "/\"mkfs_argv\"/,/]/ s|\"${dev3}p1\"|\"/dev/vda\"|" "$WORK/plan3.json" >"$WORK/evil.json"
checks=$((checks + 1))
grep -q '"/dev/vda"' "$WORK/evil.json" || fail "the test could not make its evil plan"
expect_rc 2 "mkfs_argv must run mkfs.xfs on '${dev3}p1'" sp apply --plan "$WORK/evil.json" --device "$dev3"

device_finish
