/* A graphics pipeline's VkPipelines from its stages' final SPIR-V and the description's fixed
 * state (graphics_build.c), and, for a pipeline that kept that state, a variant with other
 * shaders (ExecuteIndirect's root views: pipeline_indirect_variant.c). */
#ifndef D3D12XS_GRAPHICS_BUILD_H
#define D3D12XS_GRAPHICS_BUILD_H

#include "pipelines/graphics_pipeline.h"

struct d3d12_graphics_stage;
struct d3d12_graphics_build;

/* The pipeline (and, with view-instance masking, one per mask) into state->vk_pipeline and
 * state->graphics; keep: the fixed state stays with state->graphics->build for variants. */
HRESULT d3d12_graphics_pipeline_build(struct d3d12_pipeline_state *state, const struct d3d12_graphics_desc *desc,
        const struct d3d12_graphics_stage *stages, uint32_t stage_count, uint32_t *const *words, const size_t *word_counts,
        char (*entry_points)[64], const uint32_t *offsets, const uint32_t *element_locations, bool keep, const char *method);
/* A VkPipeline of the kept state with the stages' SPIR-V words[] (the pipeline's stage order);
 * without_vertex_input: no vertex attributes or bindings (its vertex shader fetches its inputs). */
HRESULT d3d12_graphics_pipeline_build_variant(struct d3d12_pipeline_state *state, uint32_t *const *words, const size_t *word_counts,
        bool without_vertex_input, VkPipeline *pipeline, char *error, size_t error_size);
/* The kept state's vertex input (NULL where the pipeline kept none). */
const struct d3d12_vertex_input *d3d12_graphics_build_vertex_input(const struct d3d12_graphics_build *build);
void d3d12_graphics_build_destroy(struct d3d12_graphics_build *build);

#endif
