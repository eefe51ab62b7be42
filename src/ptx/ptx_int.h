/*
 * ptx_int.h -- internal types of the PTX interpreter: the decoded
 * instruction (wmi_insn), the module, and the per-warp / per-CTA execution
 * state shared by ptx_parse.c, ptx_decode.c, ptx_exec.c and ptx_run.c.
 *
 * Invariants:
 *   - Every operand an instruction reads is a register slot of its
 *     function's register file: declared registers, special registers
 *     (%tid.x ...: fixed slots filled when a warp starts) and immediates
 *     (constant slots filled once when a warp is allocated).  So the VM
 *     never looks at operand kinds, only at slot numbers.
 *   - A slot holds 64 raw bits per lane; the instruction's type says how to
 *     read them (PTX registers are untyped bit containers: Triton keeps
 *     floats in .b32 registers).  Values narrower than 64 bits are stored
 *     zero-extended; predicates are 0 or 1.
 *   - An operand word with WMI_VEC set names a vector in the module's pool:
 *     pool[off] = count, pool[off+1..] = slots.
 */
#ifndef WM_PTX_INT_H
#define WM_PTX_INT_H

#include "wm_int.h"

#include <stdio.h>
#include <string.h>

/* ---- opcodes --------------------------------------------------------- */

typedef enum {
#define X(name, base, fam, nd, smin, smax, vec, sem) OP_##name,
#include "ptx_ops.def"
#undef X
    OP_COUNT
} wmi_op;

extern const char *const wmi_op_names[OP_COUNT];

/* The family column of ptx_ops.def (its header says which opcodes each
   holds and what lint and signatures do with a family by default). */
typedef enum {
    WMI_FAM_ARITH,
    WMI_FAM_MEMORY,
    WMI_FAM_TENSOR,
    WMI_FAM_COLLECTIVE,
    WMI_FAM_CONTROL,
    WMI_FAM_COUNT
} wmi_family;

extern const uint8_t wmi_op_families[OP_COUNT]; /* wmi_family */

/* The family of opcode op. */
static inline wmi_family wmi_op_family(unsigned op)
{
    assert(op < OP_COUNT);
    return (wmi_family)wmi_op_families[op];
}

/* Operand shape of an opcode (the ptx_ops.def columns). */
typedef struct wmi_shape {
    uint8_t ndst, nsrc_min, nsrc_max, vec;
} wmi_shape;

extern const wmi_shape wmi_op_shapes[OP_COUNT];

/* ---- types, spaces, modifiers ----------------------------------------- */

typedef enum {
    PT_NONE, PT_PRED,
    PT_B8, PT_B16, PT_B32, PT_B64, PT_B128,
    PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64,
    PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_TF32, PT_F32, PT_F64,
    PT_E4M3X2, PT_E5M2X2, PT_S4, PT_U4,
    PT_U16X2, PT_S16X2, /* sm_90's packed halfword add sub min max */
    PT_COUNT
} wmi_type;

/* Per-type facts, indexed by wmi_type (ptx_decode.c). */
extern const uint8_t wmi_type_bits_tab[PT_COUNT];
extern const uint8_t wmi_type_flags_tab[PT_COUNT]; /* 1 signed, 2 float */

/* Width in bits of a type (pred: 1). */
static inline unsigned wmi_type_bits(wmi_type t)
{
    return (unsigned)t < PT_COUNT ? wmi_type_bits_tab[t] : 0;
}

/* s8 ... s64 */
static inline int wmi_type_signed(wmi_type t)
{
    return (unsigned)t < PT_COUNT && (wmi_type_flags_tab[t] & 1);
}

/* f16 bf16 tf32 f32 f64 (not the x2 forms) */
static inline int wmi_type_float(wmi_type t)
{
    return (unsigned)t < PT_COUNT && (wmi_type_flags_tab[t] & 2);
}

