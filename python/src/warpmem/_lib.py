"""ctypes declarations of the public C API (include/warpmem.h).

Only what the binding calls is declared.  The structures mirror the header
field by field; ``tests/test_abi.py`` compiles a C program against the header
and compares every size and offset, so a change there fails the tests
instead of corrupting memory.
"""
from __future__ import annotations

import ctypes
import os
import sys
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int,
                    c_long, c_size_t, c_uint, c_uint32, c_uint64, c_int64,
                    c_void_p)

MAX_LANES = 64

# enum values (header order)
SPACES = ("global", "local", "shared", "texture", "surface")
OPS = ("ld", "st", "atom", "ldsm", "ldgsts", "wgmma", "tma")
STATUS = ("ok", "nomem", "arg", "size", "align", "arch", "parse", "range",
          "io", "fault", "limit", "unsupported")
WM_OK, WM_ERR_ARG, WM_ERR_FAULT, WM_ERR_LIMIT, WM_ERR_UNSUPPORTED = 0, 2, 9, 10, 11
PTX_TYPES = ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16",
             "bf16", "f32", "f64")
FMT_TEXT, FMT_JSON, FMT_CSV = 0, 1, 2
(USE_NONE, USE_VALUE, USE_POINTER, USE_ESCAPES, USE_TEXTURE,
 USE_SURFACE) = range(6)
ORIGINS = ("cuda", "triton", "numba")


class Arch(Structure):
    _fields_ = [("name", c_char * 24), ("sm", c_uint), ("warp_size", c_uint),
                ("sector_bytes", c_uint), ("line_bytes", c_uint),
                ("banks", c_uint), ("bank_bytes", c_uint),
                ("uniform_pair", c_uint)]


class Access(Structure):
    _fields_ = [("site", c_uint32), ("space", c_int), ("op", c_int),
                ("size", c_uint), ("mask", c_uint64),
                ("addr", c_uint64 * MAX_LANES)]


class Counts(Structure):
    _fields_ = [("active", c_uint32), ("requests", c_uint32),
                ("bytes", c_uint64), ("sectors", c_uint32),
                ("tags", c_uint32), ("ideal_sectors", c_uint32),
                ("t_wavefronts", c_uint32), ("wavefronts", c_uint32),
                ("ideal_wavefronts", c_uint32), ("conflicts", c_uint32),
                ("nway", c_uint32)]


class Diag(Structure):
    _fields_ = [("status", c_int), ("offset", c_size_t), ("len", c_size_t),
                ("line", c_int), ("col", c_int), ("msg", c_char * 256)]


STATS_FIELDS = ("inst", "inst_all", "active_lanes", "requests", "bytes",
                "sectors", "tags", "ideal_sectors", "excessive_sectors",
                "t_wavefronts", "wavefronts", "ideal_wavefronts", "conflicts")


class Stats(Structure):
    _fields_ = [(n, c_uint64) for n in STATS_FIELDS]


class Totals(Structure):
    _fields_ = [("s", (Stats * len(OPS)) * len(SPACES)),
                ("sector_bytes", c_uint),
                ("wavefront_bytes", c_uint)]


class Dist(Structure):
    _fields_ = [("min", c_uint32), ("median", c_uint32), ("max", c_uint32),
                ("mean", c_double)]


class Site(Structure):
    _fields_ = [("site", c_uint32), ("space", c_int), ("op", c_int),
                ("size", c_uint), ("label", c_char_p), ("file", c_char_p),
                ("line", c_uint32), ("stats", Stats), ("per_request", Dist),
                ("worst", POINTER(Access))]


class ExprWhere(Structure):
    _fields_ = [("block", c_uint * 3), ("warp", c_uint), ("iter", c_int64 * 4)]


class ExprFault(Structure):
    _fields_ = [("stmt", c_uint32), ("where", ExprWhere),
                ("thread", c_uint * 3), ("lane", c_uint), ("diag", Diag)]


class ParamInfo(Structure):
    _fields_ = [("name", c_char_p), ("type", c_char * 16), ("kind", c_char),
                ("bits", c_uint), ("count", c_uint), ("size", c_size_t),
                ("offset", c_size_t), ("align", c_size_t),
                ("declared_ptr", c_int), ("use", c_int), ("added", c_int),
                ("group", c_long), ("role", c_char * 48),
                ("ctype", c_char * 64), ("elem", c_int)]


