/* Texture methods glslang's HLSL front end mistranslates (glslang 12, Debian 12's).
 *
 * GatherCmp and GatherCmpRed/Green/Blue/Alpha without an offset argument: glslang takes the
 * compare value for a bias and emits OpImageDrefGather with a Bias operand, which the SPIR-V
 * validator rejects ("Image Operand Bias can only be used with ImplicitLod opcodes"), so the
 * shader does not compile. With an explicit offset it emits a correct gather; a zero offset is
 * what D3D's three-argument form means. On Texture2D and Texture2DArray, the types that take an
 * offset, the rewrite adds `int2(0, 0)`; TextureCube(Array) has no offset form and keeps the bug
 * (docs/textures.md). */
#include <string.h>

#include "shaders/hlsl_rewrite_parts.h"

static const char *const gather_cmp_methods[] = {"GatherCmp", "GatherCmpRed", "GatherCmpGreen", "GatherCmpBlue", "GatherCmpAlpha"};

enum { TEXTURE_WITH_OFFSETS = 1 };

static bool is_gather_cmp(const struct rewriter *r, size_t t)
{
    for (size_t i = 0; i < sizeof(gather_cmp_methods) / sizeof(gather_cmp_methods[0]); i++)
        if (hlsl_is(r, t, gather_cmp_methods[i]))
            return true;
    return false;
}

/* Names declared as Texture2D or Texture2DArray (with or without <T>, arrays of them too). */
static bool collect_2d_textures(const struct rewriter *r, struct hlsl_names *names)
{
    for (size_t t = 0; t + 1 < r->token_count; t++) {
        size_t name = t + 1;
        if (!hlsl_is(r, t, "Texture2D") && !hlsl_is(r, t, "Texture2DArray"))
            continue;
        if (hlsl_is(r, name, "<")) {
            while (name < r->token_count && !hlsl_is(r, name, ">"))
                name++;
            name++;
        }
        if (hlsl_is_ident(r, name) && !hlsl_names_add(r, names, name, TEXTURE_WITH_OFFSETS))
            return false;
    }
    return true;
}

/* The identifier a method call's object starts with: `tex` of tex.M( and of tex[i].M(. */
static size_t object_name(const struct rewriter *r, size_t dot)
{
    size_t t = dot;
    if (!t)
        return r->token_count;
    t--;
    while (hlsl_is(r, t, "]")) {
        size_t open = hlsl_opening(r, t);
        if (open == r->token_count || !open)
            return r->token_count;
        t = open - 1;
    }
    return hlsl_is_ident(r, t) ? t : r->token_count;
}

void hlsl_rewrite_texture_methods(struct rewriter *r)
{
    struct hlsl_names textures = {0};

    if (!collect_2d_textures(r, &textures)) {
        r->failed = true;
        hlsl_names_free(&textures);
        return;
    }
    for (size_t t = 1; t + 1 < r->token_count && textures.count; t++) {
        size_t open = t + 1, close, object, commas = 0;
        if (!is_gather_cmp(r, t) || !hlsl_is(r, t - 1, ".") || !hlsl_is(r, open, "("))
            continue;
        object = object_name(r, t - 1);
        if (object == r->token_count || hlsl_names_get(r, &textures, object) != TEXTURE_WITH_OFFSETS)
            continue;
        if ((close = hlsl_closing(r, open)) == r->token_count)
            continue;
        /* top-level commas of the argument list: brackets inside are skipped whole */
        for (size_t a = open + 1; a < close; a++) {
            if (hlsl_is(r, a, "(") || hlsl_is(r, a, "[") || hlsl_is(r, a, "{")) {
                a = hlsl_closing(r, a);
                if (a >= close)
                    break;
            } else if (hlsl_is(r, a, ",")) {
                commas++;
            }
        }
        if (commas == 2) /* (sampler, location, compare value): no offset given */
            hlsl_add_edit(r, r->tokens[close].at, 0, ", int2(0, 0)");
    }
    hlsl_names_free(&textures);
}
