#!/usr/bin/python3
"""tests/check_docs_links.py — every relative link in the project's Markdown goes somewhere: the
file exists, and its #anchor is a heading there (GitHub's slugs) or an explicit <a id>/<a name>.

    python3 tests/check_docs_links.py [ROOT]        (Meson: test 'docs_links', suite 'docs')

Prints each broken link as FILE:LINE: [text](target): why, and exits 1 if there is any; else one
line with the number of links and anchors checked. Links to the web (http:, https:, mailto:) are
not followed; links inside code blocks and code spans are not links; a link whose text wraps
onto the next line is checked (paragraphs are read whole). Reference-style links are not used
in the project's Markdown and are not read.
"""

import os
import re
import sys
import unicodedata

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def markdown_files():
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build") and d not in
                   ("results", "subprojects", "node_modules")]
        for f in files:
            if f.endswith(".md"):
                yield os.path.join(top, f)


def prose_paragraphs(path):
    """(first line number, text) of each paragraph outside fenced code blocks, its lines joined
    with spaces (a link's text may wrap), code spans blanked; table rows and headings stand alone."""
    fence, para, first = None, [], 0

    def flush():
        text = " ".join(para)
        return first, re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), text)

    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^\s*(```+|~~~+)", line)
            if m or fence:
                if para:
                    yield flush()
                    para = []
                if m:
                    if fence is None:
                        fence = m.group(1)[0] * 3
                    elif line.strip().startswith(fence):
                        fence = None
                continue
            line = line.rstrip("\n")
            alone = line.lstrip().startswith(("|", "#")) or not line.strip()
            if alone and para:
                yield flush()
                para = []
            if not line.strip():
                continue
            if not para:
                first = n
            para.append(line.strip())
            if alone:
                yield flush()
                para = []
    if para:
        yield flush()


def slug(heading):
    """GitHub's anchor for a heading: its text lower-cased, markup and punctuation dropped (letters,
    digits, '-', '_' and spaces stay), spaces to '-'."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    # HTML tags go, but not inside code spans (`-Xmx<size>` is "-xmxsize")
    parts = re.split(r"(`+[^`]*`+)", text)
    text = "".join(p.strip("`") if p.startswith("`") else re.sub(r"<[^>]+>", "", p) for p in parts).lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_ " or cat[0] in "LN":
            out.append("-" if ch == " " else ch)
    return "".join(out)


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        fence = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^\s*(```+|~~~+)", line)
                if m:
                    fence = None if fence else m.group(1)[0]
                    continue
                if fence:
                    continue
                found.update(ANCHOR.findall(line))
                h = HEADING.match(line)
                if h:
                    s = slug(h.group(2))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    found.add(s if n == 0 else f"{s}-{n}")
        _anchors[path] = found
    return _anchors[path]


def main():
    broken, links, with_anchor = [], 0, 0
    for md in sorted(markdown_files()):
        for n, line in prose_paragraphs(md):
            targets = [(m.group(1), m.group(2)) for m in LINK.finditer(line)]
            targets += [("image", m.group(1)) for m in IMAGE.finditer(line)]
            for text, target in targets:
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                links += 1
                path, _, anchor = target.partition("#")
                dest = md if not path else os.path.normpath(os.path.join(os.path.dirname(md), path))
                where = f"{os.path.relpath(md, ROOT)}:{n}: [{text}]({target})"
                if not os.path.exists(dest):
                    broken.append(f"{where}: no such file {os.path.relpath(dest, ROOT)}")
                    continue
                if anchor:
                    with_anchor += 1
                    if not dest.endswith(".md"):
                        continue
                    if anchor not in anchors(dest):
                        broken.append(f"{where}: {os.path.relpath(dest, ROOT)} has no heading or anchor "
                                      f"'#{anchor}'")
    for b in broken:
        print(b)
    if broken:
        print(f"docs_links: {len(broken)} of {links} relative links broken")
        return 1
    print(f"docs_links: {links} relative links, {with_anchor} with an anchor: all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
