/*
 * fuzz_reader.h -- the binary harnesses' input reader: fields taken from
 * the front of the input, little-endian, zeros once it is used up (so
 * every input, however short, is a whole case).
 */
#ifndef WM_FUZZ_READER_H
#define WM_FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

/* The next `bytes` bytes (at most 8) as a little-endian number. */
static inline uint64_t take(reader *r, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes && r->n; i++, r->p++, r->n--)
        v |= (uint64_t)*r->p << (8 * i);
    return v;
}

#endif