class KernelInfo(Structure):
    _fields_ = [("name", c_char_p), ("display", c_char * 256),
                ("signature", c_char * 512), ("origin", c_int),
                ("nparams", c_size_t), ("ngroups", c_size_t),
                ("static_smem", c_size_t), ("dyn_smem", c_int)]


class PtxArg(Structure):
    _fields_ = [("buf", c_void_p), ("bytes", c_size_t), ("scalar", c_uint64),
                ("size", c_uint), ("value", c_void_p)]


class PtxWhere(Structure):
    _fields_ = [("ptx_line", c_uint32), ("text", c_char_p),
                ("file", c_char_p), ("line", c_uint32),
                ("inl_file", c_char_p), ("inl_line", c_uint32),
                ("near_line", c_uint32), ("call_file", c_char_p),
                ("call_line", c_uint32)]


class LintParam(Structure):
    _fields_ = [("name", c_char_p), ("value", ctypes.c_int64)]


class LintOpts(Structure):
    _fields_ = [("block", c_uint * 3), ("grid", c_uint * 3),
                ("params", POINTER(LintParam)), ("nparams", c_size_t),
                ("sass", c_void_p)]


class LintInsn(Structure):
    _fields_ = [("insn", c_size_t), ("space", c_int), ("op", c_int),
                ("size", c_uint), ("kind", c_int), ("form", c_char * 240),
                ("stride", c_char * 80), ("reason", c_char * 200),
                ("depends", c_char * 120), ("assumed", c_int),
                ("warps", c_uint), ("per_request", ctypes.c_double),
                ("min", c_uint32), ("max", c_uint32), ("worst", c_uint32),
                ("ideal", ctypes.c_double), ("severity", c_int),
                ("access", Access), ("counts", Counts)]


SEVERITIES = ("none", "low", "medium", "high")  # wm_severity


class PtxGlobal(Structure):
    _fields_ = [("name", c_char_p), ("init", c_void_p), ("out", c_void_p),
                ("bytes", c_size_t)]


PROGRESS_FN = ctypes.CFUNCTYPE(None, c_void_p, c_uint64, c_uint64)


class Launch(Structure):
    _fields_ = [("grid", c_uint * 3), ("block", c_uint * 3),
                ("dyn_smem", c_size_t), ("args", POINTER(PtxArg)),
                ("nargs", c_size_t), ("extra", POINTER(PtxArg)),
                ("nextra", c_size_t), ("globals", c_void_p),
                ("nglobals", c_size_t), ("ctas", c_int), ("ctas_n", c_uint64),
                ("seed", c_uint64), ("max_steps", c_uint64),
                ("threads", c_uint), ("progress", PROGRESS_FN),
                ("progress_ud", c_void_p), ("max_total_steps", c_uint64),
                ("cache", c_void_p), ("check", c_void_p),
                ("textures", c_void_p), ("ntextures", c_size_t),
                ("cluster", c_uint * 3), ("cluster_nonportable", c_int),
                ("cooperative", c_int)]


class Result(Structure):
    _fields_ = [("ctas_total", c_uint64), ("ctas_run", c_uint64),
                ("sampled", c_int), ("warp_insts", c_uint64),
                ("thread_insts", c_uint64), ("setmaxnreg", c_uint64),
                ("maxnreg_inc", c_uint), ("maxnreg_dec", c_uint)]


class Fault(Structure):
    _fields_ = [("status", c_int), ("msg", c_char * 256), ("cta", c_uint * 3),
                ("thread", c_uint * 3), ("warp", c_uint), ("lane", c_uint),
                ("insn", c_size_t), ("ptx_line", c_uint32),
                ("file", c_char_p), ("line", c_uint32), ("has_addr", c_int),
                ("addr", c_uint64), ("space", c_int), ("buf", c_long),
                ("bound", c_uint64), ("call_ptx_line", c_uint32),
                ("call_file", c_char_p), ("call_line", c_uint32)]


class ReportOpts(Structure):
    _fields_ = [("format", c_int), ("color", c_int), ("width", c_uint),
                ("draw_top", c_uint), ("ptx_path", c_char_p),
                ("kernel", c_char_p), ("res", POINTER(Result)),
                ("explain", c_int), ("command", c_char_p), ("arch", c_char_p),
                ("fault", POINTER(Fault)), ("fault_hint", c_char_p),
                ("written", POINTER(c_char_p)), ("nwritten", c_size_t),
                ("check", c_void_p), ("cache", c_void_p),
                ("grid", c_uint * 3), ("block", c_uint * 3)]


