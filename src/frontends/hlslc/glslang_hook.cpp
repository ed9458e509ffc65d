/* The compiler helper's hook between glslang's intermediate tree and shaderc's validation and
 * legalization. shaderc compiles in one call and offers no place to act on what glslang makes,
 * so the helper is linked with --wrap=<glslang::GlslangToSpv> (CMakeLists.txt, static shaderc
 * only): shaderc's call to glslang::GlslangToSpv comes here, which generates through the real
 * one and does two things glslang's HLSL front end cannot.
 *
 * Derivative groups. Shader model 6.6 gives compute shaders derivatives: a thread group is cut
 * into quads by its numthreads, and Sample, CalculateLevelOfDetail and ddx/ddy work over them as
 * in pixel shaders. SPIR-V says so with a DerivativeGroupQuads or DerivativeGroupLinear execution
 * mode (SPV_NV/KHR_compute_shader_derivatives). glslang supports the mode (its GLSL front end
 * sets it from a layout qualifier, and its SPIR-V generator then emits implicit-LOD sampling in
 * compute), but its HLSL front end has no syntax for it: without the mode, Sample becomes
 * SampleLevel 0 and ddx fails validation. For a cs_6_6 compute shader the hook sets the mode
 * D3D12 defines for the numthreads on the tree, generates, and keeps the mode only if the module
 * uses derivatives (a compute shader without them must not ask the device for the feature).
 *
 * GatherCmp without an offset, which glslang mistranslates: gather_compare.c, on every module. */
#include <cstdint>
#include <cstdio>
#include <vector>

#include <glslang/MachineIndependent/localintermediate.h>

#include "frontends/hlslc/gather_compare.h"
#include "frontends/hlslc/glslang_hook.h"

namespace glslang {
struct SpvOptions;
}

/* glslang::GlslangToSpv(const TIntermediate&, std::vector<unsigned>&, SpvOptions*): the
 * overload shaderc calls. The linker renames shaderc's reference to __wrap_<name> and the
 * original definition to __real_<name>. */
extern "C" void __real__ZN7glslang12GlslangToSpvERKNS_13TIntermediateERSt6vectorIjSaIjEEPNS_10SpvOptionsE(
        const glslang::TIntermediate &intermediate, std::vector<unsigned int> &spirv, glslang::SpvOptions *options);
extern "C" void __wrap__ZN7glslang12GlslangToSpvERKNS_13TIntermediateERSt6vectorIjSaIjEEPNS_10SpvOptionsE(
        const glslang::TIntermediate &intermediate, std::vector<unsigned int> &spirv, glslang::SpvOptions *options);

static bool derivative_groups_enabled;
static char derivative_group_error[256];

void hlslc_derivative_groups_enable(bool enable)
{
    derivative_groups_enabled = enable;
}

const char *hlslc_derivative_group_error(void)
{
    return derivative_group_error[0] ? derivative_group_error : nullptr;
}

/* Whether a module has an instruction that needs a derivative group in compute. */
static bool uses_derivatives(const std::vector<unsigned int> &spirv)
{
    for (size_t i = 5; i < spirv.size();) {
        uint32_t opcode = spirv[i] & 0xffffu, length = spirv[i] >> 16;
        switch (opcode) {
        case 87: /* OpImageSampleImplicitLod */
        case 89: /* OpImageSampleDrefImplicitLod */
        case 91: /* OpImageSampleProjImplicitLod */
        case 93: /* OpImageSampleProjDrefImplicitLod */
        case 105: /* OpImageQueryLod */
        case 305: /* OpImageSparseSampleImplicitLod */
        case 307: /* OpImageSparseSampleDrefImplicitLod */
            return true;
        default:
            if (opcode >= 207 && opcode <= 215) /* OpDPdx .. OpFwidthCoarse */
                return true;
        }
        if (!length)
            return false;
        i += length;
    }
    return false;
}

/* glslang's words for the tree as it is, with GatherCmp fixed. */
static void generate(const glslang::TIntermediate &intermediate, std::vector<unsigned int> &spirv,
        glslang::SpvOptions *options)
{
    size_t word_count;

    spirv.clear();
    __real__ZN7glslang12GlslangToSpvERKNS_13TIntermediateERSt6vectorIjSaIjEEPNS_10SpvOptionsE(intermediate, spirv,
            options);
    word_count = spirv.size();
    hlslc_fix_gather_compare(spirv.data(), &word_count);
    spirv.resize(word_count);
}

extern "C" void __wrap__ZN7glslang12GlslangToSpvERKNS_13TIntermediateERSt6vectorIjSaIjEEPNS_10SpvOptionsE(
        const glslang::TIntermediate &intermediate, std::vector<unsigned int> &spirv, glslang::SpvOptions *options)
{
    /* shaderc hands over the intermediate of the program it linked and owns: ours to set */
    glslang::TIntermediate &tree = const_cast<glslang::TIntermediate &>(intermediate);
    unsigned int x = tree.getLocalSize(0), y = tree.getLocalSize(1), z = tree.getLocalSize(2);
    bool linear, has_quads;

    derivative_group_error[0] = 0;
    if (!derivative_groups_enabled || tree.getStage() != EShLangCompute
            || tree.getLayoutDerivativeModeNone() != glslang::LayoutDerivativeNone) {
        generate(intermediate, spirv, options);
        return;
    }
    /* D3D12's rules: X a multiple of 4 with Y = Z = 1 makes quads of 4 consecutive threads;
     * else X and Y multiples of 2 make 2x2 quads; anything else has none (generated with 2x2
     * quads all the same, only to find out whether the shader needs them) */
    linear = !(x % 4) && y == 1 && z == 1;
    has_quads = linear || (!(x % 2) && !(y % 2));
    tree.setLayoutDerivativeMode(linear ? glslang::LayoutDerivativeGroupLinear : glslang::LayoutDerivativeGroupQuads);
    generate(intermediate, spirv, options);
    if (uses_derivatives(spirv)) {
        if (has_quads)
            return;
        snprintf(derivative_group_error, sizeof(derivative_group_error),
                "numthreads(%u, %u, %u): derivatives in a compute shader (Sample, SampleBias, SampleCmp, "
                "CalculateLevelOfDetail, ddx, ddy, fwidth) need X a multiple of 4 with Y = Z = 1, or X and Y "
                "multiples of 2 (shader model 6.6 quads)", x, y, z);
    }
    /* no derivatives, or no quads for them: generate without the mode */
    tree.setLayoutDerivativeMode(glslang::LayoutDerivativeNone);
    generate(intermediate, spirv, options);
}
