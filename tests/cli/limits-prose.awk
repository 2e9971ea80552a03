# The numbers the docs write beside a cite of the limits table must be the
# cited rows' own (issue 23 item 4: no hand-typed limit in prose that the
# code does not hold).  Input: `limits-doc --rows`, then the docs
# (stripeplan.8 as roff, README.md as Markdown).
#
# A cite is "limits row ID" or "limits rows ID, ID and ID".  Its scope is
# the text before it, back to the start of its sentence or to the end of
# the cite before it in the same sentence (the parenthesis a cite stands in
# ends with it: what follows the ids there is an example).  Every number there must be one the cited
# rows hold:
#   - a bound (min or max), in the row's unit;
#   - for a row in bytes, a bound as a size ("300 MiB"), or the power of two
#     at or above it ("2 GiB" for 2147483647 bytes, "1 TiB" for 1 TiB less
#     a block: "under 2 GiB", "less one block");
#   - for a maximum of 2^N - 1, N ("16 bits"), and 2^N - 1 written so;
#   - for a release row, the release ("from 4.19"), a vendor's ("RHEL 8");
#   - a size or a release the row's own text states (in its release,
#     source or note: "xfsprogs 5.11", "32768 with 4 KiB blocks").
# Not numbers: digits inside a word (ext4, RAID6, el8, 0x1f), a man page
# section ("mkfs.xfs(8)"), a release string ("4.18.0-553.el8").
# Prints one line per failure and, last, "checked N"; exits 1 on a failure.

function unit_bytes(u)
{
	if (u == "KiB") return 1024
	if (u == "MiB") return 1048576
	if (u == "GiB") return 1073741824
	if (u == "TiB") return 1099511627776
	if (u == "KB") return 1000
	if (u == "MB") return 1000000
	if (u == "GB") return 1000000000
	if (u == "TB") return 1000000000000
	return 0
}

function pow2ceil(v,    p)
{
	p = 1
	while (p < v)
		p *= 2
	return p
}

