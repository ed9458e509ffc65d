/* PIX event texts (pix_event.h). */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "commands/pix_event.h"

static void put(char *out, size_t out_size, size_t *n, unsigned c)
{
    if (*n + 1 < out_size)
        out[(*n)++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
}

void d3d12_pix_event_name(UINT metadata, const void *data, UINT size, char *out, size_t out_size)
{
    const unsigned char *bytes = data;
    size_t n = 0;

    if (!out_size)
        return;
    if (bytes && metadata == D3D12XS_PIX_EVENT_UNICODE) {
        for (size_t i = 0; i + sizeof(wchar_t) <= size; i += sizeof(wchar_t)) {
            wchar_t c;
            memcpy(&c, bytes + i, sizeof(c));
            if (!c)
                break;
            put(out, out_size, &n, (unsigned)c);
        }
    } else if (bytes && metadata == D3D12XS_PIX_EVENT_ANSI) {
        for (size_t i = 0; i < size && bytes[i]; i++)
            put(out, out_size, &n, bytes[i]);
    } else if (bytes && metadata == D3D12XS_PIX_EVENT_PIX3BLOB) {
        /* The longest run of printable characters: the format string PIX3 copies in. */
        size_t best = 0, best_length = 0;
        for (size_t i = 0; i < size;) {
            size_t j = i;
            while (j < size && bytes[j] >= 0x20 && bytes[j] < 0x7f)
                j++;
            if (j - i > best_length)
                best = i, best_length = j - i;
            i = j + 1;
        }
        for (size_t i = 0; i < best_length && best_length >= 3; i++)
            put(out, out_size, &n, bytes[best + i]);
    }
    out[n] = 0;
    if (!n)
        snprintf(out, out_size, "PIX event");
}
