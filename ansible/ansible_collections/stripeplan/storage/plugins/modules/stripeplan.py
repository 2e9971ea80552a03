#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt),
# so it may also be used under the GNU General Public License version 3, as Ansible is.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: stripeplan
short_description: Stripe-aligned partition, filesystem, fstab line and queue tuning for a RAID array
version_added: "0.1.0"
description:
  - Runs the C(stripeplan) tool installed on the managed host (the C(stripeplan) Debian package, or
    C(cmake --install)) to plan the array's layout, then apply it to I(device) - one stripe-aligned
    partition, an XFS or ext3/ext4 filesystem with the array's geometry, the fstab line under I(root)
    (with I(mountpoint)), live block-queue tuning and a udev rule plus script that restore it at boot.
  - The plan is computed on the host by probing I(device) read-only (C(stripeplan plan --format json)),
    or read from a reviewed plan file (I(plan)); C(stripeplan apply --plan) then executes exactly that
    plan and verifies every step by reading the disk and the kernel back.
  - A device that already matches the plan is left alone, so re-runs report C(changed=false).
  - C(stripeplan) refuses, and this module fails without writing anything, when the device is mounted,
    used as swap, held by md, LVM or device-mapper, opened exclusively, read-only, not the device the
    plan was made for, or holds a partition table or filesystem signature (unless I(force)).
  - In check mode the module runs C(stripeplan check) (does the device match the plan?) and
    C(stripeplan apply --dry-run) (what apply would do, or why it would refuse) and writes nothing;
    C(changed) says whether apply would change something.
  - The actions apply takes, or in check mode would take, are returned in I(actions), in order, each with
    what it destroys; they come from C(stripeplan apply) itself (C(--dry-run) in check mode), so check
    mode lists exactly what the real run then does.
  - With I(mount), the filesystem is then mounted as the fstab line under I(root) says, as
    M(ansible.posix.mount) with C(state=mounted) would mount it, under I(root) (C(mount --fstab ROOT/etc/fstab
    --target-prefix ROOT)); where I(root) is C(/) and systemd runs, C(systemctl daemon-reload) first makes
    systemd read the changed fstab.
  - A filesystem that is mounted and matches the plan (C(stripeplan check --strict)) is left alone, so a
    re-run after the mount reports C(changed=false); C(stripeplan apply) refuses a mounted device that
    would change.
  - With C(--diff) the module shows, before and after, the partition table, the filesystem, the fstab
    under I(root) and the tuning (in check mode, after is what apply would leave), under a header that
    names every destructive action (signatures wiped, the label replaced, mkfs over a filesystem, fstab
    lines removed).
author:
  - stripeplan developers (!UNKNOWN)
requirements:
  - the C(stripeplan) binary on the managed host (package C(stripeplan)), run as root
  - C(mkfs.xfs) (xfsprogs) or C(mke2fs) (e2fsprogs) for the filesystem
notes:
  - Exit codes of C(stripeplan) become module results. 0 is success. With 2 (invalid input),
    3 (refused for safety, nothing written) and 4 (a step failed; I(report) names the step and what
    was left behind) the module fails with I(msg), one line, and I(rc); the tool's report is in I(report).
  - Every option of C(stripeplan plan) and C(stripeplan apply) is a module option, spelled as the tool
    spells it (C(--memory-budget) is I(memory_budget)) and checked by the tool, except C(--format) and
    C(--output) (the module reads JSON and returns it), C(--dry-run) (check mode) and C(--strict) (check
    mode runs C(check --strict)).
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
attributes:
  check_mode:
    support: full
    details: Runs C(stripeplan check --strict) and C(stripeplan apply --dry-run); writes nothing, not even I(root).
  diff_mode:
    support: full
    details: Before and after of the partition table, filesystem, fstab, tuning and (with I(mount)) the mount.
  platform:
    platforms: posix
