RWStructuredBuffer<uint> output : register(u0);

