#!/bin/bash
# The Ansible module (stripeplan.storage.stripeplan) with Debian's
# ansible-core against localhost, on loop devices, every playbook with a
# scratch root: apply (changed), apply again (not changed), check mode on a
# blank device (reports changed, writes nothing), refusal of a device with a
# filesystem (fails with the message and rc 3), invalid input (rc 2);
# ansible-doc documents every option; the README's playbook passes
# --syntax-check; every option of plan, apply and check is a module option;
# ansible-lint's production profile passes on the collection root; and
# ansible-test sanity passes, all its tests but pslint (PowerShell), those
# that want pinned packages from PyPI with Debian's instead (below).
. "$SRCDIR/tests/device/lib.bash"

for tool in ansible-playbook ansible-doc; do
	command -v "$tool" >/dev/null || {
		fail "$tool is not installed (scripts/setup installs ansible-core)"
		device_finish
		exit 1
	}
done

# the module runs "stripeplan" from PATH, as on a host with the package
PATH="$(dirname "$STRIPEPLAN"):$PATH"
export ANSIBLE_COLLECTIONS_PATH="$SRCDIR/ansible" ANSIBLE_LOCAL_TEMP="$WORK/ansible-tmp"
export ANSIBLE_REMOTE_TEMP="$WORK/ansible-tmp" ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
# Ansible refuses to start in a non-UTF-8 locale (ctest pins LC_ALL=C)
export LC_ALL=C.UTF-8
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
MODULE=stripeplan.storage.stripeplan

# digest DEV: the offsets and bytes of every non-zero 64 KiB block of the
# image, read through its data extents only: the same verdict as hashing
# every byte of the sparse image, at a fraction of the cost
digest() {
	sync
	/usr/bin/python3 - "$(image_of "$1")" <<'PY'
import hashlib, os, sys
BLOCK = 1 << 16
ZERO = bytes(BLOCK)
h = hashlib.sha256()
fd = os.open(sys.argv[1], os.O_RDONLY)
# "done": every block below it is hashed, so that two extents sharing a
# block hash it once: the same bytes give the same digest whatever the
# host filesystem's extent map (small writes leave many small extents)
end, pos, done = os.fstat(fd).st_size, 0, 0
while pos < end:
    try:
        data = os.lseek(fd, pos, os.SEEK_DATA) // BLOCK * BLOCK
    except OSError:
        break
    hole = os.lseek(fd, data, os.SEEK_HOLE)
    for off in range(max(data, done), hole, BLOCK):
        block = os.pread(fd, BLOCK, off)
        if block != ZERO[:len(block)]:
            h.update(b'%d;' % off)
            h.update(block)
        done = off + BLOCK
    pos = max(hole, data + BLOCK)
print(h.hexdigest())
PY
}

# --- ansible-doc: every option of the argument spec is documented ---------------
src="$SRCDIR/ansible/ansible_collections/stripeplan/storage/plugins/modules/stripeplan.py"
expect_ok "ansible-doc" ansible-doc "$MODULE"
cp "$WORK/out" "$WORK/doc.txt"
for section in OPTIONS NOTES REQUIREMENTS EXAMPLES "RETURN VALUES"; do
	checks=$((checks + 1))
	grep -q "^$section" "$WORK/doc.txt" || fail "ansible-doc shows no $section section"
done
expect_ok "ansible-doc --json" ansible-doc --json "$MODULE"
checks=$((checks + 1))
/usr/bin/python3 - "$src" "$WORK/out" >"$WORK/doc-check" 2>&1 <<'PY' || fail "ansible-doc: $(cat "$WORK/doc-check")"
import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
spec = next(k.value for n in ast.walk(tree) if isinstance(n, ast.Call)
            for k in n.keywords if k.arg == 'argument_spec')