/* The float in the low 32 bits of a register's value, and a float's bits. */
static inline float wmi_f32(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t wmi_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* SP_FRAME: a .func's parameters and return values and the call-sequence
   .param variables of any function: per-thread bytes of the current call
   frame (docs/design/ptx-calls.md), not memory the model counts. */
typedef enum {
    SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_CONST, SP_FRAME
} wmi_space;

/* Comparison operators of setp/set (also the compare of SLCT). */
typedef enum {
    CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
    CMP_LO, CMP_LS, CMP_HI, CMP_HS,
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN
} wmi_cmp;

typedef enum { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR } wmi_boolop;

/* Rounding modifiers that change results. */
typedef enum {
    RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI,
    RND_RPI, RND_RNA
} wmi_rnd;

/* shfl modes, vote modes, atom ops, match/redux ops share mod. */
enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
enum {
    AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC, AOP_AND, AOP_OR, AOP_XOR,
    AOP_EXCH, AOP_CAS, AOP_NONE
};

/* ld: wmi_insn.mod2 of a load with .acquire semantics, the load a
   spin-wait polls (cooperative groups' tile barriers): the warp lets the
   others run after it, as after a failed mbarrier wait.  LD_POLL (ld and
   atom): a .volatile or .relaxed load, or an atomic whose result is read,
   that a loop of its function holds, or in a function that is not a
   kernel (called from a loop, perhaps): the warp lets the others run when
   it reads what it read before (a spin-wait on a volatile flag, a spin
   lock's atom.cas; the parser marks them, ptx_parse.c). */
enum { LD_ACQUIRE = 1, LD_POLL = 2 };

/* wmi_insn.sync (ptx_check_grid.c decodes it): an ld/st/atom/red that is
   strong (.volatile, .relaxed/.acquire/.release, every atom/red), its
   acquire and release semantics, an atom/red
   (read-modify-write), and a fence (FENCE: fence.sc/.acq_rel,
   membar), with GPU when it is GPU or system scope and CTA when it is
   CTA scope (ld/st/atom/red .cta, fence .cta, membar.cta: they order,
   and are strong to, only the threads of one CTA). */
enum {
    WMI_SYNC_STRONG = 1, WMI_SYNC_ACQ = 2, WMI_SYNC_REL = 4,
    WMI_SYNC_RMW = 8, WMI_SYNC_FENCE = 16, WMI_SYNC_GPU = 32,
    WMI_SYNC_CTA = 64
};
uint8_t wmi_sync_decode(const char *s, size_t n, unsigned op);

/* mbarrier variants (wmi_insn.mod of OP_MBAR); mod2 bit 0: .expect_tx
   (arrive) or .parity (waits). */
enum { MB_INIT, MB_ARRIVE, MB_EXPECT, MB_COMPLETE, MB_WAIT, MB_INVAL,
       MB_CP_ARRIVE /* cp.async.mbarrier.arrive (mod2: .noinc) */ };

/* OP_CARRY's mod: the operation, and whether it adds the carry flag in
   (addc, subc, madc); .cc (F_CC) writes the carry out. */
enum { CARRY_ADD, CARRY_SUB, CARRY_MAD, CARRY_IN = 4 };

/* Flag bits of wmi_insn.flags. */
enum {
    F_WIDE = 1 << 0,   /* mul/mad .wide */
    F_HI = 1 << 1,     /* .hi */
    F_LO = 1 << 2,     /* .lo (default for mul/mad integer) */
    F_SAT = 1 << 3,    /* .sat / .satfinite */
    F_FTZ = 1 << 4,    /* .ftz (flush subnormals) */
    F_TO = 1 << 5,     /* cvta.to */
    F_TRANS = 1 << 6,  /* ldmatrix .trans */
    F_LEFT = 1 << 7,   /* shf.l */
    F_CLAMP = 1 << 8,  /* shf .clamp */
    F_ARRIVE = 1 << 9, /* bar.arrive */
    F_RELU = 1 << 10,  /* .relu */
    F_ALL = 1 << 11,   /* match.all */
    F_DEST2 = 1 << 12, /* d2 is a second destination (setp |, shfl |) */
    F_ROWA = 1 << 13,  /* mma .row for A (always .row.col in practice) */
    F_CC = 1 << 14,    /* .cc: writes the carry flag (OP_CARRY) */
    F_SHIFTAMT = 1 << 15 /* bfind.shiftamt */
};

/* Register slot numbers reserved in every function. */
enum {
    SLOT_ZERO = 0, /* always 0 */
    SLOT_SINK = 1, /* "_": written, never read */
    SLOT_SREG0 = 2 /* first special register */
};

/* Special registers, each in a fixed slot SLOT_SREG0 + SR_x. */
#define WMI_SREG_LIST(X)                                                      \
    X(TID_X, "%tid.x") X(TID_Y, "%tid.y") X(TID_Z, "%tid.z")                  \
    X(NTID_X, "%ntid.x") X(NTID_Y, "%ntid.y") X(NTID_Z, "%ntid.z")            \
    X(CTAID_X, "%ctaid.x") X(CTAID_Y, "%ctaid.y") X(CTAID_Z, "%ctaid.z")      \
    X(NCTAID_X, "%nctaid.x") X(NCTAID_Y, "%nctaid.y")                         \
    X(NCTAID_Z, "%nctaid.z") X(LANEID, "%laneid") X(WARPID, "%warpid")        \
    X(NWARPID, "%nwarpid") X(LANEMASK_EQ, "%lanemask_eq")                     \
    X(LANEMASK_LT, "%lanemask_lt") X(LANEMASK_LE, "%lanemask_le")             \
    X(LANEMASK_GT, "%lanemask_gt") X(LANEMASK_GE, "%lanemask_ge")             \
    X(SMID, "%smid") X(NSMID, "%nsmid") X(GRIDID, "%gridid")                  \
    X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi") X(CLOCK64, "%clock64")        \
    X(GLOBALTIMER, "%globaltimer") X(DYNSMEM, "%dynamic_smem_size")           \
    X(TOTALSMEM, "%total_smem_size") X(CLUSTERID_X, "%clusterid.x")           \
    X(CLUSTER_CTARANK, "%cluster_ctarank") X(CLUSTERID_Y, "%clusterid.y")     \
    X(CLUSTERID_Z, "%clusterid.z") X(NCLUSTERID_X, "%nclusterid.x")           \
    X(NCLUSTERID_Y, "%nclusterid.y") X(NCLUSTERID_Z, "%nclusterid.z")         \
    X(CLUSTER_CTAID_X, "%cluster_ctaid.x")                                    \
    X(CLUSTER_CTAID_Y, "%cluster_ctaid.y")                                    \
    X(CLUSTER_CTAID_Z, "%cluster_ctaid.z")                                    \
    X(CLUSTER_NCTAID_X, "%cluster_nctaid.x")                                  \
    X(CLUSTER_NCTAID_Y, "%cluster_nctaid.y")                                  \
    X(CLUSTER_NCTAID_Z, "%cluster_nctaid.z")                                  \
    X(CLUSTER_NCTARANK, "%cluster_nctarank")                                  \
    X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster")                            \
    X(AGGR_SMEM, "%aggr_smem_size")                                           \
    X(RSMEM_BEGIN, "%reserved_smem_offset_begin")                             \
    X(RSMEM_END, "%reserved_smem_offset_end")                                 \
    X(RSMEM_CAP, "%reserved_smem_offset_cap")                                 \
    X(RSMEM_0, "%reserved_smem_offset_0") X(RSMEM_1, "%reserved_smem_offset_1") \
    X(ENVREG1, "%envreg1") X(ENVREG2, "%envreg2")

/*
 * Reserved shared memory (%reserved_smem_offset_*, used by cooperative
 * groups for tile barriers): a kernel that reads one of those registers
 * gets this many bytes after its own shared memory, 16-byte aligned;
 * offset_0 and offset_1 are two words inside it.  Every CTA is its own
 * cluster of one (no explicit clusters): %clusterid = %ctaid,
 * %cluster_ctaid = 0, %cluster_nctaid = 1.
 */
#define WMI_RESERVED_SMEM 1024u
#define WMI_RSMEM_SREGS                                                       \
    ((uint64_t)1 << SR_RSMEM_BEGIN | (uint64_t)1 << SR_RSMEM_END |            \
     (uint64_t)1 << SR_RSMEM_CAP | (uint64_t)1 << SR_RSMEM_0 |                \
     (uint64_t)1 << SR_RSMEM_1)

enum {
#define X(e, name) SR_##e,
    WMI_SREG_LIST(X)
#undef X
        SR_COUNT
};

#define WMI_NOREG 0xffffffffu
#define WMI_VEC 0x80000000u
/* Longest vector operand (wgmma's m64n256 f32 accumulators); other
   instructions take at most 16 elements. */
#define WMI_MAX_VEC 128u

/* ---- decoded instruction ---------------------------------------------- */

typedef struct wmi_insn {
    uint8_t op;     /* wmi_op */
    uint8_t type;   /* wmi_type: the instruction type (destination) */
    uint8_t type2;  /* cvt source, setp/selp compare type ... */
    uint8_t space;  /* wmi_space of ld/st/atom/cvta */
    uint8_t mod;    /* cmp, shfl/vote mode, atom op, mma shape ... */
    uint8_t mod2;   /* setp bool op, mma: b type ... */
    uint8_t vec;    /* vector width of ld/st (1, 2, 4, 8) */
    uint8_t rnd;    /* wmi_rnd */
    uint16_t flags; /* F_* */
    uint8_t guard_neg;
    uint8_t sync;   /* WMI_SYNC_*: memory-model strength (ld/st/atom/red,
                       fence), for --check's races between CTAs */
    uint32_t guard; /* predicate slot, WMI_NOREG if unguarded */
    uint32_t d, d2; /* destinations (slot or WMI_VEC|pool) */
    uint32_t a, b, c, e; /* sources (slot or WMI_VEC|pool) */
    int64_t imm, imm2;   /* address offsets (of a, of b) */
    uint32_t target;     /* branch target (instruction index) */
    uint32_t loc;        /* index into module locs (0 = none) */
    uint32_t line;       /* PTX line */
    uint32_t text;       /* offset of the instruction text in m->texts */
} wmi_insn;

