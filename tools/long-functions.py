#!/usr/bin/env python3
"""Lists the functions in latprobe's C++ sources that are over a length.

    tools/long-functions.py                  core/, app/ and ui/, over 80 lines
    tools/long-functions.py --max 60 ui      another length, other folders

A function counts from its signature's first line to its closing brace.
One whose comment above says "Long on purpose: <why>" is listed apart, as
reasoned; the exit status is 1 when any other is over the length, so the
list can gate a change.

It counts braces in the text with comments, strings and character literals
blanked out, rather than parsing C++: good enough for this tree's
formatting (clang-format's), not for macros that open or close scopes.
"""

import argparse
import pathlib
import re
import sys

REASON = "Long on purpose:"
SOURCES = (".cpp", ".h", ".c")


def blank_out(text):
    """The text with comments, strings and char literals replaced by spaces
    (newlines kept, so offsets and line numbers stay the same)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == "R" and text.startswith('R"', i) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            delim = text[i + 2:text.find("(", i + 2)]
            j = text.find(")" + delim + '"', i)
            j = n if j < 0 else j + len(delim) + 2
        elif c in "\"'":
            # A digit separator (1'000'000) is not a character literal; a
            # prefixed one (u'A', L'x') is: the token before it is no number.
            start = i
            while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
                start -= 1
            if (c == "'" and start < i and text[start].isdigit() and i + 1 < n
                    and text[i + 1].isalnum()):
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            out.append(c)
            i += 1
            continue
        out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
        i = j
    return "".join(out)


# What may stand between a function's ")" and its "{": qualifiers, a
# trailing return type, a constructor's initialisers.
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^;()]*$|\bextern\s+\"?C?\"?\s*$")
CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|return)\s*$")


def head_of(code, brace):
    """The text from the previous statement's end up to `brace`."""
    start = max(code.rfind(";", 0, brace), code.rfind("}", 0, brace), code.rfind("{", 0, brace))
    # A constructor's initialisers hold braces: m_x{1}, m_y{}. Step back over them.
    while start >= 0 and code[start] in "{}":
        head = code[start + 1:brace]
        if code[start] == "}" and re.match(r"^\s*[,)]", head):
            opening = matching_open(code, start)
            if opening is None:
                break
            start = max(code.rfind(";", 0, opening), code.rfind("}", 0, opening),
                        code.rfind("{", 0, opening))
            continue
        break
    return start + 1, code[start + 1:brace]


def matching_open(code, close):
    depth = 0
    for k in range(close, -1, -1):
        if code[k] == "}":
            depth += 1
        elif code[k] == "{":
            depth -= 1
            if depth == 0:
                return k
    return None


def is_function(head):
    h = " ".join(head.split())
    if not h or "(" not in h or h.startswith("#"):
        return False
    if SCOPE.search(h) or CONTROL.search(h):
        return False
    if re.search(r"=\s*$", h) or re.search(r"\[[^\]]*\]\s*(\([^)]*\))?\s*(mutable\s*)?(->[^{]*)?$", h):
        return False  # an initialiser or a lambda
    # The last top-level ")" ends the parameters, or a constructor's last
    # initialiser; whatever follows must be qualifiers or a return type.
    tail = h[h.rfind(")") + 1:]
    return re.fullmatch(r"\s*((const|noexcept|override|final|volatile|mutable|&|&&)\s*)*(->\s*[\w:<>,\s*&]+)?\s*", tail) is not None


def functions(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    code = blank_out(text)
    lines = text.splitlines()
    found = []
    stack = []  # for each open brace: True when it opens a function body
    inside = 0  # function bodies open
    for k, c in enumerate(code):
        if c == "{":
            opens = False
            if inside == 0:
                start, head = head_of(code, k)
                opens = is_function(head)
                if opens:
                    first = start + len(head) - len(head.lstrip())
                    begin = code.count("\n", 0, first) + 1
                    name = re.search(r"([~\w:]+(<[^()]*>)?|operator\S+)\s*\(", " ".join(head.split()))
                    found.append([begin, None, name.group(1) if name else "?"])
            stack.append(opens)
            inside += opens
        elif c == "}" and stack:
            if stack.pop():
                inside -= 1
                if inside == 0:
                    found[-1][1] = code.count("\n", 0, k) + 1
    result = []
    for begin, end, name in found:
        if end is None:
            continue
        above = []
        for line in reversed(lines[:begin - 1]):
            if not line.strip().startswith("//"):
                break
            above.append(line)
        reason = next((l.split(REASON, 1)[1].strip() for l in above if REASON in l), None)
        result.append((end - begin + 1, begin, name, reason))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", default=["core", "app", "ui"])
    parser.add_argument("--max", type=int, default=80, help="longest allowed (80)")
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    long_ones, reasoned = [], []
    for folder in args.folders:
        base = pathlib.Path(folder)
        base = base if base.is_absolute() else root / base
        paths = [base] if base.is_file() else base.rglob("*")
        for path in sorted(p for p in paths if p.suffix in SOURCES):
            for length, line, name, reason in functions(path):
                if length > args.max:
                    where = f"{path.relative_to(root)}:{line}"
                    (reasoned if reason else long_ones).append((length, where, name, reason))
    for length, where, name, _ in sorted(long_ones, reverse=True):
        print(f"{length:5d}  {where}  {name}")
    if reasoned:
        print(f"reasoned ({REASON}):")
        for length, where, name, reason in sorted(reasoned, reverse=True):
            print(f"{length:5d}  {where}  {name}: {reason}")
    return 1 if long_ones else 0


if __name__ == "__main__":
    sys.exit(main())
