/* Conformance of d3d12xs's headers with Microsoft's (directx-headers-dev): every enumerator
 * value, integer and floating-point constant, struct size, alignment and member offset,
 * GUID, and C vtable slot of every interface method must be the same. Prints the counts and
 * one line per difference; exits 1 on any. A name our headers lack does not compile. */
#include <stdio.h>
#include <string.h>

typedef struct {
    unsigned int Data1;
    unsigned short Data2, Data3;
    unsigned char Data4[8];
} GUID;

#define DECLARE_SIDE(side) \
    extern const long long side##_enums[]; \
    extern const long long side##_consts[]; \
    extern const double side##_fconsts[]; \
    extern const size_t side##_structs[]; \
    extern const size_t side##_members[]; \
    extern const size_t side##_slots[]; \
    extern const GUID *const side##_guids[];
DECLARE_SIDE(ms)
DECLARE_SIDE(ours)

#define CONF_ENUM(n)
#define CONF_CONST(n)
#define CONF_FCONST(n)
#define CONF_STRUCT(t)
#define CONF_MEMBER(t, m)
#define CONF_GUID(n)
#define CONF_SGUID(n)
#define CONF_SLOT(i, m)

#undef CONF_ENUM
#define CONF_ENUM(n) #n,
static const char *const enum_names[] = {
#include "conformance_list.h"
};
#undef CONF_ENUM
#define CONF_ENUM(n)

#undef CONF_CONST
#define CONF_CONST(n) #n,
static const char *const const_names[] = {
#include "conformance_list.h"
};
#undef CONF_CONST
#define CONF_CONST(n)

#undef CONF_FCONST
#define CONF_FCONST(n) #n,
static const char *const fconst_names[] = {
#include "conformance_list.h"
};
#undef CONF_FCONST
#define CONF_FCONST(n)

#undef CONF_STRUCT
#define CONF_STRUCT(t) #t,
static const char *const struct_names[] = {
#include "conformance_list.h"
};
#undef CONF_STRUCT
#define CONF_STRUCT(t)

#undef CONF_MEMBER
#define CONF_MEMBER(t, m) #t "." #m,
static const char *const member_names[] = {
#include "conformance_list.h"
};
#undef CONF_MEMBER
#define CONF_MEMBER(t, m)

#undef CONF_SLOT
#define CONF_SLOT(i, m) #i "::" #m,
static const char *const slot_names[] = {
#include "conformance_list.h"
};
#undef CONF_SLOT
#define CONF_SLOT(i, m)

#undef CONF_GUID
#undef CONF_SGUID
#define CONF_GUID(n) #n,
#define CONF_SGUID(n) #n,
static const char *const guid_names[] = {
#include "conformance_list.h"
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned int failures;

static void report(const char *what, size_t total, size_t bad)
{
    printf("%-28s %5zu compared, %5zu equal%s\n", what, total, total - bad, bad ? "  <-- MISMATCH" : "");
    failures += (unsigned int)bad;
}

int main(void)
{
    size_t i, bad, missing = 0;
    unsigned int interfaces = 0;

    for (i = 0, bad = 0; i < COUNT(enum_names); ++i)
        if (ms_enums[i] != ours_enums[i]) {
            printf("enumerator %s: Microsoft %lld, ours %lld\n", enum_names[i], ms_enums[i], ours_enums[i]);
            ++bad;
        }
    report("enumerator values", COUNT(enum_names), bad);

    for (i = 0, bad = 0; i < COUNT(const_names); ++i)
        if (ms_consts[i] != ours_consts[i]) {
            printf("constant %s: Microsoft %lld, ours %lld\n", const_names[i], ms_consts[i], ours_consts[i]);
            ++bad;
        }
    report("integer constants", COUNT(const_names), bad);

    for (i = 0, bad = 0; i < COUNT(fconst_names); ++i)
        if (ms_fconsts[i] != ours_fconsts[i]) {
            printf("constant %s: Microsoft %.9g, ours %.9g\n", fconst_names[i], ms_fconsts[i], ours_fconsts[i]);
            ++bad;
        }
    report("floating-point constants", COUNT(fconst_names), bad);

    for (i = 0, bad = 0; i < COUNT(struct_names); ++i)
        if (ms_structs[2 * i] != ours_structs[2 * i] || ms_structs[2 * i + 1] != ours_structs[2 * i + 1]) {
            printf("struct %s: Microsoft size %zu align %zu, ours size %zu align %zu\n", struct_names[i],
                    ms_structs[2 * i], ms_structs[2 * i + 1], ours_structs[2 * i], ours_structs[2 * i + 1]);
            ++bad;
        }
    report("struct sizes and alignments", COUNT(struct_names), bad);

    for (i = 0, bad = 0; i < COUNT(member_names); ++i)
        if (ms_members[i] != ours_members[i]) {
            printf("member %s: Microsoft offset %zu, ours %zu\n", member_names[i], ms_members[i], ours_members[i]);
            ++bad;
        }
    report("struct member offsets", COUNT(member_names), bad);

    for (i = 0, bad = 0; i < COUNT(guid_names); ++i) {
        if (!ms_guids[i]) {
            printf("GUID %s: not in Microsoft's libDirectX-Guids.a, not compared\n", guid_names[i]);
            ++missing;
            continue;
        }
        if (memcmp(ms_guids[i], ours_guids[i], sizeof(GUID))) {
            printf("GUID %s differs\n", guid_names[i]);
            ++bad;
        }
    }
    report("GUIDs and IIDs", COUNT(guid_names) - missing, bad);

    for (i = 0, bad = 0; i < COUNT(slot_names); ++i) {
        if (ms_slots[i] != ours_slots[i]) {
            printf("vtable slot %s: Microsoft %zu, ours %zu\n", slot_names[i], ms_slots[i], ours_slots[i]);
            ++bad;
        }
        if (strstr(slot_names[i], "::QueryInterface"))
            ++interfaces;
    }
    report("vtable slots", COUNT(slot_names), bad);
    printf("interfaces: %u\n", interfaces);

    if (failures) {
        printf("conformance: %u differences from Microsoft's headers\n", failures);
        return 1;
    }
    printf("conformance: our headers match Microsoft's in every compared item\n");
    return 0;
}
