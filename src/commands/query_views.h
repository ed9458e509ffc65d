/* Queries open across view-instanced draws (command_list_query_views.c): the internal pipeline
 * that sums a split query's pieces (shaders/query_sum.comp). */
#ifndef D3D12XS_QUERY_VIEWS_H
#define D3D12XS_QUERY_VIEWS_H

#include "device/device.h"

/* Makes the pipeline; never fails device creation (a query open across a view-instanced draw
 * then fails Close with E_NOTIMPL). */
void d3d12_query_sum_create(struct d3d12_device *device);
void d3d12_query_sum_destroy(struct d3d12_device *device);

#endif
