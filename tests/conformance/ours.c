/* d3d12xs's side of the conformance test: our headers, with our GUID objects defined here
 * under other names (conformance_rename.h) so that Microsoft's can be linked beside them. */
#define INITGUID
#include "conformance_rename.h"
#include <d3d12.h>
#include <d3d12sdklayers.h>

#define CONF_SIDE ours
#include "tables.h"
