#!/bin/bash
# The other CLI tests again, with the binary under valgrind memcheck: no
# invalid read or write, no use of uninitialised memory, no definitely
# lost block, on every path they take (plans, artifacts, every refusal).
# A memcheck error makes the binary exit 99, which fails the test that
# ran it, and leaves its report in a log that is printed here.
# libparted's own start-up noise is suppressed (tests/sanitizers/valgrind.supp).
# Skipped in the AddressSanitizer build: the two cannot share a process.
# shellcheck source-path=SCRIPTDIR source=lib.bash
. "$(dirname "$0")/lib.bash"

here=$(cd "$(dirname "$0")" && pwd)
if grep -q __asan_init "$STRIPEPLAN"; then
	echo "valgrind: skipped, $STRIPEPLAN is built with AddressSanitizer"
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	echo "valgrind: not installed (scripts/setup installs it)" >&2
	exit 1
fi

mkdir "$WORK/logs" "$WORK/runs"
# The log is opened here, on descriptor 9, not by valgrind (--log-file):
# valgrind would open it on the lowest free number, which is standard
# output when a test closes it (output.sh: '>&-'), and stripeplan's report
# would go into the log instead of finding standard output closed.
cat >"$WORK/stripeplan" <<WRAPPER
#!/bin/sh
exec 9>"\${VG_LOGS:?}/\$\$.log"
exec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \\
	--errors-for-leak-kinds=definite --suppressions="$SRCDIR/tests/sanitizers/valgrind.supp" \\
	--log-fd=9 "$STRIPEPLAN" "\$@"
WRAPPER
chmod +x "$WORK/stripeplan"

# run_under_valgrind SCRIPT: the script with the binary under valgrind; its
# output and exit status in runs/NAME.out and .rc, its runs' logs in logs/NAME
run_under_valgrind() {
	local name rc=0
	name=$(basename "$1" .sh)
	mkdir "$WORK/logs/$name"
	VG_LOGS="$WORK/logs/$name" STRIPEPLAN="$WORK/stripeplan" bash "$1" \
		>"$WORK/runs/$name.out" 2>&1 || rc=$?
	echo "$rc" >"$WORK/runs/$name.rc"
}

# as many scripts at a time as there are cores: memcheck runs one thread,
# and this test ends the unit and cli stage alone (380 s one at a time)
scripts=()
for script in "$here"/*.sh; do
	[ "$script" != "$here/valgrind.sh" ] || continue
	grep -q STRIPEPLAN "$script" || continue # never runs the binary
	# ~300 plans down the paths seed-plans and bad-input take: ten minutes
	# under memcheck for nothing new
	[ "$script" != "$here/mkfs-sweep.sh" ] || continue
	# plans of 1920 members: a minute under memcheck for paths the
	# sanitizer build's run of it and unit/test-plan's 1920 members cover
	[ "$script" != "$here/md-many-members.sh" ] || continue
	# a golden plan per controller profile: the paths seed-plans takes, with
	# other profiles' data (their refusals are bad-input's and limits.sh's)
	[ "$script" != "$here/controller-plans.sh" ] || continue
	scripts+=("$script")
done
at_once=$(nproc 2>/dev/null || echo 1)
for script in "${scripts[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n || true; done
	run_under_valgrind "$script" &
done
wait
for script in "${scripts[@]}"; do
	name=$(basename "$script" .sh)
	checks=$((checks + 1))
	if [ "$(cat "$WORK/runs/$name.rc" 2>/dev/null || echo none)" != 0 ]; then
		cat "$WORK/runs/$name.out" >&2
		fail "$name.sh fails with the binary under valgrind"
	fi
	echo "$name.sh: $(find "$WORK/logs/$name" -name '*.log' | wc -l) runs under valgrind"
done

checks=$((checks + 1))
total=$(find "$WORK/logs" -name '*.log' | wc -l)
[ "$total" -gt 0 ] || fail "the wrapper never ran the binary"
for log in "$WORK"/logs/*/*.log; do
	if [ -s "$log" ]; then
		cat "$log" >&2
		fail "memcheck errors (above) in $(basename "$(dirname "$log")").sh, run $(basename "$log" .log)"
	fi
done
finish
