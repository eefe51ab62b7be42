/*
 * fuzz_arch.c -- libFuzzer harness: an architecture spec string
 * ("sm_80", "generic,warp=64,banks=32,...") -> wm_arch_parse, and a valid
 * profile through wm_arch_check and one access of each kind.
 */
#include "warpmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char spec[4097];
    memcpy(spec, data, size);
    spec[size] = '\0';
    wm_arch a;
    char err[256];
    if (wm_arch_parse(spec, &a, err, sizeof err) != WM_OK)
        return 0;
    if (wm_arch_check(&a) != WM_OK)
        return 0;
    wm_access acc;
    memset(&acc, 0, sizeof acc);
    acc.size = 4;
    acc.mask = a.warp_size >= 64 ? ~(uint64_t)0
                                 : (((uint64_t)1 << a.warp_size) - 1);
    for (unsigned l = 0; l < WM_MAX_LANES; l++)
        acc.addr[l] = (uint64_t)l * 4u * (size % 33);
    wm_counts c;
    for (int sp = 0; sp < 3; sp++) {
        acc.space = (wm_space)sp;
        wm_count(&a, &acc, &c);
    }
    return 0;
}