options:
  device:
    description: The whole disk or array block device to write, for example C(/dev/sdb) or C(/dev/md3).
    type: path
    required: true
  controller:
    description:
      - The controller profile, one of C(stripeplan controllers) (built in, or a site profile in
        C(/etc/stripeplan/controllers.d) or I(profiles)).
      - Required unless I(plan) is given, as is I(filesystem).
    type: str
  level:
    description:
      - RAID level, as C(stripeplan --level) takes it - C(0), C(1), C(4) (md), C(5), C(6), C(10), C(50),
        C(60), with or without C(raid) before it (C(raid10), C(RAID10)); a number needs no quotes.
      - With I(disks), I(chunk), I(layout) and I(members), required unless the device is a running
        md array, which tells its own; given for one, each is checked against the kernel.
    type: raw
  disks:
    description: Disks in the array, parity and mirrors included.
    type: int
  chunk:
    description: Per-disk chunk (stripe element) size, binary units, for example C(64K), C(256K), C(1M).
    type: str
  spans:
    description: RAID50/60 only, the number of RAID5/6 sets striped together.
    type: int
  layout:
    description: md RAID10 only, the layout (default n2, or what the running array has).
    type: str
    choices: [n2, n3, f2, f3, o2, o3]
  members:
    description: md only, the member disks whose queues are tuned (C(sdb) or C(/dev/sdb)).
    type: list
    elements: str
  controller_report:
    description:
      - The controller's own report of the drive, a file on the managed host
        (C(stripeplan --controller-report)), saved from C(storcli64 /cX/vY show all J) (C(perccli64)
        alike) or C(ssacli ctrl slot=N ld N show detail).
      - It gives the level, disks, spans and strip; the plan refuses I(level), I(disks), I(spans) or
        I(chunk) that contradict it.
    type: path
    version_added: "1.1.0"
  filesystem:
    description: The filesystem to make.
    type: str
    choices: [xfs, ext3, ext4]
    aliases: [fs]
  mountpoint:
    description: Where the filesystem mounts. Without it no fstab line is written.
    type: path
  label:
    description: Filesystem label.
    type: str
  table:
    description:
      - Partition table type (msdos only below 2^32 sectors; C(dos) and C(mbr) mean msdos), or C(none) for
        the filesystem on the whole device, the default for the C(md) profile; other profiles default to C(gpt).
    type: str
    choices: [gpt, msdos, dos, mbr, none]
  size:
    description:
      - Plan offline for a device of this size (C(stripeplan --size), binary units, for example C(2398G))
        instead of probing I(device); apply then refuses a device that is not this size.
    type: str
    version_added: "1.0.0"
  sector_size:
    description: With I(size), the device's logical sector size.
    type: int
    choices: [512, 4096]
    version_added: "1.0.0"
  facts:
    description: Device facts from this JSON file on the managed host instead of a probe (C(stripeplan --facts)).
    type: path
    version_added: "1.0.0"
  stack:
    description:
      - Layers between the partition (or the whole md device) and the filesystem, bottom up
        (C(stripeplan --stack)), one of C([luks]), C([lvm]), C([luks, lvm]) (LVM on LUKS2) or
        C([lvm, luks]), each starting on a full stripe; C([none]) or unset for none. Planned and shown in check mode;
        apply refuses a plan with layers until stripeplan makes them.
    type: list
    elements: str
    choices: [luks, lvm, none]
    version_added: "1.1.0"
  vg:
    description: With an C(lvm) layer, the volume group (default C(vg_DEVICE)).
    type: str
    version_added: "1.1.0"
  lv:
    description: With an C(lvm) layer, the logical volume (default C(data)).
    type: str
    version_added: "1.1.0"
  luks_name:
    description: With a C(luks) layer, the dm-crypt mapping's name (default C(PARTITION_crypt)).
    type: str
    version_added: "1.1.0"
  tuning:
    description:
      - The tuning recipe (C(stripeplan --tuning)) - C(default), what holds on current kernels and disks, or
        C(field-report), the seed report's whole recipe.
    type: str
    choices: [default, field-report]
    version_added: "1.0.0"
  memory_budget:
    description: RAM an md array's stripe cache may hold (C(stripeplan --memory-budget), for example C(256M)).
    type: str
    version_added: "1.0.0"
  barriers:
    description:
      - C(false) turns write barriers off, which C(stripeplan) allows only for a profile with a
        battery- or flash-backed write cache, on a kernel that accepts it; C(true) keeps them on,
        as the tool does when neither is given.
    type: bool
  workload:
    description:
      - What the filesystem will mostly do (C(stripeplan --workload)); it decides XFS's log buffers
        and, for C(small-sync) and C(metadata), its stripe unit.
      - C(general), the default, keeps the kernel's 8 x 32 KiB; C(metadata) (many small files made and
        removed without fsync) sets C(logbufs=8,logbsize=256k) and, as C(small-sync), makes XFS without a
        stripe unit.
      - C(small-sync) (many small files, each fsynced, as in mail spools, maildirs, queues) makes XFS without
        a stripe unit (C(-d noalign), no C(swalloc)), so each fsync's log write is padded to the sector;
        stripe-sized writes are no longer kept on full stripes. ext3/ext4 are planned as for C(general).
    type: str
    choices: [general, metadata, small-sync]
  kernel:
    description: Plan for this kernel release instead of the running one.
    type: str
  profiles:
    description: Read site controller profiles from this directory instead of C(/etc/stripeplan/controllers.d).
    type: path
  plan:
    description:
      - A reviewed plan file (from C(stripeplan plan --format json)) on the managed host, applied exactly.
      - Mutually exclusive with the array options.
    type: path
  root:
    description:
      - The target root that receives the fstab line, the udev rule and the tuning script
        (C(/etc/fstab), C(/etc/udev/rules.d), C(/usr/local/sbin) under it).
      - Created (mode 0755, with its parents) when missing, once C(stripeplan apply --dry-run) against an
        empty stand-in says it would not refuse (a refusal writes nothing); in check mode nothing is
        created and the module plans as for an empty root.
    type: path
    default: /
  mount:
    description:
      - Mount the filesystem at I(mountpoint) under I(root), as the fstab line there says, creating the
        directory when missing. Needs a mount point (I(mountpoint), or the plan's).
      - Something else mounted there fails the task.
    type: bool
    default: false
    version_added: "1.0.0"
  key_file:
    description:
      - The key of the plan's LUKS2 layer (I(stack) with C(luks)), a file on the managed host that only
        its owner may read (C(stripeplan apply --key-file)); never the key itself, which would be in
        the task's arguments and logs.
      - Needed to format or open the LUKS2 volume; refused for a plan without one.
    type: path
    version_added: "1.1.0"
  force:
    description:
      - Replace partition tables and filesystems found on I(device), and accept a system directory
        (C(/usr), C(/var), ...) as I(mountpoint) (C(stripeplan --force)). Mounted or held devices are refused even so.
    type: bool
    default: false
  executable:
    description: The C(stripeplan) binary to run; by default the one found in the host's C(PATH) and C(/usr/sbin).
    type: path
'''

EXAMPLES = r'''
- name: Lay out the RAID10 LUN of an HP Smart Array P400 and mount it at /data
  stripeplan.storage.stripeplan:
    device: /dev/sdb
    controller: hp-p400
    level: "10"
    disks: 8
    chunk: 256K
    filesystem: xfs
    mountpoint: /data

- name: A running Linux md array (level, disks, chunk and members come from the kernel; XFS on /dev/md3 itself)
  stripeplan.storage.stripeplan:
    device: /dev/md3
    controller: md
    filesystem: xfs
    mountpoint: /srv

- name: RAID 10 of a Dell PERC 6/i, named by WWN, with the field report's tuning, mounted at /srv/db
  stripeplan.storage.stripeplan:
    device: /dev/disk/by-id/wwn-0x6d0946602b1a7d00
    controller: dell-perc6i
    level: raid10
    disks: 4
    chunk: 64K
    filesystem: xfs
    mountpoint: /srv/db
    tuning: field-report
    mount: true

- name: Apply a plan someone reviewed
  stripeplan.storage.stripeplan:
    device: /dev/sdb
    plan: /root/sdb-plan.json
'''

RETURN = r'''
changed:
  description: Whether apply changed something (in check mode, whether it would).
  returned: always
  type: bool
rc:
  description: Exit code of the last C(stripeplan) run (0, or 2, 3, 4 on failure; 0 or 1 from check).
  returned: always
  type: int
  sample: 0
msg:
  description: What happened, or why it failed (C(stripeplan)'s own message for exit codes 2, 3 and 4), on one line.
  returned: always
  type: str
  sample: "refused - '/dev/sdb' holds an ext4 filesystem (UUID ...); stripeplan will not overwrite it without --force"
outcome:
  description: C(stripeplan)'s outcome, one of C(done), C(unchanged), C(refused), C(failed); in check mode C(match) or C(drift).
  returned: when stripeplan ran past planning
  type: str
  sample: done
plan:
  description: The plan as C(stripeplan plan --format json) prints it (array, device, partition, filesystem, mount, tuning, warnings).
  returned: when planning succeeded
  type: dict
report:
  description:
    - The per-step report of C(stripeplan apply --format json) (in check mode, of C(apply --dry-run)),
      with C(steps) (name, status, summary, lines) and C(error) when it refused or failed.
  returned: when stripeplan ran past planning
  type: dict
actions:
  description:
    - What apply did (in check mode, would do), in order, as C(stripeplan apply --format json) lists them
      (see stripeplan(8), JSON OUTPUT); empty when the device already matches.
    - Each has C(step), C(action) (C(wipe), C(label), C(mkfs), C(fstab-remove), C(fstab-add), C(file),
      C(knob), C(luks), C(lvm)), C(target), C(before), C(after) and C(destroys).
    - In check mode a new filesystem's UUID is not known yet; the fstab line added names it C(@FS_UUID@).
  returned: when stripeplan ran past planning
  type: list
  elements: dict
  sample:
    - {step: filesystem, action: mkfs, target: /dev/sdb1, before: "xfs UUID=0f3e...", after: "xfs (a new UUID)", destroys: true}
check:
  description: In check mode, the report of C(stripeplan check --format json), that is how the device differs from the plan.
  returned: in check mode
  type: dict
fs_uuid:
  description: The filesystem's UUID.
  returned: when there is a filesystem
  type: str
mount:
  description: With I(mount), where the filesystem is mounted (C(path), under I(root)), from what (C(source)),
    and whether this run mounted it (C(mounted)); in check mode whether it would.
  returned: when I(mount) is true
  type: dict
  sample: {path: /data, source: /dev/sdb1, mounted: true}
'''

import json
import os
import re
import tempfile

from ansible.module_utils.basic import AnsibleModule

# The options of 'stripeplan plan' and the module options that carry them,
# in --help's order; a list is joined with commas, a bool is on or off.
# The tool checks every value (device/ansible: every option of --help is
# here or in MODULE_OWNS).
PLAN_FLAGS = (('controller', '--controller'), ('level', '--level'), ('disks', '--disks'),
              ('spans', '--spans'), ('chunk', '--chunk'), ('layout', '--layout'),
              ('members', '--members'), ('controller_report', '--controller-report'),
              ('size', '--size'), ('sector_size', '--sector-size'),
              ('facts', '--facts'), ('table', '--table'), ('filesystem', '--fs'),
              ('label', '--label'), ('mountpoint', '--mountpoint'), ('barriers', '--barriers'),
              ('kernel', '--kernel'), ('tuning', '--tuning'), ('memory_budget', '--memory-budget'),
              ('workload', '--workload'), ('stack', '--stack'), ('vg', '--vg'), ('lv', '--lv'),
              ('luks_name', '--luks-name'), ('profiles', '--profiles'))
# the options of plan, apply and check the module gives itself
MODULE_OWNS = {'--device': 'device', '--root': 'root', '--force': 'force', '--plan': 'plan',
               '--key-file': 'key_file',
               '--dry-run': 'check mode', '--strict': 'check mode', '--format': 'JSON, always',
               '--output': 'the result', '--help': None}
# what a reviewed plan file holds already (profiles are read from the host at apply)
ARRAY_OPTIONS = tuple(opt for opt, flag in PLAN_FLAGS if opt != 'profiles')
# level, disks and chunk may come from a running md array: stripeplan says when they are needed
REQUIRED_FOR_PLAN = ('controller', 'filesystem')
FAILURE_CODES = (2, 3, 4)


def plan_argv(p):
    argv = []
    for opt, flag in PLAN_FLAGS:
        value = p[opt]
        if value is None or opt == 'profiles':
            continue
        if isinstance(value, bool):
            value = 'on' if value else 'off'
        elif isinstance(value, list):
            value = ','.join(str(v) for v in value)
        argv += [flag, str(value)]
    return argv


def one_line(text):
    return '; '.join(ln.strip() for ln in text.splitlines() if ln.strip())


def stderr_message(err):
    lines = [ln[len('stripeplan: '):] if ln.startswith('stripeplan: ') else ln
             for ln in err.strip().splitlines() if ln.strip()]
    return one_line('\n'.join(lines))


def unescape_mountinfo(field):
    return re.sub(r'\\([0-7]{3})', lambda m: chr(int(m.group(1), 8)), field)


def mounts():
    """(major:minor, mount point) of every mount this process sees, in mount order."""
    found = []
    try:
        with open('/proc/self/mountinfo') as f:
            for line in f:
                fields = line.split(' ')
                if len(fields) > 4:
                    found.append((fields[2], unescape_mountinfo(fields[4])))
    except (IOError, OSError):
        pass
    return found


def dev_number(path):
    """'major:minor' of a block device node, or None (a partition not made yet)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return '%d:%d' % (os.major(st.st_rdev), os.minor(st.st_rdev)) if st.st_rdev else None


def under_root(root, path):
    return os.path.normpath(os.path.join(root, path.lstrip('/')))


def parse_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def read_knob(path):
    try:
        with open(path) as f:
            value = f.read().strip()
    except (IOError, OSError):
        return None
    chosen = re.search(r'\[([^\]]+)\]', value)  # queue/scheduler lists all, the active in []
    return chosen.group(1) if chosen else value


def tuning_values(plan, planned):
    values = {}
    for entry in (plan or {}).get('tuning') or []:
        path = entry.get('path')
        if not path:
            continue
        values[path] = entry.get('value') if planned else read_knob(path)
    return values


def render_tuning(tuning, files=()):
    lines = []
    for path in sorted(tuning):
        value = tuning[path]
        lines.append('%s = %s' % (path, value if value is not None else '(unreadable)'))
    lines += ['%s (%s)' % (path, what) for path, what in files]
    return '\n'.join(lines) + '\n' if lines else ''


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except (IOError, OSError):
        return ''


def of(actions, *kinds):
    return [a for a in actions if a.get('action') in kinds]


def step_summary(report, name):
    for step in (report or {}).get('steps') or []:
        if step.get('name') == name:
            return step.get('summary') or ''
    return ''


def prepared(device, actions, check_mode):
    """The diff's header: every destructive action, in order."""
    gone = [a for a in actions if a.get('destroys')]
    verb = 'would destroy' if check_mode else 'destroyed'
    if not gone:
        return 'stripeplan on %s: %s nothing\n' % (device, verb)
    lines = ['stripeplan on %s: %s:' % (device, verb)]
    for a in gone:
        lines.append('  - %s %s: %s' % (a['action'], a['target'], a['before'] or '(nothing)'))
    return '\n'.join(lines) + '\n'


def fstab_after(before, actions, uuid):
    """The fstab the fstab actions leave (check mode: apply has not written it)."""
    removed = set(a['before'] for a in of(actions, 'fstab-remove'))
    lines = [ln for ln in before.splitlines() if ln not in removed]
    lines += [a['after'].replace('@FS_UUID@', uuid) for a in of(actions, 'fstab-add')]
    return '\n'.join(lines) + '\n' if lines else ''


def diff_objects(device, report, actions, fstab, tuning, check_mode):
    """before/after per object, under a header naming what is destroyed.
    fstab and tuning are (before, after) texts."""
    def obj(what, before, after):
        return dict(before_header='%s: %s (now)' % (device, what), before=before,
                    after_header='%s: %s (%s)' % (device, what, 'planned' if check_mode else 'applied'),
                    after=after)
    label = of(actions, 'label')
    table = step_summary(report, 'partition') + '\n'
    if label:
        table = (label[0]['before'] + '\n', label[0]['after'] + '\n')
    else:
        table = (table, table)
    fs = of(actions, 'wipe', 'mkfs')
    if fs:
        uuid = (report or {}).get('fs_uuid') or ''
        mkfs = of(actions, 'mkfs')
        fs_before = ''.join('%s: %s\n' % (a['target'], a['before'] or '(nothing)') for a in fs)
        fs_after = ''.join('%s: %s\n' % (a['target'], a['after'] if check_mode or not uuid else
                                         '%s UUID=%s' % (a['after'].split(' ')[0], uuid))
                           for a in mkfs)
    else:
        fs_before = fs_after = step_summary(report, 'filesystem') + '\n'
    return [dict(prepared=prepared(device, actions, check_mode)),
            obj('partition table', *table),
            obj('filesystem', fs_before, fs_after),
            obj('fstab', *fstab),
            obj('tuning', *tuning)]


def mount_diff(device, mount, check_mode):
    path, source = mount['path'], mount['source']
    after = '%s on %s\n' % (source, path)
    before = after if not mount['mounted'] else '(not mounted)\n'
    return dict(before_header='%s: mount (now)' % device, before=before,
                after_header='%s: mount (%s)' % (device, 'planned' if check_mode else 'applied'),
                after=after)


class Runner(object):
    def __init__(self, module):
        self.module = module
        p = module.params
        self.p = p
        self.exe = p['executable'] or module.get_bin_path('stripeplan', required=True,
                                                          opt_dirs=['/usr/sbin', '/usr/local/sbin'])
        self.result = dict(changed=False, rc=0, msg='')
        # the root stripeplan is given: the real one, or in check mode an empty
        # stand-in for one that does not exist yet (its path is put back in the output)
        self.root = p['root']
        self.stand_in = None

    def run(self, argv):
        rc, out, err = self.module.run_command([self.exe] + argv, environ_update={'LC_ALL': 'C'})
        if self.stand_in:
            # a JSON string's characters, as the report would have held the real root
            out = out.replace(self.stand_in, json.dumps(self.p['root'])[1:-1])
            err = err.replace(self.stand_in, self.p['root'])
        return rc, out, err

    def fail(self, rc, msg, **extra):
        # a failure carries what explains it: the message, on one line, and the
        # tool's report; not the plan (several KB, printed by Ansible on one line)
        result = dict((k, v) for k, v in self.result.items() if k not in ('plan', 'diff'))
        result.update(extra)
        result['rc'] = rc
        result['msg'] = one_line(msg)
        self.module.fail_json(**result)

    def force_flags(self):
        return ['--force'] if self.p['force'] else []

    def make_plan(self):
        """The plan JSON text: from the reviewed file, or planned now (read-only probe)."""
        p = self.p
        if p['plan']:
            try:
                with open(p['plan']) as f:
                    text = f.read()
            except (IOError, OSError) as e:
                self.fail(2, 'plan: cannot read %s: %s' % (p['plan'], e))
            return text
        argv = ['plan'] + plan_argv(p) + ['--device', p['device'], '--format', 'json']
        argv += self.profiles_flags() + self.force_flags()
        rc, out, err = self.run(argv)
        if rc != 0:
            self.fail(rc, stderr_message(err) or 'stripeplan plan exited %d' % rc)
        return out

    def key_flags(self):
        return ['--key-file', self.p['key_file']] if self.p['key_file'] else []

    def profiles_flags(self):
        return ['--profiles', self.p['profiles']] if self.p['profiles'] else []

    def command(self, name, plan_file, extra=()):
        argv = [name, '--plan', plan_file, '--device', self.p['device'], '--root', self.root,
                '--format', 'json'] + list(extra) + self.profiles_flags()
        rc, out, err = self.run(argv)
        report = parse_json(out)
        if report is None and rc not in FAILURE_CODES:
            self.fail(rc or 4, 'stripeplan %s printed no JSON report: %s' % (name, stderr_message(err)))
        return rc, report, err

    def failure(self, name, rc, report, err):
        report = report or {}
        msg = report.get('error') or stderr_message(err) or 'stripeplan %s exited %d' % (name, rc)
        outcome = report.get('outcome')
        if outcome in ('refused', 'failed'):
            msg = '%s: %s' % (outcome, msg)
        extra = dict(report=report) if report else {}
        if outcome:
            extra['outcome'] = outcome
        self.fail(rc, msg, **extra)

    def prepare_root(self, plan_file):
        """root exists, is made (apply), or is stood in for by an empty directory (check mode).
        apply is asked first, with the stand-in, whether it would refuse: a refusal writes nothing."""
        root = self.p['root']
        if os.path.isdir(root):
            return
        self.stand_in = tempfile.mkdtemp(prefix='stripeplan-root-')
        self.root = self.stand_in
        self.result['root_created'] = True
        if self.module.check_mode:
            return
        rc, report, err = self.command('apply', plan_file, ['--dry-run'] + self.force_flags())
        os.rmdir(self.stand_in)
        self.stand_in, self.root = None, root
        if rc != 0:
            del self.result['root_created']
            self.failure('apply', rc, report, err)
        try:
            os.makedirs(root, 0o755)
        except OSError as e:
            self.fail(4, "root: cannot create '%s': %s" % (root, e))
        self.result['root_created'] = True

    def main(self):
        # everything that can refuse comes before root is made
        if os.path.lexists(self.p['root']) and not os.path.isdir(self.p['root']):
            self.fail(2, "root: '%s' is not a directory" % self.p['root'])
        plan_text = self.make_plan()
        plan = parse_json(plan_text)
        if plan is None:
            self.fail(4, 'the plan is not JSON')
        self.result['plan'] = plan
        mount = self.mount_target(plan) if self.p['mount'] else None
        fd, plan_file = tempfile.mkstemp(prefix='stripeplan-', suffix='.json')
        try:
            with os.fdopen(fd, 'w') as f:
                f.write(plan_text)
            self.prepare_root(plan_file)
            self.run_all(plan, plan_file, mount)
        finally:
            os.unlink(plan_file)
            if self.stand_in:
                os.rmdir(self.stand_in)
        self.module.exit_json(**self.result)

    def run_all(self, plan, plan_file, mount):
        p = self.p
        fstab_path = os.path.join(p['root'], 'etc/fstab')
        fstab_before = read_text(fstab_path)
        tuning_before = tuning_values(plan, False)
        if self.module.check_mode:
            self.check_mode(plan, plan_file)
        else:
            self.apply(plan, plan_file)
        if mount:
            self.mount(plan, mount)
        if self.result.get('root_created'):
            self.result['changed'] = True
        if self.module._diff:
            self.result['diff'] = self.diff(plan, fstab_path, fstab_before, tuning_before)
            if mount:
                self.result['diff'].append(mount_diff(p['device'], self.result['mount'],
                                                      self.module.check_mode))

    def diff(self, plan, fstab_path, fstab_before, tuning_before):
        check_mode = self.module.check_mode
        report = self.result.get('report')
        actions = self.result.get('actions') or []
        files = [(a['target'], 'written') for a in of(actions, 'file')]
        if check_mode:
            fstab = fstab_after(fstab_before, actions, 'NEW-FILESYSTEM-UUID')
            tuning = tuning_values(plan, True)
        else:
            fstab = read_text(fstab_path)
            tuning = tuning_values(plan, False)
        return diff_objects(self.p['device'], report, actions, (fstab_before, fstab),
                            (render_tuning(tuning_before), render_tuning(tuning, files)), check_mode)

    def fs_mounted(self, plan):
        """Is the planned filesystem's device mounted anywhere?  apply refuses it even
        when nothing would change, so a matching one is judged by check instead."""
        dev = dev_number((plan.get('partition') or {}).get('path') or '')
        return dev is not None and any(number == dev for number, point in mounts())

    def left_alone(self, check):
        """The filesystem is mounted and the device matches the plan: nothing to do."""
        self.result['report'] = check
        self.result['actions'] = []
        self.result['outcome'] = 'unchanged'
        self.result['changed'] = False
        if check.get('fs_uuid'):
            self.result['fs_uuid'] = check['fs_uuid']
        self.result['msg'] = ('the device matches the plan (its filesystem is mounted)' if self.module.check_mode
                              else 'unchanged: the device already matched the plan (its filesystem is mounted)')

    def check_mode(self, plan, plan_file):
        # --strict: "would apply change anything" means any difference, even a harmless one
        rc, check, err = self.command('check', plan_file, ['--strict'] + self.force_flags())
        if rc not in (0, 1):
            self.failure('check', rc, check, err)
        self.result['check'] = check
        if rc == 0 and self.fs_mounted(plan):
            self.left_alone(check)
            self.result['outcome'] = check.get('outcome')
            return
        # what apply would do, and whether it would refuse
        rc, report, err = self.command('apply', plan_file, ['--dry-run'] + self.force_flags())
        if rc != 0:
            self.failure('apply --dry-run', rc, report, err)
        self.result['report'] = report
        self.result['actions'] = report.get('actions') or []
        self.result['outcome'] = check.get('outcome')
        # apply's own answer: it runs steps (a dry run says which) or finds nothing to do
        self.result['changed'] = report.get('outcome') == 'dry-run'
        if check.get('fs_uuid'):
            self.result['fs_uuid'] = check['fs_uuid']
        self.result['msg'] = ('the device matches the plan' if not self.result['changed'] else
                              'apply would change the device (check mode: nothing written)')

    def apply(self, plan, plan_file):
        if self.fs_mounted(plan):
            rc, check, err = self.command('check', plan_file, ['--strict'] + self.force_flags())
            if rc == 0:
                self.left_alone(check)
                return
            # apply refuses it, in its own words
        rc, report, err = self.command('apply', plan_file, self.force_flags() + self.key_flags())
        if rc != 0:
            self.failure('apply', rc, report, err)
        self.result['report'] = report
        self.result['actions'] = report.get('actions') or []
        self.result['outcome'] = report.get('outcome')
        self.result['changed'] = any(s.get('status') == 'done' for s in report.get('steps') or [])
        if report.get('fs_uuid'):
            self.result['fs_uuid'] = report['fs_uuid']
        self.result['msg'] = ('applied: the device now matches the plan' if self.result['changed'] else
                              'unchanged: the device already matched the plan')

    def mount_target(self, plan):
        """Where the filesystem mounts under root, and from which device."""
        mountpoint = (plan.get('mount') or {}).get('mountpoint')
        if not mountpoint:
            self.fail(2, 'mount: the plan has no mount point (give mountpoint)')
        return dict(path=under_root(self.p['root'], mountpoint), mountpoint=mountpoint,
                    source=(plan.get('partition') or {}).get('path') or self.p['device'])

    def mounted_at(self, path):
        """'major:minor' of what is mounted on path (the top mount), or None."""
        real = os.path.realpath(path)
        found = [dev for dev, point in mounts() if point == real]
        return found[-1] if found else None

    def mount(self, plan, target):
        path, source = target['path'], target['source']
        self.result['mount'] = dict(path=path, source=source, mounted=False)
        there = self.mounted_at(path)
        if there is not None and there == dev_number(source):
            return
        if there is not None:
            self.fail(3, "mount: '%s' has another filesystem mounted (device %s), not '%s'"
                      % (path, there, source), report=self.result.get('report'))
        self.result['mount']['mounted'] = True
        self.result['changed'] = True
        self.inside_root(path)
        if self.module.check_mode:
            self.result['msg'] += '; would mount it on %s' % path
            return
        try:
            if not os.path.isdir(path):
                os.makedirs(path, 0o755)
        except OSError as e:
            self.fail(4, "mount: cannot create '%s': %s" % (path, e), report=self.result.get('report'))
        self.reload_systemd()
        root = self.p['root']
        argv = [self.module.get_bin_path('mount', required=True), '--fstab',
                os.path.join(root, 'etc/fstab')]
        if os.path.normpath(root) != '/':
            argv += ['--target-prefix', root]
        rc, out, err = self.module.run_command(argv + [target['mountpoint']],
                                               environ_update={'LC_ALL': 'C'})
        if rc != 0:
            self.fail(4, 'mount: %s' % (one_line(err) or 'mount exited %d' % rc),
                      report=self.result.get('report'))
        if self.mounted_at(path) != dev_number(source):
            self.fail(4, "mount: '%s' is not mounted on '%s' after mount(8) exited 0" % (source, path),
                      report=self.result.get('report'))
        self.result['msg'] += '; mounted on %s' % path

    def inside_root(self, path):
        """Under a root of another system, the mount point must stay inside it: a symlink
        there (its /data to /srv, meant for that system) would lead to this host's own."""
        root = os.path.realpath(self.p['root'])
        real = os.path.realpath(path)
        if root != '/' and not real.startswith(root + '/'):
            self.fail(3, "mount: '%s' leads out of the root '%s' (to '%s'); nothing mounted"
                      % (path, self.p['root'], real), report=self.result.get('report'))

    def reload_systemd(self):
        """systemd generates mount units from /etc/fstab: after a change to it, and
        only that one (a root of another system is not this systemd's), reload."""
        if os.path.normpath(self.p['root']) != '/' or not os.path.isdir('/run/systemd/system'):
            return
        if not of(self.result.get('actions') or [], 'fstab-add', 'fstab-remove'):
            return
        rc, out, err = self.module.run_command(
            [self.module.get_bin_path('systemctl', required=True), 'daemon-reload'])
        if rc != 0:
            self.fail(4, 'systemctl daemon-reload: %s' % (one_line(err) or 'exited %d' % rc),
                      report=self.result.get('report'))
        self.result['daemon_reload'] = True


def main():
    module = AnsibleModule(
        argument_spec=dict(
            device=dict(type='path', required=True),
            controller=dict(type='str'),
            level=dict(type='raw'),
            disks=dict(type='int'),
            chunk=dict(type='str'),
            spans=dict(type='int'),
            layout=dict(type='str', choices=['n2', 'n3', 'f2', 'f3', 'o2', 'o3']),
            members=dict(type='list', elements='str'),
            controller_report=dict(type='path'),
            size=dict(type='str'),
            sector_size=dict(type='int', choices=[512, 4096]),
            facts=dict(type='path'),
            filesystem=dict(type='str', choices=['xfs', 'ext3', 'ext4'], aliases=['fs']),
            mountpoint=dict(type='path'),
            label=dict(type='str'),
            table=dict(type='str', choices=['gpt', 'msdos', 'dos', 'mbr', 'none']),
            barriers=dict(type='bool'),
            kernel=dict(type='str'),
            tuning=dict(type='str', choices=['default', 'field-report']),
            memory_budget=dict(type='str'),
            workload=dict(type='str', choices=['general', 'metadata', 'small-sync']),
            stack=dict(type='list', elements='str', choices=['luks', 'lvm', 'none']),
            vg=dict(type='str'),
            lv=dict(type='str'),
            luks_name=dict(type='str'),
            profiles=dict(type='path'),
            plan=dict(type='path'),
            root=dict(type='path', default='/'),
            mount=dict(type='bool', default=False),
            force=dict(type='bool', default=False),
            key_file=dict(type='path', no_log=False),
            executable=dict(type='path'),
        ),
        mutually_exclusive=[('plan', opt) for opt in ARRAY_OPTIONS],
        required_one_of=[('plan', 'controller')],
        required_by=dict(controller=list(REQUIRED_FOR_PLAN[1:])),
        supports_check_mode=True,
    )
    if module.params['level'] is not None:
        module.params['level'] = str(module.params['level'])
    Runner(module).main()


if __name__ == '__main__':
    main()
