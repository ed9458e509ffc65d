RWStructuredBuffer<uint> prefix : register(u0);
RWStructuredBuffer<float> fprefix : register(u1);
RWStructuredBuffer<uint> products : register(u2);