class Check(Structure):
    _fields_ = [("checks", c_uint), ("schedule", c_int), ("seed", c_uint64),
                ("uninit", c_void_p), ("nuninit", c_size_t),
                ("elem_size", POINTER(c_uint)), ("nelem_size", c_size_t),
                ("elem_type", c_void_p), ("nelem_type", c_size_t),
                ("hazards", c_void_p), ("nhazards", c_size_t),
                ("dropped", c_uint64), ("differs", c_int), ("other", c_int),
                ("diff_arg", c_long), ("diff_byte", c_uint64),
                ("diff_elem", c_uint64),
                ("diff_bytes", (ctypes.c_ubyte * 8) * 2),
                ("diff_in", c_int), ("diff_elem_bytes", c_uint),
                ("diff_name", ctypes.c_char_p), ("proved", c_int)]


CHECK_RACE, CHECK_INIT, CHECK_SCHEDULES, CHECK_PROVE = 1, 2, 4, 8
SCHED_IN_ORDER, SCHED_REVERSE, SCHED_RANDOM = 0, 1, 2  # wm_ptx_schedule


class CacheConfig(Structure):
    _fields_ = [("gpu", c_void_p), ("nsms", c_uint), ("ctas_per_sm", c_uint),
                ("l1_bytes", c_uint64), ("l1_ways", c_uint),
                ("l2_bytes", c_uint64), ("l2_ways", c_uint),
                ("line_bytes", c_uint), ("sector_bytes", c_uint),
                ("smem_carveout", c_uint64), ("order", c_int)]


# name -> the structure, for the ABI test
STRUCTS = {"wm_arch": Arch, "wm_access": Access, "wm_counts": Counts,
           "wm_diag": Diag, "wm_stats": Stats, "wm_totals": Totals,
           "wm_dist": Dist, "wm_site": Site, "wm_expr_where": ExprWhere,
           "wm_expr_fault": ExprFault, "wm_ptx_param_info": ParamInfo,
           "wm_ptx_kernel_info": KernelInfo, "wm_ptx_arg": PtxArg,
           "wm_ptx_global": PtxGlobal, "wm_ptx_where": PtxWhere,
           "wm_lint_param": LintParam, "wm_lint_opts": LintOpts,
           "wm_lint_insn": LintInsn,
           "wm_ptx_launch": Launch, "wm_ptx_result": Result,
           "wm_ptx_fault": Fault, "wm_ptx_report_opts": ReportOpts,
           "wm_ptx_check": Check, "wm_cache_config": CacheConfig}


def _lib_names() -> list[str]:
    if sys.platform == "darwin":
        return ["libwarpmem.dylib"]
    if sys.platform == "win32":
        return ["warpmem.dll", "libwarpmem.dll"]
    return ["libwarpmem.so"]