# "2^32 - 1", "2^32 − 1" (U+2212), "2^16" -> their decimal value
function powers(s,    out, m, n, v)
{
	out = ""
	while (match(s, /2\^[0-9]+( ?(-|−) ?1)?/)) {
		m = substr(s, RSTART, RLENGTH)
		n = substr(m, 3) + 0
		v = 2 ^ n
		if (m ~ /1$/ && RLENGTH > length("2^" n))
			v -= 1
		out = out substr(s, 1, RSTART - 1) sprintf("%.0f", v)
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}

# The numbers of text as keys ("n:5.19", "b:314572800") into keys[1..k]
# and as written into toks[1..k]; returns k.
function numbers(text, keys, toks,    s, k, tok, pre, pre2, rest, post, u, uname)
{
	s = powers(text)
	k = 0
	while (match(s, /[0-9]+(\.[0-9]+)*/)) {
		tok = substr(s, RSTART, RLENGTH)
		pre = RSTART > 1 ? substr(s, RSTART - 1, 1) : " "
		pre2 = RSTART > 2 ? substr(s, RSTART - 2, 1) : " "
		rest = substr(s, RSTART + RLENGTH)
		post = substr(rest, 1, 1)
		s = rest
		if (pre ~ /[A-Za-z0-9_.\/-]/ || post ~ /[A-Za-z0-9_\/]/)
			continue
		if (post == "-" && substr(rest, 2, 1) ~ /[0-9]/)
			continue # a release string: 4.18.0-553.el8
		if (pre == "(" && post == ")" && pre2 ~ /[A-Za-z0-9_.]/)
			continue # a man page section: mkfs.xfs(8)
		uname = ""
		if (match(rest, /^ ?(KiB|MiB|GiB|TiB|KB|MB|GB|TB)/)) {
			uname = substr(rest, RSTART, RLENGTH)
			sub(/^ /, "", uname)
		}
		u = unit_bytes(uname)
		k++
		toks[k] = uname == "" ? tok : tok " " uname
		keys[k] = u ? "b:" sprintf("%.0f", tok * u) : "n:" tok
	}
	return k
}

function allow(id, key)
{
	allowed[id SUBSEP key] = 1
}

function row(    id, min, max, unit, bound, v, b, k, i, keys, toks)
{
	id = $1
	min = $2 + 0
	max = $3 + 0
	unit = $4
	known[id] = 1
	allow(id, "n:" $2)
	if (max)
		allow(id, "n:" $3)
	if (unit == "release")
		allow(id, "n:" int(min / 1000) "." (min % 1000))
	for (b = 1; b <= 2; b++) {
		v = b == 1 ? min : max
		if (!v)
			continue
		if (unit == "bytes") {
			allow(id, "b:" sprintf("%.0f", v))
			allow(id, "b:" sprintf("%.0f", pow2ceil(v)))
		}
		if (b == 2 && pow2ceil(v + 1) == v + 1)
			allow(id, "n:" sprintf("%.0f", log(v + 1) / log(2)))
	}
	# from its text, a size or a release only: a bare count there ("size <= 16")
	# would let the prose name it instead of the bound
	k = numbers($5, keys, toks)
	for (i = 1; i <= k; i++)
		if (keys[i] ~ /^b:/ || keys[i] ~ /\./)
			allow(id, keys[i])
}

# roff to text: the escapes the page uses, font changes dropped
function unroff(s)
{
	gsub(/\\\(mu/, "×", s)
	gsub(/\\\(ha/, "^", s)
	gsub(/\\\(en/, "–", s)
	gsub(/\\\(em/, "—", s)
	gsub(/\\\((lq|rq)/, "\"", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\[&|%]/, "", s)
	gsub(/\\[ ~]/, " ", s)
	gsub(/\\-/, "-", s)
	gsub(/\\e/, "\\", s)
	return s
}

# a macro line's text: ".BR mkfs.xfs (8)" -> "mkfs.xfs(8)"; ".B x y" -> "x y"
function macro_text(line,    name, args, out, q, c, i, sep)
{
	name = line
	sub(/[ \t].*/, "", name)
	args = line
	sub(/^[^ \t]*[ \t]*/, "", args)
	sep = name ~ /^\.(B|I|SM|SB)$/ ? " " : ""
	out = ""
	q = 0
	for (i = 1; i <= length(args); i++) {
		c = substr(args, i, 1)
		if (c == "\"")
			q = !q
		else if (c == " " && !q) {
			if (substr(out, length(out)) != sep)
				out = out sep
		} else
			out = out c
	}
	return out
}

function flush()
{
	if (para != "")
		check(para)
	para = ""
}

function add_text(t)
{
	gsub(/[ \t]+/, " ", t)
	sub(/^ /, "", t)
	para = para == "" ? t : para " " t
}

function report(msg)
{
	print FILENAME ": " msg
	failed = 1
}

# a cite's ids: "xfs-log-min, xfs-agsize" -> ids[1..n]; sets cite_len
function cite_ids(s, ids,    n, m, id)
{
	n = 0
	cite_len = 0
	while (match(s, n ? "^(, | and )[a-z0-9][a-z0-9-]*[a-z0-9]" : "^[a-z0-9][a-z0-9-]*[a-z0-9]")) {
		id = substr(s, RSTART, RLENGTH)
		sub(/^(, | and )/, "", id)
		if (n && !(id in known) && id !~ /-/)
			break # a plain word after the list (every row id has a dash)
		ids[++n] = id
		cite_len += RLENGTH
		s = substr(s, RSTART + RLENGTH)
		if (!plural)
			break
	}
	return n
}

function check(t,    from, at, scope, cut, i, j, n, k, ids, keys, toks, ok, names, opening, closing)
{
	from = 1
	while (match(substr(t, from), /limits rows? [a-z0-9]/)) {
		at = from + RSTART - 1
		plural = substr(t, at + 10, 1) == "s"
		n = cite_ids(substr(t, at + (plural ? 12 : 11)), ids)
		names = ""
		for (i = 1; i <= n; i++) {
			names = names (i > 1 ? ", " : "") ids[i]
			if (!(ids[i] in known))
				report("names limits row '" ids[i] "', which the table lacks")
		}
		scope = substr(t, from, at - from)
		# back to the start of the sentence: a full stop and a space
		while ((cut = index(scope, ". ")) > 0)
			scope = substr(scope, cut + 2)
		k = numbers(scope, keys, toks)
		for (j = 1; j <= k; j++) {
			checked++
			ok = 0
			for (i = 1; i <= n; i++)
				if ((ids[i] SUBSEP keys[j]) in allowed)
					ok = 1
			if (!ok)
				report("'" toks[j] "' beside limits row " names " is none of the row's numbers" \
				       " (in: ..." substr(scope, length(scope) > 100 ? length(scope) - 99 : 1) ")")
		}
		from = at + (plural ? 12 : 11) + cite_len
		# the rest of the cite's parenthesis is its example, not its numbers
		closing = index(substr(t, from), ")")
		opening = index(substr(t, from), "(")
		if (closing && (!opening || closing < opening))
			from += closing
	}
}

BEGIN {
	FS = "\t"
	BEGIN_MARK = ".\\\" BEGIN GENERATED LIMITS"
	END_MARK = ".\\\" END GENERATED LIMITS"
}

FNR == 1 && NR != 1 {
	flush()
	doc++
	generated = 0
}

doc == 0 {
	row()
	next
}

FILENAME ~ /\.[1-8]$/ {
	if (index($0, BEGIN_MARK) == 1) {
		flush()
		generated = 1
		next
	}
	if (index($0, END_MARK) == 1) {
		generated = 0
		next
	}
	if (generated || $0 ~ /^\.\\"/)
		next
	if ($0 ~ /^\.(B|I|BR|RB|BI|IB|IR|RI|SM|SB)([ \t]|$)/) {
		add_text(unroff(macro_text($0)))
		next
	}
	if ($0 ~ /^[.']/) { # any other request starts a new paragraph
		flush()
		next
	}
	add_text(unroff($0))
	next
}

# Markdown: a paragraph or a list item is one text; code is no prose
/^```/ {
	flush()
	code = !code
	next
}

code {
	next
}

{
	if ($0 ~ /^[ \t]*$/ || $0 ~ /^(#|[-*] |[0-9]+\. |\|)/)
		flush()
	if ($0 ~ /^[ \t]*$/ || $0 ~ /^(#|\|)/)
		next
	line = $0
	sub(/^([-*] |[0-9]+\. )/, "", line)
	gsub(/`/, "", line)
	add_text(line)
}

END {
	flush()
	print "checked " checked + 0
	exit failed
}
