#!/usr/bin/python3
"""tests/check_docs_links.py — every relative link in the project's Markdown goes somewhere: the
file exists, and its #anchor is a heading there (GitHub's slugs) or an explicit <a id>/<a name>.
An explicit anchor kept for a heading with another slug (alone on a line just before or after
it, or inside the heading's line) is an old name of a renamed heading ("<a
id="the-fuzz-target"></a>" above "## The fuzz targets"): a link to it is reported too, as the
heading's own anchor is the one to use.

    python3 tests/check_docs_links.py [ROOT]        (Meson: test 'docs_links', suite 'docs')
    python3 tests/check_docs_links.py --self-test   (Meson: test 'docs_links_self'): the checker
                                                    finds each kind of broken link in a small tree

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

ROOT_ARG = sys.argv[1] if len(sys.argv) > 1 else None
ROOT = os.path.abspath(ROOT_ARG) if ROOT_ARG and ROOT_ARG != "--self-test" else \
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
    text = "".join(p.strip("`") if p.startswith("`") else re.sub(r"<[^>]+>", "", p) for p in parts).strip().lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_ " or cat[0] in "LN":
            out.append("-" if ch == " " else ch)
    return "".join(out)


_anchors = {}


ALONE = re.compile(r"\s*(?:<a\s+(?:id|name)=\"[^\"]+\"\s*>\s*</a>\s*)+")


def anchors(path):
    """{anchor: None for a heading's slug or a standalone explicit anchor, or the slug of the
    heading an explicit anchor is kept for when that slug differs: the old name of a renamed
    heading. An anchor is kept for a heading when it stands alone on a line just before it (blank
    lines between), inside the heading's own line, or alone on a line after it with blank lines
    around (one that the next line follows directly names that line: a table, a paragraph).}"""
    if path not in _anchors:
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f]
        found, seen, pending = {}, {}, []
        heading = None  # the last heading's slug while only blank lines and anchors follow it
        fence = None
        for i, line in enumerate(lines):
            m = re.match(r"^\s*(```+|~~~+)", line)
            if m:
                fence = None if fence else m.group(1)[0]
                pending, heading = [], None
                continue
            if fence:
                continue
            ids = ANCHOR.findall(line)
            h = HEADING.match(line)
            if h:
                s = slug(h.group(2))
                n = seen.get(s, 0)
                seen[s] = n + 1
                s = s if n == 0 else f"{s}-{n}"
                found[s] = None
                for a in pending + ids:
                    if a != s:
                        found[a] = s
                pending, heading = [], s
                continue
            alone = bool(ALONE.fullmatch(line))
            below = alone and heading and (i + 1 == len(lines) or not lines[i + 1].strip())
            for a in ids:
                found.setdefault(a, heading if below and a != heading else None)
            if alone:
                pending += ids  # an anchor alone on its line: it names what follows
            elif line.strip():
                pending, heading = [], None
        _anchors[path] = found
    return _anchors[path]


def main():
    if ROOT_ARG == "--self-test":
        return self_test()
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
                    found = anchors(dest)
                    if anchor not in found:
                        broken.append(f"{where}: {os.path.relpath(dest, ROOT)} has no heading or anchor "
                                      f"'#{anchor}'")
                    elif found[anchor]:
                        broken.append(f"{where}: '#{anchor}' is an old name kept for the heading "
                                      f"'#{found[anchor]}' in {os.path.relpath(dest, ROOT)}: link to the heading")
    for b in broken:
        print(b)
    if broken:
        print(f"docs_links: {len(broken)} of {links} relative links broken")
        return 1
    print(f"docs_links: {links} relative links, {with_anchor} with an anchor: all resolve")
    return 0


# The self-test's tree: each link of a.md with the report it must get ("" for none).
SELF_TEST = {
    "b.md": "# Title\n\n<a id=\"old-name\"></a>\n\n## New name\n\n<a id=\"table-row\"></a>\n| a | b |\n\n"
            "## Twice\n\n## Twice\n\n```\n## Not a heading\n```\n\n## Third <a id=\"inline-old\"></a>\n\n"
            "## Fourth\n\n<a id=\"below-old\"></a>\n\ntext\n",
    "a.md": "[ok](b.md#new-name) [ok](b.md#table-row) [ok](b.md#twice-1) [ok](#here) [ok](b.md#third)\n\n"
            "## Here\n\n"
            "[renamed](b.md#old-name) [missing](b.md#nothing) [file](c.md) [fenced](b.md#not-a-heading) "
            "[inline](b.md#inline-old) [below](b.md#below-old)\n",
}
SELF_TEST_WANT = [
    "a.md:5: [renamed](b.md#old-name): '#old-name' is an old name kept for the heading '#new-name' in b.md: "
    "link to the heading",
    "a.md:5: [missing](b.md#nothing): b.md has no heading or anchor '#nothing'",
    "a.md:5: [file](c.md): no such file c.md",
    "a.md:5: [fenced](b.md#not-a-heading): b.md has no heading or anchor '#not-a-heading'",
    "a.md:5: [inline](b.md#inline-old): '#inline-old' is an old name kept for the heading '#third' in b.md: "
    "link to the heading",
    "a.md:5: [below](b.md#below-old): '#below-old' is an old name kept for the heading '#fourth' in b.md: "
    "link to the heading",
    "docs_links: 6 of 11 relative links broken",
]


def self_test():
    """The checker on SELF_TEST's tree: exactly SELF_TEST_WANT's reports, exit 1."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in SELF_TEST.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
        r = subprocess.run([sys.executable, os.path.abspath(__file__), tmp], capture_output=True, text=True)
    got = r.stdout.splitlines()
    if r.returncode != 1 or got != SELF_TEST_WANT:
        print(f"docs_links --self-test: status {r.returncode}, reports:\n" + "\n".join(got) + "\nwanted status 1 and:\n" +
              "\n".join(SELF_TEST_WANT) + (f"\n{r.stderr}" if r.stderr else ""))
        return 1
    print(f"docs_links --self-test: the {len(SELF_TEST_WANT) - 1} broken links found, the 5 good ones passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
