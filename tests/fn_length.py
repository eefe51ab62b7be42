#!/usr/bin/env python3
"""Function length check: no function of src/**/*.c or cli/*.c may be longer
than LIMIT lines, except the ones ALLOWED below, each with its reason.

A function is found as the style writes it (Allman): a `{` alone at column 0
after the signature opens it, the next `}` at column 0 closes it, and its
length counts both of those lines.  The function's name is the identifier
before the first `(` of the signature (the lines above the `{` back to a
blank line or the end of the previous declaration), `__attribute__((...))`
aside; a `{` after a signature without `(` or ending in `=` (a struct, a
table) is not a function.

The test fails naming file:line, the function and its length for every
function over the limit that is not allowed, and for every allowed name that
is no longer found over the limit (take it off the list).

Usage: fn_length.py [ROOT] [--print]   (--print lists every function over
80 lines, longest first).
"""

import os
import re
import sys

LIMIT = 120

# function (where it is today): why it may be longer.  Keyed by name, so a
# function that moves to another file keeps its entry.
ALLOWED = {
    # src/ptx/run/ptx_exec.c
    "warp_loop": "the dispatch switch: one short case per opcode",
}

IDENT_CALL = re.compile(r"([A-Za-z_]\w*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)")


def signature_name(lines, brace):
    """The name of the function whose `{` is lines[brace], or None."""
    sig = []
    i = brace - 1
    while i >= 0:
        s = lines[i].rstrip()
        if not s.strip() or s.endswith(";") or s.endswith("}") \
                or s.endswith("*/") or s.startswith("#"):
            break
        sig.insert(0, s)
        i -= 1
    text = ATTRIBUTE.sub(" ", " ".join(sig)).strip()
    if not text or text.endswith("=") or "(" not in text:
        return None
    m = IDENT_CALL.search(text)
    return m.group(1) if m else None


def functions(path):
    """(name, first line, length) of every function of the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() == "{":
            name = signature_name(lines, i)
            j = i + 1
            while j < len(lines) and not lines[j].startswith("}"):
                j += 1
            if name is not None:
                out.append((name, i + 1, j - i + 1))
            i = j
        i += 1
    return out


def sources(root):
    for top in ("src", "cli"):
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            if top == "cli" and dirpath != base:
                continue
            for fn in sorted(filenames):
                if fn.endswith(".c"):
                    yield os.path.relpath(os.path.join(dirpath, fn), root)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    found = []
    for rel in sources(root):
        for name, line, length in functions(os.path.join(root, rel)):
            found.append((rel.replace(os.sep, "/"), line, name, length))
    if "--print" in argv:
        for rel, line, name, length in sorted(found, key=lambda f: -f[3]):
            if length > 80:
                print(f"{length:4d} {rel}:{line} {name}")
    bad = 0
    seen = set()
    for rel, line, name, length in found:
        if length <= LIMIT:
            continue
        if name in ALLOWED:
            seen.add(name)
            continue
        print(f"{rel}:{line}: {name} is {length} lines "
              f"(limit {LIMIT}): split it into helpers")
        bad += 1
    for name in sorted(set(ALLOWED) - seen):
        print(f"{name} is allowed over {LIMIT} lines ({ALLOWED[name]}) "
              f"but is not found over it: take it off ALLOWED in "
              f"tests/fn_length.py")
        bad += 1
    if bad:
        return 1
    print(f"fn_length: every function of src/ and cli/ is at most {LIMIT} "
          f"lines, {len(ALLOWED)} allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
