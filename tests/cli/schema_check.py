#!/usr/bin/env python3
"""Run one warpmem command and check its document (tests/cli/cli_schema.cmake).

  schema_check.py json  SCHEMA WARPMEM [checks] -- ARGS...
  schema_check.py sarif SCHEMA WARPMEM [checks] -- ARGS...
  schema_check.py junit -      WARPMEM [checks] -- ARGS...

json: stdout validates against SCHEMA (docs/schema/warpmem-1.json), and
the same document without its first required member does not (so the
check can fail).  sarif: stdout validates against SCHEMA (the subset in
tests/schema/) and, when WM_SARIF_SCHEMA names a copy of the published
SARIF 2.1.0 schema, against that too; every result's ruleIndex names its
ruleId's rule and every artifact uri is a file that exists.  junit: stdout
is well-formed XML whose counts agree with its testcases.

checks: --exit N (default 0), --results N (SARIF results / JUnit tests),
--failures N (JUnit), --at RULE@URI:LINE (a result of RULE at that
location), --related URI:LINE (some result has that related location).
Exit 77 (skipped) when the jsonschema package is missing.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("schema_check: " + msg, file=sys.stderr)
    sys.exit(1)


def parse(argv):
    mode, schema, warpmem = argv[1], argv[2], argv[3]
    rest = argv[4:]
    if "--" not in rest:
        fail("no -- before the command's arguments")
    k = rest.index("--")
    opts, args = rest[:k], rest[k + 1:]
    want = {"exit": 0, "results": None, "failures": None, "at": [],
            "related": []}
    i = 0
    while i < len(opts):
        key, val = opts[i][2:], opts[i + 1]
        if key in ("at", "related"):
            want[key].append(val)
        else:
            want[key] = int(val)
        i += 2
    return mode, schema, warpmem, args, want


def validator(path):
    import jsonschema
    with open(path) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=jsonschema.FormatChecker())


def check_valid(v, doc, what):
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        fail("%s: %s at /%s" % (what, e.message[:300],
                                "/".join(str(p) for p in e.path)))


def check_json(schema, doc):
    v = validator(schema)
    check_valid(v, doc, "warpmem/1")
    # the check can fail: the document less a required member is refused
    one = doc[0] if isinstance(doc, list) else doc
    key = "schema" if "schema" in one else "kernels"
    broken = dict(one)
    del broken[key]
    if v.is_valid(broken):
        fail("the document without '%s' still validates" % key)


def loc_str(loc):
    p = loc["physicalLocation"]
    return "%s:%d" % (p["artifactLocation"]["uri"], p["region"]["startLine"])


def check_sarif(schema, doc, want):
    check_valid(validator(schema), doc, "SARIF subset")
    published = os.environ.get("WM_SARIF_SCHEMA")
    if published:
        check_valid(validator(published), doc, "published SARIF 2.1.0")
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run.get("results", [])
    for r in results:
        if rules[r["ruleIndex"]]["id"] != r["ruleId"]:
            fail("ruleIndex %d is not rule %s" % (r["ruleIndex"], r["ruleId"]))
        for loc in r.get("locations", []) + r.get("relatedLocations", []):
            uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            if not os.path.exists(uri):
                fail("artifact '%s' does not exist" % uri)
    if want["results"] is not None and len(results) != want["results"]:
        fail("%d results, expected %d" % (len(results), want["results"]))
    for at in want["at"]:
        rule, where = at.split("@")
        if not any(r["ruleId"] == rule and
                   any(loc_str(l) == where for l in r.get("locations", []))
                   for r in results):
            fail("no %s result at %s" % (rule, where))
    for where in want["related"]:
        if not any(loc_str(l) == where
                   for r in results for l in r.get("relatedLocations", [])):
            fail("no related location %s" % where)


def check_junit(text, want):
    root = ET.fromstring(text)
    if root.tag != "testsuites":
        fail("root element is %s" % root.tag)
    cases = root.findall("./testsuite/testcase")
    failed = [c for c in cases if c.find("failure") is not None]
    if int(root.get("tests")) != len(cases) or \
            int(root.get("failures")) != len(failed):
        fail("testsuites counts %s/%s, testcases %d/%d" %
             (root.get("tests"), root.get("failures"), len(cases),
              len(failed)))
    for s in root.findall("testsuite"):
        n = len(s.findall("testcase"))
        f = len([c for c in s.findall("testcase")
                 if c.find("failure") is not None])
        if int(s.get("tests")) != n or int(s.get("failures")) != f:
            fail("testsuite %s counts disagree" % s.get("name"))
    if want["results"] is not None and len(cases) != want["results"]:
        fail("%d testcases, expected %d" % (len(cases), want["results"]))
    if want["failures"] is not None and len(failed) != want["failures"]:
        fail("%d failures, expected %d" % (len(failed), want["failures"]))


def main():
    mode, schema, warpmem, args, want = parse(sys.argv)
    if mode != "junit":
        try:
            import jsonschema  # noqa: F401
        except ImportError:
            print("schema_check: no jsonschema package; skipped")
            sys.exit(77)
    p = subprocess.run([warpmem] + args, capture_output=True, text=True)
    if p.returncode != want["exit"]:
        fail("exit %d, expected %d: %s" % (p.returncode, want["exit"],
                                           p.stderr[-500:]))
    if mode == "junit":
        check_junit(p.stdout, want)
    else:
        try:
            doc = json.loads(p.stdout)
        except ValueError as e:
            fail("stdout is not JSON: %s" % e)
        if mode == "json":
            check_json(schema, doc)
        else:
            check_sarif(schema, doc, want)
    print("schema_check: %s ok" % mode)


if __name__ == "__main__":
    main()
