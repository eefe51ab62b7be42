#!/usr/bin/env python3
"""Check warpmem HTML reports: each file must parse as XML (so it is
XHTML-compatible), be a self-contained page (no script, no external
resource), every drawing must be an SVG with a viewBox, and every link
must be an in-page anchor that resolves to an element id.
A report's source page (table.srcpage) must have one row (tr.src) per
line: as many as its data-lines attribute says, and with
--source-lines FILE as many as FILE has lines.
Usage: html_check.py [--source-lines FILE] FILE.html...
Exit 0 when every file passes."""
import sys
import xml.etree.ElementTree as ET

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def classes(el):
    return el.attrib.get("class", "").split()


def check_source_tables(root, want_lines):
    errors = []
    tables = [t for t in root.iter(XHTML + "table") if "srcpage" in classes(t)]
    if want_lines is None:
        return errors
    if not tables:
        return ["no source table (table.srcpage)"]
    counts = []
    for t in tables:
        rows = [r for r in t.iter(XHTML + "tr") if "src" in classes(r)]
        counts.append(len(rows))
        numbers = [r.find(XHTML + "td") for r in rows]
        text = ["".join(td.itertext()).strip() if td is not None else ""
                for td in numbers]
        if "data-lines" in t.attrib:
            want = int(t.attrib["data-lines"])
            if len(rows) != want:
                errors.append("source table has %d rows, data-lines says %d"
                              % (len(rows), want))
            if text != [str(i) for i in range(1, want + 1)]:
                errors.append("source rows are not numbered 1..%d" % want)
    if want_lines not in counts:
        errors.append("no source table has %d rows (one per source line); "
                      "row counts: %s" % (want_lines, counts))
    return errors


def check(path, want_lines=None):
    errors = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return ["not well-formed XML: %s" % e]
    if root.tag != XHTML + "html":
        errors.append("root element is %s, not XHTML html" % root.tag)
    head = root.find(XHTML + "head")
    body = root.find(XHTML + "body")
    if head is None or body is None:
        errors.append("missing head or body")
    elif head.find(XHTML + "title") is None or head.find(XHTML + "style") is None:
        errors.append("head lacks title or inline style")
    ids = set()
    links = []
    svgs = 0
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag in ("script", "link", "iframe", "img", "object", "embed"):
            errors.append("forbidden element <%s>" % tag)
        if "id" in el.attrib:
            if el.attrib["id"] in ids:
                errors.append("duplicate id %r" % el.attrib["id"])
            ids.add(el.attrib["id"])
        for name, value in el.attrib.items():
            if name == "href" and value.startswith("#"):
                links.append(value[1:])
            elif name in ("src", "href") or name.endswith("}href"):
                errors.append("external reference %s=%r" % (name, value))
            if name.startswith("on"):
                errors.append("event handler attribute %s" % name)
        if el.tag == SVG + "svg":
            svgs += 1
            if "viewBox" not in el.attrib:
                errors.append("svg without viewBox")
    if svgs == 0:
        errors.append("no SVG drawing")
    for target in links:
        if target not in ids:
            errors.append("anchor #%s does not resolve" % target)
    errors += check_source_tables(root, want_lines)
    return errors


def main(argv):
    want_lines = None
    if len(argv) >= 2 and argv[0] == "--source-lines":
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            want_lines = len(f.read().splitlines())
        argv = argv[2:]
    if not argv:
        print(__doc__)
        return 2
    bad = 0
    for p in argv:
        errs = check(p, want_lines)
        if errs:
            bad += 1
            for e in errs:
                print("%s: %s" % (p, e))
        else:
            print("%s: ok" % p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
