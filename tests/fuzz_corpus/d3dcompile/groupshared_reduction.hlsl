StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> sums : register(u0);
groupshared uint partial[64];

