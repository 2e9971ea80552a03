# shellcheck shell=bash
# What the check tests ask of a `check --format json` report: sourced by
# tests/device/check-findings.sh and tests/device/stack-check.sh after
# lib.bash ($WORK, checks, fail).

# json_check CMD...: runs a --format json check into $WORK/json (any exit code)
json_check() {
	sp check "$@" --format json >"$WORK/json" 2>"$WORK/err" || true
}

# finding CODE SEVERITY: the last JSON report has that finding with that severity
finding() {
	checks=$((checks + 1))
	python3 - "$WORK/json" "$1" "$2" <<'EOF' || fail "no $2 finding '$1': $(cat "$WORK/json")"
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if any(f["code"] == sys.argv[2] and f["severity"] == sys.argv[3]
                  for f in r["findings"]) else 1)
EOF
}

# no_finding CODE: the last JSON report has no finding with that code
no_finding() {
	checks=$((checks + 1))
	python3 - "$WORK/json" "$1" <<'EOF' || fail "unexpected finding '$1': $(cat "$WORK/json")"
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(1 if any(f["code"] == sys.argv[2] for f in r["findings"]) else 0)
EOF
}

# cost CODE WRITE READ: the finding's cost, to two decimals
cost() {
	checks=$((checks + 1))
	python3 - "$WORK/json" "$1" "$2" "$3" <<'EOF' || fail "cost of '$1' is not $2/$3: $(cat "$WORK/json")"
import json, sys
r = json.load(open(sys.argv[1]))
f = [f for f in r["findings"] if f["code"] == sys.argv[2]]
c = f[0]["cost"] if f else None
sys.exit(0 if c and "%.2f" % c["write_ratio"] == sys.argv[3] and
         "%.2f" % c["read_ratio"] == sys.argv[4] else 1)
EOF
}