/*
 * Does a decoded instruction have the operand shape its ptx_ops.def row
 * states (every required source present, vectors only where allowed)?  The
 * parser guarantees it; the interpreter asserts it before dispatch.  bra's
 * operand is its target, not a slot.
 */
static inline int wmi_ptx_shape_ok(const wmi_insn *in)
{
    if (in->op >= OP_COUNT)
        return 0;
    if (in->op == OP_UNKNOWN || in->op == OP_CALL || in->op == OP_BRA)
        return 1;
    const wmi_shape *s = &wmi_op_shapes[in->op];
    const uint32_t src[4] = {in->a, in->b, in->c, in->e};
    if (s->ndst && in->d == WMI_NOREG)
        return 0;
    if (!s->vec && s->ndst && (in->d & WMI_VEC))
        return 0;
    for (unsigned k = 0; k < 4; k++) {
        if (k < s->nsrc_min && src[k] == WMI_NOREG)
            return 0;
        if (k >= s->nsrc_max && src[k] != WMI_NOREG)
            return 0;
        if (!s->vec && src[k] != WMI_NOREG && (src[k] & WMI_VEC))
            return 0;
    }
    return 1;
}

/* A .loc row: the location and, for inlined code, the call site. */
typedef struct wmi_loc {
    uint32_t file, line, col;    /* .file numbers */
    uint32_t ifile, iline, icol; /* inlined_at (0 if none) */
    uint32_t root;               /* file of the outermost caller */
    uint32_t afile, aline;       /* attribution: see wmi_ptx_attr */
    uint32_t near;               /* line 0 (hoisted code): the function's
                                    nearest preceding attributed line */
    uint32_t cfile, cline;       /* inlined code: the outermost call site
                                    (the kernel's line), else 0 */
} wmi_loc;

typedef struct wmi_param {
    char *name;
    uint32_t offset, size, align;
    char kind;      /* declared type: 'b' 'u' 's' 'f', 'p' for .pred */
    uint8_t bits;   /* element width in bits */
    uint8_t ptr;    /* declared with .ptr */
    uint32_t count; /* array elements (1 for a scalar) */
} wmi_param;

/* Call depth limit: a deeper call faults (unbounded recursion). */
#define WMI_MAX_CALL_DEPTH 32
/* A function's address as a value (mov.u64 %rd, func): tag | index. */
#define WMI_FUNC_TAG ((uint64_t)0xfffb << WMI_WIN_SHIFT)

/* One call instruction: its callee and where its arguments and return
   values sit in the caller's frame. */
typedef struct wmi_call {
    uint32_t callee;      /* function index, WMI_NOREG: indirect/unknown */
    char *name;           /* callee name ("" for indirect) */
    uint32_t nret, narg;
    uint32_t ret_off[4], ret_size[4];
    uint32_t arg_off[32], arg_size[32];
} wmi_call;

/* A module-scope or function-scope variable with an address. */
typedef struct wmi_var {
    char *name;
    wmi_space space;
    uint32_t func;   /* owning function or WMI_NOREG for module scope */
    uint64_t offset; /* in its space (shared/local: window offset) */
    uint64_t size;
    uint32_t align;
    int is_extern;   /* .extern .shared name[]: dynamic shared memory */
} wmi_var;

typedef struct wmi_func {
    char *name;
    char *pretty;   /* demangled identifier */
    int is_entry;
    uint32_t first, count; /* instruction range */
    uint32_t nslots;       /* register slots */
    uint32_t *cslots;      /* constant slots ... */
    uint64_t *cvals;       /* ... and their values */
    uint32_t nconsts, capconsts;
    wmi_param *params;
    uint32_t nparams;
    uint32_t param_bytes;
    uint32_t smem_static; /* bytes of static shared memory */
    uint32_t dyn_align;   /* alignment of the dynamic shared area */
    int dyn_used;         /* the body names an .extern .shared variable */
    uint32_t local_bytes; /* per-thread local memory */
    uint32_t reqntid[3];  /* .reqntid or 0 */
    uint32_t reqcluster[3]; /* .reqnctapercluster or 0 */
    int explicit_cluster;   /* .explicitcluster or .reqnctapercluster */
    uint64_t sregs_used;  /* bit SR_x: the function reads that register */
    wm_diag *err; /* the body's parse error (located), or NULL: the body
                     was dropped and running the function reports it */
    wmi_param *rets;      /* .func return parameters ... */
    uint32_t nrets;
    uint32_t ret_base;    /* ... at ret_base + offset in the frame */
    uint32_t frame_bytes; /* params, returns and call-sequence .params */
    uint32_t *lconst;     /* constants holding local-variable addresses */
    uint32_t nlconst;     /* (rebased per call frame) */
    uint32_t *dconst;     /* a .func's constants holding dynamic shared */
    uint32_t ndconst;     /* addresses (rebased to the kernel's, per call) */
    int has_call;         /* the body contains a call */
} wmi_func;

/* One .file entry. */
typedef struct wmi_file {
    uint32_t num;
    char *path;
} wmi_file;

struct wm_ptx_module {
    char *src; /* copy of the text, NUL terminated */
    size_t n;
    char *path;
    wmi_insn *code;
    size_t ncode, capcode;
    uint32_t *pool;
    size_t npool, cappool;
    wmi_func *funcs;
    size_t nfuncs, capfuncs;
    uint32_t *kern; /* kern[k]: the index in funcs of the k-th .entry */
    size_t nkern;
    wmi_loc *locs; /* locs[0] is "no location" */
    size_t nlocs, caplocs;
    wmi_file *files;
    uint32_t *file_order; /* files by number, then declaration order */
    size_t nfiles, capfiles;
    wmi_var *vars;
    size_t nvars, capvars;
    char *texts; /* NUL-separated instruction texts */
    size_t ntexts, captexts;
    wmi_call *calls;
    size_t ncalls, capcalls;
    uint32_t max_slots;   /* largest nslots of a function */
    uint32_t max_frame;   /* largest frame_bytes */
    uint32_t max_local;   /* largest local_bytes of a .func */
    uint8_t *gdata; /* initialised module .global/.const data: ginit bytes */
    uint64_t ginit;
    uint64_t gbytes; /* all module data (<= WM_LIMIT_MODULE_DATA) */
    int ptx_major, ptx_minor;
    char target[16]; /* first word of .target ("sm_80"), "" if none */
};

/* Slot k of an operand word (a scalar's own slot, or element k of a vector
   in the module's pool), and how many slots it names. */
