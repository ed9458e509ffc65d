/* d3d12xs-hlslc: runs glslang's HLSL front end (through shaderc) for one D3DCompile call, or
 * libvkd3d-shader for one DXBC translation of pipeline creation, in a process of its own, so
 * that a crash of the compiler fails the compilation and not the application. Started by D3DCompile with the socket of src/frontends/hlslc_protocol.h as fd 3;
 * not meant to be run by hand.
 *
 * A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, stack overflow included: the
 * handler runs on its own stack) ends the process with exit status 128 + signal number at
 * once, without core dump or sanitizer report, which D3DCompile turns into E_FAIL with a
 * message. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <shaderc/shaderc.h>
#include <vkd3d_shader.h>

#include "frontends/hlslc_protocol.h"
#include "frontends/hlslc/glslang_hook.h"
#include "spirv/spirv.h"

static void on_fatal_signal(int sig)
{
    _exit(128 + sig);
}

static void install_crash_handlers(void)
{
    static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    static char alternate_stack[1 << 16];
    stack_t ss = {.ss_sp = alternate_stack, .ss_size = sizeof(alternate_stack)};
    struct sigaction sa;
    struct rlimit no_core = {0, 0};

    setrlimit(RLIMIT_CORE, &no_core);
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
        sigaction(signals[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* ---- includes, resolved by the parent ---- */

struct include_copy {
    shaderc_include_result result; /* first */
    uint64_t token;
    char *name, *content;
};

static shaderc_include_result *include_resolve(void *user, const char *requested, int type,
        const char *requesting, size_t depth)
{
    struct hlslc_buffer request = {0};
    struct hlslc_reader reader = {0};
    struct include_copy *copy;
    uint8_t *payload = NULL;
    uint32_t reply_type = 0;
    size_t size;

    (void)user;
    hlslc_put_u32(&request, (uint32_t)type);
    hlslc_put_str(&request, requested, strlen(requested));
    hlslc_put_str(&request, requesting ? requesting : "", requesting ? strlen(requesting) : 0);
    hlslc_put_u32(&request, (uint32_t)depth);
    if (!hlslc_send(HLSLC_FD, HLSLC_INCLUDE, &request)
            || hlslc_receive(HLSLC_FD, &reply_type, &payload, &size, -1) != 1 || reply_type != HLSLC_INCLUDE_REPLY)
        _exit(2);
    free(request.data);
    reader.data = payload;
    reader.size = size;
    if (!(copy = calloc(1, sizeof(*copy))) || !hlslc_get_u64(&reader, &copy->token)
            || !(copy->name = hlslc_get_strdup(&reader, &copy->result.source_name_length))
            || !(copy->content = hlslc_get_strdup(&reader, &copy->result.content_length)))
        _exit(2);
    free(payload);
    copy->result.source_name = copy->name;
    copy->result.content = copy->content;
    copy->result.user_data = copy;
    return &copy->result;
}

static void include_release(void *user, shaderc_include_result *result)
{
    struct include_copy *copy = (struct include_copy *)result;
    struct hlslc_buffer message = {0};

    (void)user;
    if (!copy)
        return;
    hlslc_put_u64(&message, copy->token);
    if (!hlslc_send(HLSLC_FD, HLSLC_RELEASE, &message))
        _exit(2);
    free(message.data);
    free(copy->name);
    free(copy->content);
    free(copy);
}

/* shaderc starts the preprocessed text of a file with an #include with the line it put before
 * the source itself (`#extension GL_GOOGLE_include_directive : enable`, which it adds again
 * when the text is compiled) and `#line 0 "name"`, which glslang's HLSL front end reads as
 * "the next line is line 0": the main file's lines before its first #include would be
 * numbered one too low. Returns where the text to hand on starts; the `0` becomes `1`. */