args = {k.arg for k in spec.keywords}
doc = json.load(open(sys.argv[2]))
doc = next(iter(doc.values()))
options = doc['doc']['options']
missing = sorted(args - set(options))
extra = sorted(set(options) - args)
bare = sorted(o for o, v in options.items() if not v.get('description') or not v.get('type'))
if missing or extra or bare or not doc.get('return') or not doc.get('examples'):
    sys.exit('undocumented %s, documented but not accepted %s, no description/type %s, '
             'return %s, examples %s' % (missing, extra, bare, bool(doc.get('return')),
                                          bool(doc.get('examples'))))
# check and diff mode declared as community.general declares them
attributes = doc['doc'].get('attributes') or {}
support = dict((a, (attributes.get(a) or {}).get('support')) for a in ('check_mode', 'diff_mode'))
if support != {'check_mode': 'full', 'diff_mode': 'full'}:
    sys.exit('attributes: %s' % support)
PY

# --- every option of plan, apply and check is a module option (or the module's own)
checks=$((checks + 1))
for cmd in plan apply check; do "$STRIPEPLAN" "$cmd" --help; done | grep -oE -- '--[a-z][a-z-]+' | sort -u >"$WORK/cli-options"
/usr/bin/python3 - "$src" "$WORK/cli-options" >"$WORK/options-check" 2>&1 <<'PY' || fail "module options: $(cat "$WORK/options-check")"
import ast, importlib.util, sys
spec = importlib.util.spec_from_file_location('stripeplan_module', sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
tree = ast.parse(open(sys.argv[1]).read())
argspec = next(k.value for n in ast.walk(tree) if isinstance(n, ast.Call)
               for k in n.keywords if k.arg == 'argument_spec')
args = {k.arg for k in argspec.keywords}
carried = dict((flag, opt) for opt, flag in module.PLAN_FLAGS)
cli = set(open(sys.argv[2]).read().split())
missing = sorted(cli - set(carried) - set(module.MODULE_OWNS))
stale = sorted(set(carried) - cli)
unknown = sorted(opt for opt in carried.values() if opt not in args)
if len(cli) < 20 or missing or stale or unknown:
    sys.exit('%d CLI options; no module option for %s; not a CLI option: %s; not in the argument spec: %s'
             % (len(cli), missing, stale, unknown))
PY

# --- the collection: ansible-lint's production profile on its root, and
# ansible-test sanity (all but pslint, which needs PowerShell)
coll="$SRCDIR/ansible/ansible_collections/stripeplan/storage"
checks=$((checks + 1))
if command -v ansible-lint >/dev/null; then
	# its cache (ansible-compat) under $WORK, not root's ~/.cache
	(cd "$coll" && XDG_CACHE_HOME="$WORK/cache" ansible-lint --offline --nocolor --profile production) \
		>"$WORK/lint" 2>&1 ||
		fail "ansible-lint --profile production on the collection root: $(cat "$WORK/lint")"
	grep -q 'Passed with production profile: 0 failure(s), 0 warning(s)' "$WORK/lint" ||
		fail "ansible-lint did not pass the production profile: $(tail -5 "$WORK/lint")"
else
	fail "ansible-lint is not installed (scripts/setup installs it)"
fi
mkdir -p "$WORK/sanity/ansible_collections/stripeplan" "$WORK/home"
cp -a "$coll" "$WORK/sanity/ansible_collections/stripeplan/"
pyver=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
# sanity ARGS...: ansible-test sanity on the copy, its virtualenvs under $WORK
sanity() {
	(cd "$WORK/sanity/ansible_collections/stripeplan/storage" &&
		HOME="$WORK/home" ansible-test sanity --color no --python "$pyver" \
			--python-interpreter /usr/bin/python3 "$@")
}
# These tests run in a virtualenv of their own into which ansible-test
# pip-installs pinned packages from PyPI, which CI cannot reach.  Each gets the
# virtualenv ansible-test asks for (it names it when its pip bootstrap fails),
# made over Debian's packages (pylint, pycodestyle, yamllint,
# python3-voluptuous, PyYAML, Jinja2: scripts/setup) and marked ready as
# ansible-test marks its own; the tests then run with Debian's versions.
for test in ansible-doc import pep8 pylint runtime-metadata validate-modules yamllint; do
	# (it fails here, as it cannot bootstrap pip)
	venv=$({ sanity --test "$test" 2>&1 || true; } | grep -o "$WORK/home/\.ansible/test/venv/[^\"]*/bin/python" | head -1 || true)
	venv=${venv%/bin/python}
	checks=$((checks + 1))
	if [ -z "$venv" ]; then
		fail "ansible-test sanity --test $test named no virtualenv to make"
		continue
	fi
	rm -rf "$venv"
	/usr/bin/python3 -m venv --system-site-packages --without-pip "$venv"
	echo '[]' >"$venv/meta.install.json"
	/usr/bin/python3 -c 'import json, yaml; print(json.dumps(yaml.__with_libyaml__))' >"$venv/meta.yaml.json"
	: >"$venv/marker.txt"
done
checks=$((checks + 1))
sanity --skip-test pslint >"$WORK/sanity.out" 2>&1 ||
	fail "ansible-test sanity: $(grep -v '^WARNING' "$WORK/sanity.out" | tail -20)"
for test in validate-modules pylint pep8 yamllint import ansible-doc compile shebang; do
	checks=$((checks + 1))
	grep -qx "Running sanity test \"$test\".*" "$WORK/sanity.out" || fail "ansible-test sanity did not run $test"
done
checks=$((checks + 1))
[ "$(grep -c '^Running sanity test' "$WORK/sanity.out")" -ge 30 ] ||
	fail "ansible-test sanity ran fewer than 30 tests: $(cat "$WORK/sanity.out")"

# --- the README's example playbook, cut out of the README ------------------------
awk '/^## Ansible/ { on = 1 } on && /^```yaml/ { grab = 1; next } grab && /^```/ { exit } grab' \
	"$SRCDIR/README.md" >"$WORK/readme-playbook.yml"
checks=$((checks + 1))
grep -q "$MODULE:" "$WORK/readme-playbook.yml" || fail "the README's Ansible section has no playbook using $MODULE"
expect_ok "README playbook --syntax-check" \
	ansible-playbook --syntax-check -i localhost, "$WORK/readme-playbook.yml"

# play FILE ARGS...: run a playbook on localhost (output in $WORK/play.out);
# each module task's registered result is in $WORK/result-N.json
play() {
	local rc=0 file=$1
	shift
	rm -f "$WORK"/result-*.json
	ansible-playbook -i localhost, -c local "$@" "$file" >"$WORK/play.out" 2>&1 || rc=$?
	return "$rc"
}

# result N EXPR: a Python expression over task N's result r
result() {
	/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"r": r}))' "$WORK/result-$1.json" "$2"
}