static inline uint32_t wmi_vslot(const wm_ptx_module *m, uint32_t v,
                                 unsigned k)
{
    return (v & WMI_VEC) ? m->pool[(v & ~WMI_VEC) + 1 + k] : v;
}

static inline unsigned wmi_vcount(const wm_ptx_module *m, uint32_t v)
{
    return (v & WMI_VEC) ? m->pool[v & ~WMI_VEC] : 1;
}

/* The register slots of kernel f that some path may read before any
   instruction wrote them (ptx_unset.c), into a new array *slots of *n
   (NULL, 0: none).  WM_OK or WM_ERR_NOMEM. */
wm_status wmi_ptx_unset_slots(const wm_ptx_module *m, const wmi_func *f,
                              uint32_t **slots, uint32_t *n);

/* Path of .file number num, or "" (lives as long as the module). */
const char *wmi_ptx_file(const wm_ptx_module *m, uint32_t num);
/* The k-th .entry function (k < wm_ptx_nkernels), else NULL. */
const wmi_func *wmi_ptx_kernel(const wm_ptx_module *m, size_t k);

/* How many instructions kernel f may execute for which match(m, in) holds,
   counting up to most: f's own and those of every .func it calls,
   directly or through others (every .func of the module when a call goes
   through a pointer, or in a module of over 1024 functions), whichever
   path runs. */
size_t wmi_kernel_count(const wm_ptx_module *m, const wmi_func *f,
                        int (*match)(const wm_ptx_module *, const wmi_insn *),
                        size_t most);

/* Source attribution of instruction i: user file/line (inlined code goes
   to its call site unless caller and callee share a file). */
void wmi_ptx_attr(const wm_ptx_module *m, size_t i, const char **file,
                  uint32_t *line, const char **inl_file, uint32_t *inl_line);

/*
 * Decode an opcode string (without guard) into in->op and its modifier
 * fields.  Unknown modifiers are ignored; an unknown base gives OP_UNKNOWN.
 */
void wmi_ptx_decode_opcode(const char *s, size_t n, wmi_insn *in);

/* Is w one of the dot-separated words of opcode s (n bytes): "init",
   "shared::cta" in "mbarrier.init.shared::cta.b64"?  Every decoder's
   test of a modifier. */
static inline int wmi_has_word(const char *s, size_t n, const char *w)
{
    size_t wl = strlen(w);
    for (size_t i = 0; i + wl <= n; i++)
        if ((i == 0 || s[i - 1] == '.') && memcmp(s + i, w, wl) == 0 &&
            (i + wl == n || s[i + wl] == '.'))
            return 1;
    return 0;
}

/* Type of source operand k (0-based, after the destinations) of in. */
wmi_type wmi_ptx_src_type(const wmi_insn *in, unsigned k);

/* ---- address windows ---------------------------------------------------- */

/*
 * Simulated addresses: global buffer i lives at (i + 1) << 40; generic
 * shared, local and param windows sit high above (cvta adds/subtracts the
 * window base).  Shared and local addresses inside their own space are
 * offsets from 0.
 */
#define WMI_WIN_SHIFT 40
#define WMI_WIN_MASK ((((uint64_t)1) << WMI_WIN_SHIFT) - 1)
#define WMI_SHARED_WIN ((uint64_t)0xfffe << WMI_WIN_SHIFT)
#define WMI_LOCAL_WIN ((uint64_t)0xfffd << WMI_WIN_SHIFT)
#define WMI_PARAM_WIN ((uint64_t)0xfffc << WMI_WIN_SHIFT)
#define WMI_MAX_GLOBAL_BUFS 0x7000

/* ---- execution state ----------------------------------------------------- */

typedef struct wmi_gbuf {
    uint8_t *p;
    uint64_t bytes;
} wmi_gbuf;

/* A call frame of a warp at depth d >= 1 (docs/design/ptx-calls.md);
   frame 0 is the kernel's (its registers are the warp's r0). */
typedef struct wmi_frame {
    uint64_t (*r)[32];   /* registers: m->max_slots x 32 lanes (d >= 1) */
    uint8_t *par;        /* frame bytes: 32 lanes x m->max_frame */
    uint32_t ret_pc[32]; /* where each lane returns to */
    uint32_t call[32];   /* the call record that entered the frame */
} wmi_frame;

/*
 * A register whose 32 lanes follow from two numbers (ptx_areg.h): lane l
 * holds b + l s (kind WMI_AR_A64, the exact 64 register bits), or the low
 * 32 bits of b + l s, zero-extended (WMI_AR_A32: what a 32-bit operation
 * writes), or bit l of b (WMI_AR_PRED: a predicate, 0 or 1 per lane).  A
 * uniform value is s = 0.
 */
typedef struct wmi_areg {
    uint64_t b, s;
} wmi_areg;

enum {
    WMI_AR_A64 = 1,
    WMI_AR_A32 = 2,
    WMI_AR_PRED = 3,
    WMI_AR_KIND = 3,    /* the kind bits; 0: not known */
    WMI_AR_STALE = 0x80 /* r[slot] does not hold the lanes yet */
};

/* A poll of a .volatile or .relaxed load: its instruction, its lanes and
   a hash of their addresses and the values they read. */
#define WMI_SPIN_POLLS 8
typedef struct wmi_poll {
    uint32_t pc, lanes;
    uint64_t key;
} wmi_poll;

typedef struct wmi_warp {
    uint64_t (*r)[32]; /* register file of the executing group's frame:
                          nslots x 32 lanes */
    uint64_t (*r0)[32]; /* the kernel's (frame 0) register file */
    wmi_frame *fr[WMI_MAX_CALL_DEPTH + 1]; /* allocated on first use */
    uint8_t depth[32];  /* call depth of each lane */
    uint32_t gdepth;    /* depth of the executing group */
    uint32_t gend;      /* end of the executing group's function */
    uint32_t pc[32];   /* per-lane pc (valid for ready lanes not in act) */
    uint32_t cur;      /* pc of the executing group */
    uint32_t act;      /* lanes at cur */
    uint32_t cf;       /* each lane's carry flag (CC.CF of add.cc ...) */
    uint32_t live;     /* lanes not exited */
    uint32_t wait;     /* lanes waiting at a barrier */
    uint8_t bar_of[32];/* which barrier a waiting lane waits at */
    uint32_t wait_at[16]; /* lanes waiting at barrier b (within wait) */
    uint32_t red_dst[16]; /* bar.red at barrier b: the destination its
                             waiting lanes get on release, or WMI_NOREG */
    uint32_t nthreads; /* threads of this warp (< 32 for a partial warp) */
    uint32_t index;
    /* The last polls of .volatile/.relaxed loads, one per instruction
       (ptx_exec.c, spin_poll; lanes 0: an empty entry), spin_next the
       entry a new instruction takes. */
    wmi_poll spin[WMI_SPIN_POLLS];
    uint32_t spin_next;
    /* Registers known uniform or lane-affine (ptx_areg.h; NULL when off:
       WMI_RUN_SLOW, --check, a partial warp).  ak[slot]: WMI_AR_* kind and
       flags, av[slot] its value (nak slots). */
    uint8_t *ak;
    wmi_areg *av;
    uint32_t nak;
    const uint8_t *apr; /* the worker's wmi_cta.apr */
} wmi_warp;

