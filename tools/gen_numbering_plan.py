#!/usr/bin/env python3
"""Generate Sources/FlintCore/Phone/NumberingPlan.swift from libphonenumber metadata.

Usage:
    pip install phonenumbers
    python3 tools/gen_numbering_plan.py            # writes the Swift file
    python3 tools/gen_numbering_plan.py --check    # also cross-checks regions against phonenumbers (~30 s)

What is emitted (all as compact text tables parsed once at run time):

* For every country calling code: the possible national-number lengths (union of
  the regions' general-descriptor possible lengths, minus every length that is
  only dialable locally in one of them, and any length that would exceed
  E.164's 15 digits), and the ISO regions sharing the code,
  main region first. Non-geographic codes (+800, +882, ...) have no region.
* For calling codes shared by several regions: a prefix table that picks the
  region of a national number by longest prefix. It is derived from the same
  rule libphonenumber uses (regions tried in order; a region with "leading
  digits" claims numbers starting with them, any other region claims the numbers
  matching one of its number-type patterns) by walking the digit trie and asking,
  for each prefix, which regions can still match. Prefixes that resolve to the
  main region are left out (it is the default).

The output is deterministic for a given phonenumbers version.
"""

import os
import random
import re
import sys

import phonenumbers
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE
from phonenumbers.phonemetadata import PhoneMetadata

NUMBER_TYPES = (
    "fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost",
    "personal_number", "voip", "pager", "uan", "voicemail",
)
MAX_DEPTH = 6  # deepest prefix examined; beyond it the first candidate region wins
DIGITS = "0123456789"
OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..",
    "Sources", "FlintCore", "Phone", "NumberingPlan.swift",
)


# --- A tiny regex engine for the subset libphonenumber uses -----------------
# Syntax: digits, \d, [..] classes with ranges, (?:..) and (..) groups, |,
# and the quantifiers ?, *, +, {n}, {n,}, {n,m}. Patterns are compiled to a
# Thompson NFA so that we can ask "can this prefix still be completed?".

class _Parser:
    def __init__(self, pattern):
        self.s, self.i = pattern, 0

    def parse(self):
        node = self._alt()
        if self.i != len(self.s):
            raise ValueError(f"unexpected {self.s[self.i]!r} in {self.s!r}")
        return node

    def _peek(self):
        return self.s[self.i] if self.i < len(self.s) else None

    def _alt(self):
        options = [self._seq()]
        while self._peek() == "|":
            self.i += 1
            options.append(self._seq())
        return ("alt", options) if len(options) > 1 else options[0]

    def _seq(self):
        items = []
        while self._peek() not in (None, "|", ")"):
            items.append(self._quantified(self._atom()))
        return ("seq", items)

    def _atom(self):
        c = self.s[self.i]
        self.i += 1
        if c == "(":
            if self.s.startswith("?:", self.i):
                self.i += 2
            node = self._alt()
            if self._peek() != ")":
                raise ValueError(f"unbalanced group in {self.s!r}")
            self.i += 1
            return node
        if c == "\\":
            e = self.s[self.i]
            self.i += 1
            if e == "d":
                return ("set", frozenset(DIGITS))
            if e in DIGITS:
                raise ValueError("back-references are not supported")
            return ("set", frozenset(e))
        if c == "[":
            chars = set()
            while self.s[self.i] != "]":
                lo = self.s[self.i]
                if lo == "\\" and self.s[self.i + 1] == "d":
                    chars |= set(DIGITS)
                    self.i += 2
                    continue
                if self.s[self.i + 1] == "-" and self.s[self.i + 2] != "]":
                    hi = self.s[self.i + 2]
                    chars |= {chr(x) for x in range(ord(lo), ord(hi) + 1)}
                    self.i += 3
                else:
                    chars.add(lo)
                    self.i += 1
            self.i += 1
            return ("set", frozenset(chars))
        if c in DIGITS:
            return ("set", frozenset(c))
        raise ValueError(f"unsupported {c!r} in {self.s!r}")

    def _quantified(self, node):
        while True:
            c = self._peek()
            if c == "?":
                lo, hi = 0, 1
            elif c == "*":
                lo, hi = 0, None
            elif c == "+":
                lo, hi = 1, None
            elif c == "{":
                end = self.s.index("}", self.i)
                body = self.s[self.i + 1:end]
                if "," in body:
                    a, b = body.split(",")
                    lo, hi = int(a), (int(b) if b else None)
                else:
                    lo = hi = int(body)
                self.i = end
            else:
                return node
            self.i += 1
            node = ("rep", node, lo, hi)


