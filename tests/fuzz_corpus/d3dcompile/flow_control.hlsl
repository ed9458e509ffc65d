StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint4> output : register(u0);

