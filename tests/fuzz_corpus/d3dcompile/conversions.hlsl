StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

