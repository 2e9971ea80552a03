#!/bin/bash
# The fleet audit: the README's playbook (stripeplan.storage.stripeplan_scan,
# then the hosts with a costly finding) with Debian's ansible-core against
# two inventory hosts on localhost -- "misaligned" scans a loop device with
# an msdos partition at sector 63 and a blank one, "aligned" one that apply
# laid out -- lists "misaligned" only; each host's fact is its scan; check
# mode is the same scan; bad input fails the task (rc 2); no image changed.
. "$SRCDIR/tests/device/lib.bash"

if grep -q __asan_init "$STRIPEPLAN"; then
	echo "ansible-scan: run in the normal build's suite; the module adds nothing for ASan to see"
	device_finish
	exit
fi
command -v ansible-playbook >/dev/null || {
	fail "ansible-playbook is not installed (scripts/setup installs ansible-core)"
	device_finish
	exit 1
}
PATH="$(dirname "$STRIPEPLAN"):$PATH"
export ANSIBLE_COLLECTIONS_PATH="$SRCDIR/ansible" ANSIBLE_LOCAL_TEMP="$WORK/ansible-tmp"
export ANSIBLE_REMOTE_TEMP="$WORK/ansible-tmp" ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export LC_ALL=C.UTF-8 ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0

# every option of 'stripeplan scan' is a module option (--device is devices;
# --format json and --help are the module's own)
src="$SRCDIR/ansible/ansible_collections/stripeplan/storage/plugins/modules/stripeplan_scan.py"
for opt in $("$STRIPEPLAN" scan --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	case $opt in --help | --format) continue ;; --device) name=devices ;; *) name=${opt#--} ;; esac
	checks=$((checks + 1))
	grep -q "^            ${name//-/_}=dict(" "$src" || fail "scan's $opt is no option of stripeplan_scan"
done
expect_ok "ansible-doc" ansible-doc stripeplan.storage.stripeplan_scan

aligned=$(sp_loop_create 1G) || exit 1
d63=$(sp_loop_create 1G) || exit 1
blank=$(sp_loop_create 1G) || exit 1
expect_ok "apply" sp apply --controller generic --level 5 --disks 4 --chunk 64K --kernel 6.1 \
	--fs xfs --device "$aligned"
parted -s "$d63" mklabel msdos mkpart primary 63s 100% 2>/dev/null || fail "parted"
for _ in $(seq 50); do [ -e "${d63}p1" ] && break; sleep 0.1; done
mkfs.xfs -q -f -d su=64k,sw=3 "${d63}p1" || fail "mkfs.xfs"
before_aligned=$(digest "$aligned")
before_d63=$(digest "$d63")
before_blank=$(digest "$blank")

awk '/^### Fleet audit/ { on = 1 } on && /^```yaml/ { grab = 1; next } grab && /^```/ { exit } grab' \
	"$SRCDIR/README.md" >"$WORK/audit.yml"
checks=$((checks + 1))
grep -q 'stripeplan.storage.stripeplan_scan:' "$WORK/audit.yml" || fail "no fleet audit playbook in the README"

cat >"$WORK/hosts.yml" <<EOF2
storage:
  hosts:
    misaligned:
      scan_devices: [$d63, $blank]
    aligned:
      scan_devices: [$aligned]
  vars:
    ansible_connection: local
    ansible_become: false
    scan_level: 5
    scan_disks: 4
    scan_chunk: 64K
    scan_root: $SP_TEST_ROOT
EOF2

# audit ARGS...: the playbook, its results as the minimal callback prints
# them ("HOST | SUCCESS => {json}") in $WORK/audit.out
audit() {
	local rc=0
	ANSIBLE_STDOUT_CALLBACK=minimal ansible-playbook -i "$WORK/hosts.yml" "$@" "$WORK/audit.yml" \
		>"$WORK/audit.out" 2>"$WORK/audit.err" || rc=$?
	return "$rc"
}

# play EXPR: a Python expression is true over the last audit's results:
# scan[HOST] the scan task's, listed the hosts the last task printed
play() {
	checks=$((checks + 1))
	/usr/bin/python3 - "$WORK/audit.out" "$1" <<'PY' || fail "not true: $1: $(head -c 3000 "$WORK/audit.out")"
import json, re, sys
text = open(sys.argv[1]).read()
head = re.compile(r'^(\S+) \| [A-Z!]+(?: \| rc=-?\d+)? => ', re.M)
scan, listed = {}, None
for m in head.finditer(text):
    r, _ = json.JSONDecoder().raw_decode(text, m.end())
    if "ansible_facts" in r or "rc" in r or "exit_code" in r:
        scan[m.group(1)] = r
    elif isinstance(r.get("msg"), list):
        listed = r["msg"]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

checks=$((checks + 1))
audit || fail "the audit playbook failed: $(tail -5 "$WORK/audit.err") $(head -c 2000 "$WORK/audit.out")"
# the hosts with a costly finding: the misaligned one only
play 'listed == ["misaligned"]'
play 'scan["misaligned"]["exit_code"] == 1 and scan["aligned"]["exit_code"] == 0'
play 'scan["misaligned"]["costly"] == ["'"$d63"'"] and scan["aligned"]["costly"] == []'
play 'not scan["misaligned"]["changed"] and not scan["aligned"]["changed"]'
# the facts are the scan, row by row
play '[r["device"] for r in scan["misaligned"]["ansible_facts"]["stripeplan_scan"]["devices"]] == ["'"$d63"'", "'"$blank"'"]'
play 'scan["misaligned"]["ansible_facts"]["stripeplan_scan"]["devices"][0]["worst_code"] == "start-misaligned"'
play 'scan["misaligned"]["ansible_facts"]["stripeplan_scan"]["devices"][1]["candidate"] is True'
play 'scan["aligned"]["ansible_facts"]["stripeplan_scan"]["devices"][0]["costly"] == 0'
play 'scan["aligned"]["ansible_facts"]["stripeplan_scan_costly"] == []'

# check mode: the same scan, the same list
checks=$((checks + 1))
audit --check || fail "the audit playbook failed in check mode: $(tail -5 "$WORK/audit.err")"
play 'listed == ["misaligned"]'
play 'scan["misaligned"]["ansible_facts"]["stripeplan_scan"]["devices"][0]["costly"] == 1'

# bad input fails the task with stripeplan's message and rc 2
sed -i "s|    aligned:|    aligned:\n      scan_level: 7|" "$WORK/hosts.yml"
audit && fail "a level 7 did not fail"
play 'scan["aligned"]["rc"] == 2 and "ansible_facts" not in scan["aligned"]'
play 'scan["aligned"]["msg"].startswith("level: unknown RAID level \x277\x27")'
play 'listed == ["misaligned"]'

unchanged "$aligned" "$before_aligned" "the audit"
unchanged "$d63" "$before_d63" "the audit"
unchanged "$blank" "$before_blank" "the audit"
device_finish