typedef struct wmi_barrier {
    uint32_t arrived;  /* threads arrived */
    uint32_t expected; /* count operand, 0 = all non-exited threads */
    uint32_t pc;       /* instruction of the first arrival */
    uint32_t pc2;      /* another instruction seen, or WMI_NOREG */
    /* bar.red: the kind (BAR_RED_*, 0: none) and, over the threads
       arrived, how many had the predicate, whether all and whether any */
    uint8_t red, red_and, red_or;
    uint32_t red_popc;
} wmi_barrier;

/* bar.red's reductions (wmi_insn.mod of OP_BAR; 0: bar.sync/arrive). */
enum { BAR_RED_POPC = 1, BAR_RED_AND, BAR_RED_OR };

/*
 * The counts of one memory instruction's last lane pattern.  wm_count is a
 * pure function of the lane mask, the size and the addresses, and it does
 * not change when every address moves by the same multiple of the line
 * (global: sectors and lines are translated) or of the bank unit
 * max(size, bank_bytes) (shared: units and bank groups are rotated, so
 * the distinct units per group and the broadcasts are the same).  The
 * naive transpose's store, the tiled kernels' shared loads in their k loop
 * repeat their pattern that way from warp to warp.
 */
#define WMI_MEMO_RES 32 /* residues of one pattern kept (a power of 2) */

typedef struct wmi_memo {
    uint64_t rel[32]; /* active lane's address - a0 */
    uint64_t a0;      /* address of the first active lane */
    uint32_t mask;    /* active lanes; 0 = nothing stored yet */
    uint32_t site;    /* the aggregator's record index (a hint) */
    uint8_t kind;     /* how the pattern's half warps address memory
                         (ptx_fastmem.c's classify) */
    uint8_t affine;   /* the active lanes are one run at a0 + (l - lo) d:
                         rel is not kept, (mask, d) is the pattern */
    int64_t d;
    wm_counts counts;
    /* Repeats of the pattern not yet added to the aggregator: the first
       access of a pattern is added with its addresses (it may be the
       site's worst), the repeats, equal to it, are added together by
       wmi_ptx_memo_flush when the pattern changes or the chunk of CTAs
       ends (wmi_agg_add_repeats).  Not with a tap: it sees each access. */
    uint64_t pending;
    uint32_t pc;      /* the instruction (the aggregator's site) */
    uint32_t size;    /* bytes per lane */
    uint8_t space, op; /* wm_space, wm_op of its accesses */
    /* The same pattern moved by less than the line or bank unit (a column
       of a transpose, a stencil's shifted rows) has other counts, exact
       for every access of that residue: slot i holds residue res[i].r =
       (a0 - memo a0) mod the unit, with its counts and repeats, for the
       slots in resmask (ptx_fastmem.c's record). */
    uint32_t resmask;
    struct wmi_memo_res {
        uint64_t r, pending;
        uint32_t site;
        wm_counts counts;
    } res[WMI_MEMO_RES];
    /* The pattern's last access through wmi_ptx_fast_ldst_affine, kept
       when it was a scalar row or broadcast of a full warp that repeated
       the pattern (hot): where it went (the window hwin, host base hbase,
       the last lane offset allowed hlim), so that a repeat of it in that
       window, moved by whole units (hper), moves its data and counts one
       more repeat with nothing else to do (ptx_fastmem.c's fast_hot).
       Cleared by every change of the pattern.  htap: the aggregator's
       tap is handed each repeat in closed form (wmi_agg_tap_repeat). */
    uint8_t hot, hkind, hesz, hsgn, htap;
    uint32_t hwin;
    uint64_t hlim, hper;
    uintptr_t hbase;
} wmi_memo;

/* One worker's state: a CTA's warps and memories. */
typedef struct wmi_cta {
    const wm_ptx_module *m;
    const wmi_func *f;
    const wmi_gbuf *gbufs;
    uint32_t ngbufs;
    const uint8_t *params;
    unsigned block[3], grid[3], ctaid[3];
    uint32_t nthreads, nwarps;
    wmi_warp *warps;
    uint8_t *smem;
    uint64_t smem_bytes;
    uint64_t dyn_smem;
    uint8_t *lmem; /* local: nthreads x lstride */
    uint64_t lstride; /* local bytes per thread: the kernel's, plus a
                         .func frame's for each call depth */
    uint64_t ltop;    /* local bytes the executing group may address */
    int has_calls;    /* the kernel calls functions */
    uint32_t *unset, nunset; /* register slots some path may read before
                                writing them: 0 at each CTA's start
                                (ptx_unset.c) */
    wmi_barrier bars[16];
    uint32_t exited; /* threads exited */
    wm_agg *agg;
    struct wmi_ctrace *trace; /* hierarchy-model recorder or NULL */
    int yielded; /* a warp stopped at a failed mbarrier wait this pass */
    uint64_t steps, max_steps;
    uint64_t step_limit; /* max_steps, or UINT64_MAX for no budget */
    uint64_t warp_insts, thread_insts;
    wm_ptx_fault *fault;
    wm_status status;
    unsigned flags; /* WMI_RUN_* */
    /* uni[slot]: the slot always holds the same value in every lane of a
       warp (zero, immediates, CTA-wide special registers such as %ctaid);
       no instruction writes these slots.  All 0 under WMI_RUN_SLOW.
       nslots entries. */
    uint8_t *uni;
    /* the fast memory path's access record; lanes 32.. stay zero.  On a
       cache line of its own: its lane addresses are written and read as
       vectors, which a line boundary would split (where the worker's
       frame put it, the naive transpose ran 3 % slower) */
    _Alignas(64) wm_access acc;
    /* memo_of[pc - f->first]: 1 + index into memo of a memory instruction
       (0: none; all 0 under WMI_RUN_SLOW) */
    uint32_t *memo_of;
    wmi_memo *memo;
    uint32_t nmemo;
    /* --check (ptx_check_int.h): the launch's checker or NULL, and the
       schedule's warp order (NULL: warps in order) */
    struct wmi_check *chk;
    uint32_t *order;
    const wm_ptx_texture *tex; /* the launch's texture/surface objects */
    uint32_t ntex;
    /* setmaxnreg executed (warp instructions), the largest .inc and the
       smallest .dec count of the current chunk (0: none) */
    uint64_t nreg;
    uint32_t nreg_inc, nreg_dec;
    /* Thread-block clusters (ptx_cluster.c): the cluster shape (1,1,1
       without clusters), whether it was explicit, this CTA's rank, its
       index in the checker's unit (the rank; a cooperative grid's CTA's
       index in the grid) and the worker's cluster when the kernel uses
       cluster instructions or the cluster has more than one CTA (else
       NULL) */
    unsigned cdim[3];
    int cexplicit;
    uint32_t rank, unit;
    struct wmi_cluster *clu;
    uint64_t workspace; /* a cooperative launch's grid workspace (its
                           global address: %envreg1 high, %envreg2 low
                           half), else 0 */
    /* acls[pc - f->first]: how the uniform and lane-affine registers
       treat the instruction (ptx_areg.h's WMI_AC_*), and apv[] the value
       an ld.param of WMI_AC_PARAM loads; NULL when off */
    uint8_t *acls;
    uint64_t *apv;
    struct wmi_aop *aop; /* the decoded operation of a WMI_AC_AFF one */
    /* apr[slot]: plain code may read the slot (an operand of an
       instruction ptx_exec_areg.h does not run on kinds, a store's value,
       a load's destination): its lanes are written with its kind */
    uint8_t *apr;
    /* warp instructions run on the kinds (ar_run, or ar_step's AR_DONE
       and AR_UNI), against warp_insts: wmi_areg_begin turns the kinds off
       for the worker's later CTAs where they take too few to pay */
    uint64_t ar_taken;
} wmi_cta;

