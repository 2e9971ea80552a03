#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt),
# so it may also be used under the GNU General Public License version 3, as Ansible is.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: stripeplan_scan
short_description: Audit every RAID array and disk of a host with stripeplan scan, as facts
version_added: "1.1.0"
description:
  - Runs C(stripeplan scan --format json) on the managed host and returns what it prints as the fact
    C(stripeplan_scan) - one row per md array, disk, logical drive or multipath map, with its
    controller profile and the facts that decided it, its geometry and where it came from, what is
    on it, whether the running system needs it, and for each device whose geometry is known and that
    holds something the verdict of C(stripeplan check) (costly, suboptimal and differs counts, the
    worst finding).
  - The devices with a costly finding are also the fact C(stripeplan_scan_costly), so a play can list
    the hosts that have one (see the example and the README's fleet audit).
  - It only reads; C(stripeplan scan) writes, locks and runs nothing, so check mode does the same scan.
  - An md array tells its own geometry. A logical drive whose controller exports none is judged only
    when I(devices) names it with I(level), I(disks) and I(chunk).
author:
  - stripeplan developers (!UNKNOWN)
requirements:
  - the C(stripeplan) binary on the managed host (package C(stripeplan)), run as root
notes:
  - Exit codes of C(stripeplan scan) (I(exit_code)) - 0 (nothing costly) and 1 (a device has a costly finding) are
    success, C(changed) is always false; 4 (a device could not be read) is success too, with a warning
    and the device in I(unreadable), its row saying what failed, because the other rows are the
    audit; 2 (invalid input) fails the task with I(msg) and I(rc).
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.facts
attributes:
  check_mode:
    support: full
    details: The scan only reads; check mode runs it as it is.
  diff_mode:
    support: none
  facts:
    support: full
  platform:
    platforms: posix
options:
  devices:
    description:
      - Scan only these block devices (whole disks or arrays, loop devices too); by default every one of
        the host's.
      - Required with I(controller), I(level), I(disks), I(chunk), I(spans) and I(layout), which describe
        them.
    type: list
    elements: path
  controller:
    description: The controller profile of I(devices), instead of the one the kernel's facts decide.
    type: str
  level:
    description: RAID level of I(devices), as C(stripeplan --level) takes it (C(5), C(raid10)).
    type: raw
  disks:
    description: Disks in the array of I(devices), parity and mirrors included.
    type: int
  chunk:
    description: Per-disk chunk of I(devices), binary units, for example C(64K).
    type: str
  spans:
    description: RAID50/60 only, the number of RAID5/6 sets.
    type: int
  layout:
    description: md RAID10 only, the layout.
    type: str
    choices: [n2, n3, f2, f3, o2, o3]
  controller_report:
    description:
      - Controller CLIs' saved reports on the managed host, one logical drive each (C(storcli64 /cX/vY show all J),
        C(perccli64) alike, C(ssacli ctrl slot=N ld N show detail)), as C(stripeplan scan --controller-report)
        takes them; each judges the disk whose wwid carries its NAA id (else the disk it names) with its level,
        disks and strip.
      - A report of no disk scanned is a warning (and in the fact's C(warnings)); of two disks, invalid input.
    type: list
    elements: path
  kernel:
    description: Judge for this kernel release instead of the running one.
    type: str
  root:
    description: The root whose fstab, udev rules and tuning script C(stripeplan check) reads.
    type: path
    default: /
  profiles:
    description: Read site controller profiles from this directory instead of C(/etc/stripeplan/controllers.d).
    type: path
  executable:
    description: The C(stripeplan) binary to run; by default the one found in the host's C(PATH) and C(/usr/sbin).
    type: path
'''

EXAMPLES = r'''
- name: Audit the host's arrays (reads only)
  stripeplan.storage.stripeplan_scan:

- name: The LUNs of a controller that exports no geometry, judged as RAID6 of 8 x 256 KiB
  stripeplan.storage.stripeplan_scan:
    devices: [/dev/sdb, /dev/sdc]
    level: 6
    disks: 8
    chunk: 256K

- name: Hosts with a costly finding
  ansible.builtin.debug:
    msg: "{{ ansible_play_hosts | map('extract', hostvars) | selectattr('stripeplan_scan_costly') | map(attribute='inventory_hostname') }}"
  run_once: true
'''

RETURN = r'''
exit_code:
  description:
    - Exit code of C(stripeplan scan) - 0 nothing costly, 1 a costly finding, 4 a device could not be read.
    - Not C(rc), which Ansible takes for a failure when it is not 0.
  returned: success
  type: int
  sample: 1
rc:
  description: Exit code of C(stripeplan scan) when the task failed (2, invalid input).
  returned: failure
  type: int
  sample: 2
msg:
  description: What the scan found, on one line, or why it failed.
  returned: always
  type: str
  sample: "3 devices, 1 with a costly finding (/dev/sdc)"
costly:
  description: The devices with a costly finding.
  returned: success
  type: list
  elements: str
  sample: [/dev/sdc]
unreadable:
  description: The devices that could not be read (each row's C(error) says why).
  returned: success
  type: list
  elements: str
ansible_facts:
  description: The scan.
  returned: success
  type: complex
  contains:
    stripeplan_scan:
      description:
        - What C(stripeplan scan --format json) prints - C(format_version), C(exit_code), C(warnings) (a
          controller report of no disk scanned) and C(devices), one
          row per device (see stripeplan(8), scan) with C(device), C(kind), C(size_bytes), C(controller),
          C(controller_by), C(level), C(disks), C(chunk_bytes), C(stripe_width_bytes), C(geometry_from),
          C(table), C(partitions), C(signature), C(contents), C(blank), C(member_of), C(system),
          C(system_use), C(in_use), C(candidate), C(checked), C(not_checked), C(costly), C(suboptimal),
          C(differs), C(worst_severity), C(worst_code), C(worst) and C(error).
      returned: success
      type: dict
    stripeplan_scan_costly:
      description: The devices with a costly finding (empty when none).
      returned: success
      type: list
      elements: str
'''

import json

from ansible.module_utils.basic import AnsibleModule

# module option -> the flag of 'stripeplan scan' that carries it
SCAN_FLAGS = (('controller', '--controller'), ('level', '--level'), ('disks', '--disks'),
              ('chunk', '--chunk'), ('spans', '--spans'), ('layout', '--layout'),
              ('kernel', '--kernel'), ('root', '--root'), ('profiles', '--profiles'))
GEOMETRY = ('controller', 'level', 'disks', 'chunk', 'spans', 'layout')


def one_line(text):
    return '; '.join(ln.strip() for ln in text.splitlines() if ln.strip())


def stderr_message(err):
    lines = [ln[len('stripeplan: '):] if ln.startswith('stripeplan: ') else ln
             for ln in err.strip().splitlines() if ln.strip()]
    return one_line('\n'.join(lines))


def scan_argv(p):
    argv = ['scan', '--format', 'json']
    for path in p['devices'] or ():
        argv += ['--device', path]
    for path in p['controller_report'] or ():
        argv += ['--controller-report', path]
    for opt, flag in SCAN_FLAGS:
        if p[opt] is not None:
            argv += [flag, str(p[opt])]
    return argv


def main():
    module = AnsibleModule(
        argument_spec=dict(
            devices=dict(type='list', elements='path'),
            controller=dict(type='str'),
            level=dict(type='raw'),
            disks=dict(type='int'),
            chunk=dict(type='str'),
            spans=dict(type='int'),
            layout=dict(type='str', choices=['n2', 'n3', 'f2', 'f3', 'o2', 'o3']),
            controller_report=dict(type='list', elements='path'),
            kernel=dict(type='str'),
            root=dict(type='path', default='/'),
            profiles=dict(type='path'),
            executable=dict(type='path'),
        ),
        required_by=dict((opt, ['devices']) for opt in GEOMETRY),
        supports_check_mode=True,
    )
    p = module.params
    exe = p['executable'] or module.get_bin_path('stripeplan', required=True,
                                                 opt_dirs=['/usr/sbin', '/usr/local/sbin'])
    rc, out, err = module.run_command([exe] + scan_argv(p), environ_update={'LC_ALL': 'C'})
    if rc not in (0, 1, 4):
        module.fail_json(rc=rc, msg=stderr_message(err) or 'stripeplan scan exited %d' % rc)
    try:
        scan = json.loads(out)
        rows = scan['devices']
    except (ValueError, KeyError, TypeError) as e:
        module.fail_json(rc=rc, msg='stripeplan scan printed no scan (%s): %s' % (e, stderr_message(err)))
    costly = [r['device'] for r in rows if r.get('costly')]
    unreadable = [r['device'] for r in rows if r.get('error')]
    for r in rows:
        if r.get('error'):
            module.warn('%s: %s' % (r['device'], r['error']))
    for w in scan.get('warnings') or ():
        module.warn(w)
    msg = '%d devices, %d with a costly finding%s' % (
        len(rows), len(costly), ' (%s)' % ', '.join(costly) if costly else '')
    if unreadable:
        msg += ', %d could not be read (%s)' % (len(unreadable), ', '.join(unreadable))
    module.exit_json(changed=False, exit_code=rc, msg=msg, costly=costly, unreadable=unreadable,
                     ansible_facts=dict(stripeplan_scan=scan, stripeplan_scan_costly=costly))


if __name__ == '__main__':
    main()
