#!/bin/bash
# Recognition (issue 25 item 2): without --controller, the profile is the
# one the kernel's facts decide (here from facts files, whose "controller"
# and md "metadata" the probe fills from sysfs: unit/test-recognise), and
# the plan says which facts decided; none decided is the generic profile
# with a warning naming what was seen; a --controller the facts contradict
# is refused naming both.  The rows are data: a site's profile is
# recognised the same way.
. "$(dirname "$0")/lib.bash"

sp() { "$STRIPEPLAN" "$@"; }
R="$SRCDIR/tests/cli/recognise"
h755=(--facts "$R/perc-h755-lun.json" --level 5 --disks 4 --chunk 256K --fs xfs --mountpoint /data --kernel 6.12.0)

golden recognised-perc-h755.txt "$STRIPEPLAN" plan "${h755[@]}"
golden recognised-imsm.txt "$STRIPEPLAN" plan --facts "$R/imsm-raid5.json" --fs xfs --kernel 6.12.0
# the HPE MR416i-p Gen10+: the Aero chip the H755 and the 9560 share, on
# HPE's board 1590:0293 (as the card reports itself through iLO's Redfish);
# no INQUIRY (none was found captured): the board and the driver decide
golden recognised-hpe-mr416i-p.txt "$STRIPEPLAN" plan --facts "$R/hpe-mr416i-p-lun.json" --level 10 \
	--disks 4 --chunk 256K --fs xfs --kernel 6.12.0

checks=$((checks + 1))
sp plan "${h755[@]}" --format json | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert p["array"]["controller"] == "dell-perc-h755", p["array"]["controller"]
assert p["array"]["recognised_by"] == [
    "PCI 1000:10e2 subsystem 1028:1ae1, PERC H755 Front",
    "INQUIRY vendor '"'"'DELL'"'"' model '"'"'PERC H755 Front'"'"'",
    "SCSI host proc_name '"'"'megaraid_sas'"'"'"], p["array"]["recognised_by"]
' || fail "the JSON plan does not carry recognised_by"

# declared and agreeing, or generic: taken, and the plan says nothing of recognition
checks=$((checks + 1))
if ! sp plan "${h755[@]}" --controller dell-perc-h755 --format json >"$WORK/declared.json" ||
	grep -q recognised_by "$WORK/declared.json"; then
	fail "a declared controller carries recognised_by"
fi
checks=$((checks + 1))
if ! sp plan "${h755[@]}" --controller generic >"$WORK/generic.txt" ||
	grep -q 'recognised by' "$WORK/generic.txt"; then
	fail "--controller generic on a recognised LUN is not taken as declared"
fi

# contradicted: refused before anything, naming both and the facts
expect_exit 2 "^stripeplan: controller: --controller dell-perc-h730p, but what the kernel says of /dev/sdb is the dell-perc-h755 profile's \(PCI 1000:10e2 subsystem 1028:1ae1, PERC H755 Front; INQUIRY vendor 'DELL' model 'PERC H755 Front'; SCSI host proc_name 'megaraid_sas'\); give --controller dell-perc-h755" \
	sp plan "${h755[@]}" --controller dell-perc-h730p
expect_exit 2 "^stripeplan: controller: --controller md, but what the kernel says of /dev/md126 is the intel-vroc profile's \(md superblock format 'external:imsm'\)" \
	sp plan --facts "$R/imsm-raid5.json" --fs xfs --kernel 6.12.0 --controller md

# nothing decided: generic, and the warning names what was seen and who it could be
sed 's/"1ae1"/"1ae9"/; s/PERC H755 Front/PERC H999/' "$R/perc-h755-lun.json" >"$WORK/unknown.json"
checks=$((checks + 1))
sp plan --facts "$WORK/unknown.json" --level 5 --disks 4 --chunk 256K --fs xfs --kernel 6.12.0 >"$WORK/unknown.txt" ||
	fail "an unknown board is not planned"
