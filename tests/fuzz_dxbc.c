/* libFuzzer target for DXBC containers: d3d12xs_dxbc_parse (the checks that stand before
 * libvkd3d-shader) on arbitrary bytes, signed with the right checksum so that the fuzzer reaches
 * the part table and the token stream. What parses must keep dxbc.h's promises: a shader of
 * model 5.x (a compute one with a thread group), signatures of named elements, resources with
 * sound register ranges. Any broken
 * promise aborts; so does a register-range rewrite (dxbc_ranges.h) that names no range or
 * makes no container, and a pass-through hull shader's rewrite (dxbc_hull.h) that does not parse. Seeds: tests/fuzz_corpus/dxbc (tests/dxbc_writer.c's programs). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "d3d12_xs.h"
#include "descriptors/root_signature_blob.h"
#include "frontends/dxbc.h"
#include "frontends/dxbc_ranges.h"
#include "frontends/dxbc_hull.h"

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct d3d12xs_dxbc_shader shader;
    uint8_t *copy = malloc(size ? size : 1);
    char error[512];
    HRESULT hr;

    if (!copy)
        return 0;
    memcpy(copy, data, size);
    if (size >= 32) {
        uint32_t total;
        memcpy(&total, copy + 24, 4);
        if (total >= 20 && total <= size)
            d3d12xs_dxbc_checksum(copy, total, copy + 4);
    }
    error[0] = 0;
    hr = d3d12xs_dxbc_parse(copy, size, &shader, error, sizeof(error));
    if (SUCCEEDED(hr)) {
        /* a shader of one of the six program types, of model 5.0 or 5.1 */
        REQUIRE(shader.program_type <= 5 && shader.major == 5 && shader.minor <= 1);
        REQUIRE(shader.program_type != 5 || (shader.thread_group[0] && shader.thread_group[1] && shader.thread_group[2]));
        for (uint32_t i = 0; i < shader.input_count + shader.output_count + shader.patch_count; i++)
            REQUIRE(memchr(shader.signature[i].semantic, 0, sizeof(shader.signature[i].semantic)) && shader.signature[i].semantic[0]);
        for (uint32_t i = 0; i < shader.resource_count; i++) {
            const struct d3d12xs_dxbc_resource *r = &shader.resources[i];
            REQUIRE(r->first <= r->last && r->first <= D3D12XS_MAX_REGISTER);
            REQUIRE(r->register_class <= D3D12XS_REGISTER_SAMPLER);
            REQUIRE(r->view != D3D12XS_DXBC_VIEW_STRUCTURED || (r->stride && r->stride % 4 == 0));
        }
        /* the rewrite of register ranges (dxbc_ranges.h): sites of ranges, a sound container */
        {
            struct d3d12xs_dxbc_ranges ranges;
            error[0] = 0;
            if (SUCCEEDED(d3d12xs_dxbc_rewrite_ranges(copy, &shader, &ranges, error, sizeof(error)))) {
                for (uint32_t k = 0; k < ranges.site_count; k++) {
                    const struct d3d12xs_dxbc_resource *r;
                    REQUIRE(ranges.sites[k].resource < shader.resource_count);
                    r = &shader.resources[ranges.sites[k].resource];
                    REQUIRE(r->first != r->last);
                    REQUIRE(ranges.sites[k].dynamic || ranges.sites[k].constant_index <= r->last - r->first);
                }
                REQUIRE(!ranges.container == !ranges.site_count);
                REQUIRE(!ranges.container || (ranges.size >= 32 && d3d12xs_dxbc_is_container(ranges.container, ranges.size)));
                d3d12xs_dxbc_ranges_cleanup(&ranges);
            } else {
                REQUIRE(error[0] && !ranges.container && !ranges.site_count);
            }
        }
        /* a pass-through hull shader's rewrite (dxbc_hull.h): a container that parses again, now
         * with a control point phase */
        if (d3d12xs_dxbc_hull_needs_rewrite(&shader)) {
            struct d3d12xs_dxbc_shader rewritten;
            uint8_t *hull = NULL;
            size_t hull_size = 0;
            error[0] = 0;
            if (SUCCEEDED(d3d12xs_dxbc_rewrite_hull(copy, &shader, &hull, &hull_size, error, sizeof(error)))) {
                REQUIRE(SUCCEEDED(d3d12xs_dxbc_parse(hull, hull_size, &rewritten, error, sizeof(error))));
                REQUIRE(rewritten.control_point_phase);
                d3d12xs_dxbc_shader_cleanup(&rewritten);
            } else {
                REQUIRE(error[0] && !hull);
            }
            free(hull);
        }
        d3d12xs_dxbc_shader_cleanup(&shader);
    } else {
        REQUIRE(error[0] && (hr == E_INVALIDARG || hr == E_NOTIMPL || hr == E_OUTOFMEMORY));
        REQUIRE(!shader.resources && !shader.resource_count);
    }
    free(copy);
    return 0;
}
