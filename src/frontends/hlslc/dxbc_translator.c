/* d3d12xs-dxbc: libvkd3d-shader's DXBC-to-SPIR-V translation for pipeline creation, in a process
 * of its own (libvkd3d-shader aborts on some malformed token streams), so that a crash fails
 * the pipeline and not the application. One process serves a process's translations, one
 * request after another (hlslc_protocol.h; started by shader_helper.c with the socket as fd 3);
 * not meant to be run by hand. A program of its own, apart from d3d12xs-hlslc: without glslang
 * and the C++ runtime it starts in a fraction of the time, and a process's first DXBC pipeline
 * waits for that start (docs/benchmarks.md). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vkd3d_shader.h>

#include "frontends/hlslc_protocol.h"
#include "frontends/hlslc/helper_process.h"

/* libvkd3d-shader's SPIR-V of a DXBC shader with the given bindings and (a domain shader's)
 * tessellator state. */
static int compile_dxbc(const char *dxbc, size_t dxbc_size, const struct vkd3d_shader_resource_binding *bindings, uint32_t count,
        const struct vkd3d_shader_uav_counter_binding *counters, uint32_t counter_count, uint32_t output_primitive,
        uint32_t partitioning, struct vkd3d_shader_code *spirv, char **messages)
{
    struct vkd3d_shader_spirv_domain_shader_target_info domain = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_DOMAIN_SHADER_TARGET_INFO,
        .output_primitive = (enum vkd3d_shader_tessellator_output_primitive)output_primitive,
        .partitioning = (enum vkd3d_shader_tessellator_partitioning)partitioning,
    };
    struct vkd3d_shader_spirv_target_info target = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO,
        .next = output_primitive && partitioning ? &domain : NULL,
        .entry_point = "main",
        .environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0,
    };
    struct vkd3d_shader_interface_info interface = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO,
        .next = &target,
        .bindings = bindings,
        .binding_count = count,
        .uav_counters = counters,
        .uav_counter_count = counter_count,
    };
    struct vkd3d_shader_compile_option strip = {VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG, 1};
    struct vkd3d_shader_compile_info info = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO,
        .next = &interface,
        .source = {dxbc, dxbc_size},
        .source_type = VKD3D_SHADER_SOURCE_DXBC_TPF,
        .target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY,
        .options = &strip,
        .option_count = 1,
        .log_level = VKD3D_SHADER_LOG_ERROR,
    };
    return vkd3d_shader_compile(&info, spirv, messages);
}

/* The translator's warm-up (hlslc_protocol.h): a cs_5_0 kernel of d3d12xs's tests' DXBC writer
 * (tests/dxbc_writer.c): dcl_constantbuffer cb0[1], dcl_uav_raw u0, dcl_input vThreadID.x,
 * dcl_temps 1, dcl_thread_group 64 1 1; ishl r0.x, vThreadID.x, 2; iadd r0.y, vThreadID.x,
 * cb0[0].x; store_raw u0.x, r0.x, r0.y; ret. Bound as a pipeline binds a root CBV and UAV. */
static const unsigned char warm_up_kernel[] = {
    0x44, 0x58, 0x42, 0x43, 0xa5, 0x7f, 0xa9, 0x8e, 0x8f, 0x92, 0x3f, 0x8f, 0x09, 0x4a, 0xdc, 0xc3,
    0x16, 0x2f, 0xa8, 0x07, 0x01, 0x00, 0x00, 0x00, 0xec, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
    0x2c, 0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x4c, 0x00, 0x00, 0x00, 0x49, 0x53, 0x47, 0x4e,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x4f, 0x53, 0x47, 0x4e,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x53, 0x48, 0x45, 0x58,
    0x98, 0x00, 0x00, 0x00, 0x50, 0x00, 0x05, 0x00, 0x26, 0x00, 0x00, 0x00, 0x59, 0x00, 0x00, 0x04,
    0x46, 0x8e, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x9d, 0x00, 0x00, 0x03,
    0x00, 0xe0, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5f, 0x00, 0x00, 0x02, 0x12, 0x00, 0x02, 0x00,
    0x68, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x9b, 0x00, 0x00, 0x04, 0x40, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x29, 0x00, 0x00, 0x06, 0x12, 0x00, 0x10, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x02, 0x00, 0x01, 0x40, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x1e, 0x00, 0x00, 0x07, 0x22, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x02, 0x00,
    0x0a, 0x80, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa6, 0x00, 0x00, 0x07,
    0x12, 0xe0, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x1a, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3e, 0x00, 0x00, 0x01
};