def _find() -> str:
    env = os.environ.get("WARPMEM_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _lib_names():
        p = os.path.join(here, name)
        if os.path.exists(p):
            return p
    raise ImportError(
        "warpmem: the shared library %s is not next to %s; install the "
        "package with `pip install ./python` or point WARPMEM_LIBRARY at a "
        "built libwarpmem" % (_lib_names()[0], here))


def _declare(lib: ctypes.CDLL) -> None:
    def f(name, res, *args):
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = list(args)

    P = POINTER
    f("wm_version", c_char_p)
    f("wm_free", None, c_void_p)
    f("wm_status_str", c_char_p, c_int)
    f("wm_arch_default", P(Arch))
    f("wm_arch_parse", c_int, c_char_p, P(Arch), c_char_p, c_size_t)
    f("wm_arch_for_target", P(Arch), c_char_p)
    f("wm_ptx_pick_arch", None, c_void_p, P(Arch), c_char_p, P(Arch),
      c_char_p, c_size_t)
    f("wm_count", c_int, P(Arch), P(Access), P(Counts))
    f("wm_agg_new", c_void_p, P(Arch))
    f("wm_agg_free", None, c_void_p)
    f("wm_agg_nsites", c_size_t, c_void_p)
    f("wm_agg_site", c_int, c_void_p, c_size_t, P(Site))
    f("wm_agg_totals", None, c_void_p, P(Totals))
    f("wm_totals_add_site", None, P(Totals), P(Site))
    f("wm_metric_count", c_size_t)
    f("wm_metric_name", c_char_p, c_size_t)
    f("wm_metric_value", c_double, P(Totals), c_size_t)
    f("wm_metric_relevant", c_int, P(Totals), c_size_t)
    f("wm_metric_is_count", c_int, c_size_t)
    f("wm_metric_unit", c_char_p, c_size_t)
    f("wm_html_report_file", c_int, c_char_p, c_void_p, c_void_p)
    f("wm_expr_new", c_void_p)
    f("wm_expr_free", None, c_void_p)
    f("wm_expr_parse", c_int, c_void_p, c_char_p, c_size_t, c_char_p, P(Diag))
    f("wm_expr_set_launch", c_int, c_void_p, P(c_uint), P(c_uint))
    f("wm_expr_launch", c_int, c_void_p, c_uint * 3, c_uint * 3)
    f("wm_expr_define", c_int, c_void_p, c_char_p, c_int64)
    f("wm_expr_run", c_int, c_void_p, c_void_p, c_uint64, P(ExprFault))
    f("wm_diag_locate", None, P(Diag), c_char_p, c_size_t)
    f("wm_ptx_type_size", c_size_t, c_int)
    f("wm_ptx_fill", c_int, c_void_p, c_int, c_size_t, c_char_p)
    f("wm_ptx_parse", c_int, c_char_p, c_size_t, c_char_p, P(c_void_p),
      P(Diag))
    f("wm_ptx_free", None, c_void_p)
    f("wm_ptx_nkernels", c_size_t, c_void_p)
    f("wm_ptx_target", c_char_p, c_void_p)
    f("wm_ptx_match_kernels", c_size_t, c_void_p, c_char_p, P(c_size_t),
      c_size_t)
    f("wm_ptx_kernel_describe", c_size_t, c_void_p, c_size_t, P(KernelInfo),
      P(ParamInfo), c_size_t)
    f("wm_ptx_param_accepts_scalar", c_int, P(ParamInfo), c_int, c_char_p,
      c_size_t)
    f("wm_ptx_param_accepts_buffer", c_int, P(ParamInfo), c_char_p, c_size_t)
    f("wm_ptx_run", c_int, c_void_p, c_size_t, P(Launch), c_void_p, P(Result),
      P(Fault))
    f("wm_ptx_report_string", c_void_p, c_void_p, c_void_p, P(ReportOpts),
      c_int, P(c_size_t))
    f("wm_ptx_extra_address", c_uint64, c_size_t, c_size_t)
    f("wm_ptx_check_clear", None, P(Check))
    f("wm_ptx_kernel_smem", c_uint64, c_void_p, c_size_t, c_uint64)
    f("wm_ptx_global_size", ctypes.c_longlong, c_void_p, c_char_p)
    f("wm_ptx_where_insn", c_int, c_void_p, c_size_t, P(PtxWhere))
    f("wm_ptx_kernel_error", c_int, c_void_p, c_size_t, P(Diag))
    f("wm_lint_kernel", c_int, c_void_p, c_size_t, P(Arch), P(LintOpts),
      P(c_void_p))
    f("wm_lint_free", None, c_void_p)
    f("wm_lint_block", None, c_void_p, c_uint * 3)
    f("wm_lint_count", c_size_t, c_void_p)
    f("wm_lint_at", P(LintInsn), c_void_p, c_size_t)
    f("wm_lint_kind_name", c_char_p, c_int)
    f("wm_lint_worst", c_int, c_void_p)
    f("wm_gpu_for_arch", c_void_p, P(Arch))
    f("wm_gpu_find", c_void_p, c_char_p)
    f("wm_gpu_count", c_size_t)
    f("wm_gpu_at", c_void_p, c_size_t)
    f("wm_cache_config_init_regs", c_int, P(CacheConfig), c_void_p, c_uint64,
      c_uint64, c_uint)
    f("wm_cache_new", c_void_p, P(CacheConfig))
    f("wm_cache_free", None, c_void_p)


lib = ctypes.CDLL(_find())
_declare(lib)


def take_string(ptr: int | None, n: int) -> str:
    """Copy a library-allocated string out and free it."""
    if not ptr:
        raise MemoryError("warpmem: the library could not write the report")
    try:
        return ctypes.string_at(ptr, n).decode("utf-8", "replace")
    finally:
        lib.wm_free(ptr)


def status_str(st: int) -> str:
    return lib.wm_status_str(st).decode()


def gpu_name(g: int) -> str:
    """The name of a wm_gpu (its first member)."""
    return s(ctypes.cast(g, POINTER(c_char_p))[0])


def s(b: bytes | None) -> str:
    return b.decode("utf-8", "replace") if b else ""