# expect TASK EXPR WANT WHAT
expect() {
	local got
	checks=$((checks + 1))
	got=$(result "$1" "$2" 2>&1) || got="(no such result: $got)"
	[ "$got" = "$3" ] || fail "$4: $2 is '$got', not '$3' ($(result "$1" 'r.get("msg")' 2>/dev/null))"
}

# task N NAME DEVICE ROOT [MORE YAML LINES]: task N applies the P400 layout;
# a second task saves its result (even in check mode)
task() {
	local n=$1
	shift
	cat <<EOF
    - name: $1
      register: result
      $MODULE:
        device: $2
        root: $3
        controller: hp-p400
        level: "10"
        disks: 8
        chunk: ${CHUNK:-256K}
        filesystem: xfs
        mountpoint: ${MOUNTPOINT:-/data}
EOF
	shift 3
	local line
	for line in "$@"; do printf '%s\n' "$line"; done
	cat <<EOF
    - name: save the result of task $n
      ansible.builtin.copy:
        content: "{{ result | to_json }}"
        dest: $WORK/result-$n.json
        mode: "0600"
      check_mode: false
EOF
}

new_root() {
	mkdir -p "$1/etc"
	printf '# existing line kept\n' >"$1/etc/fstab"
}

header() {
	printf -- '- hosts: localhost\n  gather_facts: false\n  tasks:\n'
}