static char *fix_preprocessed_start(char *text, size_t *length)
{
    static const char extension[] = "#extension GL_GOOGLE_include_directive : enable\n", line0[] = "#line 0 ";

    if (*length >= sizeof(extension) - 1 + sizeof(line0) - 1 && !memcmp(text, extension, sizeof(extension) - 1)
            && !memcmp(text + sizeof(extension) - 1, line0, sizeof(line0) - 1)) {
        text += sizeof(extension) - 1;
        *length -= sizeof(extension) - 1;
        text[sizeof("#line ") - 1] = '1';
    }
    return text;
}

/* Sends the preprocessed translation unit to D3DCompile and receives the source to compile in
 * its place (malloc()ed); exits when the parent has gone. */
static char *exchange_preprocessed(shaderc_compilation_result_t preprocessed, size_t *length)
{
    struct hlslc_buffer message = {0};
    struct hlslc_reader reader = {0};
    uint32_t type = 0;
    uint8_t *payload;
    size_t size, text_length = shaderc_result_get_length(preprocessed);
    char *copy, *text, *source;

    if (!(copy = malloc(text_length + 1)))
        _exit(3);
    memcpy(copy, shaderc_result_get_bytes(preprocessed), text_length);
    copy[text_length] = 0;
    text = fix_preprocessed_start(copy, &text_length);
    hlslc_put_str(&message, text, text_length);
    if (!hlslc_send(HLSLC_FD, HLSLC_PREPROCESSED, &message)
            || hlslc_receive(HLSLC_FD, &type, &payload, &size, -1) != 1 || type != HLSLC_SOURCE)
        _exit(2);
    free(message.data);
    free(copy);
    reader.data = payload;
    reader.size = size;
    if (!(source = hlslc_get_strdup(&reader, length)))
        _exit(2);
    free(payload);
    return source;
}

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

