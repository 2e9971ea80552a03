#!/bin/bash
# The Debian package: built with the README's dpkg-buildpackage command from a
# scratch copy of the source (the tree itself stays clean), its unit and cli
# tests running as dh_auto_test runs them, clean under lintian, installed onto
# this machine with dpkg (dependencies resolved for real), run — plan, man,
# the bash completion — then purged, leaving nothing behind; the second
# package, stripeplan-installer, holds the installer binary (below).
# Root: dpkg installs into / (CI runs as root).
. "$SRCDIR/tests/cli/lib.bash"
# shellcheck source=installer-root.bash
. "$SRCDIR/tests/device/installer-root.bash"

# the package is built from source with its own flags, whichever build's
# suite runs this test (CI: the sanitizer build's, the one device tests run in)
[ "$(id -u)" = 0 ] || {
	echo "FAIL: the package test installs with dpkg: run it as root; not skipping" >&2
	exit 1
}
# someone's own installation is theirs: never replace or purge it
if dpkg-query -W -f='${Status}' stripeplan 2>/dev/null | grep -qv 'not-installed'; then
	echo "FAIL: a stripeplan package is already installed here; not touching it" >&2
	exit 1
fi
if [ -e /etc/stripeplan ] || [ -e /usr/sbin/stripeplan ]; then
	echo "FAIL: /etc/stripeplan or /usr/sbin/stripeplan exists outside any package; not touching it" >&2
	exit 1