# --- apply, then apply again ------------------------------------------------------
dev=$(sp_loop_create 1G) || exit 1
root="$WORK/root1"
new_root "$root"
{
	header
	task 0 "apply" "$dev" "$root"
} >"$WORK/apply.yml"
checks=$((checks + 1))
play "$WORK/apply.yml" --diff || fail "first apply failed: $(tail -20 "$WORK/play.out") $(result 0 'r.get("msg")')"
expect 0 'r["changed"]' True "first apply"
expect 0 'r["outcome"]' "done" "first apply"
expect 0 'r["rc"]' 0 "first apply"
expect 0 '[s["status"] for s in r["report"]["steps"]]' "['done', 'done', 'done', 'done']" "first apply"
expect 0 'r["plan"]["filesystem"]["xfs"]["sw"]' 4 "first apply's plan"
uuid=$(blkid -o value -s UUID "${dev}p1")
checks=$((checks + 1))
[ -n "$uuid" ] || fail "no filesystem on ${dev}p1 after the first apply"
expect 0 'r["fs_uuid"]' "$uuid" "first apply"
checks=$((checks + 1))
grep -q "^UUID=$uuid /data xfs " "$root/etc/fstab" || fail "no fstab line in the scratch root: $(cat "$root/etc/fstab")"
expect 0 '[d.get("after_header", "").split(": ")[-1] for d in r["diff"]]' \
	"['', 'partition table (applied)', 'filesystem (applied)', 'fstab (applied)', 'tuning (applied)']" "first apply's diff"
expect 0 'r["diff"][3]["before"]' "# existing line kept" "first apply's diff (fstab before)"
expect 0 '"\nUUID='"$uuid"' /data xfs " in r["diff"][3]["after"]' True "first apply's diff (fstab after)"
expect 0 'r["diff"][2]["after"].strip()' "${dev}p1: xfs UUID=$uuid" "first apply's diff (filesystem after)"
expect 0 '"/sys/block/'"$(basename "$dev")"'/queue/read_ahead_kb = 4096" in r["diff"][4]["after"]' True \
	"first apply's diff (tuning after)"
expect 0 '"label '"$dev"': none" in r["diff"][0]["prepared"]' True "first apply's diff (prepared)"

before=$(digest "$dev")
checks=$((checks + 1))
play "$WORK/apply.yml" --diff || fail "second apply failed: $(tail -20 "$WORK/play.out")"
expect 0 'r["changed"]' False "second apply"
expect 0 'r["outcome"]' unchanged "second apply"
expect 0 'all(d["before"] == d["after"] for d in r["diff"][1:])' True "second apply's diff"
expect 0 'r["diff"][0]["prepared"].endswith("destroyed nothing\n")' True "second apply's diff"
expect 0 'r["actions"]' "[]" "second apply"
unchanged "$dev" "$before" "second apply"
checks=$((checks + 1))
[ "$(grep -c '^UUID=' "$root/etc/fstab")" = 1 ] || fail "the second apply added an fstab line"