/*
 * Internal launch options (tests and benchmarks).  WMI_RUN_SLOW turns off
 * every fast path (specialised ALU loops, uniform and range-checked memory
 * paths) so tests can check that both paths give identical
 * statistics and outputs, and the benchmark has an in-process baseline.
 */
enum {
    WMI_RUN_SLOW = 1u << 0,
    WMI_RUN_CHECK = 1u << 1, /* the checker tracks accesses (set per worker) */
    WMI_RUN_ALT = 1u << 2,   /* one run of a schedule comparison */
    WMI_RUN_BASE_ISA = 1u << 3 /* fast paths without run-time ISA clones */
};

/* wm_ptx_run with internal options (flags: WMI_RUN_*): one run, or with
   WM_CHECK_SCHEDULES (and no WMI_RUN_ALT) two compared (ptx_launch.c). */
wm_status wmi_ptx_run_opts(const wm_ptx_module *m, size_t k,
                           const wm_ptx_launch *l, wm_agg *agg,
                           wm_ptx_result *res, wm_ptx_fault *fault,
                           unsigned flags);

/* One run of the launch, whatever its checks ask (ptx_run.c): what
   wmi_ptx_run_opts and the schedule comparison run. */
wm_status wmi_ptx_run_once(const wm_ptx_module *m, size_t k,
                           const wm_ptx_launch *l, wm_agg *agg,
                           wm_ptx_result *res, wm_ptx_fault *fault,
                           unsigned flags);

/* ---- one worker's CTA (ptx_cta.c) ------------------------------------- */

/* Allocate c's warps, registers and memories for its function and
   geometry (WM_OK or WM_ERR_NOMEM: free with wmi_ptx_cta_free either
   way). */
wm_status wmi_ptx_cta_alloc(wmi_cta *c);
void wmi_ptx_cta_free(wmi_cta *c);

/* Set up slots and lanes of every warp for the CTA in c->ctaid. */
void wmi_ptx_cta_begin(wmi_cta *c);

/* Run the CTA in c->ctaid to its end; counts its warp instructions. */
wm_status wmi_ptx_cta_run(wmi_cta *c);

/*
 * Run warp w until all its lanes exited or wait at a barrier.  Returns
 * WM_OK or a fault status (with c->fault filled).
 */
wm_status wmi_ptx_warp_run(wmi_cta *c, wmi_warp *w);

/* Fill c->fault for warp w, lane, instruction pc; returns st
   (ptx_fault.c, beneath the executor and every opcode family). */
wm_status wmi_ptx_fault(wmi_cta *c, const wmi_warp *w, unsigned lane,
                        uint32_t pc, wm_status st, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/*
 * Host memory of [addr, addr + size) in space sp for lane l (generic
 * resolved through the windows), bounds-checked as a whole; NULL after
 * recording a fault.  *rs: the resolved space.  For whole-block copies
 * (ptx_fault.c).
 */
uint8_t *wmi_ptx_block(wmi_cta *c, const wmi_warp *w, unsigned l,
                       uint32_t pc, wmi_space sp, uint64_t addr,
                       uint64_t size, const char *what, wmi_space *rs);

/* ---- fast memory path (ptx_fastmem.c) ---------------------------------- */

/*
 * ld/st of the lanes in m without per-lane checks (not called under
 * WMI_RUN_SLOW): explicit global or shared accesses of 1-16 bytes per
 * lane (scalars and .v2/.v4 vectors) that no lane can fault, and ld.param
 * of a scalar from a uniform address.  Returns 0 when the checked path
 * must run (it reports any fault; nothing was read or written), else 1
 * with *st the status of counting the access; c->acc then holds the
 * model's record (its addresses are what --check tracks).
 */
int wmi_ptx_fast_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m, int store, wm_status *st);

/* wmi_ptx_fast_ldst for a full warp whose lanes' addresses, the offset
   included, are known to be x0 + l d (shared: 32-bit offsets): its
   address register lane-affine (ptx_areg.h) and not read. */
int wmi_ptx_fast_ldst_affine(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, int store, uint64_t x0, int64_t d,
                             wm_status *st);

/* The value ld.param of a scalar from a uniform address loads (extended
   as the load extends it) into *v; 0 when the checked path must run. */
int wmi_ptx_param_value(const wmi_cta *c, const wmi_warp *w,
                        const wmi_insn *in, uint64_t *v);

/* Adds the memos' pending repeats to c->agg (before the aggregator is
   read or changed); WM_OK or WM_ERR_NOMEM. */
wm_status wmi_ptx_memo_flush(wmi_cta *c);

/* ---- the CTA's shared-memory layout (ptx_smem.c) --------------------- */

/* A constant of function `func` holding the address of .shared variable
   `var` plus `add`: fixed once the whole module is parsed. */
typedef struct wmi_sfix {
    uint32_t func, cidx, var;
    int64_t add;
} wmi_sfix;

/* Lays out the static shared memory of every kernel of m (module-scope
   variables below module_smem, then every .func's, then the kernel's
   own), sets each kernel's smem_static, dyn_align and dyn_used and the
   constants of fx.  0 when out of memory. */
int wmi_ptx_smem_layout(wm_ptx_module *m, uint32_t module_smem,
                        const wmi_sfix *fx, size_t n);

/* ---- calls (ptx_call.c) ---------------------------------------------- */

/* Local bytes below the frame at depth d (0 for the kernel). */
uint64_t wmi_ptx_local_base(const wmi_cta *c, uint32_t d);

/* The function whose body holds instruction pc. */
const wmi_func *wmi_ptx_func_at(const wm_ptx_module *m, uint32_t pc);

/* Make the group at w->cur / depth w->gdepth current: w->r, w->gend and
   c->ltop follow its frame and function. */
