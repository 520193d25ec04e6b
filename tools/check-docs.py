#!/usr/bin/env python3
"""Holds the documents to the tree. Two checks, each a CTest test (label
`style`, tools/CMakeLists.txt):

  tools/check-docs.py citations
      Every file a document or a comment cites exists: a path such as
      `core/io/runfile.cpp` (from the top of the tree, or from the citing
      file's folder, or from any folder of the tree, as headers are
      included by bare name), or a bare `HACKING.md` or `collector.h` that
      some file of the tree is called; and a section cited as
      `docs/DESIGN.md, "Layers"` is a heading of that document (the
      heading begins with the words cited). Documents are the tracked *.md
      files and the man page; in code only comments are read.

  tools/check-docs.py suites BUILD_DIR [CTEST]
      HACKING.md's label table names every suite `ctest -N` lists in
      BUILD_DIR, in the row of each of its labels; and every suite the
      table names is registered here or, in a build that leaves it out
      (asan, tsan, no GUI), in a CMakeLists.txt of the tree.

Python 3 standard library only. Exit status 0 when all holds, 1 with one
line per fault.
"""

import fnmatch
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Names a document uses for a file that is meant not to be in the tree, each
# for its reason.
NOT_IN_THE_TREE = {
    # An example of what a change would add (HACKING.md).
    "core/loads/workers/fsync_storm.cpp",
    # Placeholders in a recipe (and any name with a word of PLACEHOLDER).
    "name.cpp",
    "name.h",
    "tst_name.cpp",
    # Other projects' sources, which latprobe follows or includes.
    "interbench.c",
    "cyclictest.c",
    "massive_intr.c",
    "tracefs.h",
    "qcustomplot.h",
    # Generated into the build tree (core/io/embedscenarios.cmake).
    "builtinscenarios.cpp",
}

PLACEHOLDER = re.compile(r"(?:^|[/_.-])(?:NAME|DATE|KIND|FILE|PID)(?:[/_.-]|$)")
EXTENSIONS = "md|cpp|h|c|py|sh|cmake|supp|txt|in|json|xml|desktop|svg|png"
# A path-like word ending in one of those: `dir/name.ext` or `name.ext`.
CITATION = re.compile(
    r"(?<![\w/.~$<*-])((?:[\w.+-]+/)*[\w+-][\w.+-]*\.(?:%s))(?![\w/*>-])" % EXTENSIONS
)
# Bare names are checked only for the kinds of file a tree holds a few
# of; `run.json`, `build.json`, `A.json` and their like are examples.
BARE_CHECKED = {"md", "cpp", "h", "c", "py", "sh", "cmake", "supp"}
CODE_COMMENT = {
    ".cpp": "//",
    ".h": "//",
    ".c": "//",
    ".py": "#",
    ".sh": "#",
    ".cmake": "#",
    ".txt": "#",  # CMakeLists.txt
    ".supp": "#",
    ".clang-tidy": "#",
    ".clang-format": "#",
}


def tracked_files():
    try:
        git = os.environ.get("CHECK_DOCS_GIT", "git")
        out = subprocess.run(
            [git, "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.split("\n")[:-1]
    except OSError:
        pass  # no git at all: a fresh Debian 12 has none (seen on a debootstrap root)
    # Not a git checkout (a source tarball) or no git: walk it, leaving out builds.
    files = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if not d.startswith(("build", ".git"))]
        for f in filenames:
            files.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    return files


def comment_text(path, text):
    """The comments of a source file; a document whole."""
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1] if name not in CODE_COMMENT else name
    marker = CODE_COMMENT.get(ext)
    if path.endswith((".md", ".1.in")) or marker is None and not path.startswith(".ci/"):
        return text if path.endswith((".md", ".1.in")) else ""
    if marker is None:  # .ci/run and other shell scripts without an extension
        marker = "#"
    lines = []
    in_block = False
    for line in text.split("\n"):
        if marker == "//":
            # /* ... */ blocks, then // to the end of the line.
            while True:
                if in_block:
                    end = line.find("*/")
                    lines.append(line if end < 0 else line[:end])
                    if end < 0:
                        break
                    line = line[end + 2 :]
                    in_block = False
                start = line.find("/*")
                slash = line.find("//")
                if start >= 0 and (slash < 0 or start < slash):
                    line = line[start + 2 :]
                    in_block = True
                    continue
                if slash >= 0:
                    lines.append(line[slash + 2 :])
                break
        else:
            hash_at = line.find("#")
            if hash_at >= 0 and not line.startswith("#!"):
                lines.append(line[hash_at + 1 :])
    if path.endswith(".py"):
        # Docstrings cite files too (usage lines).
        lines.extend(re.findall(r'"""(.*?)"""', text, re.S))
    return "\n".join(lines)


# `docs/DESIGN.md`, "Layers" or (docs/DESIGN.md, "Who delayed me"), the
# quoted words possibly wrapped over comment lines.
SECTION = re.compile(r"([\w./-]+\.md)`?,?\s+\"([^\"]{1,100})\"")


