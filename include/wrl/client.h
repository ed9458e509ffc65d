/* <wrl/client.h> for d3d12xs: Microsoft::WRL::ComPtr, the COM smart pointer Windows D3D12 code
 * (and d3dx12.h) uses. Written for d3d12xs: holds one reference, AddRef on copy, Release on
 * reset and destruction. */
#ifndef D3D12XS_WRL_CLIENT_H
#define D3D12XS_WRL_CLIENT_H

#include "../d3d12xs_windows.h"

#ifdef __cplusplus
#include <cstddef>
#include <utility>

namespace Microsoft {
namespace WRL {

template<typename T> class ComPtr {
public:
    typedef T InterfaceType;

    ComPtr() noexcept : ptr_(nullptr) {}
    ComPtr(std::nullptr_t) noexcept : ptr_(nullptr) {}
    template<typename U> ComPtr(U *p) noexcept : ptr_(p) { add_ref(); }
    ComPtr(const ComPtr &o) noexcept : ptr_(o.ptr_) { add_ref(); }
    template<typename U> ComPtr(const ComPtr<U> &o) noexcept : ptr_(o.Get()) { add_ref(); }
    ComPtr(ComPtr &&o) noexcept : ptr_(o.ptr_) { o.ptr_ = nullptr; }
    ~ComPtr() { release(); }

    ComPtr &operator=(std::nullptr_t) noexcept { release(); return *this; }
    ComPtr &operator=(T *p) noexcept { ComPtr(p).Swap(*this); return *this; }
    ComPtr &operator=(const ComPtr &o) noexcept { ComPtr(o).Swap(*this); return *this; }
    template<typename U> ComPtr &operator=(const ComPtr<U> &o) noexcept { ComPtr(o).Swap(*this); return *this; }
    ComPtr &operator=(ComPtr &&o) noexcept { ComPtr(std::move(o)).Swap(*this); return *this; }

    void Swap(ComPtr &o) noexcept { T *t = ptr_; ptr_ = o.ptr_; o.ptr_ = t; }
    void Swap(ComPtr &&o) noexcept { Swap(o); }

    T *Get() const noexcept { return ptr_; }
    T *operator->() const noexcept { return ptr_; }
    explicit operator bool() const noexcept { return ptr_ != nullptr; }
    T *const *GetAddressOf() const noexcept { return &ptr_; }
    T **GetAddressOf() noexcept { return &ptr_; }
    T **ReleaseAndGetAddressOf() noexcept { release(); return &ptr_; }
    T *Detach() noexcept { T *t = ptr_; ptr_ = nullptr; return t; }
    void Attach(T *p) noexcept { release(); ptr_ = p; }
    unsigned long Reset() noexcept { return release(); }

    HRESULT CopyTo(T **out) const noexcept { add_ref(); *out = ptr_; return S_OK; }
    HRESULT CopyTo(REFIID riid, void **out) const noexcept { return ptr_->QueryInterface(riid, out); }
    template<typename U> HRESULT CopyTo(U **out) const noexcept
    {
        return ptr_->QueryInterface(d3d12xs_iid_traits<U>::iid(), reinterpret_cast<void **>(out));
    }
    template<typename U> HRESULT As(ComPtr<U> *out) const noexcept
    {
        return ptr_->QueryInterface(d3d12xs_iid_traits<U>::iid(),
                reinterpret_cast<void **>(out->ReleaseAndGetAddressOf()));
    }
    HRESULT AsIID(REFIID riid, ComPtr<IUnknown> *out) const noexcept
    {
        return ptr_->QueryInterface(riid, reinterpret_cast<void **>(out->ReleaseAndGetAddressOf()));
    }

private:
    void add_ref() const noexcept { if (ptr_) ptr_->AddRef(); }
    unsigned long release() noexcept
    {
        unsigned long n = 0;
        T *t = ptr_;
        if (t) {
            ptr_ = nullptr;
            n = t->Release();
        }
        return n;
    }

    T *ptr_;
};

template<typename T, typename U> bool operator==(const ComPtr<T> &a, const ComPtr<U> &b) noexcept
{ return a.Get() == b.Get(); }
template<typename T, typename U> bool operator!=(const ComPtr<T> &a, const ComPtr<U> &b) noexcept
{ return a.Get() != b.Get(); }
template<typename T> bool operator==(const ComPtr<T> &a, std::nullptr_t) noexcept { return !a.Get(); }
template<typename T> bool operator!=(const ComPtr<T> &a, std::nullptr_t) noexcept { return a.Get() != nullptr; }

} /* namespace WRL */
} /* namespace Microsoft */
#endif /* __cplusplus */

#endif
