Buffer<uint> indices : register(t0);
Buffer<float4> colors : register(t1);
RWBuffer<uint> out_u : register(u0);
RWBuffer<float4> out_f : register(u1);

