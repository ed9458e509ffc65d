/* PIX events under the names console and Windows code uses (WinPixEventRuntime's pix3.h, the
 * console's pix.h): PIXBeginEvent / PIXEndEvent / PIXSetMarker on a command list, a command
 * queue or the CPU. d3d12xs shows them in its trace file (docs/trace.md): a list's events at
 * the GPU time its queue reached them, nested in its segments; a queue's and the CPU's on the
 * calling thread's track. With no capture running they cost a call and a format.
 *
 * The text is formatted with printf rules (narrow strings; wide ones through swprintf); colors
 * are accepted and not shown. C++ takes every form by overloading; C takes the list and queue
 * forms through _Generic, and for the CPU PIXBeginCpuEvent / PIXEndCpuEvent / PIXSetCpuMarker
 * (C has no overloading to tell PIXEndEvent() from PIXEndEvent(list)). */
#ifndef D3D12XS_PIX3_H
#define D3D12XS_PIX3_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "d3d12.h"
#include "d3d12xs.h"

#define PIX_COLOR(r, g, b) ((UINT64)(0xff000000u | ((UINT32)(r) << 16) | ((UINT32)(g) << 8) | (UINT32)(b)))
#define PIX_COLOR_INDEX(i) ((UINT64)(UINT8)(i))
#define PIX_COLOR_DEFAULT PIX_COLOR_INDEX(0)

/* D3D12's metadata of a BeginEvent / SetMarker payload. */
#define D3D12XS_PIX_ANSI 1u
#define D3D12XS_PIX_UNICODE 0u
#define D3D12XS_PIX_TEXT_MAX 256

/* What a PIX call does: one function formats the text and hands it on. */
enum d3d12xs_pix_action {
    D3D12XS_PIX_LIST_BEGIN, D3D12XS_PIX_LIST_MARKER, D3D12XS_PIX_LIST_END,
    D3D12XS_PIX_QUEUE_BEGIN, D3D12XS_PIX_QUEUE_MARKER, D3D12XS_PIX_QUEUE_END,
    D3D12XS_PIX_CPU_BEGIN, D3D12XS_PIX_CPU_MARKER,
};

#ifdef __cplusplus
#define D3D12XS_PIX_CALL(object, method, ...) (object)->method(__VA_ARGS__)
#define D3D12XS_PIX_END(object) (object)->EndEvent()
#else
#define D3D12XS_PIX_CALL(object, method, ...) (object)->lpVtbl->method(object, __VA_ARGS__)
#define D3D12XS_PIX_END(object) (object)->lpVtbl->EndEvent(object)
#endif

static inline void d3d12xs_pix(enum d3d12xs_pix_action action, void *context, const char *format, ...)
{
    ID3D12GraphicsCommandList *list = (ID3D12GraphicsCommandList *)context;
    ID3D12CommandQueue *queue = (ID3D12CommandQueue *)context;
    char text[D3D12XS_PIX_TEXT_MAX] = "";
    UINT size;
    va_list args;

    va_start(args, format);
    if (format)
        vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    size = (UINT)strlen(text) + 1;
    switch (action) {
    case D3D12XS_PIX_LIST_BEGIN: D3D12XS_PIX_CALL(list, BeginEvent, D3D12XS_PIX_ANSI, text, size); break;
    case D3D12XS_PIX_LIST_MARKER: D3D12XS_PIX_CALL(list, SetMarker, D3D12XS_PIX_ANSI, text, size); break;
    case D3D12XS_PIX_LIST_END: D3D12XS_PIX_END(list); break;
    case D3D12XS_PIX_QUEUE_BEGIN: D3D12XS_PIX_CALL(queue, BeginEvent, D3D12XS_PIX_ANSI, text, size); break;
    case D3D12XS_PIX_QUEUE_MARKER: D3D12XS_PIX_CALL(queue, SetMarker, D3D12XS_PIX_ANSI, text, size); break;
    case D3D12XS_PIX_QUEUE_END: D3D12XS_PIX_END(queue); break;
    case D3D12XS_PIX_CPU_BEGIN: D3D12XSBeginCpuEvent(text); break;
    case D3D12XS_PIX_CPU_MARKER: D3D12XSSetCpuMarker(text); break;
    }
}

/* The CPU's own events in C (C++ also takes PIXBeginEvent(color, format, ...) and friends);
 * the color is not shown. */
