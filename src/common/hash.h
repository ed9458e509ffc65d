/* A 64-bit hash of bytes, for tables that compare in full on a hit (the table of live pipelines)
 * and for checking that stored bytes came back whole (cached pipeline blobs). Not cryptographic. */
#ifndef D3D12XS_HASH_H
#define D3D12XS_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Multiply-xorshift over 8-byte words, continuing from hash: a few hundred ns for 4 KiB. */
static inline uint64_t d3d12xs_hash_bytes(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    uint64_t word;
    size_t i = 0;

    for (; i + 8 <= size; i += 8) {
        memcpy(&word, bytes + i, 8);
        hash = (hash ^ word) * 0x9e3779b97f4a7c15ull;
        hash ^= hash >> 29;
    }
    word = size;
    for (size_t shift = 8; i < size; i++, shift += 8)
        word ^= (uint64_t)bytes[i] << (shift % 64);
    hash = (hash ^ word) * 0xd6e8feb86659fd93ull;
    return hash ^ hash >> 32;
}

#endif