# --- check mode, refusal, invalid input: one playbook -----------------------------
blank=$(sp_loop_create 512M) || exit 1
used=$(sp_loop_create 512M) || exit 1
mkfs.ext4 -q "$used"
root2="$WORK/root2"
new_root "$root2"
cp "$root2/etc/fstab" "$WORK/fstab-before"
blank_before=$(digest "$blank")
used_before=$(digest "$used")
{
	header
	task 0 "check mode on a blank device" "$blank" "$root2" "      check_mode: true" "      diff: true"
	task 1 "apply on a device holding ext4" "$used" "$root2" "      ignore_errors: true"
	task 2 "check mode on a device holding ext4" "$used" "$root2" "      check_mode: true" \
		"      ignore_errors: true"
	CHUNK=128kB task 3 "an ambiguous chunk size" "$blank" "$root2" "      ignore_errors: true"
	task 4 "apply on ext4 with a root to make" "$used" "$WORK/root-refused/target" "      ignore_errors: true"
} >"$WORK/mixed.yml"
play "$WORK/mixed.yml" || true
checks=$((checks + 1))
[ -s "$WORK/result-4.json" ] || fail "the second playbook did not run to its end: $(tail -20 "$WORK/play.out")"

expect 0 'r["changed"]' True "check mode on a blank device"
expect 0 'r.get("failed", False)' False "check mode on a blank device"
expect 0 'r["check"]["outcome"]' drift "check mode on a blank device"
expect 0 'r["report"]["outcome"]' dry-run "check mode on a blank device"
expect 0 '"NEW-FILESYSTEM-UUID /data xfs" in r["diff"][3]["after"]' True "check mode's diff"
expect 0 '"would destroy" in r["diff"][0]["prepared"]' True "check mode's diff"
unchanged "$blank" "$blank_before" "check mode"
checks=$((checks + 1))
cmp -s "$root2/etc/fstab" "$WORK/fstab-before" || fail "check mode changed the scratch root's fstab"
checks=$((checks + 1))
{ [ ! -e "$root2/data" ] && [ ! -d "$root2/etc/udev" ]; } || fail "check mode wrote into the scratch root"

expect 1 'r["failed"]' True "apply on ext4"
expect 1 'r["rc"]' 3 "apply on ext4"
expect 1 '"\n" in r["msg"] or "plan" in r or "outcome" not in r["report"]' False "apply on ext4 (one line, the report)"
expect 1 'r["changed"]' False "apply on ext4"
expect 1 '"holds an ext4 filesystem" in r["msg"] and r["msg"].startswith("refused")' True "apply on ext4"
expect 2 'r["failed"]' True "check mode on ext4"
expect 2 'r["rc"]' 3 "check mode on ext4"
unchanged "$used" "$used_before" "the refused apply"
# a refusal writes nothing, not even the root that apply would have needed
expect 4 'r["rc"]' 3 "apply on ext4 with a root to make"
expect 4 '"holds an ext4 filesystem" in r["msg"] and "root_created" not in r' True "apply on ext4 with a root to make"
checks=$((checks + 1))
[ ! -e "$WORK/root-refused" ] || fail "a refused apply made its root: $(find "$WORK/root-refused")"

expect 3 'r["failed"]' True "ambiguous chunk"
expect 3 'r["rc"]' 2 "ambiguous chunk"
expect 3 '"chunk" in r["msg"]' True "ambiguous chunk"
unchanged "$blank" "$blank_before" "invalid input"