void wmi_ptx_group(wmi_cta *c, wmi_warp *w);

/* call: the lanes in m enter the callee (one frame deeper); the other
   lanes of act go on after the call.  ret in a .func: the lanes in m go
   back to their callers with the return values.  Both leave the pcs in
   w->pc for reselect. */
wm_status wmi_ptx_call(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m, uint32_t act);
wm_status wmi_ptx_return(wmi_cta *c, wmi_warp *w, uint32_t pc, uint32_t m,
                         uint32_t act);

/* ld/st of frame bytes (SP_FRAME) for the lanes in m. */
wm_status wmi_ptx_frame_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, uint32_t m, int store);

/* Release the call frames of w. */
void wmi_ptx_frames_free(wmi_warp *w);

/* mbarrier and cp.async.bulk for the lanes in m (ptx_async.c).  A wait
   that fails for some lane sets *yield: the warp lets the others run. */
wm_status wmi_ptx_mbarrier(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m, int *yield);
wm_status wmi_ptx_cp_bulk(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                          uint32_t pc, uint32_t m);

/* ---- textures and surfaces (ptx_tex.c) ------------------------------- */

/* tex tld4 suld sust txq/suq */
int wmi_ptx_is_tex(unsigned op);
/* The texture forms' modifiers (geometry in mod; tex: .level/.grad,
   tld4: component, suld/sust: trap/clamp/zero in mod2); a form that is not
   modelled becomes OP_UNKNOWN. */
void wmi_ptx_tex_decode(const char *s, size_t n, wmi_insn *in);
wmi_type wmi_ptx_tex_src_type(const wmi_insn *in, unsigned k);
/* Is launch texture t well formed?  1, or 0 with the reason in msg. */
int wmi_ptx_tex_check(const wm_ptx_texture *t, char *msg, size_t n);
/* Execute a texture-form instruction for the lanes in m. */
wm_status wmi_ptx_tex(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m);
/* Count a texture instruction whose active lanes' filters read the n
   texels at addrs (tb bytes each; addrs is reordered). */
wm_status wmi_ptx_tex_count(wmi_cta *c, const wm_access *a, uint64_t *addrs,
                            size_t n, unsigned tb);

/* ---- clusters (ptx_cluster.c, ptx_cluster_run.c, ptx-cluster.md) ----- */

/*
 * Shared addresses of another CTA of the cluster (what mapa returns):
 * (rank + 1) << WMI_DSMEM_SHIFT | offset in its shared memory; generic ones
 * add WMI_SHARED_WIN.  The executing CTA's own addresses are plain offsets,
 * so a kernel without clusters never sees the rank bits.
 */
#define WMI_DSMEM_SHIFT 24
#define WMI_DSMEM_OFF ((1u << WMI_DSMEM_SHIFT) - 1)
#define WMI_MAX_CLUSTER 16

/* One round of c's warps, then its barriers (ptx_cta.c): WM_OK with *more
   WMI_ROUND_DONE (every thread exited), _RELEASED (a barrier released),
   _YIELDED (a warp yielded: go round again) or _STUCK (the fault of a
   barrier deadlock is recorded and returned instead). */
enum { WMI_ROUND_DONE, WMI_ROUND_RELEASED, WMI_ROUND_YIELDED };
wm_status wmi_ptx_cta_round(wmi_cta *c, int *more);

/* The cluster state of one worker: its CTAs and the cluster barrier.  A
   cooperative launch's whole grid is one too (coop): its CTAs run
   together the same way, each its own cluster of one. */
typedef struct wmi_cluster {
    wmi_cta **cta;     /* n */
    uint32_t n;        /* CTAs */
    int coop;          /* a cooperative launch's grid, no cluster */
    uint64_t phase;    /* completed phases of barrier.cluster */
    uint32_t arrived;  /* threads arrived in the current phase */
    uint32_t fails;    /* waits that found their phase open, this round */
    uint8_t **armed;   /* per CTA, per thread: arrived, not waited */
    uint64_t **want;   /* per CTA, per thread: the phase it waits for */
    int *done;         /* per CTA: all its threads exited (this run) */
} wmi_cluster;

/* The thread-block cluster c belongs to, NULL when it is a cluster of one
   (no wmi_cluster, or a cooperative grid's CTA). */
static inline wmi_cluster *wmi_cta_cluster(const wmi_cta *c)
{
    return c->clu && !c->clu->coop ? c->clu : NULL;
}

/* Allocate / free cluster state for CTAs cta[0..n-1] (wmi_ptx_cta_alloc'd;
   ptx_cluster_run.c); coop: the grid of a cooperative launch (n up to
   WM_PTX_MAX_COOP_CTAS), else a cluster (n up to WMI_MAX_CLUSTER). */
wmi_cluster *wmi_cluster_new(wmi_cta *const *cta, uint32_t n, int coop);
void wmi_cluster_free(wmi_cluster *cl);
/* Run cluster q (linear index in the grid of clusters) to its end
   (ptx_cluster_run.c). */
wm_status wmi_cluster_run(wmi_cluster *cl, uint64_t q);
/* Complete the phase of barrier.cluster when every live thread arrived. */
void wmi_cluster_settle(wmi_cluster *cl);
/* The fault of a cluster barrier deadlock, naming the barrier's state. */
wm_status wmi_cluster_deadlock(wmi_cluster *cl);
/* barrier.cluster.arrive / .wait for the lanes in m; *yield: some lanes
   wait (they stay at pc, the others of act go on). */
wm_status wmi_ptx_barrier_cluster(wmi_cta *c, wmi_warp *w,
                                  const wmi_insn *in, uint32_t pc,
                                  uint32_t m, int *yield);
/* mapa for the lanes in m. */
wm_status wmi_ptx_mapa(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc, uint32_t m);
/* Host memory of the shared address addr (rank bits set) of another CTA
   of the cluster, bounds-checked; NULL after recording a fault
   (ptx_fault.c, under resolve). */
uint8_t *wmi_ptx_dsmem(wmi_cta *c, const wmi_warp *w, unsigned l,
                       uint32_t pc, uint64_t addr, unsigned size,
                       const char *what);

/* ---- TMA (ptx_tma.c, docs/design/ptx-tma.md) --------------------------- */

/* OP_TMA: wmi_insn.mod is the kind, mod2 the reduction (AOP_*), type2 the
   rank (1..5), rnd the TMA_F_* flags.  Sources: a load's a = [dst]
   (+ imm), b = map, c = coordinates, e = [mbar], d2 = ctaMask
   (multicast); an im2col load's d2 = {im2col offsets}, d = ctaMask; a
   store's or reduction's a = map, b = coordinates, c = [src].  A
   cache-policy operand is parsed and ignored. */
