cbuffer First : register(b0) {
    float4 tint;
    uint weights[4];      // each element in its own 16-byte register
    uint count;
};
cbuffer Second : register(b1) {
    uint2 range;
    float scale;
};
RWStructuredBuffer<float> output : register(u0);

