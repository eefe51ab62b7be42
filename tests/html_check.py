#!/usr/bin/env python3
"""Check warpmem HTML reports: each file must parse as XML (so it is
XHTML-compatible), be a self-contained page (no script, no external
resource), and every drawing must be an SVG with a viewBox.
Usage: html_check.py FILE.html...   Exit 0 when every file passes."""
import sys
import xml.etree.ElementTree as ET

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def check(path):
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
    svgs = 0
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag in ("script", "link", "iframe", "img", "object", "embed"):
            errors.append("forbidden element <%s>" % tag)
        for name, value in el.attrib.items():
            if name in ("src", "href") or name.endswith("}href"):
                errors.append("external reference %s=%r" % (name, value))
            if name.startswith("on"):
                errors.append("event handler attribute %s" % name)
        if el.tag == SVG + "svg":
            svgs += 1
            if "viewBox" not in el.attrib:
                errors.append("svg without viewBox")
    if svgs == 0:
        errors.append("no SVG drawing")
    return errors


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    bad = 0
    for p in paths:
        errs = check(p)
        if errs:
            bad += 1
            for e in errs:
                print("%s: %s" % (p, e))
        else:
            print("%s: ok" % p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