class Nfa:
    """Thompson NFA: `eps[s]` epsilon moves, `moves[s]` (charset, target)."""

    def __init__(self, pattern):
        self.eps, self.moves = [], []
        self.start = self._new()
        self.accept = self._build(_Parser(pattern).parse(), self.start)

    def _new(self):
        self.eps.append([])
        self.moves.append([])
        return len(self.eps) - 1

    def _build(self, node, start):
        kind = node[0]
        if kind == "set":
            end = self._new()
            self.moves[start].append((node[1], end))
            return end
        if kind == "seq":
            for item in node[1]:
                start = self._build(item, start)
            return start
        if kind == "alt":
            end = self._new()
            for option in node[1]:
                s = self._new()
                self.eps[start].append(s)
                self.eps[self._build(option, s)].append(end)
            return end
        _, inner, lo, hi = node
        for _ in range(lo):
            start = self._build(inner, start)
        if hi is None:  # loop
            loop = self._new()
            self.eps[start].append(loop)
            self.eps[self._build(inner, loop)].append(loop)
            return loop
        end = self._new()
        self.eps[start].append(end)
        for _ in range(hi - lo):
            start = self._build(inner, start)
            self.eps[start].append(end)
        return end

    def closure(self, states):
        seen, stack = set(states), list(states)
        while stack:
            for t in self.eps[stack.pop()]:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return frozenset(seen)

    def initial(self):
        return self.closure([self.start])

    def step(self, states, digit):
        return self.closure([t for s in states for (cs, t) in self.moves[s] if digit in cs])

    def remaining_lengths(self, limit=17):
        """For each state, the set of input lengths (<= limit) leading from it to acceptance."""
        rem = [set() for _ in self.eps]
        rem[self.accept].add(0)
        changed = True
        while changed:
            changed = False
            for s in range(len(self.eps)):
                new = set(rem[s])
                for t in self.eps[s]:
                    new |= rem[t]
                for _, t in self.moves[s]:
                    new |= {k + 1 for k in rem[t] if k < limit}
                if new != rem[s]:
                    rem[s] = new
                    changed = True
        return rem



# --- Metadata ------------------------------------------------------------------

def metadata(region, code):
    if region == "001":
        return PhoneMetadata.metadata_for_nongeo_region(code)
    return PhoneMetadata.metadata_for_region(region)


def possible_lengths(code, regions):
    lengths, local_only = set(), set()
    for region in regions:
        desc = metadata(region, code).general_desc
        lengths |= {n for n in desc.possible_length or () if n > 0}
        local_only |= set(desc.possible_length_local_only or ())
    # E.164 allows 15 digits in all, calling code included.
    return sorted(n for n in lengths - local_only if len(str(code)) + n <= 15)


class RegionMatcher:
    """How libphonenumber decides that a national number belongs to a region."""

    def __init__(self, region, code, lengths):
        md = metadata(region, code)
        self.region = region
        self.lengths = set(lengths)
        self.leading = re.compile(md.leading_digits) if md.leading_digits else None
        if md.leading_digits:
            pattern = f"(?:{md.leading_digits})\\d*"
        else:
            parts = []
            for name in NUMBER_TYPES:
                desc = getattr(md, name)
                if desc is not None and desc.national_number_pattern:
                    parts.append(f"(?:{desc.national_number_pattern})")
            pattern = "|".join(parts)
        self.nfa = Nfa(pattern)
        self.remaining = self.nfa.remaining_lengths()

    def viable(self, states, consumed):
        """True when some completion of a `consumed`-digit prefix in `states` has a valid length."""
        return any(consumed + k in self.lengths for s in states for k in self.remaining[s])

    def certain(self, prefix):
        """True when every number starting with `prefix` is claimed by this region."""
        return self.leading is not None and self.leading.match(prefix) is not None


def resolve(matchers, prefix, states):
    """Region claiming every number under `prefix` (None: no number can match), or a dict of children."""
    alive = [i for i, m in enumerate(matchers) if m.viable(states[i], len(prefix))]
    if not alive:
        return None
    first = matchers[alive[0]]
    if len(alive) == 1 or first.certain(prefix) or len(prefix) >= MAX_DEPTH:
        return first.region
    children = {}
    for d in DIGITS:
        next_states = [m.nfa.step(s, d) if s else s for m, s in zip(matchers, states)]
        children[d] = resolve(matchers, prefix + d, next_states)
    values = list(children.values())
    if all(isinstance(v, str) or v is None for v in values):
        regions = {v for v in values if v is not None}
        if len(regions) == 1:
            return regions.pop()
    return children


def flatten(tree, prefix, main, out):
    if isinstance(tree, dict):
        for d in DIGITS:
            flatten(tree[d], prefix + d, main, out)
    elif tree is not None and tree != main:
        out.setdefault(tree, []).append(prefix)