# --- check mode's actions are the real run's, scenario by scenario -----------------
# Each playbook runs the task in check mode with --diff, then for real; the
# actions must be equal (the new filesystem's UUID for @FS_UUID@), changed
# the same, and the diff's prepared header must name each destructive one.
same_actions() {
	local name=$1 before
	shift
	{
		header
		# module options first, then the task's keywords
		task 0 "$name, check mode" "$sc_dev" "$sc_root" "$@" "      check_mode: true" "      diff: true"
		task 1 "$name" "$sc_dev" "$sc_root" "$@" "      diff: true"
	} >"$WORK/scenario.yml"
	before=$(digest "$sc_dev")
	checks=$((checks + 1))
	# the check-mode task alone first: nothing written
	play "$WORK/scenario.yml" --check || fail "$name (check): $(tail -20 "$WORK/play.out")"
	unchanged "$sc_dev" "$before" "$name: check mode"
	checks=$((checks + 1))
	play "$WORK/scenario.yml" || fail "$name: $(tail -20 "$WORK/play.out") $(result 1 'r.get("msg")')"
	checks=$((checks + 1))
	/usr/bin/python3 - "$WORK/result-0.json" "$WORK/result-1.json" >"$WORK/cmp" 2>&1 <<'PY' ||
import json, re, sys
check, real = (json.load(open(f)) for f in sys.argv[1:])
uuid = real.get('fs_uuid') or ''


def run_name(v):
    # the run's own report is named for its time and process
    return re.sub(r'apply-[0-9]{8}T[0-9]{6}Z-([^/]+)-[0-9]+[.]json$', r'apply-TIME-\1-PID.json', v)


want = [{k: (run_name(v.replace('@FS_UUID@', uuid)) if isinstance(v, str) else v)
         for k, v in a.items()} for a in check['actions']]
got = [{k: (run_name(v) if isinstance(v, str) else v) for k, v in a.items()}
       for a in real['actions']]
if want != got:
    sys.exit('check mode: %s\nreal run:   %s' % (want, got))
if check['changed'] != real['changed'] or check['changed'] != bool(real['actions']):
    sys.exit('changed: check mode %s, real run %s' % (check['changed'], real['changed']))
head = check['diff'][0]['prepared']
for a in check['actions']:
    if a['destroys'] and ('%s %s: %s' % (a['action'], a['target'], a['before'])) not in head:
        sys.exit('the prepared header does not name %s: %s' % (a, head))
PY
		fail "$name: $(cat "$WORK/cmp")"
}

sc_dev=$(sp_loop_create 1G) || exit 1
sc_root="$WORK/root-sc"
new_root "$sc_root"
same_actions "blank"
expect 1 '[a["action"] for a in r["actions"] if a["destroys"]]' "['label', 'mkfs']" "blank"
CHUNK=128K same_actions "re-chunk with force" "        force: true"
expect 1 '[a["action"] for a in r["actions"] if a["destroys"]]' \
	"['wipe', 'wipe', 'wipe', 'label', 'wipe', 'mkfs', 'fstab-remove']" "re-chunk with force"
