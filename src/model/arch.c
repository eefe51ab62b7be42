/*
 * arch.c -- architecture profiles: the built-in table, parsing of profile
 * specs ("sm_80", "generic,warp=64,banks=32") and validation.
 *
 * All NVIDIA profiles from sm_70 to sm_90 share the numbers of
 * docs/design/memory-model.md: 32 lanes, 32 B sectors, 128 B lines, 32
 * banks of 4 B.  They differ in one rule: CC 7.x packs uniform lane pairs
 * of 64/128-bit shared loads (the uniform-pair rule, §2 there); whether
 * sm_80+ keeps it is unknown, so only sm_70/sm_75 enable it.
 */
#include "wm_int.h"

#include <stdio.h>

static const wm_arch builtin[] = {
    {"sm_70", 70, 32, 32, 128, 32, 4, 1},
    {"sm_75", 75, 32, 32, 128, 32, 4, 1},
    {"sm_80", 80, 32, 32, 128, 32, 4, 0},
    {"sm_86", 86, 32, 32, 128, 32, 4, 0},
    {"sm_89", 89, 32, 32, 128, 32, 4, 0},
    {"sm_90", 90, 32, 32, 128, 32, 4, 0},
    /* GPUs of the hierarchy model (cache_gpu.c): the rules of their
     * compute capability, plus their SM, L2 and bandwidth figures. */
    {"H200", 90, 32, 32, 128, 32, 4, 0},
    {"H100", 90, 32, 32, 128, 32, 4, 0},
    {"A100", 80, 32, 32, 128, 32, 4, 0},
    {"L4", 89, 32, 32, 128, 32, 4, 0},
    {"RTX4090", 89, 32, 32, 128, 32, 4, 0},
    /* AMD CDNA3-like: wave64, 128 B vL1D lines, 32 LDS banks of 4 B
     * (docs/design/memory-model.md §3).  An example of the generic
     * profile. */
    {"amd-wave64", 0, 64, 32, 128, 32, 4, 0},
    {"generic", 0, 32, 32, 128, 32, 4, 0},
};

const wm_arch *wm_arch_default(void)
{
    return &builtin[5];
}

size_t wm_arch_count(void)
{
    return WM_ARRAY_LEN(builtin);
}

const wm_arch *wm_arch_at(size_t i)
{
    return i < WM_ARRAY_LEN(builtin) ? &builtin[i] : NULL;
}

static int is_pow2(unsigned v)
{
    return v && !(v & (v - 1));
}

wm_status wm_arch_check(const wm_arch *a)
{
    if (!a)
        return WM_ERR_ARCH;
    if (a->warp_size != 32 && a->warp_size != 64)
        return WM_ERR_ARCH;
    if (!is_pow2(a->sector_bytes) || a->sector_bytes < 4 ||
        a->sector_bytes > 4096)
        return WM_ERR_ARCH;
    if (!is_pow2(a->line_bytes) || a->line_bytes < a->sector_bytes ||
        a->line_bytes / a->sector_bytes > 64)
        return WM_ERR_ARCH;
    if (!is_pow2(a->banks) || a->banks > WM_MAX_BANKS || a->banks < 2)
        return WM_ERR_ARCH;
    if (a->bank_bytes != 4 && a->bank_bytes != 8)
        return WM_ERR_ARCH;
    if (a->uniform_pair > 1)
        return WM_ERR_ARCH;
    return WM_OK;
}

/* err = prefix + quoted a + suffix (a may be NULL). */
static void set_err(char *err, size_t errlen, const char *prefix,
                    const char *a, const char *suffix)
{
    if (err && errlen)
        snprintf(err, errlen, "%s%s%s", prefix, a ? a : "", suffix);
}

/* Parse a decimal unsigned value of a key=value pair; 0 on error. */
static int parse_uint(const char *s, size_t n, unsigned *out)
{
    unsigned long v = 0;
    if (n == 0 || n > 6)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    *out = (unsigned)v;
    return 1;
}

