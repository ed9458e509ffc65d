/* d3d12xs-hlslc: runs glslang's HLSL front end (through shaderc) for one D3DCompile call in a
 * process of its own, so that a crash of the compiler fails the compilation and not the
 * application (helper_process.h: how it ends on a fatal signal). Started by D3DCompile with the
 * socket of src/frontends/hlslc_protocol.h as fd 3; not meant to be run by hand. DXBC
 * translations run in d3d12xs-dxbc (dxbc_translator.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shaderc/shaderc.h>

#include "frontends/hlslc_protocol.h"
#include "frontends/hlslc/glslang_hook.h"
#include "frontends/hlslc/helper_process.h"
#include "spirv/spirv.h"

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

int main(void)
{
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

    hlslc_install_crash_handlers();
    if (hlslc_receive(HLSLC_FD, &type, &payload, &size, -1) != 1 || type != HLSLC_REQUEST) {
        fprintf(stderr, "d3d12xs-hlslc: started by D3DCompile only (no request on fd %d)\n", HLSLC_FD);
        return 2;
    }
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