int main(int argc, char **argv)
{
    const bool translator = argc > 1 && !strcmp(argv[1], HLSLC_TRANSLATOR_MODE);
    struct hlslc_buffer answer = {0};
    struct hlslc_reader r = {0};
    shaderc_compilation_result_t result;
    shaderc_compile_options_t options, compile_options;
    shaderc_compiler_t compiler;
    uint32_t type = 0, kind, flags, define_count;
    char *name, *entry, *source;
    size_t source_length, size;
    uint8_t *payload;
    const char *message;

    install_crash_handlers();
    if (translator)
        warm_up();
    if (hlslc_receive(HLSLC_FD, &type, &payload, &size, -1) != 1 || (type != HLSLC_REQUEST && type != HLSLC_DXBC_REQUEST)) {
        /* the translator of a process that made no DXBC pipeline: its parent closed the socket */
        if (translator && type == 0)
            return 0;
        fprintf(stderr, "d3d12xs-hlslc: started by D3DCompile and pipeline creation only (no request on fd %d)\n", HLSLC_FD);
        return 2;
    }
    if (type == HLSLC_DXBC_REQUEST)
        return serve_dxbc(payload, size);
    r.data = payload;
    r.size = size;
    if (!hlslc_get_u32(&r, &kind) || !hlslc_get_u32(&r, &flags) || !(name = hlslc_get_strdup(&r, NULL))
            || !(entry = hlslc_get_strdup(&r, NULL)) || !(source = hlslc_get_strdup(&r, &source_length))
            || !hlslc_get_u32(&r, &define_count))
        return 2;
    if (!(compiler = shaderc_compiler_initialize()) || !(options = shaderc_compile_options_initialize()))
        return 3;
#ifdef D3D12XS_HLSLC_DERIVATIVE_GROUPS
    hlslc_derivative_groups_enable(flags & HLSLC_COMPUTE_DERIVATIVES);
#endif
    shaderc_compile_options_set_source_language(options, shaderc_source_language_hlsl);
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_target_spirv(options, shaderc_spirv_version_1_3);
    shaderc_compile_options_set_hlsl_io_mapping(options, true);
    shaderc_compile_options_set_hlsl_offsets(options, true);
    shaderc_compile_options_set_auto_bind_uniforms(options, true);
    shaderc_compile_options_set_hlsl_functionality1(options, true); /* CounterBuffer links; stripped after */
    shaderc_compile_options_set_binding_base(options, shaderc_uniform_kind_buffer,
            D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_CBV, 0));
    shaderc_compile_options_set_binding_base(options, shaderc_uniform_kind_texture,
            D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_SRV, 0));
    shaderc_compile_options_set_binding_base(options, shaderc_uniform_kind_unordered_access_view,
            D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_UAV, 0));
    shaderc_compile_options_set_binding_base(options, shaderc_uniform_kind_image,
            D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_UAV, 0));
    shaderc_compile_options_set_binding_base(options, shaderc_uniform_kind_sampler,
            D3D12XS_ENCODE_BINDING(D3D12XS_REGISTER_SAMPLER, 0));
    shaderc_compile_options_set_optimization_level(options, (flags & HLSLC_OPTIMIZE_NONE)
            ? shaderc_optimization_level_zero : shaderc_optimization_level_performance);
    if (flags & HLSLC_DEBUG_INFO)
        shaderc_compile_options_set_generate_debug_info(options);
    if (flags & HLSLC_WARNINGS_ARE_ERRORS)
        shaderc_compile_options_set_warnings_as_errors(options);
    shaderc_compile_options_set_include_callbacks(options, include_resolve, include_release, NULL);
    /* the preprocessed text has its macros expanded: it is compiled without the defines */
    if (!(compile_options = shaderc_compile_options_clone(options)))
        return 3;
    for (uint32_t i = 0; i < define_count; i++) {
        const char *macro, *value;
        size_t macro_length, value_length = 0;
        uint32_t has_value;
        if (!hlslc_get_str(&r, &macro, &macro_length) || !hlslc_get_u32(&r, &has_value)
                || !hlslc_get_str(&r, &value, &value_length))
            return 2;
        shaderc_compile_options_add_macro_definition(options, macro, macro_length, has_value ? value : NULL,
                value_length);
    }

    if (flags & HLSLC_REWRITE_PREPROCESSED) {
        if (!(result = shaderc_compile_into_preprocessed_text(compiler, source, source_length, (shaderc_shader_kind)kind,
                name, entry, options)))
            return 3;
        if (shaderc_result_get_compilation_status(result) == shaderc_compilation_status_success) {
            char *rewritten = exchange_preprocessed(result, &source_length);
            shaderc_result_release(result);
            if (!(result = shaderc_compile_into_spv(compiler, rewritten, source_length, (shaderc_shader_kind)kind,
                    name, entry, compile_options)))
                return 3;
        }
    } else if (!(result = shaderc_compile_into_spv(compiler, source, source_length, (shaderc_shader_kind)kind, name,
            entry, options))) {
        return 3;
    }
    message = shaderc_result_get_error_message(result);
#ifdef D3D12XS_HLSLC_DERIVATIVE_GROUPS
    if (hlslc_derivative_group_error()) {
        /* derivatives without quads: glslang's module (SampleLevel 0, or none) is not the shader */
        message = hlslc_derivative_group_error();
        hlslc_put_u32(&answer, (uint32_t)shaderc_compilation_status_compilation_error);
        hlslc_put_str(&answer, message, strlen(message));
        hlslc_put_str(&answer, "", 0);
        if (!hlslc_send(HLSLC_FD, HLSLC_RESULT, &answer))
            return 2;
        _exit(0);
    }
#endif
    hlslc_put_u32(&answer, (uint32_t)shaderc_result_get_compilation_status(result));
    hlslc_put_str(&answer, message ? message : "", message ? strlen(message) : 0);
    hlslc_put_str(&answer, shaderc_result_get_bytes(result), shaderc_result_get_length(result));
    if (!hlslc_send(HLSLC_FD, HLSLC_RESULT, &answer))
        return 2;
    /* _exit: no destructors, no leak checker at exit; the parent only needs the answer */
    _exit(0);
}