def region_prefixes(code, regions, lengths):
    matchers = [RegionMatcher(r, code, lengths) for r in regions]
    tree = resolve(matchers, "", [m.nfa.initial() for m in matchers])
    out = {}
    flatten(tree, "", regions[0], out)
    return [(r, sorted(out[r])) for r in regions if r in out]


def lookup(table, main, national):
    for region, prefixes in table:
        if any(national.startswith(p) for p in prefixes):
            return region
    return main


# --- Output --------------------------------------------------------------------

def generate():
    codes_lines, prefix_lines = [], []
    tables = {}
    for code in sorted(COUNTRY_CODE_TO_REGION_CODE):
        regions = [r for r in COUNTRY_CODE_TO_REGION_CODE[code] if r != "001"]
        lengths = possible_lengths(code, COUNTRY_CODE_TO_REGION_CODE[code])
        codes_lines.append(" ".join([str(code), ",".join(map(str, lengths))] + regions))
        if len(regions) > 1:
            table = region_prefixes(code, regions, lengths)
            tables[code] = table
            for region, prefixes in table:
                line = [str(code), region]
                for prefix in prefixes:  # wrap long lists; lines of one region add up
                    if len(" ".join(line + [prefix])) > 120:
                        prefix_lines.append(" ".join(line))
                        line = [str(code), region]
                    line.append(prefix)
                prefix_lines.append(" ".join(line))
    version = phonenumbers.__version__

    def block(lines):
        return "\n".join("        " + line for line in lines)

    swift = f'''// Generated by tools/gen_numbering_plan.py from phonenumbers {version}. Do not edit.
// Regenerate with: pip install phonenumbers==<version> && python3 tools/gen_numbering_plan.py

/// Numbering-plan data derived from libphonenumber metadata.
enum NumberingPlan {{
    /// Version of the `phonenumbers` package the tables come from.
    static let metadataVersion = "{version}"

    /// One line per country calling code: `code lengths regions...`.
    /// `lengths` lists the possible national-number lengths (comma separated);
    /// the main region comes first; non-geographic codes have no region.
    static let callingCodes = """
{block(codes_lines)}
        """

    /// Region choice for shared calling codes: `code region prefix...` (a region may span lines).
    /// A national number belongs to the region owning its longest listed prefix
    /// (prefixes of one code never nest); unlisted numbers belong to the main region.
    static let regionPrefixes = """
{block(prefix_lines)}
        """
}}
'''
    return swift, tables


def random_member(nfa, rng):
    """A random string of the NFA's language (walks digit by digit)."""
    states, text = nfa.initial(), ""
    while len(text) < 17:
        if nfa.accept in states and (len(text) >= 15 or rng.random() < 0.3):
            return text
        options = [d for d in DIGITS if nfa.step(states, d)]
        if not options:
            break
        d = rng.choice(options)
        states, text = nfa.step(states, d), text + d
    return text if nfa.accept in states else None


def check(tables):
    """Compare the prefix tables with phonenumbers' own region detection."""
    rng = random.Random(42)
    total = mismatches = 0
    for code, table in tables.items():
        regions = [r for r in COUNTRY_CODE_TO_REGION_CODE[code] if r != "001"]
        lengths = possible_lengths(code, regions)
        candidates = ["".join(rng.choice(DIGITS) for _ in range(rng.choice(lengths))) for _ in range(20000)]
        for region in regions:
            matcher = RegionMatcher(region, code, lengths)
            for _ in range(2000):
                member = random_member(matcher.nfa, rng)
                if member:
                    candidates.append(member)
        for national in candidates:
            try:
                num = phonenumbers.parse(f"+{code}{national}")
            except phonenumbers.NumberParseException:
                continue
            if national != phonenumbers.national_significant_number(num):
                continue  # phonenumbers stripped a national prefix; not the same number
            if not phonenumbers.is_valid_number(num) or len(national) not in lengths:
                continue
            expected = phonenumbers.region_code_for_number(num)
            got = lookup(table, regions[0], national)
            total += 1
            if expected != got:
                mismatches += 1
                if mismatches <= 20:
                    print(f"  +{code} {national}: phonenumbers {expected}, table {got}")
    print(f"checked {total} valid numbers, {mismatches} region mismatches")
    return mismatches == 0


def main():
    swift, tables = generate()
    with open(OUT_PATH, "w", encoding="utf-8") as f:
        f.write(swift)
    print(f"wrote {os.path.normpath(OUT_PATH)} ({len(swift.encode())} bytes)")
    if "--check" in sys.argv[1:]:
        sys.exit(0 if check(tables) else 1)


if __name__ == "__main__":
    main()
