"""The ctypes structures match include/warpmem.h: a C program compiled
against the header prints every size and field offset."""
import os
import shutil
import subprocess

import pytest

from warpmem import _lib as L
from conftest import REPO


def test_struct_layouts(tmp_path):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    lines = ['#include <stdio.h>', '#include <stddef.h>',
             '#include "warpmem.h"', 'int main(void) {']
    want = []
    for cname, st in L.STRUCTS.items():
        lines.append('printf("%%zu\\n", sizeof(%s));' % cname)
        want.append(("sizeof", cname, __import__("ctypes").sizeof(st)))
        for f in st._fields_:
            lines.append('printf("%%zu\\n", offsetof(%s, %s));'
                         % (cname, f[0]))
            want.append((cname, f[0], getattr(st, f[0]).offset))
    lines.append("return 0; }")
    src = tmp_path / "abi.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "abi"
    subprocess.run([cc, "-std=c11", "-I", os.path.join(REPO, "include"),
                    str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True,
                         check=True).stdout.split()
    bad = [(w, g) for w, g in zip(want, got) if int(g) != w[2]]
    assert len(got) == len(want) and not bad, bad