expect 0 '"xfs signature at offset 0" in r["diff"][0]["prepared"]' True "re-chunk with force"
CHUNK=128K MOUNTPOINT=/data2 same_actions "mount point change"
expect 1 'sorted(set(a["action"] for a in r["actions"]))' "['file', 'fstab-add', 'fstab-remove']" "mount point change"
expect 1 '[a["before"].split()[1] for a in r["actions"] if a["action"] == "fstab-remove" and a["before"].startswith("UUID=")]' "['/data']" "mount point change"
ra=/sys/block/${sc_dev#/dev/}/queue/read_ahead_kb
echo 128 >"$ra"
CHUNK=128K MOUNTPOINT=/data2 same_actions "tuning change"
expect 1 '[(a["step"], a["action"], a["before"]) for a in r["actions"]]' "[('tuning', 'knob', '128'), ('report', 'file', '')]" "tuning change"
CHUNK=128K MOUNTPOINT=/data2 same_actions "nothing to do"
expect 1 'r["actions"]' "[]" "nothing to do"
expect 0 'r["changed"]' False "nothing to do"

# --- workload: small-sync reaches the plan (XFS without a stripe unit) -----------
sync_dev=$(sp_loop_create 1G) || exit 1
root3="$WORK/root3"
new_root "$root3"
{
	header
	task 0 "apply small-sync" "$sync_dev" "$root3" "        workload: small-sync"
} >"$WORK/small-sync.yml"
checks=$((checks + 1))
play "$WORK/small-sync.yml" || fail "small-sync apply failed: $(tail -20 "$WORK/play.out") $(result 0 'r.get("msg")')"
expect 0 'r["outcome"]' "done" "small-sync apply"
expect 0 'r["plan"]["workload"]' "small-sync" "small-sync plan"
expect 0 'r["plan"]["filesystem"]["mkfs_argv"][3:5]' "['-d', 'noalign']" "small-sync mkfs"
expect 0 'r["plan"]["filesystem"]["xfs"]["su_bytes"]' 0 "small-sync plan"
checks=$((checks + 1))
[ "$(xfs_db -r -c 'sb 0' -c 'p unit' "${sync_dev}p1")" = "unit = 0" ] || fail "small-sync: a stripe unit on ${sync_dev}p1"
play "$WORK/small-sync.yml" || fail "small-sync second apply failed: $(tail -20 "$WORK/play.out")"
expect 0 'r["changed"]' False "small-sync second apply"

# --- the CLI's spellings and options, root made, mount ---------------------------
# level as the CLI takes it (raid10, and 10 unquoted without a conversion
# warning), tuning and memory_budget carried to the plan, a root that does not
# exist (check mode makes nothing; apply makes it), mount: true under that root
# (mount --fstab ROOT/etc/fstab --target-prefix ROOT), then nothing to do while
# it is mounted, in check mode and for real
mnt_dev=$(sp_loop_create 1G) || exit 1
root4="$WORK/root4/new/target"
# registered before the module mounts it: the trap unmounts it on every way out
echo "$root4/data" >>"$SP_LOOP_TMPDIR/.mounts"
mount_task() {
	cat <<EOF
    - name: $2
      register: result
      $MODULE:
        device: $mnt_dev
        root: $root4
        controller: hp-p400
        level: $3
        disks: 8
        chunk: 256K
        filesystem: xfs
        mountpoint: /data
        tuning: field-report
        memory_budget: 128M
        mount: true
    - name: save the result of task $1
      ansible.builtin.copy:
        content: "{{ result | to_json }}"
        dest: $WORK/result-$1.json
        mode: "0600"
      check_mode: false
EOF
}
{
	header
	mount_task 0 "mount, check mode" raid10 | sed 's/^      register: result/      check_mode: true\n      diff: true\n&/'
	mount_task 1 "mount" 10
	mount_task 2 "mount again" RAID10
	mount_task 3 "mount again, check mode" raid10 | sed 's/^      register: result/      check_mode: true\n&/'
} >"$WORK/mount.yml"
mnt_before=$(digest "$mnt_dev")
checks=$((checks + 1))
play "$WORK/mount.yml" --check || fail "mount (check mode): $(tail -20 "$WORK/play.out") $(result 0 'r.get("msg")')"
unchanged "$mnt_dev" "$mnt_before" "mount: check mode"
checks=$((checks + 1))
[ ! -e "$WORK/root4" ] || fail "check mode made the root: $(find "$WORK/root4")"
expect 0 'r["changed"]' True "mount, check mode"
expect 0 'r["root_created"]' True "mount, check mode"
expect 0 'r["mount"]' "{'path': '$root4/data', 'source': '${mnt_dev}p1', 'mounted': True}" "mount, check mode"
expect 0 'r["diff"][-1]["after"].strip()' "${mnt_dev}p1 on $root4/data" "mount, check mode's diff"
expect 0 '[a["target"] for a in r["actions"] if a["action"] == "file"][0].startswith("'"$root4"'/")' True \
	"mount, check mode: the actions name the root that will be made"
checks=$((checks + 1))
play "$WORK/mount.yml" || fail "mount: $(tail -20 "$WORK/play.out") $(result 1 'r.get("msg")')"
checks=$((checks + 1))
! grep -q 'in a string field was converted' "$WORK/play.out" || fail "level: 10 was converted with a warning"
expect 1 'r["outcome"]' "done" "mount"
expect 1 'r["plan"]["array"]["level"]' raid10 "mount: level 10"
expect 1 'r["plan"]["tuning_recipe"]' field-report "mount: tuning"
expect 1 'r["plan"]["memory_budget_bytes"]' $((128 << 20)) "mount: memory_budget"
expect 1 'r["mount"]["mounted"]' True "mount"
expect 1 'r["msg"].endswith("; mounted on '"$root4"'/data")' True "mount"
expect 1 '"daemon_reload" in r' False "mount under a scratch root"
checks=$((checks + 1))
[ "$(findmnt -n -o SOURCE --mountpoint "$root4/data")" = "${mnt_dev}p1" ] ||
	fail "${mnt_dev}p1 is not mounted on $root4/data: $(findmnt -n --mountpoint "$root4/data")"
checks=$((checks + 1))
[ "$(stat -c %a "$root4")" = 755 ] || fail "the root was made with mode $(stat -c %a "$root4")"
expect 2 'r["changed"]' False "mount again"
expect 2 'r["outcome"]' unchanged "mount again"
expect 2 'r["mount"]["mounted"]' False "mount again"
expect 2 'r["plan"]["array"]["level"]' raid10 "mount again: level RAID10"
expect 3 'r["changed"]' False "mount again, check mode"
expect 3 'r["actions"]' "[]" "mount again, check mode"
checks=$((checks + 1))
[ "$(findmnt -n -o SOURCE --mountpoint "$root4/data" | wc -l)" = 1 ] || fail "mounted twice: $(findmnt -n --mountpoint "$root4/data")"
# the same target root elsewhere, its /data a link out of it: check --strict
# finds no directory there, so the module runs apply, which refuses the
# mounted device; nothing is mounted through the link (the module's own
# check before mount(8), inside_root, is a second line behind these)
root6="$WORK/root6"
mkdir -p "$root6" "$WORK/elsewhere"
cp -a "$root4/etc" "$root4/usr" "$root6/"
ln -s "$WORK/elsewhere" "$root6/data"
echo "$WORK/elsewhere" >>"$SP_LOOP_TMPDIR/.mounts"
{
	header
	mount_task 4 "mount through a link out of the root" raid10 |
		sed "s|^        root: .*|        root: $root6|; s/^      register: result/      ignore_errors: true\n&/"
} >"$WORK/mount-link.yml"
play "$WORK/mount-link.yml" || true
expect 4 'r["failed"]' True "mount through a link"
expect 4 'r["rc"]' 3 "mount through a link"
expect 4 '"is mounted on" in r["msg"]' True "mount through a link"
checks=$((checks + 1))
! findmnt --mountpoint "$WORK/elsewhere" >/dev/null || fail "the module mounted through a link out of the root"
# the same target root where something else is mounted on /data: the device
# matches (left alone), and the module does not mount over what is there
root7="$WORK/root7"
mkdir -p "$root7/data" "$WORK/other"
cp -a "$root4/etc" "$root4/usr" "$root7/"
sp_loop_mount "$WORK/other" "$root7/data" bind
{
	header
	mount_task 5 "mount where something else is mounted" raid10 |
		sed "s|^        root: .*|        root: $root7|; s/^      register: result/      ignore_errors: true\n&/"
} >"$WORK/mount-other.yml"
play "$WORK/mount-other.yml" || true
expect 5 'r["failed"]' True "mount over another filesystem"
expect 5 'r["rc"]' 3 "mount over another filesystem"
expect 5 '"has another filesystem mounted" in r["msg"]' True "mount over another filesystem"
expect 5 'r["report"]["outcome"]' match "mount over another filesystem: check's report"
checks=$((checks + 1))
[ "$(findmnt -n --mountpoint "$root7/data" | wc -l)" = 1 ] || fail "mounted over the other filesystem: $(findmnt -n --mountpoint "$root7/data")"
umount "$root7/data" || fail "cannot unmount $root7/data"
umount "$root4/data" || fail "cannot unmount $root4/data"

device_finish
