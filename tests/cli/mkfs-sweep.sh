#!/bin/bash
# Every mkfs command that 'plan' prints is one that this machine's mkfs.xfs
# and mke2fs accept, and every size 'plan' refuses is one that mkfs refuses
# too.  A grid of arrays x device sizes x filesystems, chosen for the
# boundaries, not for its size: the 300 MiB XFS floor, the 64 MiB log that
# must fit in one AG, mkfs.xfs's multi-disk AG counts (8 up to 8 GiB, 16 up
# to 512 GiB, 32, then 1 TiB AGs from 32 TiB), the AG limit of 1 TiB - 1
# block, stripes so wide that few fit in an AG, ext3's 2^32 - 1 blocks,
# 100 TiB.  Then every profile's extremes: each level it offers, with the
# fewest and the most disks and spans, its smallest and largest chunk, on the
# smallest device the planner takes (found by bisection, and one MiB less
# must be refused) and on 100 TiB; an XFS stripe width above 2^31 - 1 bytes
# must be refused by the planner naming mkfs.xfs's limit (exit 2), never
# printed for mkfs to refuse.  Each command runs as 'mkfs.xfs -N' /
# 'mke2fs -n' (nothing is written) on a sparse file of the planned
# partition's size, on tmpfs: its files can be 100 TiB, the host's ext4
# stops at 16 TiB.
. "$(dirname "$0")/lib.bash"

# What it proves is mkfs's answer to each plan, the same from any build:
# it runs in the normal build's suite.  In the sanitizer build it took
# 587 s of the CI's sanitizer stage (123 s in the normal one) for planner
# paths the sanitized unit tests (unit/test-plan, unit/test-limit) and the
# fuzz targets (plan files, sizes) run at their extremes.
if grep -q __asan_init "$STRIPEPLAN"; then
	echo "mkfs-sweep: not run, $STRIPEPLAN is built with AddressSanitizer (the normal build's suite runs it)"
	exit 0
fi

SPARSE=$(mktemp -d "${SWEEP_DIR:-/dev/shm}/stripeplan-sweep.XXXXXX")
trap 'rm -rf "$WORK" "$SPARSE"' EXIT

# python, not bash: one interpreter for the ~500 cases keeps this to
# two processes per case (stripeplan, mkfs)
checks=1
"$STRIPEPLAN" controllers --format json >"$WORK/profiles.json"
python3 - "$STRIPEPLAN" "$SPARSE/part.img" "$WORK/profiles.json" <<'EOF' || fail "the sweep found plans mkfs refuses or refusals mkfs does not make"
import json, math, os, re, subprocess, sys, threading
from concurrent.futures import ThreadPoolExecutor

stripeplan, img, profiles_json = sys.argv[1], sys.argv[2], sys.argv[3]
K, M, G, T = 1 << 10, 1 << 20, 1 << 30, 1 << 40

# controller, level, disks, chunk, spans
arrays = [
    ("hp-p400", 10, 8, 256 * K, 0),   # RAID10: no parity, mkfs.xfs chooses the AGs
    ("md", 5, 10, 1 * M, 0),          # 9 MiB stripe, log su capped to 32 KiB
    ("dell-perc5e", 5, 15, 128 * K, 0),
    ("dell-perc6i", 5, 4, 64 * K, 0), # 192 KiB stripe, not a power of two
    ("generic", 6, 6, 512 * K, 0),    # 2 MiB stripe: 1 TiB would be whole stripes
    ("md", 6, 4, 64 * M, 0),          # 128 MiB stripe: few stripes per AG
    ("generic", 0, 2, 4 * K, 0),      # the smallest stripe unit
    ("generic", 60, 12, 256 * K, 2),  # two spans
    ("generic", 1, 2, 64 * K, 0),     # a mirror
]
xfs_sizes = [256 * M, 301 * M, 310 * M, 320 * M, 400 * M, 512 * M, 513 * M, 600 * M, 767 * M, 1 * G,
             1100 * M, 8 * G, 8196 * M, 130 * G, 512 * G, 514 * G, 2 * T, 16 * T, 32 * T + G,
             64 * T, 100 * T]
ext_sizes = [256 * M, 1 * G, 16 * T, 16 * T + G, 100 * T]
# a 4 KiB stripe makes a partition of exactly 2^32 - 1 blocks: ext3's last
# size, then one block more.  md RAID10 near 2 on 2 disks has one 4 KiB
# chunk per stripe (a mirror would have no stripe at all); a mirror ends on
# the physical sector, which lands on the same edge.
ext3_edge = 1 * M + 16896 + (2**32 - 1) * 4096
cases = [(a, s, fs) for a in arrays for fs in ("xfs", "ext3", "ext4")
         for s in (xfs_sizes if fs == "xfs" else ext_sizes)]
