/* Fix-ups of the SPIR-V that glslang's HLSL front end produces (through shaderc), where
 * its translation disagrees with what the HLSL source means under Direct3D 12 (the
 * contract). D3DCompile runs them on shaderc's output, before its own post-processing
 * (counter bindings, the wave32 marker) and before the blob is made. SPIR-V handed to the
 * API directly is never touched: it means what SPIR-V says.
 *
 * Every fix rewrites words in place (an opcode or an operand), so ids, the bound and the
 * instruction lengths stay as they are:
 *
 *  1. Wave prefix operations are exclusive scans. WavePrefixSum, WavePrefixProduct and
 *     WavePrefixCountBits combine the lanes *before* the current one (lane 0 gets the
 *     identity: 0 for sums and counts, 1 for products). glslang emits WavePrefixSum and
 *     WavePrefixProduct as GroupOperation InclusiveScan (WavePrefixCountBits already as
 *     ExclusiveScan). HLSL has no intrinsic with an inclusive scan, so every InclusiveScan
 *     in HLSL-derived SPIR-V comes from a WavePrefix* and becomes ExclusiveScan.
 *  2. fmod(x, y) and float x % y take the sign of the dividend x (HLSL defines fmod as
 *     x - y * trunc(x / y), like C): that is OpFRem; glslang emits OpFMod, whose result
 *     has the sign of y.
 *  3. Signed integer x % y truncates, as in C (-7 % 2 == -1): that is OpSRem; glslang
 *     emits OpSMod (sign of the divisor, -7 smod 2 == 1). Unsigned % (OpUMod) is right.
 *
 * Limits: these fix the instructions that reach the module. glslang's front end folds
 * constant expressions before SPIR-V exists, with the same wrong rules
 * (fmod(-2.25, 1.5) with literal operands becomes the constant 0.75), and that cannot be
 * undone here. Operands only known at run time (buffers, constants, thread ids) are right.
 */
#include <spirv/unified1/spirv.h>

#include "spirv.h"

/* Opcodes whose operand 3 (word 4: after result type, result id, scope) is a GroupOperation. */
static bool has_group_operation(uint32_t op)
{
    return (op >= SpvOpGroupIAdd && op <= SpvOpGroupSMax)
            || op == SpvOpGroupNonUniformBallotBitCount
            || (op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor)
            || (op >= SpvOpGroupIAddNonUniformAMD && op <= SpvOpGroupSMaxNonUniformAMD)
            || (op >= SpvOpGroupIMulKHR && op <= SpvOpGroupLogicalXorKHR);
}

void d3d12xs_spirv_fixup_hlsl(uint32_t *w, size_t count, struct d3d12xs_fixup_counts *counts)
{
    struct d3d12xs_fixup_counts local = {0};
    size_t i, n;

    for (i = 5; i < count; i += n) {
        uint32_t op = w[i] & 0xffff;
        if (!(n = w[i] >> 16) || n > count - i)
            break; /* malformed: left for reflection to refuse */
        switch (op) {
        case SpvOpFMod:
            w[i] = (w[i] & 0xffff0000u) | SpvOpFRem;
            local.fmod++;
            break;
        case SpvOpSMod:
            w[i] = (w[i] & 0xffff0000u) | SpvOpSRem;
            local.smod++;
            break;
        default:
            if (has_group_operation(op) && n >= 5 && w[i + 4] == SpvGroupOperationInclusiveScan) {
                w[i + 4] = SpvGroupOperationExclusiveScan;
                local.inclusive_scan++;
            }
            break;
        }
    }
    if (counts)
        *counts = local;
}
