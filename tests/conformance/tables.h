/* The conformance tables of one side (ours or Microsoft's): each translation unit that
 * includes this defines CONF_SIDE and has included that side's headers. The X-macro list
 * (tests/generated/conformance_list.h) comes from the same IDL files our headers are
 * generated from; every name in it must compile on both sides. */
#include <stddef.h>

#define CONF_CAT2(a, b) a##_##b
#define CONF_CAT(a, b) CONF_CAT2(a, b)
#define CONF_T(x) CONF_CAT(CONF_SIDE, x)

#define CONF_ENUM(n)
#define CONF_CONST(n)
#define CONF_FCONST(n)
#define CONF_STRUCT(t)
#define CONF_MEMBER(t, m)
#define CONF_GUID(n)
#define CONF_SGUID(n)
#define CONF_SLOT(i, m)

#undef CONF_ENUM
#define CONF_ENUM(n) (long long)(n),
const long long CONF_T(enums)[] = {
#include "conformance_list.h"
    0};
#undef CONF_ENUM
#define CONF_ENUM(n)

#undef CONF_CONST
#define CONF_CONST(n) (long long)(n),
const long long CONF_T(consts)[] = {
#include "conformance_list.h"
    0};
#undef CONF_CONST
#define CONF_CONST(n)

#undef CONF_FCONST
#define CONF_FCONST(n) (double)(n),
const double CONF_T(fconsts)[] = {
#include "conformance_list.h"
    0};
#undef CONF_FCONST
#define CONF_FCONST(n)

#undef CONF_STRUCT
#define CONF_STRUCT(t) sizeof(t), _Alignof(t),
const size_t CONF_T(structs)[] = {
#include "conformance_list.h"
    0};
#undef CONF_STRUCT
#define CONF_STRUCT(t)

#undef CONF_MEMBER
#define CONF_MEMBER(t, m) offsetof(t, m),
const size_t CONF_T(members)[] = {
#include "conformance_list.h"
    0};
#undef CONF_MEMBER
#define CONF_MEMBER(t, m)

#undef CONF_SLOT
#define CONF_SLOT(i, m) offsetof(i##Vtbl, m) / sizeof(void *),
const size_t CONF_T(slots)[] = {
#include "conformance_list.h"
    0};
#undef CONF_SLOT
#define CONF_SLOT(i, m)

#undef CONF_GUID
#undef CONF_SGUID
#define CONF_GUID(n) &n,
#define CONF_SGUID(n) &n,
const GUID *const CONF_T(guids)[] = {
#include "conformance_list.h"
    NULL};
#undef CONF_GUID
#undef CONF_SGUID
#define CONF_GUID(n)
#define CONF_SGUID(n)
