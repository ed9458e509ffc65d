/* shader_runner: checks of [expect] items against what was read back. */
#include "shader_runner.h"

static bool float_close(float got, double expected, double tolerance)
{
    if (isnan(expected))
        return isnan(got);
    if (isinf(expected))
        return got == (float)expected;
    return fabs((double)got - expected) <= tolerance;
}

/* Checks the items of [expect] sections that name this buffer, or this texture's subresource,
 * against data (size bytes: a buffer, or a subresource's texels packed). */
static void check_items(struct runner *r, struct test *t, int buffer, int texture, unsigned subresource, const uint8_t *data,
        size_t size, const char *name)
{
    struct texel_space space;
    const struct texel_space *texels = NULL;
    char where[96];

    if (texture >= 0) {
        space = texture_space(&t->textures[texture], subresource, NULL);
        texels = &space;
    }
    for (unsigned e = 0; e < t->expect_count; e++) {
        const struct expect_item *item = &t->expects[e];
        unsigned mismatches = 0, type_size = value_types[item->type].size;
        /* probe rect / probe all: the item's values again at each texel of the rectangle. */
        size_t texels_checked = item->rect_width ? (size_t)item->rect_width * item->rect_height : 1;
        size_t row_bytes = texels ? (size_t)texels->width * texels->texel_bytes : 0;
        if (item->buffer != buffer || item->texture != texture || (texture >= 0 && item->subresource != subresource))
            continue;
        if (item->count && item->offset + (item->rect_height ? (item->rect_height - 1) * row_bytes
                + (item->rect_width - 1) * (size_t)texels->texel_bytes : 0) + (item->count - 1) * item->stride + type_size > size) {
            FAIL_AT(item->line, "expectation passes the end of the %zu bytes of %s '%s'", size, texture >= 0 ? "the subresource of" : "buffer",
                    name);
            continue;
        }
        for (size_t k = 0; k < item->count * texels_checked; k++) {
            size_t i = k % item->count, repeat = k / item->count;
            size_t offset = item->offset + i * item->stride;
            if (item->rect_width)
                offset += repeat / item->rect_width * row_bytes + repeat % item->rect_width * texels->texel_bytes;
            uint8_t want_bytes[4];
            struct value got = decode_value(data + offset, item->type), want;
            const char *error;
            bool ok;
            char got_text[64], want_text[64];

            if (item->kind == EXPECT_EACH) {
                if (!evaluate(item->formula, texels ? (int64_t)(offset / texels->texel_bytes) : (int64_t)i, r->lanes, texels, offset,
                        type_size, &want, &error)) {
                    FAIL_AT(item->line, "expression '%s': %s", item->formula, error);
                    break;
                }
            } else if (!parse_literal(item->values[i], item->type, &want)) {
                FAIL_AT(item->line, "bad %s value '%s'", value_types[item->type].name, item->values[i]);
                break;
            }
            encode_value(want, item->type, want_bytes);
            if (item->type == TYPE_FLOAT || item->type == TYPE_HALF || (value_types[item->type].real && item->tolerance > 0.0)) {
                /* Numbers within the tolerance (unorm and snorm ones with tol=; without, their
                 * encoding); without one, a float or half equals the expected value rounded to it. */
                double expected = item->tolerance > 0.0 ? as_double(want) : decode_value(want_bytes, item->type).f;
                ok = float_close((float)got.f, expected, item->tolerance);
                snprintf(got_text, sizeof(got_text), "%.9g", got.f);
                snprintf(want_text, sizeof(want_text), "%.9g (tol %g)", as_double(want), item->tolerance);
            } else {
                ok = !memcmp(data + offset, want_bytes, type_size);
                if (value_types[item->type].real) {
                    struct value encoded = decode_value(want_bytes, item->type);
                    snprintf(got_text, sizeof(got_text), "%.9g", got.f);
                    snprintf(want_text, sizeof(want_text), "%.9g (%.9g encoded)", as_double(want), encoded.f);
                } else if (item->type == TYPE_INT || item->type == TYPE_INT16 || item->type == TYPE_INT8) {
                    snprintf(got_text, sizeof(got_text), "%lld", (long long)got.i);
                    snprintf(want_text, sizeof(want_text), "%lld", (long long)decode_value(want_bytes, item->type).i);
                } else {
                    uint64_t w = (uint64_t)decode_value(want_bytes, item->type).i;
                    snprintf(got_text, sizeof(got_text), "%llu (0x%llx)", (unsigned long long)got.i, (unsigned long long)got.i);
                    snprintf(want_text, sizeof(want_text), "%llu (0x%llx)", (unsigned long long)w, (unsigned long long)w);
                }
            }
            if (texels) {
                size_t texel = offset / texels->texel_bytes;
                snprintf(where, sizeof(where), "texel (%zu, %zu, %zu) component %zu", texel % texels->width,
                        texel / texels->width % texels->height, texel / texels->width / texels->height,
                        offset % texels->texel_bytes / type_size);
            } else {
                snprintf(where, sizeof(where), "[%zu]", i);
            }
            if (!ok && ++mismatches <= 8)
                fprintf(stderr, "%s:%d: %s%s%s (byte %zu): got %s, expected %s\n", current_file, item->line, name, texels ? " " : "",
                        where, offset, got_text, want_text);
        }
        if (mismatches)
            FAIL_AT(item->line, "%u of %zu values of '%s' differ (lanes = %u)", mismatches, item->count * texels_checked, name, r->lanes);
        else
            harness_check(true, current_file, item->line, "ok");
    }
}

void check_expectations(struct runner *r, struct test *t)
{
    for (unsigned b = 0; b < t->buffer_count; b++) {
        struct buffer_def *buffer = &t->buffers[b];
        uint8_t *data = NULL;
        if (!buffer->expected)
            continue;
        CHECK_HR(ID3D12Resource_Map(buffer->readback, 0, NULL, (void **)&data), S_OK);
        if (!data)
            continue;
        check_items(r, t, (int)b, -1, 0, data, buffer->size, buffer->name);
        ID3D12Resource_Unmap(buffer->readback, 0, NULL);
    }
    for (unsigned k = 0; k < t->texture_count; k++) {
        struct texture_def *tex = &t->textures[k];
        uint8_t *mapped = NULL;
        if (!tex->expected)
            continue;
        CHECK_HR(ID3D12Resource_Map(tex->readback, 0, NULL, (void **)&mapped), S_OK);
        if (!mapped)
            continue;
        for (unsigned s = 0; s < tex->subresource_count; s++) {
            size_t size;
            struct texel_space space = texture_space(tex, s, &size);
            size_t row_bytes = (size_t)space.width * space.texel_bytes;
            uint8_t *packed = xcalloc(size, 1);
            char name[96];
            for (UINT z = 0; z < space.depth; z++)
                for (UINT y = 0; y < space.height; y++)
                    memcpy(packed + ((size_t)z * space.height + y) * row_bytes,
                            mapped + tex->layouts[s].Offset + ((UINT64)z * tex->rows[s] + y) * tex->layouts[s].Footprint.RowPitch, row_bytes);
            snprintf(name, sizeof(name), "%s mip %u layer %u", tex->name, space.mip, space.layer);
            check_items(r, t, -1, (int)k, s, packed, size, name);
            free(packed);
        }
        ID3D12Resource_Unmap(tex->readback, 0, NULL);
    }
}