enum { TMA_LOAD, TMA_STORE, TMA_REDUCE };
enum { TMA_F_MULTICAST = 1, TMA_F_IM2COL = 2 };
void wmi_ptx_tma_decode(const char *s, size_t n, wmi_insn *in);
wmi_type wmi_ptx_tma_src_type(const wmi_insn *in, unsigned k);
wm_status wmi_ptx_tma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m);
/* OP_TENSORMAP (ptx_tensormap.c): mod is the field replaced (WMI_TMAP_*,
   ptx_tma_int.h) or WMI_TMAP_CP; space the map's ([A]'s) space. */
void wmi_ptx_tensormap_decode(const char *s, size_t n, wmi_insn *in);
wmi_type wmi_ptx_tensormap_src_type(const wmi_insn *in, unsigned k);
wm_status wmi_ptx_tensormap(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                            uint32_t pc, uint32_t m);
/* Complete bytes transaction bytes on the mbarrier at shared address addr
   (ptx_async.c); WM_OK or the fault's status. */
wm_status wmi_ptx_mbar_complete(wmi_cta *c, wmi_warp *w, unsigned l,
                                uint32_t pc, uint64_t addr, uint64_t bytes);

/* elect.sync for the lanes in m (ptx_elect.c). */
wm_status wmi_ptx_elect(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                        uint32_t pc, uint32_t m);

/* ---- numeric helpers (ptx_num.c) ----------------------------------------- */

float wmi_half_to_float(uint16_t h);
uint16_t wmi_float_to_half(float f, wmi_rnd r);
float wmi_bf16_to_float(uint16_t h);
uint16_t wmi_float_to_bf16(float f, wmi_rnd r);
/* An fp8 value (e4m3, or e5m2 when e5m2) as a float; a float to fp8 with
   cvt.rn.satfinite's rules: to nearest even, beyond the largest finite
   value that value, a NaN the canonical 0x7f; relu: negatives to 0. */
float wmi_fp8_to_float(uint8_t v, int e5m2);
uint8_t wmi_float_to_fp8(float f, int e5m2, int relu);

/* D = fma.rn.f32(A, B, C) for the lanes in m, with the FMA instruction
   where the CPU has one (ptx_fma.c). */
void wmi_fma_f32(uint64_t *D, const uint64_t *A, const uint64_t *B,
                 const uint64_t *C, uint32_t m);

/* mma.sync with 8- or 4-bit inputs (ptx_mma8.c): is t such an input type;
   the input types of an fp8 form (the decoder's type words miss them);
   execute (the warp converged). */
int wmi_ptx_mma8_type(wmi_type t);
void wmi_ptx_mma8_decode(const char *s, size_t n, wmi_insn *in);
wm_status wmi_ptx_mma8(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                       uint32_t pc);

/* wmma.load / wmma.store / wmma.mma (ptx_wmma.c): the variant into
   op, mod, type, type2, mod2 (OP_UNKNOWN where not modelled). */
void wmi_ptx_wmma_decode(const char *s, size_t n, wmi_insn *in);
/* The bytes a lane accesses in one request of a wmma load or store (4 or
   8; an element where a lane's elements are a stride apart); 0 if in is
   not a wmma form.  This and the two below are ptx_wmma_frag.c's, beneath
   the family: pure functions of the decoded instruction. */
unsigned wmi_ptx_wmma_piece(const wmi_insn *in);
/* The warp requests a wmma load or store makes (0 if in is not a wmma
   form), and in *ld the stride in elements when the instruction gives
   none.  Request q's lane l lies wmi_ptx_wmma_offset bytes past the
   fragment's address for a stride of ld elements; move() in ptx_wmma.c
   makes the requests in that order. */
unsigned wmi_ptx_wmma_requests(const wmi_insn *in, uint64_t *ld);
uint64_t wmi_ptx_wmma_offset(const wmi_insn *in, unsigned q, unsigned l,
                             uint64_t ld);
wm_status wmi_ptx_wmma_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                            uint32_t pc, uint32_t m);
wm_status wmi_ptx_wmma_mma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m);

/* stmatrix m8n8 .b16 for the whole warp (ptx_stmatrix.c). */
wm_status wmi_ptx_stmatrix(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m);

/* Execute ldmatrix / mma for the whole warp (ptx_mma.c). */
wm_status wmi_ptx_ldmatrix(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                           uint32_t pc, uint32_t m);
wm_status wmi_ptx_mma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m);

/* ---- wgmma (ptx_wgmma.c) --------------------------------------------- */

/* wgmma.mma_async immediates packed in wmi_insn.imm (the parser checks
   their values: scale 1 or -1, transpose 0 or 1). */
enum {
    WG_NEG_A = 1 << 0,   /* imm-scale-a = -1 */
    WG_NEG_B = 1 << 1,   /* imm-scale-b = -1 */
    WG_TRANS_A = 1 << 2, /* imm-trans-a = 1: A is M-major */
    WG_TRANS_B = 1 << 3  /* imm-trans-b = 1: B is N-major */
};
/* wgmma.fence / commit_group / wait_group (wmi_insn.mod of WGMMA_SYNC) */
enum { WG_FENCE, WG_COMMIT, WG_WAIT };

/* The wgmma forms' modifiers: shape (N / 8 in mod), input types (type2,
   mod2: WG_IN_*), accumulator type (type); a form not modelled becomes
   OP_UNKNOWN. */
void wmi_ptx_wgmma_decode(const char *s, size_t n, wmi_insn *in);
/* How many immediates follow scale-d (A from registers: areg) and whether
   the form is one that takes transposes. */
unsigned wmi_ptx_wgmma_nimm(const wmi_insn *in, int areg);
/* setmaxnreg for warp w: checks the count (24 .. 256, a multiple of 8)
   and the converged warp, and counts it into c->nreg. */
wm_status wmi_ptx_setmaxnreg(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, uint32_t m);
/* Execute wgmma.mma_async for warp w (all 32 lanes in m). */
wm_status wmi_ptx_wgmma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                        uint32_t pc, uint32_t m);

/* The interpreter's lane loops (ptx_exec.c, ptx_fastmem.c): WMI_FULL is
   every lane; WMI_LOOP runs its body for each lane l of the mask m in
   scope, in lane order: the full-mask loop has no test so it vectorises,
   a partial mask's visits its set bits only (one lane, as a uniform
   instruction runs, costs one pass). */
#define WMI_FULL 0xffffffffu
#define WMI_LOOP(...)                                                         \
    do {                                                                      \
        if (m == WMI_FULL) {                                                  \
            for (unsigned l = 0; l < 32; l++) {                               \
                __VA_ARGS__;                                                  \
            }                                                                 \
        } else {                                                              \
            for (uint32_t wmi_t_ = m; wmi_t_; wmi_t_ &= wmi_t_ - 1) {         \
                unsigned l = (unsigned)__builtin_ctz(wmi_t_);                 \
                __VA_ARGS__;                                                  \
            }                                                                 \
        }                                                                     \
    } while (0)

#endif /* WM_PTX_INT_H */