/* generic[,key=value]* */
static wm_status parse_generic(const char *p, wm_arch *out, char *err,
                               size_t errlen)
{
    *out = builtin[WM_ARRAY_LEN(builtin) - 1];
    while (*p == ',') {
        const char *key = ++p;
        const char *eq = strchr(key, '=');
        const char *end = strchr(key, ',');
        if (!end)
            end = key + strlen(key);
        if (!eq || eq > end) {
            set_err(err, errlen, "'", key, "': expected key=value");
            return WM_ERR_ARCH;
        }
        size_t klen = (size_t)(eq - key);
        unsigned v;
        if (!parse_uint(eq + 1, (size_t)(end - eq - 1), &v)) {
            set_err(err, errlen, "'", key, "': value is not a whole number");
            return WM_ERR_ARCH;
        }
        if (klen == 4 && strncmp(key, "warp", 4) == 0)
            out->warp_size = v;
        else if (klen == 6 && strncmp(key, "sector", 6) == 0)
            out->sector_bytes = v;
        else if (klen == 4 && strncmp(key, "line", 4) == 0)
            out->line_bytes = v;
        else if (klen == 5 && strncmp(key, "banks", 5) == 0)
            out->banks = v;
        else if (klen == 9 && strncmp(key, "bankbytes", 9) == 0)
            out->bank_bytes = v;
        else {
            set_err(err, errlen, "'", key,
                    "': unknown key (warp, sector, line, banks, bankbytes)");
            return WM_ERR_ARCH;
        }
        p = end;
    }
    if (*p != '\0') {
        set_err(err, errlen, "unexpected text '", p, "'");
        return WM_ERR_ARCH;
    }
    if (wm_arch_check(out) != WM_OK) {
        set_err(err, errlen,
                "invalid generic profile (warp 32|64, sector/line/banks "
                "powers of two, sector <= line <= 64 sectors, banks <= 64, "
                "bankbytes 4|8)",
                NULL, "");
        return WM_ERR_ARCH;
    }
    return WM_OK;
}

wm_status wm_arch_parse(const char *spec, wm_arch *out, char *err,
                        size_t errlen)
{
    char want[24];
    if (!spec || !out) {
        set_err(err, errlen, "no profile given", NULL, "");
        return WM_ERR_ARCH;
    }
    if (strncmp(spec, "generic", 7) == 0 &&
        (spec[7] == '\0' || spec[7] == ','))
        return parse_generic(spec + 7, out, err, errlen);
    /* Accept "sm_80", "sm80", "80" and "compute_80". */
    const char *digits = spec;
    if (strncmp(spec, "compute_", 8) == 0)
        digits = spec + 8;
    else if (strncmp(spec, "sm_", 3) == 0)
        digits = spec + 3;
    else if (strncmp(spec, "sm", 2) == 0)
        digits = spec + 2;
    size_t nd = strlen(digits);
    if (nd >= 2 && nd <= 3 && digits[0] >= '0' && digits[0] <= '9') {
        snprintf(want, sizeof want, "sm_%.2s", digits);
        /* sm_90a and friends: a trailing feature letter is accepted */
        if (nd == 3 && digits[2] != 'a')
            want[0] = '\0';
    } else if (wm_gpu_find(spec)) {
        snprintf(want, sizeof want, "%s", wm_gpu_find(spec)->name);
    } else {
        snprintf(want, sizeof want, "%s", spec);
    }
    for (size_t i = 0; i < WM_ARRAY_LEN(builtin); i++) {
        if (strcmp(builtin[i].name, want) == 0) {
            *out = builtin[i];
            return WM_OK;
        }
    }
    set_err(err, errlen, "unknown architecture '", spec,
            "' (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, H200, H100, A100, "
            "L4, RTX4090, amd-wave64, generic[,key=value...])");
    return WM_ERR_ARCH;
}