cases += [(a, s, fs) for a in (("md", 10, 2, 4 * K, 0), ("generic", 1, 2, 4 * K, 0))
          for s in (ext3_edge, ext3_edge + 4096) for fs in ("ext3", "ext4")]
# --workload small-sync: xfs without a stripe unit (-d noalign), AGs mkfs's own
cases += [(a, s, "xfs-small-sync") for a in arrays for s in xfs_sizes]

def data_disks(level, disks, spans):
    return {0: disks, 1: 1, 4: disks - 1, 5: disks - 1, 6: disks - 2, 10: disks // 2,
            50: disks - spans, 60: disks - 2 * spans}[level]

def mkfs_ok(argv, size):
    path = f"{img}.{threading.get_ident()}"  # one per thread (the bisections run in parallel)
    if os.path.exists(path):
        os.unlink(path)
    with open(path, "wb") as f:
        f.truncate(size)
    argv = argv[:-1] + [path]
    extra = ["-N", "-f"] if argv[0] == "mkfs.xfs" else ["-n", "-F", "-q"]
    r = subprocess.run(argv[:1] + extra + argv[1:], capture_output=True, text=True)
    if r.returncode == 0 and "noalign" in argv and "sunit=0      swidth=0 blks" not in r.stdout:
        return False, ["-d noalign made a stripe unit: " + r.stdout]
    # mkfs's reason, without its usage text and its geometry report
    said = [l for l in r.stderr.splitlines()
            if l and not l[0].isspace() and not l.startswith(("Usage", "/*", "<"))]
    return r.returncode == 0, said[:2]

