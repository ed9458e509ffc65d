/* MD5 (RFC 1321) and the DXBC container checksum built on its compression function. */
#include <string.h>

#include "descriptors/root_signature_blob.h"

struct md5_state {
    uint32_t h[4];
};

static const uint32_t md5_k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const uint8_t md5_shift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void md5_init(struct md5_state *s)
{
    s->h[0] = 0x67452301;
    s->h[1] = 0xefcdab89;
    s->h[2] = 0x98badcfe;
    s->h[3] = 0x10325476;
}

static void md5_block(struct md5_state *s, const uint8_t block[64])
{
    uint32_t m[16], a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];

    for (unsigned i = 0; i < 16; i++)
        m[i] = load_le32(block + 4 * i);
    for (unsigned i = 0; i < 64; i++) {
        unsigned round = i / 16, index;
        uint32_t f, t;
        switch (round) {
        case 0: f = (b & c) | (~b & d); index = i; break;
        case 1: f = (d & b) | (~d & c); index = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; index = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); index = (7 * i) % 16; break;
        }
        t = a + f + md5_k[i] + m[index];
        unsigned r = md5_shift[round][i % 4];
        a = d;
        d = c;
        c = b;
        b = b + ((t << r) | (t >> (32 - r)));
    }
    s->h[0] += a;
    s->h[1] += b;
    s->h[2] += c;
    s->h[3] += d;
}

static void md5_output(const struct md5_state *s, uint8_t digest[16])
{
    for (unsigned i = 0; i < 4; i++)
        store_le32(digest + 4 * i, s->h[i]);
}

void d3d12xs_md5(const void *data, size_t size, uint8_t digest[16])
{
    const uint8_t *bytes = data;
    size_t full = size - size % 64, rest = size % 64;
    uint8_t tail[128] = {0};
    uint64_t bits = (uint64_t)size * 8;
    size_t tail_size = rest < 56 ? 64 : 128;
    struct md5_state s;

    md5_init(&s);
    for (size_t i = 0; i < full; i += 64)
        md5_block(&s, bytes + i);
    if (rest)
        memcpy(tail, bytes + full, rest);
    tail[rest] = 0x80;
    for (unsigned i = 0; i < 8; i++)
        tail[tail_size - 8 + i] = (uint8_t)(bits >> (8 * i));
    md5_block(&s, tail);
    if (tail_size == 128)
        md5_block(&s, tail + 64);
    md5_output(&s, digest);
}

/* The container hashes bytes 20.. (after the magic and the checksum itself). Its last block is
 * not MD5's: the bit count goes in the first word of the final block, ahead of the leftover
 * bytes when they fit, and the last word holds (bit count >> 2) | 1. */
void d3d12xs_dxbc_checksum(const void *container, size_t size, uint8_t checksum[16])
{
    const uint8_t *bytes = (const uint8_t *)container + 20;
    size_t length = size >= 20 ? size - 20 : 0;
    size_t full = length - length % 64, rest = length % 64;
    uint32_t bits = (uint32_t)length * 8;
    uint8_t block[64];
    struct md5_state s;

    md5_init(&s);
    for (size_t i = 0; i < full; i += 64)
        md5_block(&s, bytes + i);
    memset(block, 0, sizeof(block));
    if (rest >= 56) {
        memcpy(block, bytes + full, rest);
        block[rest] = 0x80;
        md5_block(&s, block);
        memset(block, 0, sizeof(block));
        store_le32(block, bits);
    } else {
        store_le32(block, bits);
        if (rest)
            memcpy(block + 4, bytes + full, rest);
        block[4 + rest] = 0x80;
    }
    store_le32(block + 60, (bits >> 2) | 1);
    md5_block(&s, block);
    md5_output(&s, checksum);
}
