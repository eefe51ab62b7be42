"""PTX from Triton's cache may name the kernel's file where it was when it
was first compiled; warpmem.triton points such .file lines at the file as
it is now, so per-line reports keep their source text."""
import os

from warpmem.triton import _here


def kernel():  # stands for a @triton.jit function (its .fn is itself)
    pass


def test_moved_file_is_pointed_at_the_current_one():
    here = os.path.abspath(__file__)
    old = "/nonexistent/old/checkout/" + os.path.basename(here)
    ptx = '.version 8.0\n\t.file\t1 "%s"\n\t.file\t2 "/x/other.py"\n' % old
    out = _here(ptx, kernel)
    assert '\t.file\t1 "%s"\n' % here in out
    assert '\t.file\t2 "/x/other.py"\n' in out  # another file: kept


def test_existing_path_is_kept():
    here = os.path.abspath(__file__)
    ptx = '\t.file\t1 "%s"\n' % here
    assert _here(ptx, kernel) == ptx
