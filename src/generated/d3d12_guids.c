/* Defines every IID / GUID declared by the public headers (weak definitions,
 * so an application translation unit that also uses INITGUID still links). */
#define INITGUID
#include <d3d12.h>