static void warm_up(void)
{
    struct vkd3d_shader_resource_binding bindings[2] = {
        {VKD3D_SHADER_DESCRIPTOR_TYPE_CBV, 0, 0, VKD3D_SHADER_VISIBILITY_ALL, VKD3D_SHADER_BINDING_FLAG_BUFFER, {0, 0, 1}},
        {VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, 0, 0, VKD3D_SHADER_VISIBILITY_ALL, VKD3D_SHADER_BINDING_FLAG_BUFFER, {0, 1, 1}},
    };
    struct vkd3d_shader_code spirv = {NULL, 0};
    char *messages = NULL;

    compile_dxbc((const char *)warm_up_kernel, sizeof(warm_up_kernel), bindings, 2, NULL, 0, 0, 0, &spirv, &messages);
    vkd3d_shader_free_messages(messages);
    vkd3d_shader_free_shader_code(&spirv);
}

/* One DXBC translation (HLSLC_DXBC_REQUEST): libvkd3d-shader's SPIR-V with the bindings asked
 * for; its raw and structured UAVs stay texel buffers (the parent rewrites them). 0 when
 * answered. */
static int translate_dxbc(struct hlslc_reader *r)
{
    struct vkd3d_shader_resource_binding *bindings;
    struct vkd3d_shader_uav_counter_binding *counters = NULL;
    struct vkd3d_shader_code spirv = {NULL, 0};
    struct hlslc_buffer answer = {0};
    const char *dxbc;
    char *messages = NULL;
    size_t dxbc_size;
    uint32_t count, counter_count, output_primitive, partitioning;
    int ret;

    if (!hlslc_get_str(r, &dxbc, &dxbc_size) || !hlslc_get_u32(r, &count) || count > 65536
            || !(bindings = calloc(count ? count : 1, sizeof(*bindings))))
        return 2;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v[7];
        for (unsigned k = 0; k < 7; k++)
            if (!hlslc_get_u32(r, &v[k]))
                return 2;
        bindings[i].type = (enum vkd3d_shader_descriptor_type)v[0];
        bindings[i].register_space = v[1];
        bindings[i].register_index = v[2];
        bindings[i].shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
        bindings[i].flags = v[3];
        bindings[i].binding.set = v[4];
        bindings[i].binding.binding = v[5];
        bindings[i].binding.count = v[6];
    }
    /* the UAV counters: space, register, set, binding */
    if (!hlslc_get_u32(r, &counter_count) || counter_count > 65536
            || !(counters = calloc(counter_count ? counter_count : 1, sizeof(*counters))))
        return 2;
    for (uint32_t i = 0; i < counter_count; i++) {
        uint32_t v[4];
        for (unsigned k = 0; k < 4; k++)
            if (!hlslc_get_u32(r, &v[k]))
                return 2;
        counters[i].register_space = v[0];
        counters[i].register_index = v[1];
        counters[i].shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
        counters[i].binding.set = v[2];
        counters[i].binding.binding = v[3];
        counters[i].binding.count = 1;
    }
    /* a domain shader's tessellator state, from its hull shader (0, 0: none) */
    if (!hlslc_get_u32(r, &output_primitive) || !hlslc_get_u32(r, &partitioning))
        return 2;
    ret = compile_dxbc(dxbc, dxbc_size, bindings, count, counters, counter_count, output_primitive, partitioning, &spirv, &messages);
    hlslc_put_u32(&answer, (uint32_t)ret);
    hlslc_put_str(&answer, messages ? messages : "", messages ? strlen(messages) : 0);
    hlslc_put_str(&answer, ret < 0 ? "" : spirv.code, ret < 0 ? 0 : spirv.size);
    vkd3d_shader_free_messages(messages);
    vkd3d_shader_free_shader_code(&spirv);
    free(bindings);
    free(counters);
    if (!hlslc_send(HLSLC_FD, HLSLC_RESULT, &answer))
        return 2;
    free(answer.data);
    return 0;
}

/* DXBC translations, one request after another, until the parent closes the socket. */
static int serve_dxbc(uint8_t *payload, size_t size)
{
    for (;;) {
        struct hlslc_reader r = {.data = payload, .size = size};
        uint32_t type = 0;
        int status = translate_dxbc(&r);
        free(payload);
        if (status)
            return status;
        if (hlslc_receive(HLSLC_FD, &type, &payload, &size, -1) != 1)
            _exit(0); /* the parent closed its end: no more work */
        if (type != HLSLC_DXBC_REQUEST)
            return 2;
    }
}

int main(void)
{
    uint32_t type = 0;
    uint8_t *payload;
    size_t size;

    hlslc_install_crash_handlers();
    warm_up();
    if (hlslc_receive(HLSLC_FD, &type, &payload, &size, -1) != 1 || type != HLSLC_DXBC_REQUEST) {
        /* the translator of a process that made no DXBC pipeline: its parent closed the socket */
        if (type == 0)
            return 0;
        fprintf(stderr, "d3d12xs-dxbc: started by pipeline creation only (no request on fd %d)\n", HLSLC_FD);
        return 2;
    }
    return serve_dxbc(payload, size);
}