grep -q '^stripeplan: generic raid5' "$WORK/unknown.txt" || fail "an unknown board is not planned with generic"
checks=$((checks + 1))
grep -qF "[controller-not-recognised] no controller profile recognises /dev/sdb (SCSI host proc_name 'megaraid_sas', INQUIRY vendor 'DELL' model 'PERC H999' revision '5.16', PCI 1000:10e2 subsystem 1028:1ae9); it could be broadcom-mr9560, dell-perc-h755, hpe-mr416i, which the kernel's facts do not tell apart: planned with the generic profile" "$WORK/unknown.txt" ||
	fail "the warning does not name what was seen: $(grep controller-not "$WORK/unknown.txt")"
# the chip of one profile on a board it does not list (QEMU's megasas-gen2:
# the H700's SAS2108 on LSI's 9260-8i board): one profile not ruled out,
# which the facts do not decide
sed 's/"10e2"/"0079"/; s/"1028"/"1000"/; s/"1ae1"/"9261"/; s/"DELL"/"QEMU"/; s/PERC H755 Front/QEMU HARDDISK/' \
	"$R/perc-h755-lun.json" >"$WORK/gen2.json"
checks=$((checks + 1))
sp plan --facts "$WORK/gen2.json" --level 5 --disks 4 --chunk 64K --fs xfs --kernel 6.12.0 >"$WORK/gen2.txt" ||
	fail "a 2108 on LSI's board is not planned"
checks=$((checks + 1))
grep -qF "PCI 1000:0079 subsystem 1000:9261); it could be dell-perc-h700, which the kernel's facts do not decide: planned with the generic profile" "$WORK/gen2.txt" ||
	fail "one profile not ruled out is not named as such: $(grep controller-not "$WORK/gen2.txt")"
# a disk with no controller at all (a facts file without one: a loop device)
checks=$((checks + 1))
if ! sp plan --facts "$SRCDIR/fixtures/facts/4kn.json" --level 5 --disks 4 --chunk 64K --fs xfs \
	--kernel 6.12.0 >"$WORK/loop.txt" ||
	! grep -qF "(no controller: no SCSI host, INQUIRY, PCI function or md array)" "$WORK/loop.txt"; then
	fail "a device without a controller is not said so: $(grep controller "$WORK/loop.txt")"
fi

# a disk the H755 passes through (JBOD, on megaraid_sas's physical-disk
# channels 0-1): no profile, as it is no array; a declared one is refused
sed 's/"pci_subdevice": "1ae1"/"pci_subdevice": "1ae1",\n\t\t"scsi_address": "0:0:5:0"/' "$R/perc-h755-lun.json" >"$WORK/jbod.json"
checks=$((checks + 1))
sp plan --facts "$WORK/jbod.json" --level 0 --disks 2 --chunk 64K --fs xfs --kernel 6.12.0 >"$WORK/jbod.txt" ||
	fail "a JBOD disk is not planned"
checks=$((checks + 1))
grep -qF "[controller-not-recognised] no controller profile recognises /dev/sdb (SCSI host proc_name 'megaraid_sas', INQUIRY vendor 'DELL' model 'PERC H755 Front' revision '5.16', PCI 1000:10e2 subsystem 1028:1ae1, SCSI address 0:0:5:0: a physical disk megaraid_sas passes through (JBOD)" "$WORK/jbod.txt" ||
	fail "a JBOD disk is not said so: $(grep controller "$WORK/jbod.txt")"
expect_exit 2 "^stripeplan: controller: --controller dell-perc-h755, but /dev/sdb is no logical drive of it \(.*SCSI address 0:0:5:0: a physical disk megaraid_sas passes through \(JBOD\).*\): a disk the controller passes through is no array; give --controller generic" \
	sp plan --facts "$WORK/jbod.json" --level 0 --disks 2 --chunk 64K --fs xfs --kernel 6.12.0 --controller dell-perc-h755
# with no geometry given, the level asked for names the disk as passed
# through, not as an LD exporting nothing
expect_exit 2 "^stripeplan: level: required: /dev/sdb is a disk megaraid_sas passes through \(JBOD, SCSI address 0:0:5:0\), no logical drive: one disk, with no array geometry to read" \
	sp plan --facts "$WORK/jbod.json" --fs xfs --kernel 6.12.0