def headings(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return [line.lstrip("#").strip() for line in f if line.startswith("#")]


def section_faults(path, body, tracked):
    faults = []
    for doc, section in SECTION.findall(body):
        section = " ".join(section.split())
        found = [f for f in tracked if f == doc or f.endswith("/" + doc)]
        if not found:
            continue  # the file check reports it
        if not any(h.startswith(section) for f in found for h in headings(f)):
            faults.append(f"{path}: cites section \"{section}\" of {doc}, which has no such "
                          f"heading")
    return faults


def citations(files):
    tracked = set(files)
    basenames = {os.path.basename(f) for f in files}
    top = {f.split("/")[0] for f in files if "/" in f}
    faults = []
    for path in files:
        if not os.path.isfile(os.path.join(ROOT, path)):
            continue
        if "/fuzz/corpus/" in path or path.startswith("tests/fixtures/"):
            continue
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        body = comment_text(path, text)
        if not body:
            continue
        here = os.path.dirname(path)
        # Comment markers between wrapped lines would split a quoted section.
        flat = re.sub(r"\n\s*(//|#|\*)?", " ", body)
        faults.extend(section_faults(path, flat, tracked))
        for lineno_text in set(CITATION.findall(body)):
            cited = lineno_text.rstrip(".")
            if cited in NOT_IN_THE_TREE or PLACEHOLDER.search(cited):
                continue
            ext = cited.rsplit(".", 1)[1]
            if cited.startswith("./") and ext not in BARE_CHECKED:
                continue  # ./s.json: an example file in the working directory
            if "/" not in cited:
                if ext in BARE_CHECKED and cited not in basenames:
                    faults.append(f"{path}: cites {cited}, which no file of the tree is called")
                continue
            first = cited.split("/")[0]
            if first not in top and first not in (".", "..") and not os.path.exists(
                os.path.join(ROOT, here, first)
            ):
                continue  # /usr/..., build/..., ~/...: not the tree's
            candidates = [
                os.path.normpath(cited),
                os.path.normpath(os.path.join(here, cited)),
            ]
            if any(c in tracked or os.path.isdir(os.path.join(ROOT, c)) for c in candidates):
                continue
            if any(f.endswith("/" + cited) for f in tracked):
                continue
            faults.append(f"{path}: cites {cited}, which does not exist")
    return sorted(faults)


def label_table():
    """HACKING.md's `| label | what | suites |` rows: {label: [names]}."""
    with open(os.path.join(ROOT, "HACKING.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    rows = {}
    inside = False
    for line in lines:
        if re.match(r"^\|\s*label\s*\|\s*what\s*\|\s*suites\s*\|", line):
            inside = True
            continue
        if inside:
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip("|").split("|")]
            if set(cells[0]) <= {"-", ":", " "}:
                continue
            label = cells[0].strip("`")
            rows[label] = re.findall(r"`([\w*]+)`", cells[-1])
    return rows


def suites(build_dir, ctest):
    rows = label_table()
    if not rows:
        return ["HACKING.md: no `| label | what | suites |` table found"]
    out = subprocess.run(
        [ctest, "--test-dir", build_dir, "-N", "--show-only=json-v1"],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        return [f"{ctest} -N in {build_dir} failed: {out.stderr.strip()}"]
    registered = {}
    for test in json.loads(out.stdout).get("tests", []):
        labels = []
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                labels = prop.get("value", [])
        registered[test["name"]] = labels
    faults = []

    def listed(name, label):
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in rows.get(label, []))

    for name, labels in sorted(registered.items()):
        if not labels:
            faults.append(f"suite {name} has no label (latprobe_add_test(... LABELS ...))")
        for label in labels:
            if label not in rows:
                faults.append(f"HACKING.md's label table has no row for label {label} ({name})")
            elif not listed(name, label):
                faults.append(f"HACKING.md's label table does not list {name} under {label}")
    # A suite is named in a CMakeLists.txt, or by its source (fuzz_runfile.cpp).
    cmake_text = ""
    sources = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if not d.startswith(("build", ".git"))]
        sources.update(filenames)
        if "CMakeLists.txt" in filenames:
            with open(os.path.join(dirpath, "CMakeLists.txt"), encoding="utf-8") as f:
                cmake_text += f.read()
    for label, names in sorted(rows.items()):
        for name in names:
            if any(fnmatch.fnmatchcase(r, name) and label in ls for r, ls in registered.items()):
                continue
            if name in registered:
                faults.append(
                    f"HACKING.md lists {name} under {label}; its labels are "
                    f"{', '.join(registered[name]) or 'none'}"
                )
            elif "*" not in name and not (
                re.search(r"\b%s\b" % re.escape(name), cmake_text) or name + ".cpp" in sources
            ):
                faults.append(f"HACKING.md lists {name} under {label}, a suite that does not exist")
    return faults


def main(argv):
    if len(argv) >= 2 and argv[1] == "citations":
        faults = citations(tracked_files())
        what = "every cited file exists"
    elif len(argv) >= 3 and argv[1] == "suites":
        faults = suites(argv[2], argv[3] if len(argv) > 3 else "ctest")
        what = "HACKING.md's label table names every suite"
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for fault in faults:
        print(f"check-docs.py: {fault}")
    if faults:
        return 1
    print(f"check-docs.py: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