failures = accepted = refused = geometry = 0
for (ctl, level, disks, chunk, spans), size, fs in cases:
    name = f"{ctl} raid{level} {disks}x{chunk // K}K {size} bytes {fs}"
    workload = "general"
    if fs == "xfs-small-sync":
        fs, workload = "xfs", "small-sync"
    args = [stripeplan, "plan", "--workload", workload, "--controller", ctl, "--level", str(level), "--disks",
            str(disks), "--chunk", f"{chunk // K}K", "--fs", fs, "--device", "/dev/sdz",
            "--size", str(size), "--kernel", "6.1.0", "--format", "json",
            "--table", "gpt"]  # md's default is none: the refusal check below assumes GPT
    if spans:
        args += ["--spans", str(spans)]
    r = subprocess.run(args, capture_output=True, text=True)
    if fs == "ext3" and size in (ext3_edge, ext3_edge + 4096):
        # the boundary itself: 2^32 - 1 blocks planned, one more refused
        edge = size == ext3_edge
        got = json.loads(r.stdout)["partition"]["size_bytes"] if r.returncode == 0 else None
        if (r.returncode == 0) != edge or (edge and got != (2**32 - 1) * 4096):
            failures += 1
            print(f"FAIL: {name}: ext3 edge: plan exited {r.returncode}, partition {got}")
    if r.returncode == 0:
        accepted += 1
        plan = json.loads(r.stdout)
        ok, out = mkfs_ok(plan["filesystem"]["mkfs_argv"], plan["partition"]["size_bytes"])
        if not ok:
            failures += 1
            print(f"FAIL: {name}: mkfs refused {' '.join(plan['filesystem']['mkfs_argv'])} "
                  f"on {plan['partition']['size_bytes']} bytes: {out}")
        continue
    if r.returncode != 2:
        failures += 1
        print(f"FAIL: {name}: plan exited {r.returncode}: {r.stderr.strip()}")
        continue
    if "stripe after the aligned start" in r.stderr:
        geometry += 1  # not a filesystem limit: no aligned stripe fits at all
        continue
    refused += 1
    # a refusal must be one mkfs makes: the array's geometry on the
    # partition the plan would have made, mkfs choosing all the rest; a
    # mirror has no stripe: 1 MiB aligned, whole 512-byte sectors, no su
    dd = data_disks(level, disks, spans)
    stripe = chunk * dd if level != 1 else 512
    align = stripe * M // math.gcd(stripe, M)
    part = max(4096, (size - 16896 - align) // stripe * stripe)
    if fs == "xfs" and workload == "small-sync":
        argv = ["mkfs.xfs", "-b", "size=4096", "-d", "noalign"]
    elif fs == "xfs":
        argv = ["mkfs.xfs", "-b", "size=4096"]
        argv += ["-d", f"su={chunk // K}k,sw={dd}"] if level != 1 else []
    else:
        argv = ["mke2fs", "-t", fs, "-b", "4096"]
        argv += ["-E", f"stride={chunk // 4096},stripe_width={chunk // 4096 * dd}"] if level != 1 else []
    argv += ["part"]
    ok, out = mkfs_ok(argv, part)
    if ok:
        failures += 1
        print(f"FAIL: {name}: plan refused ({r.stderr.strip()}) but "
              f"{' '.join(argv[:-1])} accepts {part} bytes")

# --- every profile's extremes -----------------------------------------------
XFS_SWIDTH_MAX = 2**31 - 1    # xfs_validate_stripe_geometry(): swidth > INT_MAX
EXT4_STRIPE_MAX_BLOCKS = 32768  # ext4_get_stripe_size(): above blocks per group: ignored

def plan(ctl, level, disks, chunk, spans, size, fs):
    args = [stripeplan, "plan", "--controller", ctl, "--level", str(level), "--disks", str(disks),
            "--chunk", f"{chunk // K}K", "--fs", fs, "--device", "/dev/sdz", "--size", str(size),
            "--kernel", "6.1.0", "--format", "json", "--table", "gpt"]
    if spans:
        args += ["--spans", str(spans)]
    return subprocess.run(args, capture_output=True, text=True)

def extreme_arrays(profile):
    """(level, disks, chunk, spans): fewest and most disks (and spans), smallest and largest chunk"""
    limits = profile.get("limits", {})
    sizes = (limits.get("strips") or {}).get("sizes_bytes")
    chunks = sorted({min(sizes), max(sizes)} if sizes else
                    {profile["chunk_min_bytes"], profile["chunk_max_bytes"]})
    spans = limits.get("spans") or {}
    rules = {r["level"]: r for r in limits.get("level_rules", [])}
    for level in profile["levels"]:
        max_disks = (rules.get(level) or {}).get("max_disks") or limits.get("max_disks") or 1920
        if level in (50, 60):
            per_span_min = 3 if level == 50 else 4
            span_max = spans.get("max") or 16
            per_span_max = min(spans.get("disks_max") or 32, max_disks // span_max)
            shapes = [(per_span_min * 2, 2, False), (per_span_min * span_max, span_max, False),
                      (per_span_max * span_max, span_max, False), (per_span_max * 2, 2, False)]
            if spans.get("max"):
                shapes.append((per_span_min * (span_max + 1), span_max + 1, True))
            if spans.get("disks_max"):
                shapes.append(((per_span_max + 1) * 2, 2, True))
        else:
            shapes = [(1, 0, False), (2, 0, False), (3, 0, False), (4, 0, False),
                      (max_disks, 0, False), (max_disks + 1, 0, True)]
        for disks, nspans, beyond in shapes:
            for chunk in chunks:
                yield level, disks, chunk, nspans, beyond
    if profile["name"] == "generic":
        # both sides of 2 GiB: 31 and 32 data disks of 64 MiB
        yield from [(0, 31, 64 * M, 0, False), (0, 32, 64 * M, 0, False), (5, 32, 64 * M, 0, False),
                    (5, 33, 64 * M, 0, False), (6, 33, 64 * M, 0, False), (6, 34, 64 * M, 0, False),
                    (0, 1023, 2 * M, 0, False), (0, 1024, 2 * M, 0, False)]

def refusal_is_mkfs_limit(stderr):
    return "2147483647" in stderr and "xfs_validate_stripe_geometry" in stderr

profiles = json.load(open(profiles_json))
xfs_width_refused = smallest_checked = ext4_ignored = extremes = array_refused = beyond_refused = 0
smallest_done, smallest_jobs, fewest_done = set(), [], set()
for profile in profiles:
    ctl = profile["name"]
    for level, disks, chunk, spans, beyond in extreme_arrays(profile):
        for fs in ("xfs", "ext4"):
            name = f"{ctl} raid{level} {disks}x{chunk // K}K spans {spans} {fs}"
            big = plan(ctl, level, disks, chunk, spans, 100 * T, fs)
            if beyond:
                # one disk or span past the profile's documented limit
                if big.returncode != 2 or not re.match(r"stripeplan: (disks|spans|chunk): ", big.stderr):
                    failures += 1
                    print(f"FAIL: {name}: past the profile's limits: plan exited "
                          f"{big.returncode}: {big.stderr.strip()[:200]}")
                else:
                    beyond_refused += 1
                continue
            dd = data_disks(level, disks, spans) if disks > 1 else 0
            width = chunk * dd if level != 1 else 0
            if fs == "xfs" and width > XFS_SWIDTH_MAX:
                # the width, not the device, decides: refused at every size
                if big.returncode != 2 or not refusal_is_mkfs_limit(big.stderr):
                    failures += 1
                    print(f"FAIL: {name}: stripe width {width} bytes: plan exited {big.returncode}, "
                          f"expected 2 naming mkfs.xfs's limit: {big.stderr.strip()[:200]}")
                else:
                    xfs_width_refused += 1
                continue
            if big.returncode != 0:
                if big.returncode != 2 or "size:" in big.stderr:
                    failures += 1
                    print(f"FAIL: {name}: 100 TiB: plan exited {big.returncode}: {big.stderr.strip()}")
                else:
                    array_refused += 1  # the level's or the profile's own rules
                continue
            extremes += 1
            p = json.loads(big.stdout)
            if fs == "ext4" and p["filesystem"]["ext"]["stripe_width_blocks"] > EXT4_STRIPE_MAX_BLOCKS:
                ext4_ignored += 1
                if not any(str(EXT4_STRIPE_MAX_BLOCKS) in w["message"] for w in p["warnings"]):
                    failures += 1
                    print(f"FAIL: {name}: stripe_width {p['filesystem']['ext']['stripe_width_blocks']} "
                          f"blocks, which ext4 ignores, planned without a warning")
            # mke2fs -n on 100 TiB takes a quarter second: ext4 is proven on
            # its smallest size below, XFS on both
            if fs == "xfs":
                ok, out = mkfs_ok(p["filesystem"]["mkfs_argv"], p["partition"]["size_bytes"])
                if not ok:
                    failures += 1
                    print(f"FAIL: {name}: mkfs refused {' '.join(p['filesystem']['mkfs_argv'])} "
                          f"on {p['partition']['size_bytes']} bytes: {out}")
            # the smallest device: for the fewest disks the level takes (the
            # first of 1..4 planned) and for the most, once per geometry
            # (profiles that share a shape share it), after the loop, in
            # parallel
            shape = (level, disks, chunk, spans, fs)
            fewest = (ctl, level, chunk, spans > 0, fs)
            if disks <= 4 and not spans:
                if fewest in fewest_done:
                    continue
                fewest_done.add(fewest)
            if shape not in smallest_done:
                smallest_done.add(shape)
                smallest_jobs.append((name, ctl) + shape)

def smallest(job):
    """the smallest device the planner takes, to the MiB, found by doubling
    from 256 MiB, then bisecting: mkfs accepts the partition it plans there;
    one MiB less is refused.  Returns the failures' lines."""
    name, ctl, level, disks, chunk, spans, fs = job
    lo, hi = 0, 256
    while plan(ctl, level, disks, chunk, spans, hi * M, fs).returncode != 0:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if plan(ctl, level, disks, chunk, spans, mid * M, fs).returncode == 0:
            hi = mid
        else:
            lo = mid
    p = json.loads(plan(ctl, level, disks, chunk, spans, hi * M, fs).stdout)
    ok, out = mkfs_ok(p["filesystem"]["mkfs_argv"], p["partition"]["size_bytes"])
    said = []
    if not ok:
        said.append(f"FAIL: {name}: smallest device {hi} MiB: mkfs refused "
                    f"{' '.join(p['filesystem']['mkfs_argv'])} on {p['partition']['size_bytes']} bytes: {out}")
    below = plan(ctl, level, disks, chunk, spans, lo * M, fs)
    if below.returncode != 2:
        said.append(f"FAIL: {name}: {lo} MiB: plan exited {below.returncode}, expected a refusal")
    return said

with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    for said in pool.map(smallest, smallest_jobs):
        smallest_checked += 1
        failures += len(said)
        for line in said:
            print(line)

print(f"{accepted} plans accepted by mkfs, {refused} refusals mkfs makes too, "
      f"{geometry} devices smaller than one aligned stripe; extremes: {extremes} arrays planned "
      f"(smallest device proven {smallest_checked} times, {ext4_ignored} ext4 widths above "
      f"{EXT4_STRIPE_MAX_BLOCKS} blocks), {xfs_width_refused} XFS widths above 2^31 - 1 bytes "
      f"refused, {beyond_refused} arrays one past a profile's limit refused, {array_refused} "
      f"refused by the level's rules")
sys.exit(1 if failures else 0)
EOF
finish