sed 's/"pci_subdevice": "1ae1"/"pci_subdevice": "1ae1",\n\t\t"scsi_address": "0:2:0:0"/' "$R/perc-h755-lun.json" >"$WORK/ld.json"
checks=$((checks + 1))
if ! sp plan --facts "$WORK/ld.json" --level 5 --disks 4 --chunk 256K --fs xfs --kernel 6.12.0 >"$WORK/ld.txt" ||
	! grep -q '^stripeplan: dell-perc-h755 raid5' "$WORK/ld.txt"; then
	fail "a logical drive on channel 2 is not the H755's"
fi
expect_exit 2 "controller.scsi_address must be host:channel:target:lun in decimal" \
	sp plan --facts "$(sed 's/0:2:0:0/x:0/' "$WORK/ld.json" >"$WORK/badaddr.json"; echo "$WORK/badaddr.json")" --level 5 --disks 4 --chunk 256K --fs xfs --kernel 6.12.0

# a facts file's INQUIRY strings are printable ASCII, as the kernel's are
sed 's/"PERC H755 Front"/"PERC\\u001b[2J"/' "$R/perc-h755-lun.json" >"$WORK/escape.json"
expect_exit 2 "controller.model holds a byte that is not printable ASCII \(0x1b\)" \
	sp plan --facts "$WORK/escape.json" --level 5 --disks 4 --chunk 256K --fs xfs --kernel 6.12.0

# offline: nothing to recognise from
expect_exit 2 "^stripeplan: controller: required for an offline plan \(--size\): there is no device to recognise the controller from" \
	sp plan --level 5 --disks 4 --chunk 64K --fs xfs --device /dev/sdb --size 1T --kernel 6.12.0

# a site's profile teaches stripeplan its own card, by data alone
mkdir "$WORK/site"
python3 - "$SRCDIR/planner/profiles/generic.json" "$WORK/site/acme.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["name"] = "acme-raid"
p["recognition"] = {"proc_name": ["megaraid_sas"],
                    "pci": [{"vendor": "1000", "device": "10e2", "subvendor": "1028", "subdevice": "1ae9", "name": "ACME 9"}],
                    "source": "the site's own inventory"}
json.dump(p, open(sys.argv[2], "w"))
PY
checks=$((checks + 1))
if ! sp plan --profiles "$WORK/site" --facts "$WORK/unknown.json" --level 5 --disks 4 --chunk 256K \
	--fs xfs --kernel 6.12.0 >"$WORK/acme.txt" ||
	! head -2 "$WORK/acme.txt" | grep -F "  recognised by  PCI 1000:10e2 subsystem 1028:1ae9, ACME 9" >/dev/null; then
	fail "a site's recognition rows do not recognise its card: $(head -3 "$WORK/acme.txt")"
fi

# rows are read as strictly as the rest of a profile
python3 - "$WORK/site/acme.json" "$WORK/bad" <<'PY'
import json, os, sys
p = json.load(open(sys.argv[1]))
for name, rec in (("case", {"pci": [{"vendor": "10E2", "device": "0001"}], "source": "x"}),
                  ("sub", {"pci": [{"vendor": "1000", "device": "0001", "subvendor": "1028"}], "source": "x"}),
                  ("none", {"source": "x"}),
                  ("nosource", {"proc_name": ["megaraid_sas"]})):
    os.makedirs(os.path.join(sys.argv[2], name))
    p["recognition"] = rec
    json.dump(p, open(os.path.join(sys.argv[2], name, "p.json"), "w"))
PY
expect_exit 2 "recognition.pci\[0\].vendor must be four lowercase hex digits" sp controllers --profiles "$WORK/bad/case"
expect_exit 2 "recognition.pci\[0\].subvendor: subvendor and subdevice go together" sp controllers --profiles "$WORK/bad/sub"
expect_exit 2 "recognition: names nothing to recognise" sp controllers --profiles "$WORK/bad/none"
expect_exit 2 "recognition.source.* is missing" sp controllers --profiles "$WORK/bad/nosource"
finish
