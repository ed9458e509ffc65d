struct Inner {
    float3 v;
    float w;
    float2 uv;
};
struct Outer {
    float3 p;
    Inner s[2];
    float2 q;
    uint id;
};
struct Out {
    float3x3 m;
    float3 t;
    uint id;
};
StructuredBuffer<Outer> input : register(t0);
RWStructuredBuffer<Out> output : register(u0);