#define PIXBeginCpuEvent(color, ...) d3d12xs_pix(D3D12XS_PIX_CPU_BEGIN, NULL, __VA_ARGS__)
#define PIXSetCpuMarker(color, ...) d3d12xs_pix(D3D12XS_PIX_CPU_MARKER, NULL, __VA_ARGS__)
#define PIXEndCpuEvent() D3D12XSEndCpuEvent()

#ifdef __cplusplus

/* Every pix3.h form: a context (list, queue or none), a color, a narrow or wide format. */
template <typename... Args> inline void PIXBeginEvent(ID3D12GraphicsCommandList *list, UINT64, const char *format, Args... args)
{
    d3d12xs_pix(D3D12XS_PIX_LIST_BEGIN, list, format, args...);
}
template <typename... Args> inline void PIXBeginEvent(ID3D12CommandQueue *queue, UINT64, const char *format, Args... args)
{
    d3d12xs_pix(D3D12XS_PIX_QUEUE_BEGIN, queue, format, args...);
}
template <typename... Args> inline void PIXBeginEvent(UINT64, const char *format, Args... args)
{
    d3d12xs_pix(D3D12XS_PIX_CPU_BEGIN, nullptr, format, args...);
}
template <typename... Args> inline void PIXSetMarker(ID3D12GraphicsCommandList *list, UINT64, const char *format, Args... args)
{
    d3d12xs_pix(D3D12XS_PIX_LIST_MARKER, list, format, args...);
}
template <typename... Args> inline void PIXSetMarker(ID3D12CommandQueue *queue, UINT64, const char *format, Args... args)
{
    d3d12xs_pix(D3D12XS_PIX_QUEUE_MARKER, queue, format, args...);
}
template <typename... Args> inline void PIXSetMarker(UINT64, const char *format, Args... args)
{
    d3d12xs_pix(D3D12XS_PIX_CPU_MARKER, nullptr, format, args...);
}
/* Wide formats, as Windows code often writes them: narrowed (ASCII; others as '?'). */
inline void d3d12xs_pix_narrow(char *text, const wchar_t *wide)
{
    size_t n = 0;
    for (; wide && wide[n] && n + 1 < D3D12XS_PIX_TEXT_MAX; n++)
        text[n] = wide[n] >= 0x20 && wide[n] < 0x7f ? (char)wide[n] : '?';
    text[n] = 0;
}
template <typename Context, typename... Args> inline void PIXBeginEvent(Context context, UINT64 color, const wchar_t *format, Args... args)
{
    wchar_t wide[D3D12XS_PIX_TEXT_MAX];
    char text[D3D12XS_PIX_TEXT_MAX];
    swprintf(wide, D3D12XS_PIX_TEXT_MAX, format, args...);
    d3d12xs_pix_narrow(text, wide);
    PIXBeginEvent(context, color, "%s", text);
}
template <typename... Args> inline void PIXBeginEvent(UINT64 color, const wchar_t *format, Args... args)
{
    wchar_t wide[D3D12XS_PIX_TEXT_MAX];
    char text[D3D12XS_PIX_TEXT_MAX];
    swprintf(wide, D3D12XS_PIX_TEXT_MAX, format, args...);
    d3d12xs_pix_narrow(text, wide);
    PIXBeginEvent(color, "%s", text);
}
inline void PIXEndEvent(ID3D12GraphicsCommandList *list) { d3d12xs_pix(D3D12XS_PIX_LIST_END, list, nullptr); }
inline void PIXEndEvent(ID3D12CommandQueue *queue) { d3d12xs_pix(D3D12XS_PIX_QUEUE_END, queue, nullptr); }
inline void PIXEndEvent() { D3D12XSEndCpuEvent(); }

#else

/* C: the context's type picks the form (a queue, else a list of any version). */
#define D3D12XS_PIX_PICK(context, list_action, queue_action) _Generic((context), \
        ID3D12CommandQueue *: queue_action, default: list_action)
#define PIXBeginEvent(context, color, ...) \
    d3d12xs_pix(D3D12XS_PIX_PICK(context, D3D12XS_PIX_LIST_BEGIN, D3D12XS_PIX_QUEUE_BEGIN), (void *)(context), __VA_ARGS__)
#define PIXSetMarker(context, color, ...) \
    d3d12xs_pix(D3D12XS_PIX_PICK(context, D3D12XS_PIX_LIST_MARKER, D3D12XS_PIX_QUEUE_MARKER), (void *)(context), __VA_ARGS__)
#define PIXEndEvent(context) d3d12xs_pix(D3D12XS_PIX_PICK(context, D3D12XS_PIX_LIST_END, D3D12XS_PIX_QUEUE_END), (void *)(context), NULL)

#endif

#endif