fi
installed=0
cleanup() {
	[ "$installed" = 0 ] || dpkg --purge stripeplan >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT

version=$(sed -n 's/^project(stripeplan VERSION \([0-9.]*\).*/\1/p' "$SRCDIR/CMakeLists.txt")
checks=$((checks + 1))
head -1 "$SRCDIR/debian/changelog" | grep -qF "stripeplan ($version)" ||
	fail "debian/changelog's version is not the project's $version: $(head -1 "$SRCDIR/debian/changelog")"

# the source as git would export it, plus files not yet committed (not the ignored builds)
src="$WORK/stripeplan-$version"
mkdir -p "$src"
git -C "$SRCDIR" ls-files -z --cached --others --exclude-standard |
	(cd "$SRCDIR" && tar --null -T - -cf -) | tar -x -C "$src"
# exactly the README's command (its tests run: no DEB_BUILD_OPTIONS from the caller)
readme_build=$(sed -n 's/^\(dpkg-buildpackage [^&]*\) && sudo dpkg -i .*/\1/p' "$SRCDIR/README.md")
checks=$((checks + 1))
[ "$readme_build" = "dpkg-buildpackage -us -uc -b" ] ||
	fail "the README's Install section does not build with 'dpkg-buildpackage -us -uc -b': '$readme_build'"
checks=$((checks + 1))
start=$(date +%s)
(cd "$src" && env -u DEB_BUILD_OPTIONS -u DEB_BUILD_PROFILES dpkg-buildpackage -us -uc -b) \
	>"$WORK/build.log" 2>&1 || fail "dpkg-buildpackage failed: $(tail -20 "$WORK/build.log")"
echo "dpkg-buildpackage: $(($(date +%s) - start)) s"

# dh_auto_test ran exactly the unit and cli tests but valgrind's and the mkfs
# sweep's (debian/rules selects them without a '$', which its second make
# would expand), all passing
ctest_names() {
	sed -n 's/^ *Test *#[0-9]*: \([^ ]*\).*/\1/p' | sort -u
}
(cd "$BUILDDIR" && ctest -N -L '^(unit|cli)$' -E 'valgrind|mkfs-sweep') | ctest_names >"$WORK/tests-wanted"
grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$WORK/build.log" |
	sed 's|^ *[0-9]*/[0-9]* ||' | ctest_names >"$WORK/tests-run"
checks=$((checks + 1))
[ "$(wc -l <"$WORK/tests-wanted")" -gt 30 ] ||
	fail "ctest -N lists only $(wc -l <"$WORK/tests-wanted") unit and cli tests in $BUILDDIR"
checks=$((checks + 1))
diff -u "$WORK/tests-wanted" "$WORK/tests-run" >&2 ||
	fail "the package build ran other tests than the unit and cli ones (diff above)"
checks=$((checks + 1))
grep -qE "^100% tests passed, 0 tests failed out of $(wc -l <"$WORK/tests-wanted")\$" "$WORK/build.log" ||
	fail "the package build's tests did not all pass: $(grep -E 'tests passed|tests failed' "$WORK/build.log")"
arch=$(dpkg --print-architecture)
deb="$WORK/stripeplan_${version}_${arch}.deb"
checks=$((checks + 1))
[ -f "$deb" ] || {
	fail "no $(basename "$deb") was built: $(ls "$WORK")"
	finish
	exit 1
}

# lintian: no error and no warning (info and pedantic notes are printed)
lintian --allow-root --info --pedantic "$WORK/stripeplan_${version}_${arch}.changes" >"$WORK/lintian" 2>&1 || true
cat "$WORK/lintian"
checks=$((checks + 1))
! grep -qE '^[EW]: ' "$WORK/lintian" || fail "lintian reports errors or warnings: $(grep -E '^[EW]: ' "$WORK/lintian")"

dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' | grep -v '^$' >"$WORK/contents"
for f in /usr/sbin/stripeplan /usr/share/man/man8/stripeplan.8.gz /etc/stripeplan/controllers.d/README \
	/usr/share/bash-completion/completions/stripeplan /usr/share/doc/stripeplan/copyright; do
	checks=$((checks + 1))
	grep -qxF "$f" "$WORK/contents" || fail "the package does not ship $f"
done

# the second package: the installer binary, off PATH, loading only what the
# installer images carry, starting no process and making nothing in a chroot
# that holds only it and those libraries (tests/device/installer-binary.sh
# tests the README's build of it at length)
ideb="$WORK/stripeplan-installer_${version}_${arch}.deb"
ibin=/usr/lib/stripeplan-installer/stripeplan
checks=$((checks + 1))
if [ -f "$ideb" ]; then
	dpkg-deb -c "$ideb" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' | grep -v '^$' >"$WORK/icontents"
	for f in "$ibin" /usr/share/doc/stripeplan-installer/copyright; do
		checks=$((checks + 1))
		grep -qxF "$f" "$WORK/icontents" || fail "stripeplan-installer does not ship $f"
	done
	checks=$((checks + 1))
	! grep -E '^/usr/s?bin/' "$WORK/icontents" || fail "stripeplan-installer puts a binary on PATH"
	dpkg-deb -x "$ideb" "$WORK/installer"
	checks=$((checks + 1))
	[ "$(uname -m)" != x86_64 ] || diff -u <(echo "$INSTALLER_LIBS") <(installer_libs "$WORK/installer$ibin") >&2 ||
		fail "the packaged installer binary loads other libraries than the installer images carry"
	bare_root "$WORK/bare" "$WORK/installer$ibin"
	(cd "$WORK/bare" && find . | sort) >"$WORK/bare-before"
	for args in "--version" "plan --controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs --device /dev/sdb --size 2398G --format kickstart"; do
		checks=$((checks + 1))
		# shellcheck disable=SC2086 # the words of one command line
		strace -f -qq -e trace=execve,clone,clone3,fork,vfork -o "$WORK/trace" \
			/usr/bin/env -i PATH=/usr/sbin:/sbin:/bin LC_ALL=C /usr/sbin/chroot "$WORK/bare" /usr/sbin/stripeplan $args \
			>"$WORK/out" 2>&1 || fail "the packaged installer binary: '$args' failed: $(cat "$WORK/out")"
		checks=$((checks + 1))
		processes_started "$WORK/trace" /usr/bin/env /usr/sbin/chroot /usr/sbin/stripeplan >"$WORK/started"
		[ ! -s "$WORK/started" ] || fail "the packaged installer binary: '$args' started processes: $(cat "$WORK/started")"
	done
	checks=$((checks + 1))
	diff -u "$WORK/bare-before" <(cd "$WORK/bare" && find . | sort) >&2 ||
		fail "the packaged installer binary made files in its chroot (above)"
else
	fail "no $(basename "$ideb") was built: $(ls "$WORK")"
fi

checks=$((checks + 1))
if dpkg -i "$deb" >"$WORK/out" 2>&1; then
	installed=1
else
	installed=1
	fail "dpkg -i failed: $(cat "$WORK/out")"
fi

checks=$((checks + 1))
/usr/sbin/stripeplan plan --controller hp-p400 --level 10 --disks 8 --chunk 256K --fs xfs \
	--device /dev/sdb --size 2398G --mountpoint /data >"$WORK/out" 2>"$WORK/err" ||
	fail "the installed stripeplan cannot plan: $(cat "$WORK/err")"
checks=$((checks + 1))
grep -q 'su=256k,sw=4' "$WORK/out" || fail "the installed stripeplan's plan lacks su=256k,sw=4: $(head "$WORK/out")"
checks=$((checks + 1))
MANWIDTH=80 man stripeplan 2>"$WORK/err" | grep 'controllers.d' >/dev/null ||
	fail "'man stripeplan' does not show the installed page: $(cat "$WORK/err")"
checks=$((checks + 1))
bash -c '. /usr/share/bash-completion/completions/stripeplan && complete -p stripeplan' 2>&1 |
	grep -q '_stripeplan' || fail "the installed bash completion does not register for stripeplan"

checks=$((checks + 1))
dpkg --purge stripeplan >"$WORK/out" 2>&1 || fail "dpkg --purge failed: $(cat "$WORK/out")"
installed=0
checks=$((checks + 1))
! dpkg-query -W -f='${Status}' stripeplan 2>/dev/null | grep -q 'installed' ||
	fail "dpkg still knows stripeplan after the purge"
while read -r f; do
	# directories shared with other packages stay, of course
	[ -d "$f" ] && ! [[ $f == */stripeplan* ]] && continue
	checks=$((checks + 1))
	[ ! -e "$f" ] || fail "$f is left after the purge"
done <"$WORK/contents"
checks=$((checks + 1))
[ ! -e /etc/stripeplan ] || fail "/etc/stripeplan is left after the purge"
finish
