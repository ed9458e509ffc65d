/* NaN and infinity preservation for pipelines (spirv_float_controls.c). */
#ifndef D3D12XS_SPIRV_FLOAT_CONTROLS_H
#define D3D12XS_SPIRV_FLOAT_CONTROLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d3d12.h"

/* Adds SignedZeroInfNanPreserve for the 32- and 64-bit floats the module uses, where the
 * device can preserve them; *words (malloc()ed) may be replaced. */
HRESULT d3d12xs_spirv_preserve_nan(uint32_t **words, size_t *word_count, bool preserve32, bool preserve64);

#endif
